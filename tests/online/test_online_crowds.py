"""Attacks on codes, names and the list (issue 26, weaknesses 2, 7 and 8).

As in test_online_attacks.py: the attacker runs from other loopback addresses, bounded in count
and time, while an honest pair on 127.0.0.1 pairs and plays.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from pathlib import Path
from typing import Any

import pytest

from pegboard.errors import LobbyUnreachable
from pegboard.online import protocol as p
from pegboard.online.limits import Limits
from pegboard.online.names import name_key
from pegboard.online.store import Store
from support.online_helpers import (
    Attack,
    answer,
    attacker_address,
    client,
    hello_message,
    honest_match,
    lobby,
    play_random,
    pump,
    raw,
    said_hello,
    under_attack,
)

# -- 2. guessing codes ---------------------------------------------------------------------------------------


def test_code_guessing_backs_off_per_address_and_retires_the_code(tmp_path: Path, plugins: Any,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="pegboard.online")
    limits = Limits(rate=5000.0, burst=5000.0, max_strikes=10_000, free_failures=5, backoff_base=30.0,
                    code_guesses=60, per_address=50)
    addresses = 20
    rng = random.Random(26)

    async def guesser(n: int, tally: dict[str, int]) -> None:
        ws = await said_hello(url, attacker_address(n), f"Guess{n}")
        for _ in range(15):  # 15 guesses from each of 20 addresses: 300 in all
            code = "".join(rng.choice(p.CODE_LETTERS) for _ in range(p.CODE_LENGTH))
            if code in issued():
                continue  # the attack must fail here: a lucky guess would pair, as it should
            await ws.send(json.dumps({"t": "join", "code": code}))
            reply = await answer(ws)
            key = "backed off" if "too many wrong codes from your address" in reply.get("reason", "") else reply["t"]
            tally[key] = tally.get(key, 0) + 1
        await ws.close()

    async def attack(stop: asyncio.Event) -> dict[str, int]:
        tally: dict[str, int] = {}
        await asyncio.gather(*(guesser(n, tally) for n in range(addresses)))
        await stop.wait()
        return tally

    with lobby(listing=False, limits=limits) as server:
        url = server.url

        def issued() -> set[str]:
            return set(server.call(lambda lobby: list(lobby.codes)))

        host = client(url, "Ann", "nodewar", tmp_path, plugins)
        friend = client(url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
        heard: dict[int, list[Any]] = {}
        try:
            host.connect()
            friend.connect()
            host.ready()
            pump([host], lambda: host.player.code is not None, notices=heard)
            first_code = host.player.code
            with Attack(attack) as running:
                tally = running.result()
            # each address had 5 free guesses and a 6th that started its wait; then every answer said to
            # wait: 120 of the 300 guesses were checked
            assert tally == {"error": addresses * 6, "backed off": addresses * 9}
            assert server.call(lambda lobby: lobby.wrong_guesses) == addresses * 6
            # 120 wrong guesses lobby-wide: the code that saw them is retired and the host gets a new one
            pump([host], lambda: host.player.code != first_code, notices=heard)
            renewed = [n for n in heard[id(host)] if n.kind == "waiting" and n.data.get("renewed")]
            assert renewed and "drew too many wrong guesses" in renewed[0].text
            friend.join(first_code)  # the old code is gone ...
            pump([host, friend], lambda: any(n.kind == "error" for n in heard.get(id(friend), [])), notices=heard)
            friend.join(host.player.code)  # ... the new one pairs the friend (not backed off: another address)
            pump([host, friend], lambda: host.player.started and friend.player.started)
            play_random([host, friend], random.Random(1), stop=lambda: host.player.host.session.ply >= 6)
        finally:
            host.close(leave=True)
            friend.close(leave=True)
        assert honest_match(url, tmp_path, plugins, code_mode=True) >= 6
    told = [r.getMessage() for r in caplog.records if "guessing codes" in r.getMessage()]
    assert len(told) == addresses  # once per address, not once per guess


# -- 7. names ---------------------------------------------------------------------------------------------------


def test_names_are_claimed_with_a_secret_and_look_alikes_are_taken(tmp_path: Path, plugins: Any) -> None:
    assert name_key("Ann") == name_key("\u0410nn") == name_key("ＡＮＮ") == name_key("ann")  # Cyrillic А, fullwidth
    assert name_key("B0b") == name_key("Bob") and name_key("rnary") == name_key("mary")
    assert name_key("Ann") != name_key("Anna")
    data = tmp_path / "lobby-data"
    with lobby(data=data) as server:
        ann = client(server.url, "Ann", "nodewar", tmp_path, plugins)
        ann.connect()
        ann.close()
        for name in ("Ann", "\u0410nn", "ANN", "Ａnn"):  # another program (another secret) cannot use it
            thief = client(server.url, name, "nodewar", tmp_path / "thief", plugins)
            with pytest.raises(LobbyUnreachable, match="is taken on this lobby") as refused:
                thief.connect()
            thief.close()
            if name != "Ann":
                assert "(as 'Ann', which looks the same)" in refused.value.reason
        port = server.port
    with lobby(data=data, port=port) as again:  # a restarted lobby keeps the claim ...
        thief = client(again.url, "Ann", "nodewar", tmp_path / "thief", plugins)
        with pytest.raises(LobbyUnreachable, match="is taken"):
            thief.connect()
        thief.close()
        ann = client(again.url, "Ann", "nodewar", tmp_path, plugins)  # ... and its owner still has it
        assert ann.connect() == "list"
        ann.close()


def test_one_address_cannot_claim_names_without_end(tmp_path: Path, plugins: Any) -> None:
    limits = Limits(rate=5000.0, burst=5000.0, claims_per_hour=10, max_strikes=1000)

    async def attack(stop: asyncio.Event) -> list[str]:
        ws = await raw(url, attacker_address())
        replies = []
        for n in range(25):
            await ws.send(json.dumps(hello_message(f"Squat{n}")))
            reply = await answer(ws)
            replies.append(reply["t"] if reply["t"] == "welcome" else reply["reason"])
            if reply["t"] == "welcome":
                await ws.close()
                ws = await raw(url, attacker_address())
        await ws.close()
        await stop.wait()
        return replies

    with lobby(limits=limits) as server:
        url = server.url
        replies = under_attack(server, attack, tmp_path, plugins)
    assert replies[:10] == ["welcome"] * 10
    assert all("claimed too many new names this hour" in r for r in replies[10:])


# -- 8. crowding and amplifying the list ----------------------------------------------------------------------------


def test_the_list_is_by_game_paged_and_rated_by_bytes(tmp_path: Path, plugins: Any) -> None:
    limits = Limits(rate=5000.0, burst=5000.0, max_strikes=1000, list_page=20, list_bytes=32768, list_burst=16384,
                    per_address=60, claims_per_hour=100)
    junk = "x" * p.MAX_SETTINGS

    async def crowd(stop: asyncio.Event) -> dict[str, Any]:
        seen: dict[str, Any] = {"waiting": 0, "refused": 0, "lists": []}
        sockets = []
        for n in range(4):  # 4 addresses, 30 would-be waiting players each: nodewar and starfall
            for k in range(30):
                ws = await said_hello(url, attacker_address(n), f"Junk{n}x{k}", "nodewar" if k % 2 else "starfall")
                await ws.send(json.dumps({"t": "ready", "settings": junk}))
                reply = await answer(ws)
                seen["waiting" if reply["t"] == "waiting" else "refused"] += 1
                sockets.append(ws)
        asker = sockets[1]
        for _ in range(10):  # a list asked for again and again
            await asker.send(json.dumps({"t": "list"}))
            seen["lists"].append(len(await asker.recv()))
        await stop.wait()
        for ws in sockets:
            await ws.close()
        return seen

    with lobby(limits=limits) as server:
        url = server.url
        with Attack(crowd) as running:
            host = client(url, "Ann", "nodewar", tmp_path, plugins)
            guest = client(url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
            heard: dict[int, list[Any]] = {}
            try:
                host.connect()
                guest.connect()
                host.ready()
                pump([host], lambda: any(n.kind == "waiting" for n in heard.get(id(host), [])), notices=heard)
                pump([host, guest], lambda: server.call(lambda lobby: lobby.refused) >= 4 * 26)  # the crowd is in
                guest.refresh_list()
                pump([guest], lambda: any(n.kind == "list" for n in heard.get(id(guest), [])), notices=heard)
                listed = next(n for n in heard[id(guest)] if n.kind == "list")
                # junk for Starfall is not on a Node War list; junk for Node War is 4 per address at most
                assert listed.data["total"] == 4 * 2 + 1 and listed.data["elsewhere"] == 4 * 2
                names = [e["name"] for e in listed.data["players"]]
                assert "Ann" in names and all(e["game"] == "nodewar" for e in listed.data["players"])
                guest.pick(next(e["id"] for e in listed.data["players"] if e["name"] == "Ann"))
                pump([host, guest], lambda: host.player.started and guest.player.started)
                play_random([host, guest], random.Random(3), stop=lambda: host.player.host.session.ply >= 6)
                seen = running.result()
            finally:
                host.close(leave=True)
                guest.close(leave=True)
        held_back = server.call(lambda lobby: lobby.throttled)
    assert seen["waiting"] == 4 * 4 and seen["refused"] == 4 * 26
    assert max(seen["lists"]) < 12_000  # a list reply is one page (here 8 junk entries of 400 characters)
    assert held_back > 0  # 10 lists in a row went over the byte burst: the lobby held them back


def test_a_list_page_holds_list_page_players_and_offset_reaches_the_rest() -> None:
    limits = Limits(rate=5000.0, burst=5000.0, list_page=5, waiting_per_address=100, claims_per_hour=100)

    async def run() -> list[list[str]]:
        sockets = [await said_hello(url, "127.0.0.1", f"P{n}") for n in range(12)]
        for ws in sockets:
            await ws.send(json.dumps({"t": "ready"}))
            await answer(ws)
        viewer = await said_hello(url, "127.0.0.1", "Viewer")
        pages = []
        for offset in (0, 5, 10):
            await viewer.send(json.dumps({"t": "list", "offset": offset}))
            pages.append([e["name"] for e in (await answer(viewer))["players"]])
        for ws in (*sockets, viewer):
            await ws.close()
        return pages

    with lobby(limits=limits) as server:
        url = server.url
        pages = asyncio.run(run())
    assert pages == [[f"P{n}" for n in range(0, 5)], [f"P{n}" for n in range(5, 10)], ["P10", "P11"]]


def test_a_claimed_name_on_the_list_is_picked_by_its_folded_form(tmp_path: Path, plugins: Any) -> None:
    with lobby() as server:
        host = client(server.url, "Ann", "nodewar", tmp_path, plugins)
        guest = client(server.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
        try:
            host.connect()
            guest.connect()
            host.ready()
            heard: dict[int, list[Any]] = {}
            pump([host], lambda: any(n.kind == "waiting" for n in heard.get(id(host), [])), notices=heard)
            guest.pick("ANN")  # typed in capitals: the same name
            pump([host, guest], lambda: host.player.started and guest.player.started)
        finally:
            host.close(leave=True)
            guest.close(leave=True)


def test_a_hello_without_a_secret_is_refused() -> None:
    async def run() -> dict[str, Any]:
        ws = await raw(url, "127.0.0.1")
        await ws.send(json.dumps({"t": "hello", "v": p.PROTOCOL, "name": "Old", "game": "nodewar"}))
        reply = await answer(ws)
        await ws.close()
        return reply

    with lobby() as server:
        url = server.url
        reply = asyncio.run(run())
    assert reply == {"t": "error", "reason": "this lobby needs the name's secret in the hello: update Pegboard"}


def test_the_name_secret_is_the_same_per_lobby_and_kept_private(tmp_path: Path) -> None:
    store = Store(tmp_path / "online")
    first = store.name_secret("ws://lobby.example:8765", "Ann")
    assert first == Store(tmp_path / "online").name_secret("ws://lobby.example:8765", "Ann")
    assert first != store.name_secret("ws://other.example:8765", "Ann")  # one lobby's secret is no use on another
    assert first != Store(tmp_path / "elsewhere").name_secret("ws://lobby.example:8765", "Ann")
    assert (tmp_path / "online" / "identity.key").stat().st_mode & 0o077 == 0
    p.check_secret(first)

