"""What a lobby tolerates, and the two counters its limits are built from.

:class:`Limits` holds every limit (each has a ``pegboard lobby serve`` flag; see
docs/online.md, "Running a lobby on the internet"). :class:`Bucket` is a token
bucket (a rate with a burst: messages, or bytes of list replies); :class:`Backoff`
counts failures that are forgiven over time and, past a free allowance, makes each
new one cost a growing wait (wrong codes, wrong tokens, bad messages).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """What one lobby tolerates (the defaults suit a public lobby and the load test)."""

    max_connections: int = 5000
    max_message: int = 64 * 1024
    """Largest frame a connection may send (a Node War state is ~28 KB); larger ones close it."""
    per_address: int = 20
    """Connections one address (an IPv6 /64) may hold at once."""
    max_rooms: int = 5000
    rooms_per_address: int = 20
    """Open matches one address may be in at once."""
    rate: float = 30.0
    """Messages per second a connection may send on average (faster ones are held back) ..."""
    burst: float = 60.0
    """... and in one burst."""
    list_bytes: float = 32 * 1024
    """Bytes of list replies per second a connection may ask for (held back beyond) ..."""
    list_burst: float = 128 * 1024
    """... and in one burst."""
    list_page: int = 50
    """Players in one list reply (the rest come with ``offset``)."""
    waiting_per_address: int = 4
    """Players one address may have on the list (or waiting with a code) at once."""
    max_strikes: int = 20
    """Bad messages before the connection is closed."""
    hello_timeout: float = 10.0
    """Seconds a new connection has to say hello."""
    idle_timeout: float = 300.0
    """Seconds a connection may stay silent (programs send a keep-alive ping every minute)."""
    room_ttl: float = 3600.0
    """Seconds a room with nobody connected is kept for a rejoin."""
    free_failures: int = 10
    """Wrong codes (or tokens, or bad messages) an address may make before it must wait ..."""
    backoff_base: float = 1.0
    """... 1 s after the first one past that, doubling with each ..."""
    backoff_max: float = 300.0
    """... up to this; failures are forgiven at one per ``forgive_every`` seconds."""
    forgive_every: float = 30.0
    code_guesses: int = 2000
    """Wrong code guesses, lobby-wide, after which a waiting code is retired and replaced."""
    claims_per_hour: int = 10
    """New names one address may claim per hour."""
    name_days: float = 365.0
    """Days a claimed name is kept without being used."""
    kick_pause: float = 30.0
    """Seconds a guest its host disconnected (for junk) must wait before rejoining."""

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if not value > 0:
                raise ValueError(f"{name.replace('_', '-')} must be above 0, not {value}")


class Bucket:
    """A token bucket: ``rate`` a second on average, at most ``burst`` at once."""

    __slots__ = ("burst", "level", "rate", "stamp")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.level, self.stamp = rate, burst, burst, now

    def take(self, amount: float, now: float) -> float:
        """Take ``amount``; returns the seconds to wait before it is earned (0: go on now)."""
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        self.level -= amount
        return 0.0 if self.level >= 0.0 else -self.level / self.rate


class Backoff:
    """Failures that decay; past the free allowance each one blocks for a growing time."""

    __slots__ = ("blocked_until", "failures", "stamp")

    def __init__(self) -> None:
        self.failures = 0.0
        self.stamp = 0.0
        self.blocked_until = 0.0

    def wait(self, now: float) -> float:
        """Seconds still to wait (0: not blocked)."""
        return max(0.0, self.blocked_until - now)

    def fail(self, limits: Limits, now: float) -> float:
        """Count one failure; returns the wait it starts (0 while within the allowance)."""
        self._decay(limits, now)
        self.failures += 1.0
        over = self.failures - limits.free_failures
        if over <= 0:
            return 0.0
        pause: float = min(limits.backoff_max, limits.backoff_base * 2.0 ** min(over - 1.0, 30.0))
        self.blocked_until = max(self.blocked_until, now + pause)
        return pause

    def quiet(self, limits: Limits, now: float) -> bool:
        """True when everything is forgiven (the entry may be dropped)."""
        self._decay(limits, now)
        return self.failures <= 0.0 and self.blocked_until <= now

    def _decay(self, limits: Limits, now: float) -> None:
        if self.stamp:
            self.failures = max(0.0, self.failures - (now - self.stamp) / limits.forgive_every)
        self.stamp = now
