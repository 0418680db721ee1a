"""A session's chess clocks: which seat's clock runs, when one runs out, and how much of a
bot's budget the clocks allow. :class:`~pegboard.match.session.Session` owns one
:class:`MatchClock` and acts on what it reports (plays a timeout move, flags a seat)."""

from __future__ import annotations

from collections.abc import Sequence

from pegboard.match.clock import Clock, ClockSettings


class MatchClock:
    """The clocks of one game: ``settings`` (None: no clocks), the :class:`Clock` and its
    snapshot at the start (an undo to move 0 restores it)."""

    def __init__(self, seats: int, settings: ClockSettings | None) -> None:
        self.settings = settings
        self.clock: Clock | None = Clock(seats, settings) if settings else None
        self.initial = self.clock.snapshot() if self.clock else None
        self.held = False
        self._held_at = 0.0

    def hold(self, held: bool, now: float) -> None:
        """Hold every clock from ``now`` (``held``), or stop holding: the move timer of the seat
        whose clock was running then goes on where it stood."""
        clock = self.clock
        self.held = held
        if clock is None:
            return
        if held:
            self._held_at = now
            clock.stop(now)
        else:
            clock.shift_turn(now - self._held_at)

    def sync(self, seat: int, running: bool, now: float) -> None:
        """Run ``seat``'s clock when ``running``, else stop the clocks."""
        clock = self.clock
        if clock is None:
            return
        if running:
            if clock.running != seat:
                clock.start(seat, now)
        else:
            clock.stop(now)

    def stop(self, now: float) -> None:
        if self.clock is not None:
            self.clock.stop(now)

    def snapshot(self) -> tuple[float | None, ...] | None:
        return self.clock.snapshot() if self.clock else None

    def restore(self, snapshot: Sequence[float | None] | None) -> None:
        """Back to ``snapshot`` (each seat's remaining time), every clock stopped; None keeps the times."""
        if self.clock is not None and snapshot is not None:
            self.clock.restore(snapshot)

    def expired(self, now: float) -> tuple[str, int, float] | None:
        """``(kind, seat, when)`` when the running seat's time ran out by ``now`` (``kind`` is
        ``"flag"`` for the main time, ``"move"`` for the move timer); the clock is then stopped."""
        clock = self.clock
        if clock is None or clock.running is None:
            return None
        deadline = clock.deadline()
        if deadline is None or now < deadline[1]:
            return None
        kind, when = deadline
        seat = clock.running
        clock.stop(when)
        return kind, seat, when

    def budget(self, seat: int, seconds: float, now: float) -> float:
        """A bot's budget for ``seat``: ``seconds``, cut to 80% of what its clocks have left."""
        clock = self.clock
        if clock is None:
            return seconds
        for limit in (clock.move_left(now), clock.remaining_for(seat, now)):
            if limit is not None:
                seconds = min(seconds, max(0.05, limit * 0.8))
        return seconds

    def move_left(self, now: float) -> float | None:
        return None if self.clock is None else self.clock.move_left(now)

    def times(self, seats: int, now: float) -> list[float | None]:
        """Each seat's remaining main time (None without a clock)."""
        clock = self.clock
        if clock is None:
            return [None] * seats
        return [clock.remaining_for(s, now) for s in range(seats)]
