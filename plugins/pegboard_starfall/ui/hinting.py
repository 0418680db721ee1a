"""The quieter hand: after 30 s idle on your turn against a bot of skill 50 or less, the two
stars of the best swap light up green.

The best swap comes from the skill-100 evaluation (:func:`pegboard_starfall.bots.hint`),
seen from the person's view only. It is searched on a copy of the position in a
background thread, so the window keeps drawing while it thinks.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

IDLE_SECONDS = 30.0
MAX_SKILL = 50


class QuietHand:
    """Counts idle time on the person's turn and fetches the hint when it is due."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.since = clock()
        self.key: Any = None  # the position the idle time counts for
        self.squares: tuple[int, ...] = ()
        self._thread: threading.Thread | None = None
        self._answer: list[Any] = []

    def reset(self) -> None:
        """The person did something (or the position changed): start counting again."""
        self.since = self.clock()
        self.squares = ()
        self._answer = []
        self._thread = None

    def poll(self, session: Any, seat: int | None, skill: int | None, guided: bool) -> bool:
        """Advance; True when the lit squares changed (the view redraws its overlay)."""
        st = session.state
        key = (st.version, session.cursor, seat)
        if key != self.key:
            self.key = key
            had = bool(self.squares)
            self.reset()
            return had
        eligible = (seat is not None and skill is not None and skill <= MAX_SKILL and not guided
                    and not session.is_over and st.to_move == seat and session.seats[seat].is_human)
        if not eligible or self.squares or seat is None:
            return False
        if self._thread is None:
            if self.clock() - self.since < IDLE_SECONDS:
                return False
            self._start(session.game, st.clone(), seat)
            return False
        if self._thread.is_alive() or not self._answer:
            return False
        move = self._answer[0]
        self.squares = (move.a, move.b) if move is not None else ()
        return bool(self.squares)

    def wait(self, timeout: float = 10.0) -> None:
        """Block until a started search ends (tests)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _start(self, game: Any, state: Any, seat: int) -> None:
        from ..bots import hint

        answer = self._answer

        def run() -> None:
            try:
                answer.append(hint(game, state, seat))
            except Exception:  # noqa: BLE001 - no hint is better than a crashed window
                answer.append(None)

        self._thread = threading.Thread(target=run, name="starfall-hint", daemon=True)
        self._thread.start()


__all__ = ["IDLE_SECONDS", "MAX_SKILL", "QuietHand"]
