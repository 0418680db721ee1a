"""The lobby: pairs players and relays their messages. It never runs a game.

A player connects and says ``hello`` (name, the name's secret, game, ruleset,
rating). ``ready`` puts them on the waiting list of their game (or, with the
list switched off, gives them a 4-letter code). ``pick`` (or ``join`` with a
code) pairs two players: the lobby opens a *room* with a match id and one secret
token per seat, tells both, and from then on forwards ``relay`` messages between
the two and nothing else; the waiting player's program (the host) runs the
match. A dropped player comes back with ``rejoin`` and its token.

Every frame is checked once, here at the edge (:func:`.protocol.decode`: valid
JSON, valid Unicode, bounded depth and size), then by its handler. What the lobby
defends against, and with which limit, is in docs/online.md ("Security model");
the limits are :class:`~.limits.Limits`, counted per connection, per address
(:class:`~.guard.AddressGuard`) and lobby-wide. Names and rooms live in
:class:`~.lobbydata.LobbyData`, so a restarted lobby keeps both.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from pegboard.errors import ProtocolError, Unavailable
from pegboard.online import protocol as p
from pegboard.online.guard import AddressGuard, AttackLog, address_key
from pegboard.online.limits import Bucket, Limits
from pegboard.online.lobbydata import LobbyData, digest, same_digest
from pegboard.online.names import name_key

log = logging.getLogger("pegboard.online.server")

PENALTY_STRIKES = 3
"""Bad messages after which a connection is read at a tenth of its rate (a person who mistyped
three codes still has three messages a second)."""


@dataclass(eq=False)
class Member:
    """One connection and what it said about itself."""

    conn: ServerConnection
    id: int
    address: str
    messages: Bucket
    list_bytes: Bucket
    opened: float
    heard: float
    name: str = ""
    key: str = ""
    game: str = ""
    ruleset: str = ""
    rating: float | None = None
    settings: str = ""
    waiting: bool = False
    code: str | None = None
    room: Room | None = None
    role: str | None = None
    strikes: int = 0
    frame_size: int = 0

    def entry(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "game": self.game, "ruleset": self.ruleset,
                "rating": self.rating, "settings": self.settings}


@dataclass(eq=False)
class Room:
    """A paired match: a hash of each role's token, who is connected now, from where it was made."""

    match: str
    game: str
    hashes: dict[str, str]
    members: dict[str, Member | None] = field(default_factory=dict)
    left: set[str] = field(default_factory=set)
    empty_since: float | None = None
    addresses: tuple[str, ...] = ()
    barred_until: dict[str, float] = field(default_factory=dict)


def other(role: str) -> str:
    return "guest" if role == "host" else "host"


def _address_of(conn: ServerConnection) -> str:
    return address_key(str(conn.remote_address[0]) if conn.remote_address else "?")


class Lobby:
    """The lobby's state and message handling (one instance per server, one asyncio loop).

    ``data`` keeps names and rooms (default: in memory only).
    """

    def __init__(self, *, listing: bool = True, limits: Limits | None = None, data: LobbyData | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.listing = listing
        self.limits = limits or Limits()
        self.data = data or LobbyData(None)
        self.clock = clock
        self.guard = AddressGuard(self.limits)
        self.attacks = AttackLog(log)
        self.members: dict[int, Member] = {}
        self.waiting: dict[str, dict[int, Member]] = {}  # game -> waiting players, oldest first
        self.codes: dict[str, Member] = {}
        self.code_issued: dict[str, int] = {}  # code -> wrong guesses lobby-wide when it was issued (oldest first)
        self.rooms: dict[str, Room] = {}
        self.wrong_guesses = 0
        self._ids = itertools.count(1)
        self._closing: set[asyncio.Task[None]] = set()
        self._handlers: dict[str, Callable[[Member, dict[str, Any]], Awaitable[None]]] = {
            "ping": self.on_ping, "hello": self.on_hello, "list": self.on_list, "ready": self.on_ready,
            "unready": self.on_unready, "pick": self.on_pick, "join": self.on_join, "rejoin": self.on_rejoin,
            "relay": self.on_relay, "kick": self.on_kick, "leave": self.on_leave,
        }
        self.refused = 0  # messages refused so far (for tests and the load report)
        self.throttled = 0  # messages (or list replies) held back by a rate limit
        self.closed = 0  # connections the lobby closed (bad messages, no hello, idle, kicked)
        self._load_rooms()

    def _load_rooms(self) -> None:
        now, wall = self.clock(), time.time()
        for stored in self.data.rooms(self.limits.room_ttl):
            self.rooms[stored.match] = Room(stored.match, stored.game, {"host": stored.host_hash, "guest": stored.guest_hash},
                                            {"host": None, "guest": None}, empty_since=now - max(0.0, wall - stored.touched))

    # -- connections ---------------------------------------------------------------------------

    def screen(self, conn: ServerConnection, request: Request) -> Response | None:
        """Turn a connection away before its WebSocket handshake when it may not come in (the
        websockets ``process_request`` hook): one HTTP 429 or 503 answer, the cheapest refusal."""
        now = self.clock()
        refusal = self._refusal(_address_of(conn), now)
        if refusal is None:
            return None
        return conn.respond(HTTPStatus.SERVICE_UNAVAILABLE if refusal.startswith("lobby full") else
                            HTTPStatus.TOO_MANY_REQUESTS, refusal + "\n")

    def _refusal(self, address: str, now: float) -> str | None:
        if len(self.members) >= self.limits.max_connections:
            self.attacks.note("lobby", "full", f"full ({len(self.members)} connections): refusing new ones", now)
            return "lobby full, try later"
        refusal = self.guard.refusal(address, now)
        if refusal is not None:
            self.attacks.note(address, "admit", f"refused connections: {refusal}", now)
        return refusal

    async def handle(self, conn: ServerConnection) -> None:
        """The life of one connection (the websockets handler)."""
        now = self.clock()
        address = _address_of(conn)
        refusal = self._refusal(address, now)  # again: others may have come in during the handshake
        if refusal is not None:
            await conn.close(1013, refusal)
            return
        self.guard.admit(address)
        limits = self.limits
        member = Member(conn, next(self._ids), address, Bucket(limits.rate, limits.burst, now),
                        Bucket(limits.list_bytes, limits.list_burst, now), now, now)
        self.members[member.id] = member
        try:
            async for frame in conn:
                member.heard = now = self.clock()
                wait = member.messages.take(1.0, now)
                if wait > 0:
                    self.throttled += 1
                    await asyncio.sleep(wait)  # over the rate: read no more until it has earned the message
                member.frame_size = len(frame)
                try:
                    await self.dispatch(member, p.decode(frame))
                except Unavailable as exc:
                    self.refused += 1
                    await self.send(member, {"t": "error", "reason": exc.reason})
                except ProtocolError as exc:
                    await self._strike(member, exc.reason)
        except ConnectionClosed:
            pass
        finally:
            self.guard.release(address)
            await self._gone(member)

    async def _strike(self, member: Member, reason: str, reply: dict[str, Any] | None = None) -> None:
        """A bad message: answered (with ``reply``, else an error), counted, and after too many the
        connection is closed and its address owes a failure."""
        self.refused += 1
        member.strikes += 1
        if member.strikes == PENALTY_STRIKES:  # from now on read at a tenth of the rate
            member.messages = Bucket(self.limits.rate / 10, 1.0, self.clock())
        await self.send(member, reply or {"t": "error", "reason": reason})
        if member.strikes == self.limits.max_strikes:
            now = self.clock()
            pause = self.guard.fail(member.address, "strikes", now)
            self.attacks.note(member.address, "strikes", f"closed a connection after {member.strikes} bad messages "
                              f"(the last: {reason[:80]})" + (f"; new connections wait {pause:.0f} s" if pause else ""), now)
            await self._close(member, 1008, "too many bad messages")

    async def _close(self, member: Member, code: int, reason: str) -> None:
        self.closed += 1
        await member.conn.close(code, reason)

    async def send(self, member: Member, message: dict[str, Any]) -> None:
        await self._send_text(member, p.encode(message))

    @staticmethod
    async def _send_text(member: Member, text: str) -> None:
        try:
            await member.conn.send(text)
        except ConnectionClosed:
            pass

    async def _gone(self, member: Member) -> None:
        self.members.pop(member.id, None)
        self._unwait(member)
        room = member.room
        if room is not None and member.role is not None and room.members.get(member.role) is member:
            room.members[member.role] = None
            peer = room.members.get(other(member.role))
            if peer is not None:
                await self.send(peer, {"t": "peer", "status": "away"})
            self._maybe_empty(room)

    def _unwait(self, member: Member) -> None:
        if member.waiting:
            member.waiting = False
            self.waiting.get(member.game, {}).pop(member.id, None)
            self.guard.waiting(member.address, -1)
        if member.code is not None:
            self.codes.pop(member.code, None)  # a code expires when its player leaves
            self.code_issued.pop(member.code, None)
            member.code = None

    def _maybe_empty(self, room: Room) -> None:
        if all(m is None for m in room.members.values()):
            room.empty_since = self.clock()
            self.data.touch_rooms([room.match])

    def _drop_room(self, room: Room) -> None:
        if self.rooms.pop(room.match, None) is not None:
            self.data.drop_room(room.match)
            for address in room.addresses:
                self.guard.rooms(address, -1)

    # -- housekeeping -------------------------------------------------------------------------------

    def sweep(self, now: float | None = None) -> int:
        """Drop rooms nobody has been in for ``room_ttl`` seconds and quiet addresses; returns
        how many rooms went."""
        now = self.clock() if now is None else now
        stale = [r for r in self.rooms.values() if r.empty_since is not None and now - r.empty_since > self.limits.room_ttl]
        for room in stale:
            self._drop_room(room)
        # rooms in use: a restarted lobby counts their hour from now
        self.data.touch_rooms([r.match for r in self.rooms.values() if r.empty_since is None])
        self.guard.sweep(now)
        self.data.release_names(self.limits.name_days)
        return len(stale)

    async def watch(self, now: float | None = None) -> int:
        """Close connections that never said hello in time, or stayed silent too long; returns how many."""
        now = self.clock() if now is None else now
        limits = self.limits
        late = [m for m in self.members.values() if not m.name and now - m.opened > limits.hello_timeout]
        idle = [m for m in self.members.values() if m.name and now - m.heard > limits.idle_timeout]
        for member in late:
            self.attacks.note(member.address, "hello", f"closed connections that said no hello in {limits.hello_timeout:g} s", now)
        # all at once: a peer that never answers the close holds its close for close_timeout
        await asyncio.gather(*(self._close(m, 1008, f"say hello within {limits.hello_timeout:g} s") for m in late),
                             *(self._close(m, 1001, "idle for too long") for m in idle))
        return len(late) + len(idle)

    # -- messages ---------------------------------------------------------------------------------

    async def dispatch(self, member: Member, message: dict[str, Any]) -> None:
        kind = message["t"]
        handler = self._handlers.get(kind)
        if handler is None:
            raise ProtocolError(f"unknown message type {kind[:40]!r}")
        if kind not in ("hello", "ping") and not member.name:
            raise ProtocolError("say hello first")
        await handler(member, message)

    async def on_ping(self, member: Member, message: dict[str, Any]) -> None:
        number = message.get("n")
        await self.send(member, {"t": "pong", "n": number if isinstance(number, int) else None})

    async def on_hello(self, member: Member, message: dict[str, Any]) -> None:
        if message.get("v") != p.PROTOCOL:
            raise ProtocolError(f"this lobby speaks protocol {p.PROTOCOL}; update Pegboard")
        if member.name:
            raise ProtocolError("already said hello")
        name = p.check_name(message.get("name"))
        game = p.check_game_id(message.get("game"))
        ruleset = p.check_ruleset_label(message.get("ruleset", game))
        rating = p.check_rating(message.get("rating"))
        secret = p.check_secret(message.get("secret"))
        key = name_key(name)
        owner = self.data.name_owner(key)
        if owner is None:
            if not self.guard.may_claim(member.address, self.clock()):
                self.attacks.note(member.address, "claims", "claiming many new names: refused", self.clock())
                raise ProtocolError("your address has claimed too many new names this hour: use a name you had, or try later")
            self.data.claim(key, name, secret)
        elif not same_digest(secret, owner[1]):
            like = "" if owner[0] == name else f" (as {owner[0]!r}, which looks the same)"
            raise ProtocolError(f"the name {name!r} is taken on this lobby{like}: choose another")
        else:
            self.data.seen(key)
        member.name, member.key, member.game, member.ruleset, member.rating = name, key, game, ruleset, rating
        await self.send(member, {"t": "welcome", "id": member.id, "lobby": "list" if self.listing else "codes"})

    async def on_list(self, member: Member, message: dict[str, Any]) -> None:
        """One page of the players waiting for a game (the member's own by default)."""
        if not self.listing:
            await self.send(member, {"t": "list", "off": True, "players": []})
            return
        game = p.check_game_id(message.get("game", member.game))
        offset = message.get("offset", 0)
        if not isinstance(offset, int) or isinstance(offset, bool) or not 0 <= offset <= 1_000_000:
            raise ProtocolError("'offset' is a whole number from 0")
        waiting = self.waiting.get(game, {})
        others = (m for m in waiting.values() if m is not member)
        page = [m.entry() for m in itertools.islice(others, offset, offset + self.limits.list_page)]
        total = len(waiting) - (member.id in waiting)
        elsewhere = sum(len(group) for g, group in self.waiting.items() if g != game)
        text = p.encode({"t": "list", "off": False, "game": game, "offset": offset, "total": total,
                         "elsewhere": elsewhere, "players": page})
        wait = member.list_bytes.take(len(text), self.clock())
        if wait > 0:
            self.throttled += 1
            await asyncio.sleep(wait)  # lists are rated by bytes: a connection asking too often waits
        await self._send_text(member, text)

    async def on_ready(self, member: Member, message: dict[str, Any]) -> None:
        if member.room is not None:
            raise ProtocolError("already in a match")
        member.settings = p.check_line(message.get("settings", ""), "settings", p.MAX_SETTINGS)
        if not member.waiting:
            if not self.guard.may_wait(member.address):
                raise ProtocolError(f"your address already has {self.limits.waiting_per_address} players waiting")
            member.waiting = True
            self.waiting.setdefault(member.game, {})[member.id] = member
            self.guard.waiting(member.address, +1)
        if not self.listing and member.code is None:
            self._issue_code(member)
        await self.send(member, {"t": "waiting", "code": member.code})

    def _issue_code(self, member: Member) -> None:
        code = p.new_code()
        while code in self.codes:
            code = p.new_code()
        member.code = code
        self.codes[code] = member
        self.code_issued[code] = self.wrong_guesses

    async def on_unready(self, member: Member, message: dict[str, Any]) -> None:
        self._unwait(member)
        await self.send(member, {"t": "unready"})

    async def on_pick(self, member: Member, message: dict[str, Any]) -> None:
        if not self.listing:
            raise ProtocolError("the list is switched off here: ask for the 4-letter code")
        wanted = message.get("id")
        target = self.members.get(wanted) if isinstance(wanted, int) and not isinstance(wanted, bool) else None
        if target is None and "name" in message:
            key = name_key(p.check_name(message["name"]))
            target = next((m for m in self.waiting.get(member.game, {}).values() if m.key == key), None)
        if target is None or not target.waiting:
            raise Unavailable("that player is no longer waiting")
        await self._pair(host=target, guest=member)

    async def on_join(self, member: Member, message: dict[str, Any]) -> None:
        now = self.clock()
        wait = self.guard.blocked(member.address, "code", now)
        if wait > 0:
            raise ProtocolError(f"too many wrong codes from your address: try again in {math.ceil(wait)} s")
        code = p.normalise_code(message.get("code"))
        target = self.codes.get(code)
        if target is None:
            self.wrong_guesses += 1
            pause = self.guard.fail(member.address, "code", now)
            if pause:
                self.attacks.note(member.address, "code", "guessing codes: its wrong codes now wait, "
                                  f"{pause:.0f} s and growing", now)
            await self._retire_codes()
            raise ProtocolError(f"no player is waiting with the code {code}")
        await self._pair(host=target, guest=member)

    async def _retire_codes(self) -> None:
        """Give a new code to each waiting player whose code has seen too many wrong guesses
        (lobby-wide: each one could have been aimed at it)."""
        for code, issued in list(self.code_issued.items()):
            if self.wrong_guesses - issued < self.limits.code_guesses:
                break  # oldest first: the rest are younger
            member = self.codes.pop(code)
            del self.code_issued[code]
            self._issue_code(member)
            await self.send(member, {"t": "waiting", "code": member.code, "renewed": True})

    async def _pair(self, *, host: Member, guest: Member) -> None:
        if host is guest:
            raise ProtocolError("you cannot play yourself")
        if guest.room is not None:
            raise ProtocolError("already in a match")
        if host.game != guest.game:
            raise ProtocolError(f"{host.name} waits for a {host.game} game; you are set up for {guest.game}")
        for member in (host, guest):
            if not self.guard.may_open_room(member.address):
                who = "your address" if member is guest else f"{host.name}'s address"
                raise Unavailable(f"{who} has too many open matches: finish one first")
        if len(self.rooms) >= self.limits.max_rooms:
            self.sweep()
            if len(self.rooms) >= self.limits.max_rooms:
                raise Unavailable("the lobby has too many open matches, try later")
        self._unwait(host)
        self._unwait(guest)
        tokens = {"host": p.new_token(), "guest": p.new_token()}
        hashes = {role: digest(token) for role, token in tokens.items()}
        room = Room(p.new_match_id(), host.game, hashes, addresses=(host.address, guest.address))
        self.data.add_room(room.match, room.game, hashes["host"], hashes["guest"])
        self.rooms[room.match] = room
        for address in room.addresses:
            self.guard.rooms(address, +1)
        for role, member in (("host", host), ("guest", guest)):
            member.room, member.role = room, role
            room.members[role] = member
        peer_of = {"host": guest, "guest": host}
        for role, member in (("host", host), ("guest", guest)):
            peer = peer_of[role]
            message: dict[str, Any] = {"t": "paired", "match": room.match, "role": role, "token": tokens[role],
                                       "peer": {"name": peer.name, "rating": peer.rating}}
            if role == "host":
                message["guest_token"] = tokens["guest"]  # the host checks the guest's moves with it
            await self.send(member, message)

    async def on_rejoin(self, member: Member, message: dict[str, Any]) -> None:
        """Come back to a match after a drop (or a restart of either side): ``match`` and this
        seat's ``token``, checked against the hash the lobby kept when it paired the match."""
        if member.room is not None:
            raise ProtocolError("already in a match")
        now = self.clock()
        wait = self.guard.blocked(member.address, "token", now)
        if wait > 0:
            raise ProtocolError(f"too many failed rejoins from your address: try again in {math.ceil(wait)} s")
        match = p.field(message, "match", str)
        token = p.field(message, "token", str)
        room = self.rooms.get(match) if len(match) <= 64 and len(token) <= 64 else None
        role = next((r for r, h in room.hashes.items() if same_digest(token, h)), None) if room is not None else None
        if room is None or role is None:
            pause = self.guard.fail(member.address, "token", now)
            if pause:
                self.attacks.note(member.address, "token", f"rejoins with unknown matches or wrong tokens: "
                                  f"its rejoins now wait, {pause:.0f} s and growing", now)
            reason = "this lobby has no open match with that id" if room is None else "wrong token for that match"
            await self._strike(member, reason, {"t": "rejoin_failed", "reason": reason, "retry": False})
            return
        barred = room.barred_until.get(role, 0.0) - now
        if barred > 0:
            await self.send(member, {"t": "rejoin_failed", "retry": True, "reason": "your host disconnected you "
                                     f"for sending bad messages: you may come back in {math.ceil(barred)} s"})
            return
        previous = room.members.get(role)
        if previous is not None and previous is not member:
            previous.room = None  # an older connection of the same seat (a half-open socket)
            await previous.conn.close(1000, "replaced by a newer connection")
        self._unwait(member)
        member.room, member.role = room, role
        room.members[role] = member
        room.left.discard(role)
        room.empty_since = None
        peer = room.members.get(other(role))
        await self.send(member, {"t": "rejoined", "match": match, "role": role, "peer_online": peer is not None})
        if peer is not None:
            await self.send(peer, {"t": "peer", "status": "back"})

    async def on_relay(self, member: Member, message: dict[str, Any]) -> None:
        room, role = member.room, member.role
        if room is None or role is None:
            raise ProtocolError("not in a match")
        data = message.get("data")
        if not isinstance(data, dict):
            raise ProtocolError("relay needs an object in 'data'")
        if role == "guest" and member.frame_size > p.MAX_GUEST_RELAY_BYTES:
            raise ProtocolError(f"a guest's relay may hold at most {p.MAX_GUEST_RELAY_BYTES} bytes")
        peer = room.members.get(other(role))
        if peer is None:
            status = "left" if other(role) in room.left else "away"
            await self.send(member, {"t": "undelivered", "status": status, "of": str(data.get("t", ""))[:40]})
            return
        await self.send(peer, {"t": "relay", "data": data})

    async def on_kick(self, member: Member, message: dict[str, Any]) -> None:
        """The host disconnects a guest that keeps sending junk; its seat may rejoin after a pause."""
        room = member.room
        if room is None or member.role != "host":
            raise ProtocolError("only a match's host may disconnect its guest")
        guest = room.members.get("guest")
        room.barred_until["guest"] = self.clock() + self.limits.kick_pause
        if guest is not None:
            room.members["guest"] = None
            guest.room = guest.role = None
            await self.send(member, {"t": "peer", "status": "away"})
            closing = asyncio.create_task(self._close(guest, 1008, "your host disconnected you: too many refused messages"))
            self._closing.add(closing)  # not awaited here: the host's next message need not wait for it
            closing.add_done_callback(self._closing.discard)

    async def on_leave(self, member: Member, message: dict[str, Any]) -> None:
        """Leave the match for good (the host has already been told why, through a relay)."""
        room, role = member.room, member.role
        if room is None or role is None:
            self._unwait(member)
            return
        room.left.add(role)
        room.members[role] = None
        member.room = member.role = None
        peer = room.members.get(other(role))
        if peer is not None:
            await self.send(peer, {"t": "peer", "status": "left"})
        if len(room.left) == 2:
            self._drop_room(room)
        else:
            self._maybe_empty(room)
