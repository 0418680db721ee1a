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


__all__ = ["HostSettings", "Recorder", "client", "hello_message", "lobby", "pair", "play_random", "pump"]
