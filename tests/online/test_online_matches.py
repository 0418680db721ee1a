"""Two clients play whole matches through a loopback lobby; the guest learns only its own view."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from pegboard.game import events_for
from pegboard.records.replay import game_for_record
from pegboard.records.validate import read_record, validate_file
from support.online_helpers import HostSettings, Recorder, client, lobby, pair, play_random


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
    for message in seen.relayed("state"):
        assert message["obs"] == positions[message["ply"]]


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
    hidden_squares = 0
    for message in updates:
        observation, hidden = views[message["ply"]]
        obs = message["obs"]
        assert set(message) <= {"t", "ply", "to_move", "obs", "events", "clocks", "result", "last"}
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
        assert "last" not in message or message["last"]["seat"] == g  # the host's moves are not named
    assert hidden_squares > 0  # the fog really hid something
    received = [e for m in updates for e in m["events"]]
    assert received == [e.to_json() for evs in events for e in events_for(evs, g)]
    private = [e.to_json() for evs in events for e in evs if e.seen_by is not None and g not in e.seen_by]
    assert not [e for e in private if e in received]
