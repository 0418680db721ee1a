"""Per-address bookkeeping of a lobby: how many connections and waiting players an
address has, its failures with their back-off, the names it claimed; and a log that
tells of an attack once instead of once per message.

An *address* is the remote IP, with IPv6 taken per /64 (one home network, one
address). The lobby asks before it acts (:meth:`AddressGuard.admit`,
:meth:`~AddressGuard.blocked`) and reports what happened (:meth:`~AddressGuard.fail`).
"""

from __future__ import annotations

import ipaddress
import logging
import math
from collections import deque
from dataclasses import dataclass, field

from pegboard.online.limits import Backoff, Limits

MAX_TRACKED = 100_000
"""Addresses remembered at most (quiet ones are dropped first)."""


def address_key(host: str) -> str:
    """The address limits count against: an IPv4 address, or an IPv6 /64."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass
class Address:
    """What one address holds and owes."""

    connections: int = 0
    waiting: int = 0
    rooms: int = 0
    failures: dict[str, Backoff] = field(default_factory=dict)
    claims: deque[float] = field(default_factory=deque)


class AddressGuard:
    """The per-address limits of one lobby (see the module docstring)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.addresses: dict[str, Address] = {}

    def _get(self, key: str) -> Address:
        entry = self.addresses.get(key)
        if entry is None:
            entry = self.addresses[key] = Address()
        return entry

    # -- connections and waiting players -------------------------------------------------------

    def refusal(self, key: str, now: float) -> str | None:
        """Why ``key`` may not open a connection now (None: it may)."""
        entry = self.addresses.get(key)
        if entry is not None and entry.connections >= self.limits.per_address:
            return "too many connections from your address"
        wait = self.blocked(key, "strikes", now)
        if wait:
            return f"too many bad messages from your address: try again in {math.ceil(wait)} s"
        return None

    def admit(self, key: str) -> None:
        """Take a connection slot for ``key`` (after :meth:`refusal` said it may)."""
        self._get(key).connections += 1

    def release(self, key: str) -> None:
        entry = self.addresses.get(key)
        if entry is not None:
            entry.connections = max(0, entry.connections - 1)

    def may_wait(self, key: str) -> bool:
        return self._get(key).waiting < self.limits.waiting_per_address

    def waiting(self, key: str, delta: int) -> None:
        entry = self._get(key)
        entry.waiting = max(0, entry.waiting + delta)

    def may_open_room(self, key: str) -> bool:
        return self._get(key).rooms < self.limits.rooms_per_address

    def rooms(self, key: str, delta: int) -> None:
        entry = self._get(key)
        entry.rooms = max(0, entry.rooms + delta)

    # -- failures -------------------------------------------------------------------------------

    def blocked(self, key: str, kind: str, now: float) -> float:
        """Seconds ``key`` must still wait before trying ``kind`` again (0: go on)."""
        entry = self.addresses.get(key)
        backoff = entry.failures.get(kind) if entry is not None else None
        return backoff.wait(now) if backoff is not None else 0.0

    def fail(self, key: str, kind: str, now: float) -> float:
        """One failure of ``kind`` (``code``, ``token``, ``strikes``); returns the wait it starts."""
        failures = self._get(key).failures
        backoff = failures.get(kind)
        if backoff is None:
            backoff = failures[kind] = Backoff()
        return backoff.fail(self.limits, now)

    # -- names --------------------------------------------------------------------------------

    def may_claim(self, key: str, now: float) -> bool:
        """True if ``key`` may claim one more name now (and counts the claim)."""
        claims = self._get(key).claims
        while claims and now - claims[0] > 3600.0:
            claims.popleft()
        if len(claims) >= self.limits.claims_per_hour:
            return False
        claims.append(now)
        return True

    # -- housekeeping -------------------------------------------------------------------------

    def sweep(self, now: float) -> None:
        """Forget addresses with nothing held, owed or counted (and the quietest past the cap)."""
        for key in [k for k, e in self.addresses.items() if self._idle(e, now)]:
            del self.addresses[key]
        excess = len(self.addresses) - MAX_TRACKED
        if excess > 0:
            for key in [k for k, e in self.addresses.items() if not e.connections][:excess]:
                del self.addresses[key]

    def _idle(self, entry: Address, now: float) -> bool:
        if entry.connections or entry.waiting or entry.rooms or (entry.claims and now - entry.claims[-1] < 3600.0):
            return False
        return all(b.quiet(self.limits, now) for b in entry.failures.values())


class AttackLog:
    """Logs each kind of trouble from an address once per ``quiet`` seconds, with a count of
    what it did not log in between."""

    def __init__(self, log: logging.Logger, quiet: float = 600.0) -> None:
        self.log = log
        self.quiet = quiet
        self._last: dict[tuple[str, str], tuple[float, int]] = {}

    def note(self, key: str, kind: str, text: str, now: float) -> None:
        last = self._last.get((key, kind))
        if last is not None and now - last[0] < self.quiet:
            self._last[(key, kind)] = (last[0], last[1] + 1)
            return
        more = f" ({last[1]} more since the last report)" if last is not None and last[1] else ""
        self.log.warning("%s: %s%s", key, text, more)
        self._last[(key, kind)] = (now, 0)
        if len(self._last) > MAX_TRACKED:
            for old in [k for k, (stamp, _) in self._last.items() if now - stamp >= self.quiet]:
                del self._last[old]
