"""Helpers for the online tests: a loopback lobby, clients, and a loop that drives them.

Every server here listens on 127.0.0.1 on a free port and is stopped by the
test that started it. Loops are bounded by a move count and a generous
deadline (a failure, never a timing assertion).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pegboard.online import protocol as p
from pegboard.online.client import HostSettings, OnlineClient
from pegboard.online.limits import Limits
from pegboard.online.server import LobbyThread
from pegboard.online.store import Store

FAST = Limits(rate=5000.0, burst=5000.0)
"""Tests play at machine speed; the rate limit is tested on its own."""

DEADLINE = 45.0


def lobby(listing: bool = True, limits: Limits = FAST, **options: Any) -> LobbyThread:
    return LobbyThread(listing=listing, limits=limits, **options)


def hello_message(name: str, game: str = "nodewar", secret: str | None = None, **extra: Any) -> dict[str, Any]:
    """A hello as a hand-made client sends it (a fresh name secret unless one is given)."""
    return {"t": "hello", "v": p.PROTOCOL, "name": name, "game": game, "secret": secret or p.new_secret(), **extra}


def client(url: str, name: str, game: str, folder: Path, plugins: Any, **kwargs: Any) -> OnlineClient:
    return OnlineClient(url, name, game, plugins=plugins, store=Store(folder / name), workers="inline", **kwargs)


class Recorder:
    """Keeps every message a client's player received (to look for leaks afterwards)."""

    def __init__(self, target: OnlineClient) -> None:
        self.messages: list[dict[str, Any]] = []
        self.notices: list[Any] = []
        player = target.player
        original = player.receive

        def receive(message: dict[str, Any]) -> None:
            self.messages.append(message)
            original(message)

        player.receive = receive  # type: ignore[method-assign]

    def relayed(self, kind: str) -> list[dict[str, Any]]:
        return [m["data"] for m in self.messages if m.get("t") == "relay" and m.get("data", {}).get("t") == kind]


def pump(clients: Iterable[OnlineClient], until: Callable[[], bool], *, deadline: float = DEADLINE,
         notices: dict[int, list[Any]] | None = None) -> None:
    """Poll the clients until ``until()`` holds; fail after ``deadline`` seconds."""
    clients = list(clients)
    end = time.monotonic() + deadline
    while not until():
        if time.monotonic() > end:
            raise AssertionError("the online exchange did not finish in time: " + "; ".join(c.status_line() for c in clients))
        for c in clients:
            got = c.poll()
            if notices is not None:
                notices.setdefault(id(c), []).extend(got)
        time.sleep(0.001)


def pair(host: OnlineClient, guest: OnlineClient) -> None:
    """Host waits on the list, guest picks it; both end up in a started match."""
    host.connect()
    guest.connect()
    host.ready()
    pump([host, guest], lambda: _listed(guest, host.player.name))
    guest.pick(int(next(e["id"] for e in guest.player.players if e["name"] == host.player.name)))
    pump([host, guest], lambda: host.player.started and guest.player.started)


def _listed(guest: OnlineClient, name: str) -> bool:
    guest.refresh_list()
    guest.poll()
    return any(e.get("name") == name for e in guest.player.players)


def play_random(clients: list[OnlineClient], rng: random.Random, *, max_moves: int = 5000,
                stop: Callable[[], bool] | None = None) -> int:
    """Both sides play random legal moves from their own view until the game ends (or ``stop()``)."""
    played = 0
    end = time.monotonic() + DEADLINE
    while played < max_moves:
        if all(c.result is not None for c in clients) or (stop is not None and stop()):
            return played
        if time.monotonic() > end:
            raise AssertionError("the match did not end in time: " + "; ".join(c.status_line() for c in clients))
        for c in clients:
            c.poll()
            if c.my_turn:
                moves = c.legal_moves()
                assert moves, f"{c.player.name} has the turn but no moves"
                c.play(rng.choice(moves))
                played += 1
        time.sleep(0.0005)
    return played


# -- attacks: raw connections from other loopback addresses, on a thread of their own ----------------


def attacker_address(n: int = 0) -> str:
    """A loopback address other than 127.0.0.1 (Linux routes all of 127/8 to this machine), so the
    lobby counts an attacker apart from the honest players on 127.0.0.1."""
    return f"127.0.{1 + n // 250}.{2 + n % 250}"


async def raw(url: str, source: str, **options: Any) -> Any:
    """A bare WebSocket connection to the lobby from ``source`` (no client code: an attacker's)."""
    from websockets.asyncio.client import connect

    return await connect(url, local_addr=(source, 0), max_size=None, open_timeout=10, **options)


async def answer(ws: Any, timeout: float = 10.0) -> dict[str, Any]:
    """The next message on ``ws`` (bounded wait)."""
    import asyncio
    import json

    reply: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
    return reply


async def said_hello(url: str, source: str, name: str, game: str = "nodewar", **options: Any) -> Any:
    """A raw connection that has said hello (and read the welcome)."""
    import json

    ws = await raw(url, source, **options)
    await ws.send(json.dumps(hello_message(name, game)))
    welcome = await answer(ws)
    assert welcome["t"] == "welcome", welcome
    return ws


class Attack:
    """Runs ``attack(stop)`` (a coroutine function) on its own thread and loop while the test plays
    an honest match; :meth:`result` sets ``stop`` and returns what the attack returned."""

    def __init__(self, attack: Callable[[Any], Any]) -> None:
        import asyncio
        import threading

        self._attack = attack
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._outcome: list[Any] = []
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="attack", daemon=True)

    def _run(self) -> None:
        import asyncio

        async def main() -> Any:
            self._stop = asyncio.Event()
            self._ready.set()
            return await self._attack(self._stop)

        try:
            self._outcome.append(("ok", self._loop.run_until_complete(main())))
        except BaseException as exc:  # noqa: BLE001 - handed to the test by result()
            self._outcome.append(("error", exc))
            self._ready.set()
        finally:  # connections an attack left open are closed with its loop
            left = asyncio.all_tasks(self._loop)
            for task in left:
                task.cancel()

            async def settle() -> None:
                await asyncio.gather(*left, return_exceptions=True)

            self._loop.run_until_complete(settle())
            self._loop.close()

    def __enter__(self) -> Attack:
        self._thread.start()
        self._ready.wait(10.0)
        return self

    def result(self, timeout: float = DEADLINE) -> Any:
        if self._stop is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout)
        assert not self._thread.is_alive(), "the attack did not stop in time"
        kind, value = self._outcome[0]
        if kind == "error":
            raise value
        return value

    def __exit__(self, *exc: object) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(lambda: self._stop.set() if self._stop else None)
            self._thread.join(DEADLINE)


def honest_match(url: str, folder: Path, plugins: Any, *, names: tuple[str, str] = ("Hal", "Ida"), moves: int = 6,
                 code_mode: bool = False, seed: int = 5, **options: Any) -> int:
    """A pair started now (on 127.0.0.1) pairs, by the list or by code, and plays ``moves`` moves
    (or the game to its end); returns the plies played. Both leave at the end. ``options`` go to
    both clients (``cafile``)."""
    host = client(url, names[0], "nodewar", folder, plugins, host=HostSettings(ruleset="skirmish", seat=0, seed=seed),
                  **options)
    guest = client(url, names[1], "nodewar", folder, plugins, auto_accept=True, **options)
    try:
        if code_mode:
            host.connect()
            guest.connect()
            host.ready()
            pump([host, guest], lambda: host.player.code is not None)
            guest.join(host.player.code or "")
            pump([host, guest], lambda: host.player.started and guest.player.started)
        else:
            pair(host, guest)
        session = host.player.host.session if host.player.host is not None else None
        assert session is not None
        play_random([host, guest], random.Random(seed), stop=lambda: session.ply >= moves)
        pump([host, guest], lambda: guest.player.guest is not None and guest.player.guest.last is not None
             and guest.player.guest.last.ply == session.ply)
        return session.ply
    finally:
        host.close(leave=True)
        guest.close(leave=True)


def under_attack(server: LobbyThread, attack: Callable[[Any], Any], folder: Path, plugins: Any, **options: Any) -> Any:
    """Run ``attack`` (see :class:`Attack`) while an honest pair started meanwhile pairs and plays on
    ``server``; returns what the attack returned."""
    with Attack(attack) as running:
        assert honest_match(server.url, folder, plugins, **options) >= 6
        return running.result()


__all__ = ["Attack", "HostSettings", "Recorder", "answer", "attacker_address", "client", "hello_message",
           "honest_match", "lobby", "pair", "play_random", "pump", "raw", "said_hello", "under_attack"]
