"""Match clocks driven by explicit timestamps (a session passes ``now``; nothing sleeps).

Starfall's timers: each side has a chess clock (20 minutes by default) and every turn a
move timer (60 s). When the move timer runs out the turn passes (the session applies the
engine's ``timeout`` move); when a side's clock runs out it loses (``state.concede(seat,
"flag")``). Time spent on a turn comes off the clock too, so a side that keeps timing out
still burns its clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MOVE_TIMEOUT = "move_timeout"
FLAG = "flag"


@dataclass
class ChessClock:
    """Two (or more) clocks plus a per-turn move timer; all times in seconds.

    ``move_seconds`` of 0 disables the move timer; ``total_seconds`` of 0 disables the clocks.
    """

    total_seconds: float = 1200.0
    move_seconds: float = 60.0
    seats: int = 2
    remaining: list[float] = field(default_factory=list)
    running: int | None = None
    turn_started: float = 0.0

    def __post_init__(self) -> None:
        if not self.remaining:
            self.remaining = [self.total_seconds] * self.seats

    def start(self, seat: int, now: float) -> None:
        """Start ``seat``'s turn at time ``now``."""
        self.running = seat
        self.turn_started = now

    def elapsed(self, now: float) -> float:
        return max(0.0, now - self.turn_started) if self.running is not None else 0.0

    def time_left(self, seat: int, now: float) -> float:
        """Clock time left for ``seat`` at ``now`` (the running side's clock counts down)."""
        left = self.remaining[seat]
        if seat == self.running:
            left -= self.elapsed(now)
        return max(0.0, left)

    def move_time_left(self, now: float) -> float | None:
        if self.running is None or self.move_seconds <= 0:
            return None
        return max(0.0, self.move_seconds - self.elapsed(now))

    def status(self, now: float) -> str | None:
        """``FLAG`` if the running side's clock is out, ``MOVE_TIMEOUT`` if its move timer is, else None.

        The flag wins when both run out (the clock ending the game matters more).
        """
        if self.running is None:
            return None
        if self.total_seconds > 0 and self.time_left(self.running, now) <= 0:
            return FLAG
        left = self.move_time_left(now)
        if left is not None and left <= 0:
            return MOVE_TIMEOUT
        return None

    def deadline(self) -> float | None:
        """The timestamp of the next event status() would report, for a session's timer."""
        if self.running is None:
            return None
        times = []
        if self.total_seconds > 0:
            times.append(self.turn_started + self.remaining[self.running])
        if self.move_seconds > 0:
            times.append(self.turn_started + self.move_seconds)
        return min(times) if times else None

    def press(self, now: float, next_seat: int) -> None:
        """The running side finished its turn at ``now``; ``next_seat``'s turn starts."""
        if self.running is not None:
            self.remaining[self.running] = self.time_left(self.running, now)
        self.start(next_seat, now)

    def stop(self, now: float) -> None:
        if self.running is not None:
            self.remaining[self.running] = self.time_left(self.running, now)
        self.running = None
