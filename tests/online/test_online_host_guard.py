"""A host under a junk-sending guest, and a guest whose host is away (issue 26, weaknesses 5 and 9)."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from pegboard.online import protocol as p
from pegboard.online.host import KEPT_REFUSALS, LOGGED_REFUSALS, REASON_CHARS
from pegboard.online.limits import Limits
from support.online_helpers import Attack, HostSettings, client, honest_match, lobby, pair, pump

# -- 5. a guest that sends junk --------------------------------------------------------------------------------


def test_a_junk_sending_guest_is_bounded_then_disconnected_and_the_seat_stays_resumable(
        tmp_path: Path, plugins: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="pegboard.online")
    limits = Limits(rate=5000.0, burst=5000.0, max_strikes=1000, kick_pause=0.5)
    with lobby(limits=limits) as server:
        ann = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=0))
        bob = client(server.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
        heard: dict[int, list[Any]] = {}
        try:
            pair(ann, bob)
            token = bob.player.ticket.token
            field = "x" * 10_000  # under the lobby's cap for a guest's relay, so it reaches the host
            ws = bob._link._ws

            async def attack(stop: asyncio.Event) -> dict[str, int]:
                sent = {"junk": 0, "oversized": 0}
                big = json.dumps({"t": "relay", "data": {"t": "move", "token": token, "x": "y" * p.MAX_GUEST_RELAY_BYTES}})
                try:
                    await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(ws.send(big), bob._loop))
                    sent["oversized"] += 1
                    for n in range(300):
                        frame = json.dumps({"t": "relay", "data": {"t": f"junk{n}{field}", "token": token}})
                        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(ws.send(frame), bob._loop))
                        sent["junk"] += 1
                except ConnectionClosed:
                    pass  # the host had the guest disconnected
                await stop.wait()
                return sent

            with Attack(attack) as running:
                assert honest_match(server.url, tmp_path, plugins) >= 6
                pump([ann, bob], lambda: any(n.kind == "peer" and n.data.get("status") == "kicked"
                                             for n in heard.get(id(ann), [])), notices=heard)
                sent = running.result()
            host = ann.player.host
            assert sent["oversized"] == 1 and sent["junk"] >= 20
            assert any(n.kind == "error" and "a guest's relay may hold at most" in n.text for n in heard.get(id(bob), []))
            # what the host keeps and logs of it is bounded, whatever the guest sends
            assert host.refused_count >= 20 and len(host.refusals) <= KEPT_REFUSALS
            assert all(len(r.reason) <= REASON_CHARS and len(r.kind) <= 40 for r in host.refusals)
            logged = [r for r in caplog.records if r.name == "pegboard.online.host"]
            assert len(logged) <= LOGGED_REFUSALS + 1 and all(len(r.getMessage()) < 400 for r in logged)
            # the guest was disconnected; the seat is still its own: its program comes back and plays on
            pump([ann, bob], lambda: any(n.kind == "link" and n.data.get("status") == "reconnecting"
                                         for n in heard.get(id(bob), [])), notices=heard)
            pump([ann, bob], lambda: bob.status == "Connected" and ann.player.peer_online and bob.player.peer_online,
                 notices=heard)
            if ann.my_turn:
                ann.play(ann.legal_moves()[0])
            pump([ann, bob], lambda: bob.my_turn)
            ply = host.session.ply
            bob.play(random.Random(2).choice(bob.legal_moves()))
            pump([ann, bob], lambda: host.session.ply == ply + 1)
        finally:
            ann.close(leave=True)
            bob.close(leave=True)


# -- 9. a move while the host is away ----------------------------------------------------------------------------


def test_a_move_sent_while_the_host_is_away_is_kept_and_delivered_when_it_is_back(tmp_path: Path, plugins: Any) -> None:
    with lobby() as server:
        ann = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=0))
        bob = client(server.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
        heard: dict[int, list[Any]] = {}
        again = None
        try:
            pair(ann, bob)
            ann.play(ann.legal_moves()[0])
            pump([ann, bob], lambda: bob.my_turn)
            ann.close()  # the host's program stops (killed, a lost connection: the match stays open)
            pump([bob], lambda: not bob.player.peer_online, notices=heard)
            move = bob.legal_moves()[3]
            bob.play(move)
            pump([bob], lambda: bob.player.guest.pending, notices=heard)
            assert any(n.kind == "pending" and "your move is kept" in n.text for n in heard[id(bob)])
            assert bob.status_line() == "Connected · Ann is away: your move is kept and will be sent when they are back"
            assert not bob.my_turn  # the kept move is still this side's move: no second one
            again = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=0))
            ticket = again.resume_unfinished()
            assert ticket is not None
            again.connect(ticket)  # the host is back: the kept move reaches it and is played
            pump([again, bob], lambda: again.player.host.session.ply == 2 and not bob.player.guest.pending)
            assert again.player.host.session.history[1].move == move
            pump([again, bob], lambda: bob.player.guest.last.ply == 2)
        finally:
            for c in (ann, bob, again):
                if c is not None:
                    c.close(leave=True)


def test_an_accept_the_host_was_not_there_for_is_kept_and_sent_when_it_is_back(tmp_path: Path, plugins: Any) -> None:
    """Message by message (no network): the lobby's ``undelivered`` answer keeps the accept."""
    from pegboard.online.player import OnlinePlayer
    from pegboard.online.store import Store

    guest = OnlinePlayer("ws://127.0.0.1:1", "Bob", "nodewar", plugins=plugins, store=Store(tmp_path / "bob"))
    guest.receive({"t": "paired", "match": "m1", "role": "guest", "token": "t" * 32, "peer": {"name": "Ann"}})
    host = OnlinePlayer("ws://127.0.0.1:1", "Ann", "nodewar", plugins=plugins, store=Store(tmp_path / "ann"),
                        host=HostSettings(ruleset="skirmish", seat=0, seed=1))
    host.receive({"t": "paired", "match": "m1", "role": "host", "token": "h" * 32, "guest_token": "t" * 32,
                  "peer": {"name": "Bob"}})
    for message in host.take_outbox():
        guest.receive(message)  # the offer
    guest.accept()
    sent = guest.take_outbox()
    assert [m["data"]["t"] for m in sent] == ["accept"]
    guest.receive({"t": "undelivered", "status": "away", "of": "accept"})
    assert any(n.kind == "pending" and "your accept is kept" in n.text for n in guest.take_notices())
    assert guest.take_outbox() == []
    guest.receive({"t": "peer", "status": "back"})
    again = guest.take_outbox()
    assert [m["data"]["t"] for m in again] == ["accept", "sync"]
    for message in again:
        host.receive(message)
    assert host.started


def test_online_log_is_bounded_on_disk(tmp_path: Path) -> None:
    from pegboard.cli.online import _log_to_file

    logger = logging.getLogger("pegboard.online")
    before, level, propagate = list(logger.handlers), logger.level, logger.propagate
    try:
        _log_to_file(tmp_path)
        line = "refused the guest's move: " + "x" * 180
        for _ in range(12_000):  # ~2.5 MB of refusals, as a hostile guest could cause in a long match
            logging.getLogger("pegboard.online.host").warning(line)
        sizes = [p.stat().st_size for p in tmp_path.glob("online.log*")]
        assert len(sizes) == 2 and max(sizes) <= (1 << 20) + 400  # the file and one older file, 1 MiB each
    finally:
        for handler in logger.handlers[len(before):]:
            handler.close()
        logger.handlers[:] = before
        logger.setLevel(level)
        logger.propagate = propagate
