"""Chess clocks for a match: the ``[timers]`` settings and the per-seat clock (a leaf module)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ClockSettings:
    """Chess-clock settings: ``total`` seconds per seat and ``per_move`` seconds a move.

    Either may be None (no main clock / no move timer).
    """

    total: float | None = None
    per_move: float | None = None

    @property
    def enabled(self) -> bool:
        return self.total is not None or self.per_move is not None

    @classmethod
    def from_ruleset(cls, ruleset: Mapping[str, object]) -> ClockSettings | None:
        """Read the optional ``[timers]`` table: ``enabled``, ``clock_seconds``, ``move_seconds``.

        A value of 0 (or a missing key) turns that timer off; ``enabled = false`` turns both off.
        """
        table = ruleset.get("timers")
        if not isinstance(table, Mapping) or not table.get("enabled", False):
            return None
        total = _opt_float(table.get("clock_seconds"))
        per_move = _opt_float(table.get("move_seconds"))
        settings = cls(total=total or None, per_move=per_move or None)
        return settings if settings.enabled else None


def _opt_float(value: object) -> float | None:
    if value is None:
        return None
    if not isinstance(value, (int, float, str)):
        raise TypeError(f"a timer must be a number of seconds, not {value!r}")
    return float(value)


class Clock:
    """Per-seat remaining time plus a per-move timer, driven by explicit timestamps.

    Nothing here reads the wall clock: callers pass ``now`` (seconds, any
    monotonic origin), so tests can move time by hand.
    """

    def __init__(self, seats: int, settings: ClockSettings) -> None:
        self.settings = settings
        self.remaining: list[float | None] = [settings.total] * seats
        self.running: int | None = None
        self.started_at = 0.0
        # The move timer covers a whole turn: several moves in a row by one seat (Starfall's
        # missile shots before its action) share one timer, so it restarts only for a new seat.
        self.turn_seat: int | None = None
        self.turn_started_at = 0.0

    def start(self, seat: int, now: float) -> None:
        """Start ``seat``'s clock (stopping whichever ran); a new seat starts a new move timer."""
        self.stop(now)
        self.running = seat
        self.started_at = now
        if seat != self.turn_seat:
            self.turn_seat = seat
            self.turn_started_at = now

    def stop(self, now: float) -> None:
        """Stop the running clock and charge it the time used."""
        if self.running is not None:
            left = self.remaining[self.running]
            if left is not None:
                self.remaining[self.running] = max(0.0, left - max(0.0, now - self.started_at))
            self.running = None

    def shift_turn(self, seconds: float) -> None:
        """Start the move timer ``seconds`` later: the time a hold took is not the turn's."""
        self.turn_started_at += seconds

    def remaining_for(self, seat: int, now: float) -> float | None:
        left = self.remaining[seat]
        if left is not None and seat == self.running:
            left = max(0.0, left - max(0.0, now - self.started_at))
        return left

    def move_left(self, now: float) -> float | None:
        """Seconds left on the move timer of the running seat (None: no timer or stopped)."""
        if self.running is None or self.settings.per_move is None:
            return None
        return max(0.0, self.settings.per_move - max(0.0, now - self.turn_started_at))

    def deadline(self) -> tuple[str, float] | None:
        """The next expiry of the running seat: ``("flag" | "move", when)``, or None."""
        if self.running is None:
            return None
        options: list[tuple[float, str]] = []
        left = self.remaining[self.running]
        if left is not None:
            options.append((self.started_at + left, "flag"))
        if self.settings.per_move is not None:
            options.append((self.turn_started_at + self.settings.per_move, "move"))
        if not options:
            return None
        when, kind = min(options)  # a flag at the same instant as the move timer wins
        return kind, when

    def snapshot(self) -> tuple[float | None, ...]:
        return tuple(self.remaining)

    def restore(self, snapshot: Sequence[float | None]) -> None:
        self.running = None
        self.turn_seat = None
        self.remaining = list(snapshot)


__all__ = ["Clock", "ClockSettings"]
