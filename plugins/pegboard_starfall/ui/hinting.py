"""The quieter hand: after 30 s idle on your turn against a bot of skill 50 or less, the two
stars of the best swap light up green.

When is the session's business (:meth:`pegboard.match.session.Session.hint_due`: the opponent
bot's ``hint_after``, None above skill 50). What is the game's hint function
(:attr:`pegboard.specs.GameSpec.hint`, the skill-100 evaluation from the person's view),
searched here on a copy of the position in a background thread so the window keeps
drawing while it thinks.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


class QuietHand:
    """Asks the session whether a hint is due, fetches it off the UI thread, keeps the lit squares."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.key: Any = None  # the position the hint is for
        self.squares: tuple[int, ...] = ()
        self._thread: threading.Thread | None = None
        self._answer: list[Any] = []

    def reset(self) -> None:
        """Forget the hint (the position changed)."""
        self.squares = ()
        self._answer = []
        self._thread = None

    def poll(self, session: Any, guided: bool) -> bool:
        """Advance; True when the lit squares changed (the view redraws its overlay)."""
        st = session.state
        key = (st.version, session.cursor)
        if key != self.key:  # a new position: drop the old hint; the session times the new one
            self.key = key
            had = bool(self.squares)
            self.reset()
            if had:
                return True
        if self.squares or guided:
            return False
        if self._thread is None:
            if not session.hint_due(self.clock()):
                return False
            hint = session.plugins.game(session.game.id).hint
            if hint is None:
                return False
            self._start(hint, session.game, st.clone(), st.to_move)
            return False
        if self._thread.is_alive() or not self._answer:
            return False
        move = self._answer[0]
        self.squares = (move.a, move.b) if move is not None and move.kind == "swap" else ()
        return bool(self.squares)

    def wait(self, timeout: float = 10.0) -> None:
        """Block until a started search ends (tests)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _start(self, hint: Callable[[Any, Any, int], Any], game: Any, state: Any, seat: int) -> None:
        answer = self._answer

        def run() -> None:
            try:
                answer.append(hint(game, state, seat))
            except Exception:  # noqa: BLE001 - no hint is better than a crashed window
                answer.append(None)

        self._thread = threading.Thread(target=run, name="starfall-hint", daemon=True)
        self._thread.start()


__all__ = ["QuietHand"]
