"""When a session offers its game's hint: the idle timer and the cached suggestion.

The session stamps the moment each position began waiting for a person; the hint is due
once that person has sat idle on their turn for the opponent bot's ``hint_after`` seconds
(:attr:`pegboard.specs.BotSpec.hint_after`) and the game has a hint
(:attr:`pegboard.specs.GameSpec.hint`). Never with no bot opponent, never for a bot's turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pegboard.game import Move
from pegboard.match.seats import SeatController


def hint_delay(seats: Sequence[SeatController], to_move: int) -> float | None:
    """Seconds of idleness after which ``to_move`` (a person) is offered a hint, or None.

    The shortest ``hint_after`` among the bots on the other seats; None if ``to_move`` is a
    bot or no opposing bot offers hints.
    """
    if not seats[to_move].is_human:
        return None
    delays = [
        ctl.bot.hint_after
        for seat, ctl in enumerate(seats)
        if seat != to_move and ctl.bot is not None and ctl.bot.hint_after is not None
    ]
    return min(delays) if delays else None


class HintTimer:
    """Per position (the session's generation counter): since when it waits, and its hint."""

    def __init__(self) -> None:
        self._generation: int | None = None
        self._since = 0.0
        self._hint: tuple[int, Move | None] | None = None

    def mark(self, generation: int, now: float) -> None:
        """A new position (``generation``) starts waiting at ``now``."""
        self._generation = generation
        self._since = now

    def idle(self, generation: int, now: float) -> float:
        """Seconds the position ``generation`` has waited (0 for one first seen now)."""
        if self._generation != generation:
            self.mark(generation, now)
        return now - self._since

    def cached(self, generation: int) -> tuple[bool, Move | None]:
        """(True, hint) if the hint of ``generation`` was already worked out."""
        if self._hint is not None and self._hint[0] == generation:
            return True, self._hint[1]
        return False, None

    def store(self, generation: int, move: Move | None) -> None:
        self._hint = (generation, move)

    def due(self, seats: Sequence[SeatController], to_move: int, generation: int, now: float) -> bool:
        """True once the person to move has sat idle on position ``generation`` for :func:`hint_delay`."""
        delay = hint_delay(seats, to_move)
        return delay is not None and self.idle(generation, now) >= delay

    def suggestion(self, generation: int, compute: Callable[[], Move | None]) -> Move | None:
        """The hint of position ``generation``: ``compute()`` once, then remembered."""
        known, move = self.cached(generation)
        if not known:
            move = compute()
            self.store(generation, move)
        return move


__all__ = ["HintTimer", "hint_delay"]
