"""Rulesets, schemas, move encoding, positions, the plugin hooks, the clock and the bench."""

from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import pytest

from pegboard.game import InvalidMoveEncoding, InvalidPosition
from pegboard.plugins.manager import get_plugins
from pegboard.rules.rulesets import load_game, load_ruleset
from pegboard.support.resources import data_dir
from pegboard_starfall import moves as mv
from pegboard_starfall.rules import Rules, RulesetValueError, handicap_asteroids

SCHEMAS = data_dir("schemas", "starfall")
RULESETS = sorted(p.stem for p in Path(data_dir("rulesets", "starfall")).glob("*.toml"))


def schema(name):
    return jsonschema.Draft202012Validator(json.loads((SCHEMAS / f"{name}.schema.json").read_text()))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_shipped_rulesets_load_and_play(ruleset):
    rs = load_ruleset(ruleset, game="starfall")
    schema("ruleset").validate(dict(rs.data))
    game = load_game("starfall", ruleset)
    st = game.new_state(1)
    assert st.legal_moves()
    assert game.hidden_information == (game.rules.fog != "off")


def test_variants_say_what_they_change():
    assert load_game("starfall", "fog_seam").rules.fog == "seam"
    assert load_game("starfall", "salvage").rules.salvage is True
    quick = load_game("starfall", "quick")
    assert (quick.rules.width, quick.rules.height) == (9, 9)
    st = quick.new_state(1)
    assert st.kind[quick.geo.sq(4, 0)] and st.kind[quick.geo.sq(4, 8)]


def test_bad_ruleset_values_are_reported():
    with pytest.raises(RulesetValueError):
        Rules.from_ruleset({"board": {"height": 10}})
    with pytest.raises(RulesetValueError):
        Rules.from_ruleset({"payout": {"line4": {"drones": ["dragon"], "at_nine": "nothing"}}})


def test_handicap_maths():
    assert handicap_asteroids(3, 1000, 1000) == ((3, 3), 0)
    assert handicap_asteroids(3, 1000, 1160) == ((2, 5), -10)  # n = 3: +2 to North, -1 from South
    assert handicap_asteroids(1, 1400, 1000) == ((5, 0), 0)  # never below zero


def test_every_legal_move_encodes_validates_and_decodes(game):
    check = schema("move")
    rng = random.Random(1)
    st = game.new_state(3)
    kinds = set()
    for _ in range(40):
        for m in st.legal_moves():
            data = game.encode_move(m)
            check.validate(data)
            assert game.decode_move(json.loads(json.dumps(data))) == m
            assert game.move_text(m)
            kinds.add(m.kind)
        st.apply(rng.choice(st.legal_moves()))
    for m in (mv.PASS_MOVE, mv.TIMEOUT_MOVE, mv.concede(1, "flag"), mv.ram(5, 3), mv.build(7)):
        check.validate(game.encode_move(m))
        assert game.decode_move(game.encode_move(m)) == m
    assert {"swap", "move", "fire"} <= kinds


@pytest.mark.parametrize("bad", [None, {}, {"type": "swap", "a": [0, 0]}, {"type": "fly"},
                                 {"type": "move", "from": [0, 0], "to": [11, 0]},
                                 {"type": "ram", "from": [0, 0], "dir": [2, 0]}])
def test_bad_moves_raise(game, bad):
    with pytest.raises(InvalidMoveEncoding):
        game.decode_move(bad)


def test_positions_validate_and_round_trip(game):
    check = schema("position")
    rng = random.Random(4)
    fogged = load_game("starfall", "fog_seam")
    for g in (game, fogged):
        st = g.new_state(4)
        for _ in range(30):
            st.apply(rng.choice(st.legal_moves()))
        data = st.to_json()
        check.validate(data)
        check.validate(st.observation(0))
        assert g.state_from_json(json.loads(json.dumps(data))).to_json() == data


@pytest.mark.parametrize("mutate", [
    lambda d: d.update(stars=d["stars"][:-1]),
    lambda d: d.update(to_move=2),
    lambda d: d["drones"].append(dict(d["drones"][0])),
    lambda d: d.update(drones=[x for x in d["drones"] if x["kind"] != "M"]),
    lambda d: d["drones"][0].update(power=4),
    lambda d: d.update(asteroids=[d["drones"][0]["at"]]),
    lambda d: d.update(width=9),
])
def test_broken_positions_raise(game, mutate):
    data = game.new_state(1).to_json()
    mutate(data)
    with pytest.raises(InvalidPosition):
        game.state_from_json(data)


def test_plugin_registers_game_and_bench():
    plugins = get_plugins()
    spec = plugins.game("starfall")
    assert spec.name == "Starfall" and spec.seats == ("South", "North")
    assert (spec.schema_dir / "move.schema.json").exists() and (spec.ruleset_dir / "standard.toml").exists()
    bench = plugins.benchmarks("starfall")
    figures = next(iter(bench.values())).run(True)
    assert {f.unit for f in figures} >= {"games/s", "moves/s", "calls/s"}
    assert all(f.value > 0 for f in figures)


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_timers_through_the_session_move_timer_passes_and_flag_loses():
    from pegboard.match.session import Session

    game = load_game("starfall", "timed")
    clock = FakeTime()
    session = Session(game, ["human", "human"], seed=1, time_source=clock, threaded=False)
    assert session.clock is not None  # the ruleset's [timers] table turned the clocks on
    clock.now = 61.0
    session.poll()
    assert session.state.to_move == 1 and session.moves == [mv.TIMEOUT_MOVE]  # the turn passed
    assert session.result is None
    clock.now = 61.0 + 30.0
    session.play(session.state.legal_moves()[-1])
    # South keeps letting its move timer run out until its 20-minute clock is gone
    while session.result is None:
        clock.now += 61.0
        session.poll()
    assert session.result.reason == "flag" and session.result.winner == 1
    assert session.state.result is not None  # recorded as a concede move, so the record replays
    assert game.encode_move(session.moves[-1]) == {"type": "concede", "seat": 0, "reason": "flag"}


def test_state_offers_its_timeout_and_concede_moves(game):
    st = game.new_state(1)
    assert st.timeout_move() == mv.TIMEOUT_MOVE
    assert st.concede_move(1, "flag") == mv.concede(1, "flag")
    st.apply(st.concede_move(1, "move_time"))
    assert st.result.winner == 0 and st.result.reason == "move_time"


def test_match_record_validates_through_the_core():
    from pegboard.records.files import record_from_moves
    from pegboard.records.validate import validate_record

    rs = load_ruleset("salvage", game="starfall")
    game = load_game("starfall", rs)
    st = game.new_state(8)
    rng = random.Random(8)
    played = []
    for _ in range(60):
        m = rng.choice(st.legal_moves())
        st.apply(m)
        played.append(m)
    played.append(st.concede_move(st.to_move, "resign"))
    st.apply(played[-1])
    record = record_from_moves(game, rs, 8, ["human", "human"], played, st.result)
    report = validate_record(json.loads(json.dumps(record)))
    assert report.ok, report.errors
    assert report.moves == 61
    record["result"] = {"winner": st.result.winner ^ 1, "reason": "resign"}
    assert not validate_record(record).ok


def test_text_picture(game):
    st = game.new_state(3)
    text = str(st)
    lines = text.splitlines()
    assert lines[0].startswith("10 ") and "m>" in lines[0] and "s>" in lines[0]
    assert " M< " in lines[10] + " " and lines[5].endswith("seam")
    assert lines[-1].startswith("turn 0, South to move, squares 9-9")
