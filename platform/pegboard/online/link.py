"""One player's connection to a lobby that survives drops (asyncio, websockets).

:class:`Link` opens the connection and says hello; if the connection drops it
keeps trying (with a growing pause) and, once through, says hello again and
rejoins its match with the seat token, or goes back on the waiting list.
Received messages land in :attr:`Link.inbox` (a deque: safe to read from another thread).
While connected it sends a keep-alive ``ping`` every :data:`KEEPALIVE` seconds (a lobby
closes connections that stay silent). A ``wss://`` lobby's certificate is checked
against the system's authorities, or only ``cafile``'s.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
from collections import deque
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from pegboard.errors import LobbyUnreachable, ProtocolError
from pegboard.online import protocol as p

log = logging.getLogger("pegboard.online.link")

RETRY_PAUSES = (0.2, 0.5, 1.0, 2.0, 3.0)
"""Seconds between reconnection attempts (the last one repeats)."""
KEEPALIVE = 60.0
"""Seconds between keep-alive pings (well inside a lobby's default idle timeout)."""
OPEN_TIMEOUT = 5.0
"""Seconds a connection to the lobby may take to open."""


class Link:
    """A lobby connection with automatic reconnection (see the module docstring).

    ``hello`` is the hello message (sent on every connection). :attr:`match` and
    :attr:`token` are learnt from ``paired`` (or set by a resuming program) and used
    to rejoin; :attr:`ready` holds the ``ready`` message to send again after a
    reconnection while waiting. ``tls`` is what a ``wss://`` lobby's certificate is
    checked with (default: :func:`.tls.client_context`, the system's authorities);
    ``source`` is the local address to connect from (a machine with several; the load tool).
    """

    def __init__(self, url: str, hello: dict[str, Any], *, open_timeout: float = OPEN_TIMEOUT,
                 on_message: Callable[[], None] | None = None, tls: ssl.SSLContext | None = None,
                 source: str | None = None) -> None:
        from pegboard.online.tls import client_context

        self.url = p.check_lobby_url(url)
        self._tls = (tls or client_context()) if self.url.startswith("wss:") else None
        self._source = source
        self.hello = hello
        self.open_timeout = open_timeout
        self.inbox: deque[dict[str, Any]] = deque()  # appended on the loop, read from any thread
        self.status = "offline"
        self.lobby_mode = ""
        self.match: str | None = None
        self.token: str | None = None
        self.ready: dict[str, Any] | None = None
        self._ws: ClientConnection | None = None
        self._closing = False
        self._on_message = on_message
        self._pending: list[dict[str, Any]] = []  # relays written while the link was down
        self._runner: asyncio.Task[None] | None = None
        self._keeper: asyncio.Task[None] | None = None

    # -- opening ---------------------------------------------------------------------------------

    async def open(self) -> str:
        """Connect and say hello; returns the lobby mode (``list`` or ``codes``).

        Raises :class:`LobbyUnreachable` with one readable line when that fails.
        """
        self.status = "connecting"
        ws = await self._connect()
        try:
            reply = await asyncio.wait_for(ws.recv(), self.open_timeout)
            welcome = p.decode(reply)
        except ConnectionClosed as exc:
            why = exc.rcvd.reason if exc.rcvd is not None and exc.rcvd.reason else "it closed the connection"
            raise LobbyUnreachable(f"The lobby at {self.url} turned the connection away: {why}.") from None
        except (TimeoutError, ProtocolError):
            await ws.close()
            raise LobbyUnreachable(f"The lobby at {self.url} did not answer: is it a Pegboard lobby?") from None
        if welcome.get("t") != "welcome":
            await ws.close()
            reason = str(welcome.get("reason", "it did not say why"))[:200]
            raise LobbyUnreachable(f"The lobby refused you: {reason}.")
        self.lobby_mode = str(welcome.get("lobby", "list"))
        if self.match is not None:
            await ws.send(p.encode(self._rejoin()))
            self.status = "rejoining"
        else:
            self.status = "connected"
        self._ws = ws
        self._runner = asyncio.create_task(self._run(ws))
        self._keeper = asyncio.create_task(self._keepalive())
        return self.lobby_mode

    async def _connect(self) -> ClientConnection:
        options: dict[str, Any] = {"ssl": self._tls} if self._tls is not None else {}
        if self._source is not None:
            options["local_addr"] = (self._source, 0)
        try:
            ws = await connect(self.url, open_timeout=self.open_timeout, max_size=p.MAX_MESSAGE_BYTES,
                               ping_interval=20, ping_timeout=20, close_timeout=2, **options)
        except InvalidURI as exc:
            raise LobbyUnreachable(f"{self.url!r} is not a lobby address: {exc}") from None
        except (OSError, InvalidHandshake, TimeoutError) as exc:
            raise LobbyUnreachable(f"Cannot reach the lobby at {self.url}: {unreachable_reason(exc, self.open_timeout)}") from None
        await ws.send(p.encode(self.hello))
        return ws

    def _rejoin(self) -> dict[str, Any]:
        return {"t": "rejoin", "match": self.match, "token": self.token}

    # -- running -----------------------------------------------------------------------------------

    async def _run(self, ws: ClientConnection) -> None:
        attempt = 0
        while not self._closing:
            if ws is not None:
                await self._receive(ws)
                attempt = 0
            self._ws = None
            if self._closing:
                break
            self.status = "reconnecting"
            self._put({"t": "link", "status": "reconnecting"})
            await asyncio.sleep(RETRY_PAUSES[min(attempt, len(RETRY_PAUSES) - 1)])
            attempt += 1
            try:
                ws = await self._connect()
            except LobbyUnreachable:
                ws = None  # type: ignore[assignment]
                continue
            if self.match is not None:
                await self._send_now(ws, self._rejoin())
                self.status = "rejoining"
            else:
                self.status = "connected"
                self._put({"t": "link", "status": "connected"})
                if self.ready is not None:
                    await self._send_now(ws, self.ready)
            self._ws = ws

    async def _keepalive(self) -> None:
        while not self._closing:
            await asyncio.sleep(KEEPALIVE)
            ws = self._ws
            if ws is not None:
                await self._send_now(ws, {"t": "ping"})

    async def _receive(self, ws: ClientConnection) -> None:
        try:
            async for frame in ws:
                try:
                    message = p.decode(frame)
                except ProtocolError:
                    log.warning("ignored a bad frame from the lobby")
                    continue
                await self._sniff(ws, message)
                self._put(message)
        except ConnectionClosed:
            pass

    async def _sniff(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        kind = message.get("t")
        if kind == "paired":
            self.match = str(message.get("match"))
            self.token = str(message.get("token"))
            self.ready = None
        elif kind == "rejoined":
            self.status = "connected"
            pending, self._pending = self._pending, []
            for queued in pending:
                await self._send_now(ws, queued)
        elif kind == "rejoin_failed":
            if message.get("retry"):
                await asyncio.sleep(RETRY_PAUSES[-1])
                await self._send_now(ws, self._rejoin())
            else:
                self.match = None
                self.status = "connected"

    def _put(self, message: dict[str, Any]) -> None:
        self.inbox.append(message)
        if self._on_message is not None:
            self._on_message()

    async def _send_now(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        try:
            await ws.send(p.encode(message))
        except ConnectionClosed:
            pass

    async def send(self, message: dict[str, Any]) -> None:
        """Send now; a relay written while the link is down waits for the rejoin."""
        kind = message.get("t")
        if kind == "leave":
            self.match = self.token = None  # nothing to rejoin any more
        elif kind == "ready":
            self.ready = message
        elif kind == "unready":
            self.ready = None
        ws = self._ws
        if ws is None or self.status != "connected":
            if message.get("t") == "relay":
                self._pending.append(message)
            return
        try:
            await ws.send(p.encode(message))
        except ConnectionClosed:
            if message.get("t") == "relay":
                self._pending.append(message)

    async def drop(self) -> None:
        """Cut the connection without leaving (tests: a network failure); the link reconnects."""
        if self._ws is not None:
            await self._ws.close()

    async def close(self) -> None:
        """Close for good (no reconnection)."""
        self._closing = True
        if self._keeper is not None:
            self._keeper.cancel()
        if self._ws is not None:
            await self._ws.close()
        if self._runner is not None:
            try:
                await asyncio.wait_for(self._runner, 5.0)
            except (TimeoutError, asyncio.CancelledError):
                self._runner.cancel()
        self.status = "offline"


def unreachable_reason(exc: BaseException, timeout: float) -> str:
    """Why a connection failed, in words a person reads (never the socket's own text)."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        detail = exc.verify_message or "not trusted"
        return (f"its certificate is not trusted here ({detail}). A lobby with its own certificate needs "
                "its authority's file (--cafile; see docs/online.md).")
    if isinstance(exc, ssl.SSLError):
        return "the secure connection failed: if the lobby does not use TLS, its address starts with ws://, not wss://."
    if isinstance(exc, socket.gaierror):
        return "that computer name is not known. Check the address."
    if isinstance(exc, ConnectionRefusedError) or (isinstance(exc, OSError) and "Connect call failed" in str(exc)):
        return "nothing answers there. Is the lobby running, and is the address right?"
    if isinstance(exc, TimeoutError):
        return f"no answer within {timeout:g} seconds. Is the address right, and is the network up?"
    if isinstance(exc, InvalidStatus) and exc.response.status_code in (429, 503):
        said = exc.response.body.decode("utf-8", "replace").strip()[:200] if exc.response.body else "it is busy"
        return f"the lobby turned the connection away: {said}."
    if isinstance(exc, InvalidStatus):
        return f"the server there is not a Pegboard lobby (it answered HTTP {exc.response.status_code})."
    if isinstance(exc, InvalidHandshake):
        return "the server there did not answer as a lobby does (if it uses TLS, its address starts with wss://)."
    if isinstance(exc, OSError) and exc.strerror:
        return f"the network says: {exc.strerror.lower()}."
    return "the connection failed."
