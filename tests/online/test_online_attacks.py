"""Attacks on the lobby's input and its connection slots (issue 26, weaknesses 1, 3, 4, 10, 11).

Each test runs the attack from other loopback addresses (bounded in count and time) and, while it
runs, an honest pair on 127.0.0.1 that pairs and plays. The lobby refuses the attacker with a reason,
logs the attack once rather than per message, and never logs a traceback.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from pegboard.online import protocol as p
from pegboard.online.limits import Limits
from support.online_helpers import (
    answer,
    attacker_address,
    client,
    honest_match,
    lobby,
    pair,
    pump,
    raw,
    said_hello,
    under_attack,
)


@pytest.fixture
def lobby_log(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger="pegboard.online")
    caplog.set_level(logging.INFO, logger="websockets")
    return caplog


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    troubled = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert not troubled, [r.getMessage() for r in troubled]


def server_warnings(caplog: pytest.LogCaptureFixture, text: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "pegboard.online.server" and text in r.getMessage()]


# -- 1. a lone surrogate ---------------------------------------------------------------------------------


def test_a_lone_surrogate_is_refused_to_its_sender_alone(tmp_path: Path, plugins: Any, lobby_log: Any) -> None:
    surrogate = '"\\ud800"'  # a JSON escape: it decodes to a lone surrogate, which cannot be sent again

    async def attack(stop: asyncio.Event) -> list[dict[str, Any]]:
        seen = []
        ws = await said_hello(url, attacker_address(), "Mallory")
        for frame in ('{"t":"ready","settings":' + surrogate + "}",
                      '{"t":"list","game":' + surrogate + "}",
                      '{"t":"ping","n":1,' + surrogate + ":1}"):
            await ws.send(frame)
            seen.append(await answer(ws))
        await stop.wait()
        await ws.send('{"t":"ping","n":2}')
        seen.append(await answer(ws))  # still connected: refused, not dropped
        await ws.close()
        return seen

    with lobby() as server:
        url = server.url
        seen = under_attack(server, attack, tmp_path, plugins)  # the list works for everyone meanwhile
    assert [m["t"] for m in seen] == ["error", "error", "error", "pong"]
    assert all("valid Unicode" in m["reason"] for m in seen[:3])
    no_tracebacks(lobby_log)


def test_a_guest_relaying_a_surrogate_does_not_disconnect_the_host(tmp_path: Path, plugins: Any) -> None:
    with lobby() as server:
        host = client(server.url, "Ann", "nodewar", tmp_path, plugins)
        guest = client(server.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
        heard: dict[int, list[Any]] = {}
        try:
            pair(host, guest)
            for _ in range(5):
                guest._call(guest._link._ws.send('{"t":"relay","data":{"t":"move","x":"\\ud800"}}'), 5.0)
            pump([host, guest], lambda: sum(n.kind == "error" for n in heard.get(id(guest), [])) >= 5, notices=heard)
            assert all("valid Unicode" in n.text for n in heard[id(guest)] if n.kind == "error")
            assert not any(n.kind == "link" and n.data.get("status") == "reconnecting" for n in heard.get(id(host), []))
            assert host.player.host.refused_count == 0  # nothing reached the host
            if not host.my_turn:
                host, guest = guest, host
            host.play(host.legal_moves()[0])  # and the match goes on
            pump([host, guest], lambda: guest.my_turn)
        finally:
            host.close(leave=True)
            guest.close(leave=True)


# -- 3. rooms without hello ---------------------------------------------------------------------------------


def test_invented_rejoins_open_no_rooms(tmp_path: Path, plugins: Any, lobby_log: Any) -> None:
    limits = Limits(rate=5000.0, burst=5000.0, max_rooms=3, max_strikes=1000, free_failures=1000)

    async def attack(stop: asyncio.Event) -> list[dict[str, Any]]:
        answers = []
        for n in range(20):  # 20 connections from 20 addresses, 10 invented rejoins each, then leave
            ws = await raw(url, attacker_address(n))
            await ws.send(json.dumps({"t": "rejoin", "match": secrets.token_urlsafe(12), "token": p.new_token(),
                                      "guest_token": p.new_token()}))
            answers.append(await answer(ws))  # no hello: nothing happens
            ws2 = await said_hello(url, attacker_address(n), f"Mal{n}")
            for _ in range(10):
                await ws2.send(json.dumps({"t": "rejoin", "match": secrets.token_urlsafe(12), "token": p.new_token(),
                                           "guest_token": p.new_token()}))
                answers.append(await answer(ws2))
                await ws2.send(json.dumps({"t": "leave"}))
            await ws.close()
            await ws2.close()
        await stop.wait()
        return answers

    with lobby(limits=limits) as server:
        url = server.url
        answers = under_attack(server, attack, tmp_path, plugins)
        assert server.call(lambda lobby: len(lobby.rooms)) <= 1  # only the honest pair's (if not yet closed)
        assert honest_match(url, tmp_path, plugins, names=("Jo", "Kim")) >= 6  # and the lobby still pairs
    assert answers[0] == {"t": "error", "reason": "say hello first"}
    refused = [a for a in answers if a["t"] == "rejoin_failed"]
    assert len(refused) == 200 and all(a["reason"] == "this lobby has no open match with that id" and a["retry"] is False
                                       for a in refused)
    no_tracebacks(lobby_log)


# -- 4. idle connections ------------------------------------------------------------------------------------


def test_idle_connections_from_one_address_cannot_fill_the_lobby(tmp_path: Path, plugins: Any, lobby_log: Any) -> None:
    limits = Limits(rate=5000.0, burst=5000.0, max_connections=30, per_address=5, hello_timeout=0.5)

    async def attack(stop: asyncio.Event) -> dict[str, int]:
        outcome: dict[str, int] = {}
        for _round in range(3):  # 40 silent connections a round, from one address; they come back each round
            opened = []
            for _ in range(40):
                try:
                    opened.append(await raw(url, attacker_address()))
                except InvalidStatus as exc:  # turned away before the WebSocket handshake: the cheapest refusal
                    reason = f"HTTP {exc.response.status_code}: {exc.response.body.decode().strip()}"
                    outcome[reason] = outcome.get(reason, 0) + 1
            for ws in opened:
                try:
                    await asyncio.wait_for(ws.recv(), 10.0)
                except ConnectionClosed as exc:
                    reason = exc.rcvd.reason if exc.rcvd else "?"
                    outcome[reason] = outcome.get(reason, 0) + 1
        await stop.wait()
        return outcome

    with lobby(limits=limits) as server:
        url = server.url
        outcome = under_attack(server, attack, tmp_path, plugins)
    assert outcome.get("HTTP 429: too many connections from your address", 0) >= 3 * 35
    assert outcome.get("say hello within 0.5 s", 0) >= 3 and outcome.get("say hello within 0.5 s", 0) <= 3 * 5
    assert len(server_warnings(lobby_log, "said no hello")) == 1  # logged once, not per connection
    no_tracebacks(lobby_log)


def test_a_silent_connection_is_closed_and_a_client_keeps_itself_alive(tmp_path: Path, plugins: Any,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from pegboard.online import link

    monkeypatch.setattr(link, "KEEPALIVE", 0.2)
    limits = Limits(rate=5000.0, burst=5000.0, idle_timeout=1.0)

    async def silent() -> str:
        ws = await said_hello(url, attacker_address(), "Quiet")
        try:
            await asyncio.wait_for(ws.recv(), 20.0)
        except ConnectionClosed as exc:
            return exc.rcvd.reason if exc.rcvd else "?"
        return "still open"

    with lobby(limits=limits) as server:
        url = server.url
        alive = client(url, "Alive", "nodewar", tmp_path, plugins)
        try:
            alive.connect()
            assert asyncio.run(silent()) == "idle for too long"
            heard = []
            for _ in range(30):  # three idle timeouts' worth of polling: the client stays connected
                heard += alive.poll()
                alive.wakeup.wait(0.1)
            assert alive.status == "Connected"
            assert not any(n.kind == "link" for n in heard)
        finally:
            alive.close(leave=True)


# -- 10. deep nesting ----------------------------------------------------------------------------------------


def test_deep_nesting_in_a_relay_is_refused_without_a_traceback(tmp_path: Path, plugins: Any, lobby_log: Any) -> None:
    deep = "[" * 970 + "]" * 970

    async def attack(stop: asyncio.Event) -> list[dict[str, Any]]:
        host = await said_hello(url, attacker_address(0), "Mal")
        await host.send(json.dumps({"t": "ready"}))
        await answer(host)
        guest = await said_hello(url, attacker_address(1), "Eve")
        await guest.send(json.dumps({"t": "pick", "name": "Mal"}))
        paired = await answer(guest)
        assert paired["t"] == "paired", paired
        seen = []
        for _ in range(5):
            await guest.send('{"t":"relay","data":{"t":"move","x":' + deep + "}}")
            seen.append(await answer(guest))
        await guest.send(json.dumps({"t": "ping", "n": 7}))
        seen.append(await answer(guest))
        await stop.wait()
        for ws in (host, guest):
            await ws.close()
        return seen

    with lobby() as server:
        url = server.url
        seen = under_attack(server, attack, tmp_path, plugins)
    assert [m["t"] for m in seen] == ["error"] * 5 + ["pong"]
    assert seen[0]["reason"] == f"a message may be nested at most {p.MAX_DEPTH} levels deep"
    no_tracebacks(lobby_log)


# -- 11. wrong-token rejoins are bad messages ---------------------------------------------------------------------


def test_wrong_token_rejoins_count_as_bad_messages(tmp_path: Path, plugins: Any, lobby_log: Any) -> None:
    limits = Limits(rate=5000.0, burst=5000.0, max_strikes=20, free_failures=1000)
    with lobby(limits=limits) as server:
        host = client(server.url, "Ann", "nodewar", tmp_path, plugins)
        guest = client(server.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
        try:
            pair(host, guest)
            match = host.player.ticket.match

            async def attack(stop: asyncio.Event) -> tuple[list[dict[str, Any]], int | None]:
                ws = await said_hello(server.url, attacker_address(), "Mal")
                answers: list[dict[str, Any]] = []
                try:
                    for _ in range(30):
                        await ws.send(json.dumps({"t": "rejoin", "match": match, "token": p.new_token()}))
                        answers.append(await answer(ws))
                except ConnectionClosed as exc:
                    return answers, exc.rcvd.code if exc.rcvd else None
                return answers, None

            answers, closed = under_attack(server, attack, tmp_path, plugins)
            assert closed == 1008 and len(answers) == 20  # closed at the 20th bad message
            assert all(a == {"t": "rejoin_failed", "reason": "wrong token for that match", "retry": False} for a in answers)
            if not host.my_turn:
                host, guest = guest, host
            host.play(host.legal_moves()[0])  # the real players were never disturbed
            pump([host, guest], lambda: guest.my_turn)
        finally:
            host.close(leave=True)
            guest.close(leave=True)
    assert len(server_warnings(lobby_log, "closed a connection after 20 bad messages")) == 1
    no_tracebacks(lobby_log)



def test_a_client_turned_away_at_the_door_says_so_in_words(tmp_path: Path, plugins: Any) -> None:
    from pegboard.errors import LobbyUnreachable

    with lobby(limits=Limits(rate=5000.0, burst=5000.0, per_address=1)) as server:
        first = client(server.url, "Ann", "nodewar", tmp_path, plugins)
        second = client(server.url, "Bob", "nodewar", tmp_path, plugins)
        try:
            first.connect()
            with pytest.raises(LobbyUnreachable) as refused:
                second.connect()
            assert refused.value.reason == (f"Cannot reach the lobby at {server.url}: the lobby turned the connection "
                                            "away: too many connections from your address.")
        finally:
            first.close(leave=True)
            second.close()


def test_a_connection_that_sent_bad_messages_is_read_slower() -> None:
    async def pings(ws: Any, count: int) -> int:
        for n in range(count):
            await ws.send(json.dumps({"t": "ping", "n": n}))
        answered = 0
        for _ in range(count):
            answered += (await answer(ws))["t"] == "pong"
        return answered

    async def run() -> tuple[int, int, int, int]:
        clean = await said_hello(url, attacker_address(0), "Clean")
        answered_clean = await pings(clean, 30)
        after_clean = server.call(lambda lobby: lobby.throttled)
        bad = await said_hello(url, attacker_address(1), "Bad")
        for _ in range(3):
            await bad.send("{not json")
            await answer(bad)
        answered_bad = await pings(bad, 30)
        after_bad = server.call(lambda lobby: lobby.throttled)
        for ws in (clean, bad):
            await ws.close()
        return answered_clean, after_clean, answered_bad, after_bad

    with lobby(limits=Limits(rate=2000.0, burst=2000.0)) as server:
        url = server.url
        answered_clean, after_clean, answered_bad, after_bad = asyncio.run(run())
    assert answered_clean == answered_bad == 30  # held back, never lost
    assert after_clean == 0 and after_bad >= 20  # only the one with 3 strikes waited (burst 1, a tenth of the rate)
