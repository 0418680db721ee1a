"""The lobby server: pairs players and relays their messages. It never runs a game.

A player connects and says ``hello`` (name, game, ruleset, rating). ``ready``
puts them on the waiting list (or, with the list switched off, gives them a
4-letter code). ``pick`` (or ``join`` with a code) pairs two players: the
server opens a *room* with a match id and one secret token per seat and tells
both. From then on it forwards ``relay`` messages between the two and nothing
else; the waiting player's program (the host) runs the match. A dropped player
comes back with ``rejoin`` and its token.

Defences: frames over :data:`~.protocol.MAX_MESSAGE_BYTES` close the
connection (websockets enforces it before parsing); each connection has a
message-rate budget; bad frames get an ``error`` reply and, after too many,
the connection is closed; the number of connections and rooms is capped.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from pegboard.errors import ProtocolError, Unavailable
from pegboard.online import protocol as p

log = logging.getLogger("pegboard.online.server")


@dataclass(frozen=True)
class Limits:
    """What one lobby tolerates (the defaults suit a lobby for friends and the load test)."""

    max_connections: int = 2000
    max_rooms: int = 5000
    rate: float = 30.0
    """Messages per second a connection may send on average (faster ones are held back) ..."""
    burst: float = 60.0
    """... and in one burst."""
    max_strikes: int = 20
    """Bad messages before the connection is closed."""
    room_ttl: float = 3600.0
    """Seconds a room with nobody connected is kept for a rejoin."""
    list_size: int = 200


@dataclass(eq=False)
class Member:
    """One connection and what it said about itself."""

    conn: ServerConnection
    id: int
    name: str = ""
    game: str = ""
    ruleset: str = ""
    rating: float | None = None
    settings: str = ""
    waiting: bool = False
    code: str | None = None
    room: Room | None = None
    role: str | None = None
    tokens: float = 0.0
    refilled: float = 0.0
    strikes: int = 0

    def entry(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "game": self.game, "ruleset": self.ruleset,
                "rating": self.rating, "settings": self.settings}


@dataclass(eq=False)
class Room:
    """A paired match: the secret of each role and who is connected now."""

    match: str
    game: str
    tokens: dict[str, str]
    members: dict[str, Member | None] = field(default_factory=dict)
    left: set[str] = field(default_factory=set)
    empty_since: float | None = None


def other(role: str) -> str:
    return "guest" if role == "host" else "host"


class Lobby:
    """The lobby's state and message handling (one instance per server, one asyncio loop)."""

    def __init__(self, *, listing: bool = True, limits: Limits | None = None) -> None:
        self.listing = listing
        self.limits = limits or Limits()
        self.members: dict[int, Member] = {}
        self.codes: dict[str, Member] = {}
        self.rooms: dict[str, Room] = {}
        self._ids = itertools.count(1)
        self._handlers: dict[str, Callable[[Member, dict[str, Any]], Awaitable[None]]] = {
            "ping": self.on_ping, "hello": self.on_hello, "list": self.on_list, "ready": self.on_ready,
            "unready": self.on_unready, "pick": self.on_pick, "join": self.on_join, "rejoin": self.on_rejoin,
            "relay": self.on_relay, "leave": self.on_leave,
        }
        self.refused = 0  # messages refused so far (for tests and the load report)
        self.throttled = 0  # messages held back by the rate limit

    # -- connections ---------------------------------------------------------------------------

    async def handle(self, conn: ServerConnection) -> None:
        """The life of one connection (the websockets handler)."""
        if len(self.members) >= self.limits.max_connections:
            await conn.close(1013, "lobby full, try later")
            return
        member = Member(conn, next(self._ids), tokens=self.limits.burst, refilled=time.monotonic())
        self.members[member.id] = member
        try:
            async for frame in conn:
                wait = self._rate_wait(member)
                if wait > 0:
                    await asyncio.sleep(wait)  # over the rate: read no more until it has earned the message
                try:
                    message = p.decode(frame)
                    await self.dispatch(member, message)
                except Unavailable as exc:
                    self.refused += 1
                    await self.send(member, {"t": "error", "reason": exc.reason})
                except ProtocolError as exc:
                    await self._strike(member, exc.reason)
        except ConnectionClosed:
            pass
        finally:
            await self._gone(member)

    def _rate_wait(self, member: Member) -> float:
        """Seconds to hold this message back so the connection keeps to its rate (a token bucket)."""
        now = time.monotonic()
        member.tokens = min(self.limits.burst, member.tokens + (now - member.refilled) * self.limits.rate)
        member.refilled = now
        member.tokens -= 1.0
        if member.tokens >= 0.0:
            return 0.0
        self.throttled += 1
        return -member.tokens / self.limits.rate

    async def _strike(self, member: Member, reason: str) -> None:
        self.refused += 1
        member.strikes += 1
        log.info("connection %d: refused a message: %s", member.id, reason)
        await self.send(member, {"t": "error", "reason": reason})
        if member.strikes >= self.limits.max_strikes:
            await member.conn.close(1008, "too many bad messages")

    async def send(self, member: Member, message: dict[str, Any]) -> None:
        try:
            await member.conn.send(p.encode(message))
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
        member.waiting = False
        if member.code is not None:
            self.codes.pop(member.code, None)  # a code expires when its player leaves
            member.code = None

    def _maybe_empty(self, room: Room) -> None:
        if all(m is None for m in room.members.values()):
            room.empty_since = time.monotonic()

    def sweep(self, now: float | None = None) -> int:
        """Drop rooms nobody has been in for ``room_ttl`` seconds; returns how many."""
        now = time.monotonic() if now is None else now
        stale = [k for k, r in self.rooms.items() if r.empty_since is not None and now - r.empty_since > self.limits.room_ttl]
        for key in stale:
            del self.rooms[key]
        return len(stale)

    # -- messages ---------------------------------------------------------------------------------

    async def dispatch(self, member: Member, message: dict[str, Any]) -> None:
        kind = message["t"]
        handler = self._handlers.get(kind)
        if handler is None:
            raise ProtocolError(f"unknown message type {kind[:40]!r}")
        if kind not in ("hello", "rejoin", "ping") and not member.name:
            raise ProtocolError("say hello first")
        await handler(member, message)

    async def on_ping(self, member: Member, message: dict[str, Any]) -> None:
        await self.send(member, {"t": "pong", "n": message.get("n")})

    async def on_hello(self, member: Member, message: dict[str, Any]) -> None:
        if message.get("v") != p.PROTOCOL:
            raise ProtocolError(f"this lobby speaks protocol {p.PROTOCOL}; update Pegboard")
        if member.room is not None:
            raise ProtocolError("already in a match")
        member.name = p.check_name(message.get("name"))
        member.game = p.check_game_id(message.get("game"))
        member.ruleset = p.check_ruleset_label(message.get("ruleset", member.game))
        member.rating = p.check_rating(message.get("rating"))
        await self.send(member, {"t": "welcome", "id": member.id, "lobby": "list" if self.listing else "codes"})

    async def on_list(self, member: Member, message: dict[str, Any]) -> None:
        if not self.listing:
            await self.send(member, {"t": "list", "off": True, "players": []})
            return
        waiting = [m.entry() for m in self.members.values() if m.waiting and m is not member]
        await self.send(member, {"t": "list", "off": False, "players": waiting[: self.limits.list_size]})

    async def on_ready(self, member: Member, message: dict[str, Any]) -> None:
        if member.room is not None:
            raise ProtocolError("already in a match")
        settings = message.get("settings", "")
        if not isinstance(settings, str) or len(settings) > 400:
            raise ProtocolError("settings: a line of at most 400 characters")
        member.settings = settings
        member.waiting = True
        if not self.listing and member.code is None:
            code = p.new_code()
            while code in self.codes:
                code = p.new_code()
            member.code = code
            self.codes[code] = member
        await self.send(member, {"t": "waiting", "code": member.code})

    async def on_unready(self, member: Member, message: dict[str, Any]) -> None:
        self._unwait(member)
        await self.send(member, {"t": "unready"})

    async def on_pick(self, member: Member, message: dict[str, Any]) -> None:
        if not self.listing:
            raise ProtocolError("the list is switched off here: ask for the 4-letter code")
        wanted = message.get("id")
        target = self.members.get(wanted) if isinstance(wanted, int) and not isinstance(wanted, bool) else None
        if target is None and isinstance(message.get("name"), str):
            name = message["name"].strip().casefold()
            target = next((m for m in self.members.values() if m.waiting and m.name.casefold() == name), None)
        if target is None or not target.waiting:
            raise Unavailable("that player is no longer waiting")
        await self._pair(host=target, guest=member)

    async def on_join(self, member: Member, message: dict[str, Any]) -> None:
        code = p.normalise_code(message.get("code"))
        target = self.codes.get(code)
        if target is None:
            raise ProtocolError(f"no player is waiting with the code {code}")
        await self._pair(host=target, guest=member)

    async def _pair(self, *, host: Member, guest: Member) -> None:
        if host is guest:
            raise ProtocolError("you cannot play yourself")
        if guest.room is not None:
            raise ProtocolError("already in a match")
        if host.game != guest.game:
            raise ProtocolError(f"{host.name} waits for a {host.game} game; you are set up for {guest.game}")
        if len(self.rooms) >= self.limits.max_rooms:
            self.sweep()
            if len(self.rooms) >= self.limits.max_rooms:
                raise Unavailable("the lobby has too many open matches, try later")
        self._unwait(host)
        self._unwait(guest)
        room = Room(p.new_match_id(), host.game, {"host": p.new_token(), "guest": p.new_token()})
        self.rooms[room.match] = room
        for role, member in (("host", host), ("guest", guest)):
            member.room, member.role = room, role
            room.members[role] = member
        peer_of = {"host": guest, "guest": host}
        for role, member in (("host", host), ("guest", guest)):
            peer = peer_of[role]
            message: dict[str, Any] = {"t": "paired", "match": room.match, "role": role, "token": room.tokens[role],
                                       "peer": {"name": peer.name, "rating": peer.rating}}
            if role == "host":
                message["guest_token"] = room.tokens["guest"]  # the host checks the guest's moves with it
            await self.send(member, message)

    async def on_rejoin(self, member: Member, message: dict[str, Any]) -> None:
        """Come back to a match after a drop: ``match`` and this seat's ``token``.

        A host may also bring ``guest_token`` (read from its saved match) to reopen a
        room this server no longer knows (after a lobby restart).
        """
        match = p.field(message, "match", str)
        token = p.field(message, "token", str)
        if member.room is not None:
            raise ProtocolError("already in a match")
        if not member.name:
            member.name = p.check_name(message.get("name", "player"))
            member.game = p.check_game_id(message.get("game"))
        room = self.rooms.get(match)
        if room is None:
            guest_token = message.get("guest_token")
            if not isinstance(guest_token, str) or len(guest_token) > 64 or len(token) > 64 or len(match) > 64:
                await self.send(member, {"t": "rejoin_failed", "reason": "that match is not open: the host is not connected",
                                         "retry": True})
                return
            if len(self.rooms) >= self.limits.max_rooms:
                raise Unavailable("the lobby has too many open matches, try later")
            room = Room(match, member.game, {"host": token, "guest": guest_token})
            self.rooms[match] = room
        role = next((r for r, t in room.tokens.items() if p.same_secret(token, t)), None)
        if role is None:
            await self.send(member, {"t": "rejoin_failed", "reason": "wrong token for that match", "retry": False})
            self.refused += 1
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
        peer = room.members.get(other(role))
        if peer is None:
            await self.send(member, {"t": "peer", "status": "left" if other(role) in room.left else "away"})
            return
        await self.send(peer, {"t": "relay", "data": data})

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
            self.rooms.pop(room.match, None)
        else:
            self._maybe_empty(room)


async def _sweeper(lobby: Lobby, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        lobby.sweep()


async def start(lobby: Lobby, host: str = "127.0.0.1", port: int = p.DEFAULT_PORT) -> Server:
    """Start serving ``lobby``; the returned server is already listening."""
    return await serve(lobby.handle, host, port, max_size=p.MAX_MESSAGE_BYTES, max_queue=32,
                       ping_interval=20, ping_timeout=20, close_timeout=2)


async def serve_forever(lobby: Lobby, host: str, port: int, ready: Any = None) -> None:
    """Serve until cancelled (``pegboard lobby serve``); ``ready(port)`` is called once listening."""
    server = await start(lobby, host, port)
    sweeper = asyncio.create_task(_sweeper(lobby, 60.0))
    try:
        if ready is not None:
            ready(bound_port(server))
        await server.serve_forever()
    finally:
        sweeper.cancel()
        server.close()
        await server.wait_closed()


def bound_port(server: Server) -> int:
    return int(next(iter(server.sockets)).getsockname()[1])


class LobbyThread:
    """A lobby on a background thread with its own loop (tests, tools and local play).

    ``port=0`` picks a free port; :attr:`url` says where it listens.
    """

    def __init__(self, *, host: str = "127.0.0.1", port: int = 0, listing: bool = True, limits: Limits | None = None) -> None:
        import threading

        self.lobby = Lobby(listing=listing, limits=limits)
        self.host = host
        self.port = port
        self._loop = asyncio.new_event_loop()
        self._started = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="pegboard-lobby", daemon=True)
        self._stop: asyncio.Event | None = None

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._main())
        except BaseException as exc:  # noqa: BLE001 - reported by start()
            self._error = exc
            self._started.set()

    async def _main(self) -> None:
        server = await start(self.lobby, self.host, self.port)
        self.port = bound_port(server)
        self._stop = asyncio.Event()
        self._started.set()
        await self._stop.wait()
        server.close()
        await server.wait_closed()

    def start(self) -> LobbyThread:
        self._thread.start()
        self._started.wait(10.0)
        if self._error is not None:
            raise self._error
        return self

    def stop(self) -> None:
        if self._stop is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10.0)

    def __enter__(self) -> LobbyThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextmanager
def running_lobby(**kwargs: Any) -> Iterator[LobbyThread]:
    """``with running_lobby() as lobby: ... lobby.url``"""
    with LobbyThread(**kwargs) as thread:
        yield thread
