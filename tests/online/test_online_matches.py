"""Two clients play whole matches through a loopback lobby; the guest learns only its own view."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from pegboard.game import events_for
from pegboard.records.replay import game_for_record
from pegboard.records.validate import read_record, validate_file
from support.online_helpers import DEADLINE, HostSettings, Recorder, client, lobby, pair, play_random, pump


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _replay(record: dict[str, Any], plugins: Any, look: Any) -> tuple[list[Any], list[list[Any]]]:
    """``look(state)`` after each ply of the record (0 = the start), and the events of each move."""
    game = game_for_record(record, plugins)
    state = game.new_state(record["seed"])
    seen, events = [look(state)], []
    for data in record["moves"]:
        events.append(state.apply(game.decode_move(data)))
        seen.append(look(state))
    return seen, events


def test_nodewar_match_to_the_end(tmp_path: Path, plugins: Any) -> None:
    with lobby() as server:
        host = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=0, seed=5))
        guest = client(server.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
        seen = Recorder(guest)
        try:
            pair(host, guest)
            assert host.seat == 0 and guest.seat == 1
            assert "Connected" in guest.status_line()
            played = play_random([host, guest], random.Random(11))
            assert played > 0
            assert host.result is not None and guest.result is not None
            assert host.result.same_outcome(guest.result)
        finally:
            host.close(leave=True)
            guest.close(leave=True)
    record_path = host.player.store.record_path(host.player.ticket.match)
    report = validate_file(record_path, plugins)
    assert report.ok, report.errors
    record = read_record(record_path, plugins)
    assert [p["name"] for p in record["players"]] == ["Ann", "Bob"]
    # the guest saw the offer (the host's settings) before the first state
    kinds = [m["data"]["t"] for m in seen.messages if m.get("t") == "relay"]
    assert kinds.index("offer") < kinds.index("state")
    assert seen.relayed("offer")[0]["ruleset"]["id"] == "skirmish"
    # a perfect-information game shows the guest the whole position after every move
    positions, _ = _replay(record, plugins, lambda state: _plain(state.to_json()))
    checked = 0
    for message in seen.relayed("state"):
        assert message["obs"] == positions[message["ply"]]
        checked += 1
    assert checked >= played > 0


def test_fogged_starfall_guest_never_sees_a_hidden_square(tmp_path: Path, plugins: Any) -> None:
    ruleset = tmp_path / "quick_dark.toml"
    ruleset.write_text('game = "starfall"\nid = "quick_dark"\nname = "Quick, dark"\nextends = "starfall/quick"\n\n[fog]\nmode = "dark"\n')
    with lobby() as server:
        host = client(server.url, "Ann", "starfall", tmp_path, plugins, host=HostSettings(ruleset=str(ruleset), seat=0, seed=9))
        guest = client(server.url, "Bob", "starfall", tmp_path, plugins, auto_accept=True)
        seen = Recorder(guest)
        try:
            pair(host, guest)
            play_random([host, guest], random.Random(4))
            assert host.result is not None and guest.result is not None
        finally:
            host.close(leave=True)
            guest.close(leave=True)
    record_path = host.player.store.record_path(host.player.ticket.match)
    assert validate_file(record_path, plugins).ok
    record = read_record(record_path, plugins)
    g = guest.seat
    assert g == 1
    views, events = _replay(record, plugins, lambda state: (_plain(state.observation(g)), state.hidden_from(g)))
    offer = seen.relayed("offer")[0]
    assert offer["ruleset"]["fog"]["mode"] == "dark" and "seed" not in offer
    updates = seen.relayed("state")
    assert len(updates) > 10
    hidden_squares = hidden_moves = 0
    for message in updates:
        observation, hidden = views[message["ply"]]
        obs = message["obs"]
        assert set(message) <= {"t", "ply", "to_move", "obs", "events", "clocks", "result", "last", "earlier"}
        assert obs == observation  # exactly the guest's observation, nothing more
        assert "seed" not in obs and "draws" not in obs
        for pointer in hidden:  # everything the rules hide from the guest ...
            node: Any = obs
            for part in pointer.strip("/").split("/"):
                if node is None:
                    break
                node = node[int(part)] if isinstance(node, list) else node.get(part)
            assert node is None, pointer  # ... is absent from what it received
            hidden_squares += 1
        last = message.get("last")
        if last is not None and last["seat"] != g:  # the host's moves: told as the guest's seat may read them
            hidden_moves += last["text"] == "a move out of sight"
            assert "move" not in last or last["move"] == record["moves"][message["ply"] - 1]
            assert "move" in last or last["text"] != game_for_record(record, plugins).move_text(
                game_for_record(record, plugins).decode_move(record["moves"][message["ply"] - 1]))
    assert hidden_squares > 0 and hidden_moves > 0  # the fog really hid something
    received = [e for m in updates for e in m["events"]]
    assert received == [e.to_json() for evs in events for e in events_for(evs, g)]
    private = [e.to_json() for evs in events for e in evs if e.seen_by is not None and g not in e.seen_by]
    assert not [e for e in private if e in received]


def _visible(state: Any, seat: int) -> set[int]:
    grid = state.observation(seat)["visible"]
    return {r * len(row) + c for r, row in enumerate(grid) for c, v in enumerate(row) if v}


def test_fogged_starfall_guest_reads_each_move_as_its_seat_may_and_its_history_has_every_ply(
        tmp_path: Path, plugins: Any) -> None:
    """Under fog the host tells the guest each move as the guest's seat may read it
    (``PlyRecord.text_for``), the encoded move only when that seat may read all of it, and
    the guest's History gets one entry per ply with exactly that text."""
    from pegboard.online.remote import OnlineSession
    from support.fogtext import check_text, squares_named

    plies = 70
    with lobby() as server:
        host = client(server.url, "Ann", "starfall", tmp_path, plugins, host=HostSettings(ruleset="fog_seam", seat=0, seed=21))
        guest = client(server.url, "Bob", "starfall", tmp_path, plugins, auto_accept=True)
        seen = Recorder(guest)
        try:
            pair(host, guest)
            remote = OnlineSession(guest, first_ply=0)
            hosted = host.player.host.session
            rng = random.Random(8)
            host_heard: list[tuple[int, str]] = []  # (ply, text) of each move the host's own notices tell
            end = time.monotonic() + DEADLINE
            # both sides play random moves from their own view; the guest's notices go to its session
            while hosted.cursor < plies and hosted.result is None or guest.player.guest.last.ply < hosted.cursor:
                assert time.monotonic() < end, "the match did not get far enough in time"
                for notice in host.poll():
                    moved = notice.data.get("moved") if notice.kind == "state" else None
                    if moved is not None:
                        host_heard.append((hosted.cursor, moved["text"]))
                for notice in guest.poll():
                    remote.receive(notice)
                for side in (host, guest):
                    if side.my_turn and hosted.cursor < plies:
                        side.play(rng.choice(side.legal_moves()))
                time.sleep(0.0005)
            records = list(hosted.history[: hosted.cursor])
            record = hosted.to_record()
        finally:
            host.close(leave=True)
            guest.close(leave=True)
    g = guest.seat
    assert g == 1 and len(records) >= plies
    sight, _ = _replay(record, plugins, lambda state: _visible(state, g))
    assert len(sight) == len(records) + 1

    def around(ply: int) -> set[int]:
        return sight[ply - 1] | sight[ply]

    checked = withheld = 0
    prev = 0
    for message in seen.relayed("state"):
        ply = message["ply"]
        heard = set().union(*sight[max(0, prev): ply + 1]) if ply > prev else around(max(1, ply))
        for event in message["events"]:
            check_text(event["text"], heard, f"an event before move {ply}", seat=g)
        prev = max(prev, ply)
        if ply == 0:
            assert "last" not in message
            continue
        last, played = message["last"], records[ply - 1]
        assert last["seat"] == played.seat and last["text"] == played.text_for(g)
        check_text(last["text"], around(ply), f"move {ply}", seat=g)
        if played.seat != g and last["text"] != played.text:
            assert "move" not in last, f"move {ply}: the guest gets an encoded move it may not see: {played.text!r}"
            withheld += 1
        if "move" in last:
            assert last["move"] == hosted.game.encode_move(played.move)
            if played.seat != g:  # told in full: the guest saw every square it names
                assert squares_named(played.text) <= sight[ply - 1], played.text
        checked += 1
    assert checked >= plies and withheld >= 1, (checked, withheld)
    full = sum(1 for m in seen.relayed("state") if "move" in m.get("last", {}) and m["last"]["seat"] != g)
    assert full >= 1, "a host move the guest saw all of comes with its encoded move"
    # the guest's History: one entry per ply, each with the text its seat may read
    assert [r.number for r in remote.history] == list(range(1, len(records) + 1))
    told = 0
    for entry, played in zip(remote.history, records, strict=True):
        assert entry.seat == played.seat and entry.text == played.text_for(g), entry.number
        check_text(entry.text, around(entry.number), f"History, move {entry.number}", seat=g)
        assert (entry.move is not None) == (played.seat == g or played.text_for(g) == played.text)
        told += 1
    assert told == len(records) >= plies
    # and the host's own news (the terminal prints it) tells the guest's moves as the host's seat may read them
    heard = 0
    for ply, text in host_heard:
        assert text == records[ply - 1].text_for(0), (ply, text)
        heard += 1
    assert heard >= plies // 2


def _two_host_moves_lost(tmp_path: Path, plugins: Any) -> tuple[list[dict[str, Any]], Any, list[Any], int]:
    """A fogged Starfall match where the guest's connection loses the updates of the host's first
    two moves (a missile, then an action) and comes back: the state messages the guest then got,
    its OnlineSession, the host's records and the guest's seat."""
    from pegboard.online.remote import OnlineSession

    with lobby() as server:
        host = client(server.url, "Ann", "starfall", tmp_path, plugins, host=HostSettings(ruleset="fog_seam", seat=0, seed=5))
        guest = client(server.url, "Bob", "starfall", tmp_path, plugins, auto_accept=True)
        got: list[dict[str, Any]] = []
        dropped: list[dict[str, Any]] = []
        losing = [False]
        original = guest.player.receive

        def receive(message: dict[str, Any]) -> None:
            data = message.get("data", {}) if message.get("t") == "relay" else {}
            if losing[0] and data.get("t") == "state":
                dropped.append(data)  # lost with the connection
                return
            if data.get("t") == "state":
                got.append(data)
            original(message)

        guest.player.receive = receive  # type: ignore[method-assign]
        try:
            pair(host, guest)
            remote = OnlineSession(guest, first_ply=0)
            hosted = host.player.host.session

            def follow() -> None:
                host.poll()
                for notice in guest.poll():
                    remote.receive(notice)

            losing[0] = True
            shots = [m for m in host.legal_moves() if m.kind == "fire"]
            assert shots, "the South scout starts with a missile to fire"
            host.play(shots[0])
            host.play(next(m for m in host.legal_moves() if m.kind != "fire"))
            assert hosted.cursor == 2
            pump([host, guest], lambda: len(dropped) == 2)
            losing[0] = False
            guest.drop_connection()  # it comes back, and asks for its view again
            end = time.monotonic() + DEADLINE
            while guest.player.guest.last.ply < 2:
                assert time.monotonic() < end, "the guest did not hear of the moves again"
                follow()
                time.sleep(0.001)
            follow()
            records = list(hosted.history[: hosted.cursor])
        finally:
            host.close(leave=True)
            guest.close(leave=True)
    return got, remote, records, guest.seat


def test_moves_a_guest_missed_while_away_reach_its_history_as_its_seat_may_read_them(tmp_path: Path, plugins: Any) -> None:
    """After the guest reconnects it says up to which ply it heard (``sync``'s ``seen``) and the
    host tells it both lost moves again (``earlier``), so its History has each with its own text,
    not "a move you cannot see"."""
    got, remote, records, g = _two_host_moves_lost(tmp_path, plugins)
    told = next(m for m in got if m["ply"] == 2 and m.get("earlier"))
    assert [e["ply"] for e in told["earlier"]] == [1]
    assert told["earlier"][0]["text"] == records[0].text_for(g) and told["last"]["text"] == records[1].text_for(g)
    checked = 0
    for entry, played in zip(remote.history, records, strict=True):
        assert entry.number == played.number and entry.seat == played.seat == 0
        assert entry.text == played.text_for(g) != "a move you cannot see"
        checked += 1
    assert checked == 2
    # told again the way it would have been told at once: encoded only if the guest saw all of it
    assert ("move" in told["earlier"][0]) == (records[0].text_for(g) == records[0].text)


def test_what_is_told_again_is_bounded(tmp_path: Path, plugins: Any, monkeypatch: Any) -> None:
    """Past EARLIER_BYTES the oldest moves are left out: the guest's History then says it missed one."""
    from pegboard.online import host as hostmodule

    monkeypatch.setattr(hostmodule, "EARLIER_BYTES", 8)
    got, remote, records, g = _two_host_moves_lost(tmp_path, plugins)
    assert not any(m.get("earlier") for m in got)
    assert [r.text for r in remote.history] == ["a move you cannot see", records[1].text_for(g)]
