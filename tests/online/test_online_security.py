"""Forged and broken messages are refused with a reason and change nothing; the lobby survives abuse."""

from __future__ import annotations

import asyncio
import json
import random
import socket
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from pegboard.online import protocol as p
from pegboard.online.limits import Limits
from support.online_helpers import HostSettings, client, hello_message, lobby, pair, pump


def _forge(guest: Any, data: dict[str, Any]) -> None:
    """Send a relay the guest's own program would never write."""
    guest._call(guest._link.send({"t": "relay", "data": data}), 5.0)


@pytest.fixture
def match(tmp_path: Path, plugins: Any) -> Any:
    with lobby() as server:
        host = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=0, seed=1))
        guest = client(server.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
        try:
            pair(host, guest)
            yield host, guest
        finally:
            host.close(leave=True)
            guest.close(leave=True)


def _refusals_after(host: Any, guest: Any, count: int) -> list[str]:
    notices: dict[int, list[Any]] = {}
    pump([host, guest], lambda: len(host.player.host.refusals) >= count and
         sum(n.kind == "refused" for n in notices.get(id(guest), [])) >= count, notices=notices)
    return [r.reason for r in host.player.host.refusals]


def test_forged_moves_are_refused_and_change_nothing(match: Any) -> None:
    host, guest = match
    session = host.player.host.session
    game = session.game
    token = guest.player.ticket.token
    legal_now = game.encode_move(session.state.legal_moves()[0])  # a legal move for the host's seat (0)
    before = (session.ply, json.dumps(session.state.to_json(), sort_keys=True))
    forged = [
        {"t": "move", "token": "x" * 32, "seat": 1, "ply": 0, "move": legal_now},        # wrong token
        {"t": "move", "seat": 1, "ply": 0, "move": legal_now},                            # no token
        {"t": "move", "token": host.player.ticket.token, "seat": 0, "ply": 0, "move": legal_now},  # the host's own token
        {"t": "move", "token": token, "seat": 0, "ply": 0, "move": legal_now},            # the other seat
        {"t": "move", "token": token, "seat": 1, "ply": 0, "move": legal_now},            # out of turn (seat 0 moves)
    ]
    for data in forged:
        _forge(guest, data)
    reasons = _refusals_after(host, guest, len(forged))
    assert reasons[0] == reasons[1] == reasons[2] == "wrong or missing token"
    assert reasons[3] == f"you play {game.seats[1]}, not the other seat"  # in words, not the raw value sent
    assert reasons[4] == "not your turn"
    assert (session.ply, json.dumps(session.state.to_json(), sort_keys=True)) == before


def test_illegal_malformed_and_oversized_moves_are_refused(match: Any) -> None:
    host, guest = match
    rng = random.Random(3)
    host.play(rng.choice(host.legal_moves()))  # now it is the guest's turn
    pump([host, guest], lambda: guest.my_turn)
    session = host.player.host.session
    token = guest.player.ticket.token
    ply = session.ply
    occupied = session.game.encode_move(session.history[0].move)  # the square the host just took
    sent = [
        {"t": "move", "token": token, "seat": 1, "ply": ply, "move": occupied},             # illegal
        {"t": "move", "token": token, "seat": 1, "ply": ply, "move": {"type": "warp"}},     # malformed
        {"t": "move", "token": token, "seat": 1, "ply": ply, "move": "x" * (p.MAX_MOVE_BYTES + 10)},  # oversized
        {"t": "move", "token": token, "seat": 1, "ply": ply - 1, "move": occupied},         # stale
        {"t": "explode", "token": token},                                                    # unknown
    ]
    for data in sent:
        _forge(guest, data)
    reasons = _refusals_after(host, guest, len(sent))
    assert reasons[0].startswith("illegal move")
    assert reasons[1].startswith("malformed move")
    assert reasons[2] == f"move over {p.MAX_MOVE_BYTES} bytes"
    assert reasons[3].startswith("stale move")
    assert reasons[4] == "unknown message: a match has no message called explode"
    checked = 0
    for reason in reasons:  # plain words a person can read: no Python repr or exception text echoed
        assert "'" not in reason and "{" not in reason and "Error" not in reason, reason
        checked += 1
    assert checked == len(sent)
    assert session.ply == ply
    # and the real guest still plays on
    guest.play(guest.legal_moves()[0])
    pump([host, guest], lambda: session.ply == ply + 1)


async def _abuse(url: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    async with connect(url, max_size=None) as ws:
        await ws.send(b"\x00\xff binary garbage")
        seen["binary"] = json.loads(await ws.recv())
        await ws.send("{not json")
        seen["text"] = json.loads(await ws.recv())
        await ws.send("[1, 2, 3]")
        seen["array"] = json.loads(await ws.recv())
        await ws.send(json.dumps({"t": "list"}))
        seen["early"] = json.loads(await ws.recv())
        await ws.send(json.dumps(hello_message("\x07bell")))
        seen["name"] = json.loads(await ws.recv())
        await ws.send("[" * 60_000)  # (under the 64 KiB frame limit)
        seen["deep"] = json.loads(await ws.recv())
    async with connect(url, max_size=None) as ws:  # one frame over the limit closes that connection only
        await ws.send("x" * (p.MAX_MESSAGE_BYTES + 1))
        try:
            await asyncio.wait_for(ws.recv(), 5.0)
        except ConnectionClosed as exc:
            seen["oversized"] = exc.rcvd.code if exc.rcvd else None
    async with connect(url) as ws:  # a flood of junk gets the connection closed after a few strikes
        try:
            for _ in range(200):
                await ws.send("junk")
            for _ in range(200):
                await asyncio.wait_for(ws.recv(), 5.0)
        except ConnectionClosed as exc:
            seen["flood"] = exc.rcvd.code if exc.rcvd else None
    # a connection that dies in the middle of its handshake
    raw = socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1])))
    raw.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n")
    raw.close()
    async with connect(url) as ws:  # the lobby still answers
        await ws.send(json.dumps(hello_message("Cleo")))
        seen["after"] = json.loads(await ws.recv())
    return seen


def test_garbage_and_oversized_frames_do_not_crash_the_lobby() -> None:
    with lobby(limits=Limits(rate=5000.0, burst=5000.0, max_strikes=20)) as server:
        seen = asyncio.run(_abuse(server.url))
        assert server.lobby.refused >= 6
    assert seen["binary"]["t"] == "error" and "binary" in seen["binary"]["reason"]
    assert seen["text"] == {"t": "error", "reason": "not JSON"}
    assert seen["array"]["reason"] == "a message is a JSON object"
    assert seen["early"]["reason"] == "say hello first"
    assert "control characters" in seen["name"]["reason"]
    assert seen["deep"]["t"] == "error"
    assert seen["oversized"] == 1009  # "message too big"
    assert seen["flood"] == 1008
    assert seen["after"]["t"] == "welcome"


async def _burst(url: str, count: int) -> int:
    async with connect(url) as ws:
        await ws.send(json.dumps(hello_message("Dan")))
        await ws.recv()
        for n in range(count):
            await ws.send(json.dumps({"t": "ping", "n": n}))
        answers = [json.loads(await asyncio.wait_for(ws.recv(), 10.0)) for _ in range(count)]
    return sum(1 for a in answers if a["t"] == "pong")


def test_rate_limit_holds_messages_back_without_losing_them() -> None:
    with lobby(limits=Limits(rate=200.0, burst=10.0)) as server:
        answered = asyncio.run(_burst(server.url, 60))
        assert server.lobby.throttled > 0
    assert answered == 60
