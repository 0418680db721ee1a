"""Running a lobby: serving :class:`~pegboard.online.lobby.Lobby` over WebSocket, with or without TLS.

:func:`serve_forever` is ``pegboard lobby serve``; :class:`LobbyThread` runs a
lobby on a background thread for tests, tools and local play. Both run two
housekeeping tasks beside the connections: a watchdog (every second: closes
connections that never said hello, or went silent) and a sweeper (every minute:
old rooms, quiet addresses, unused names).
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, serve

from pegboard.online import protocol as p
from pegboard.online.limits import Limits
from pegboard.online.lobby import Lobby
from pegboard.online.lobbydata import LobbyData

__all__ = ["Limits", "Lobby", "LobbyThread", "bound_port", "running_lobby", "serve_forever", "start"]

async def _housekeeping(lobby: Lobby) -> None:
    """The watchdog and the sweeper (see the module docstring)."""
    every = min(1.0, lobby.limits.hello_timeout / 2, lobby.limits.idle_timeout / 2)
    swept = lobby.clock()
    while True:
        await asyncio.sleep(every)
        await lobby.watch()
        if lobby.clock() - swept >= 60.0:
            swept = lobby.clock()
            lobby.sweep()


async def start(lobby: Lobby, host: str = "127.0.0.1", port: int = p.DEFAULT_PORT,
                tls: ssl.SSLContext | None = None) -> Server:
    """Start serving ``lobby`` (over TLS with ``tls``); the returned server is already listening."""
    # max_queue: frames read ahead per connection; with max_size it bounds what one connection holds.
    # No per-message compression: it cost 42 KiB of zlib state per connection (64 -> 22 KiB each
    # without) and a decompress and recompress of every relayed frame; a state is 10-30 KB.
    return await serve(lobby.handle, host, port, ssl=tls, max_size=lobby.limits.max_message, max_queue=4,
                       compression=None, process_request=lobby.screen,
                       ping_interval=20, ping_timeout=20, close_timeout=2, open_timeout=lobby.limits.hello_timeout)


async def serve_forever(lobby: Lobby, host: str, port: int, ready: Callable[[int], None] | None = None,
                        tls: ssl.SSLContext | None = None) -> None:
    """Serve until cancelled (``pegboard lobby serve``); ``ready(port)`` is called once listening."""
    server = await start(lobby, host, port, tls)
    keeper = asyncio.create_task(_housekeeping(lobby))
    try:
        if ready is not None:
            ready(bound_port(server))
        await server.serve_forever()
    finally:
        keeper.cancel()
        server.close()
        await server.wait_closed()


def bound_port(server: Server) -> int:
    return int(next(iter(server.sockets)).getsockname()[1])


class LobbyThread:
    """A lobby on a background thread with its own loop (tests, tools and local play).

    ``port=0`` picks a free port; :attr:`url` says where it listens. ``data`` is the data
    folder (names and rooms; default: in memory), ``tls`` a server context (then the URL
    is ``wss://``).
    """

    def __init__(self, *, host: str = "127.0.0.1", port: int = 0, listing: bool = True, limits: Limits | None = None,
                 data: str | Path | None = None, tls: ssl.SSLContext | None = None) -> None:
        import threading

        self.lobby = Lobby(listing=listing, limits=limits, data=LobbyData(data))
        self.host = host
        self.port = port
        self.tls = tls
        self._loop = asyncio.new_event_loop()
        self._started = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="pegboard-lobby", daemon=True)
        self._stop: asyncio.Event | None = None

    @property
    def url(self) -> str:
        return f"{'wss' if self.tls else 'ws'}://{self.host}:{self.port}"

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._main())
        except BaseException as exc:  # noqa: BLE001 - reported by start()
            self._error = exc
            self._started.set()

    async def _main(self) -> None:
        server = await start(self.lobby, self.host, self.port, self.tls)
        self.port = bound_port(server)
        self._stop = asyncio.Event()
        keeper = asyncio.create_task(_housekeeping(self.lobby))
        self._started.set()
        await self._stop.wait()
        keeper.cancel()
        server.close()
        await server.wait_closed()
        self.lobby.data.close()

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

    def call(self, work: Callable[[Lobby], Any], timeout: float = 10.0) -> Any:
        """Run ``work(lobby)`` on the lobby's loop and return its result (tests look inside)."""

        async def run() -> Any:
            result = work(self.lobby)
            return await result if asyncio.iscoroutine(result) else result

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(timeout)

    def __enter__(self) -> LobbyThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextmanager
def running_lobby(**kwargs: Any) -> Iterator[LobbyThread]:
    """``with running_lobby() as lobby: ... lobby.url``"""
    with LobbyThread(**kwargs) as thread:
        yield thread
