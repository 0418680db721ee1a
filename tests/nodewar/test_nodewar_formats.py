"""Position JSON, move encoding, JSON Schemas and the match text format."""

from __future__ import annotations

import copy
import json
import random
import re

import jsonschema
import pytest

from pegboard.game import IllegalMove, InvalidMoveEncoding, InvalidPosition
from pegboard.support.resources import data_dir
from pegboard_nodewar import GROW, SPLIT, NodeWarGame, load_shipped
from pegboard_nodewar.textformat import MatchText, MatchTextError, loads
from support.nodewar_helpers import build, position_doc

BB = (6, 2)


def schema(name: str) -> jsonschema.protocols.Validator:
    with open(data_dir("schemas", "nodewar") / f"{name}.schema.json", encoding="utf-8") as fh:
        doc = json.load(fh)
    jsonschema.Draft202012Validator.check_schema(doc)
    return jsonschema.Draft202012Validator(doc)


def random_record(game: NodeWarGame, seed: int, length: int = 400) -> dict:
    rng = random.Random(seed)
    state = game.new_state()
    moves = []
    while state.result is None and len(moves) < length:
        move = rng.choice(state.legal_moves())
        moves.append(game.encode_move(move))
        state.apply(move)
    record = {
        "format": "pegboard.match/1",
        "game": "nodewar",
        "ruleset": dict(game.ruleset),
        "seed": 0,
        "players": [{"seat": "Blue", "name": "Ann"}, {"seat": "Red", "name": "Random", "bot": "random"}],
        "moves": moves,
    }
    if state.result is not None:
        record["result"] = state.result.to_json()
    return record


# -- schemas ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["standard", "skirmish", "wide"])
def test_shipped_rulesets_validate(name: str) -> None:
    ruleset = load_shipped(name)
    errors = list(schema("ruleset").iter_errors(ruleset))
    assert not errors, errors[0].message
    game = NodeWarGame(ruleset)
    assert game.new_state().legal_moves()


def test_ruleset_schema_rejects_bad_values() -> None:
    bad = copy.deepcopy(load_shipped("standard"))
    bad["board"]["distance"] = "taxicab"
    assert list(schema("ruleset").iter_errors(bad))
    bad = copy.deepcopy(load_shipped("standard"))
    bad["node"]["branches"] = 0
    assert list(schema("ruleset").iter_errors(bad))


def test_variants_play_differently() -> None:
    sizes = {name: NodeWarGame(load_shipped(name)).params for name in ("standard", "skirmish", "wide")}
    assert len({(p.width, p.height, p.base_radius, p.node_radius, p.turn_limit) for p in sizes.values()}) == 3


def test_positions_and_moves_match_their_schemas(game: NodeWarGame) -> None:
    position, move_schema = schema("position"), schema("move")
    rng = random.Random(3)
    state = game.new_state()
    for _ in range(120):
        assert not list(position.iter_errors(state.to_json()))
        move = rng.choice(state.legal_moves())
        assert not list(move_schema.iter_errors(game.encode_move(move)))
        state.apply(move)


# -- position JSON ---------------------------------------------------------------------------------


def test_position_round_trip_midgame(game: NodeWarGame) -> None:
    rng = random.Random(11)
    state = game.new_state()
    for _ in range(150):
        state.apply(rng.choice(state.legal_moves()))
    doc = state.to_json()
    again = game.state_from_json(json.loads(json.dumps(doc)))
    assert again.to_json() == doc
    assert again.legal_moves() == state.legal_moves()
    assert again.turn == 151 and again.ply == 0


def test_position_round_trip_finished(game: NodeWarGame) -> None:
    state = build(game, [(6, 6)], [], [(BB, (6, 6))], turn=300, turn_limit=300)
    state.apply(game.move(GROW, (6, 6), (6, 9)))
    doc = state.to_json()
    assert doc["result"]["reason"] == "turn_limit"
    assert game.state_from_json(doc).to_json() == doc


def _broken(game: NodeWarGame, change) -> dict:
    doc = position_doc(game, [(4, 8)], [(6, 12)], [(BB, (4, 8)), ((6, 16), (6, 12))])
    change(doc)
    return doc


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(width=9), "board is 9x19"),
        (lambda d: d["nodes"].append({"x": 4, "y": 8, "owner": 1}), "two nodes on the point 4,8"),
        (lambda d: d["nodes"].append({"x": 5, "y": 5, "owner": 1}), "passes through the node at 5,5"),
        (lambda d: d["nodes"].pop(0), "Blue has no Base"),
        (lambda d: d["nodes"].append({"x": 1, "y": 1, "owner": 1, "kind": "base"}), "Red has two Bases"),
        (lambda d: d["nodes"].append({"x": 30, "y": 1, "owner": 1}), "on the board"),
        (lambda d: d["lines"].append({"owner": 1, "ends": [[6, 2], [4, 8]]}), "holds no Red node"),
        (lambda d: d["lines"].append({"owner": 0, "ends": [[6, 2], [6, 2]]}), "to itself"),
        (lambda d: d["lines"].append({"owner": 0, "ends": [[6, 2], [4, 8]]}), "two live lines"),
        (lambda d: d["lines"][0].update(state="broken"), "'live' or 'cut'"),
        (lambda d: d.update(to_move=2), "to_move"),
        (lambda d: d.update(turn=400), "past the turn limit"),
        (lambda d: d["nodes"][2].update(alive=False), "declared dead"),
        (lambda d: d.update(result={"winner": 0, "reason": "no_moves"}), "does not match"),
    ],
)
def test_invalid_positions(game: NodeWarGame, change, words: str) -> None:
    with pytest.raises(InvalidPosition) as info:
        game.state_from_json(_broken(game, change))
    assert words in str(info.value)


def test_invalid_position_touching_enemy_lines(game: NodeWarGame) -> None:
    doc = position_doc(game, [(3, 9), (5, 9)], [(4, 8), (4, 10)], [((3, 9), (5, 9)), ((4, 8), (4, 10))])
    with pytest.raises(InvalidPosition, match="touches the live Blue line"):
        game.state_from_json(doc)
    doc["lines"][0]["state"] = "cut"
    game.state_from_json(doc)


def test_invalid_position_branch_overflow(game: NodeWarGame) -> None:
    spokes = [(4, 8), (5, 9), (6, 9), (7, 9), (8, 9)]
    doc = position_doc(game, spokes, [], [((4, 8), p) for p in spokes[1:]] + [(BB, (4, 8), "cut")])
    with pytest.raises(InvalidPosition, match="5 branches"):
        game.state_from_json(doc)


# -- move encoding and text -----------------------------------------------------------------------


def test_move_encoding_round_trip(game: NodeWarGame) -> None:
    move = game.move(SPLIT, (6, 2), (6, 4))
    data = game.encode_move(move)
    assert data == {"kind": "split", "from": [6, 2], "to": [6, 4]}
    assert game.decode_move(data) == move
    assert game.move_text(move) == "split 6,2 -> 6,4"
    assert game.parse_move("split 6,2 -> 6,4") == move
    assert game.parse_move("  SPLIT 6 , 2 → 6,4 ") == move


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "jump", "from": [6, 2], "to": [6, 4]},
        {"kind": "grow", "from": [6, 2]},
        {"kind": "grow", "from": [6, 2], "to": [13, 4]},
        {"kind": "grow", "from": [6, 2], "to": [6.0, 4]},
        {"kind": "grow", "from": [6, 2, 1], "to": [6, 4]},
        "grow",
    ],
)
def test_bad_move_encodings(game: NodeWarGame, data) -> None:
    with pytest.raises(InvalidMoveEncoding):
        game.decode_move(data)


@pytest.mark.parametrize("text", ["grow 6,2 6,6", "hop 6,2 -> 6,6", "grow 6,2 -> 6,19", "grow a,b -> 1,1"])
def test_bad_move_texts(game: NodeWarGame, text: str) -> None:
    with pytest.raises(InvalidMoveEncoding):
        game.parse_move(text)


def test_apply_of_garbage_is_an_illegal_move(game: NodeWarGame) -> None:
    state = game.new_state()
    with pytest.raises(IllegalMove) as info:
        state.apply(("grow", 1))
    assert info.value.rule == "bad_move"


# -- match text format ------------------------------------------------------------------------------

SAMPLE = """\
# pegboard nodewar match
# ruleset: nodewar/standard
# blue: Player
# red: Expert
1 Blue grow 6,2 -> 6,6
2 Red grow 6,16 -> 6,12
3 Blue split 6,2 -> 6,4
4 Red grow 6,12 -> 7,14
"""


def test_sample_from_the_rulings_loads() -> None:
    record = loads(SAMPLE)
    assert record["moves"][2] == {"kind": "split", "from": [6, 2], "to": [6, 4]}
    assert record["players"][0] == {"seat": "Blue", "name": "Player"}
    assert record["players"][1]["name"] == "Expert"
    assert record["ruleset"]["id"] == "standard"
    assert "result" not in record


def test_text_round_trip(game: NodeWarGame) -> None:
    record = random_record(game, 5)
    text = MatchText().dumps(record, game)
    assert text.startswith("# pegboard nodewar match\n# ruleset: nodewar/standard\n# blue: Ann\n")
    back = loads(text)
    assert back["moves"] == record["moves"]
    assert back.get("result") == record.get("result")
    assert back["players"] == record["players"]
    assert MatchText().dumps(back, game) == text


def test_text_tolerates_arrows_spaces_and_comments() -> None:
    text = SAMPLE.replace("6,2 -> 6,6", "6 , 2 → 6,6").replace("2 Red", "\n# a comment\n\n2   Red")
    assert loads(text)["moves"] == loads(SAMPLE)["moves"]


def test_text_without_ruleset_line_means_standard() -> None:
    record = loads("1 Blue grow 6,2 -> 6,6\n")
    assert record["ruleset"]["id"] == "standard"


def test_text_without_player_lines_passes_the_match_schema(tmp_path) -> None:
    from pegboard.records.validate import validate_file

    record = loads("1 Blue grow 6,2 -> 6,6\n")
    assert [p["name"] for p in record["players"]] == ["Player", "Player"]
    path = tmp_path / "bare.txt"
    path.write_text("1 Blue grow 6,2 -> 6,6\n2 Red grow 6,16 -> 6,12\n", encoding="utf-8")
    report = validate_file(path)
    assert report.ok, report


def _error(text: str) -> MatchTextError:
    with pytest.raises(MatchTextError) as info:
        loads(text)
    assert isinstance(info.value, ValueError)
    return info.value


@pytest.mark.parametrize(
    ("bad_line", "words"),
    [
        ("3 Blue split 6,2 6,4", "expected '<turn>"),
        ("3 Blue split 6;2 -> 6,4", "expected '<turn>"),
        ("three Blue split 6,2 -> 6,4", "is not a number"),
        ("4 Blue split 6,2 -> 6,4", "where turn 3 was expected"),
        ("3 Red split 6,2 -> 6,4", "it is Blue's turn"),
        ("3 Blue hop 6,2 -> 6,4", "unknown move type"),
        ("3 Blue grow 6,2 -> 6,4", "the line says grow, but 6,2 -> 6,4 is a split"),
        ("3 Blue grow 6,2 -> 6,12", "illegal move (out_of_range)"),
        ("3 Blue grow 6,2 -> 20,4", "off the 13x19 board"),
    ],
)
def test_text_rejections_name_the_line(bad_line: str, words: str) -> None:
    lines = SAMPLE.splitlines()
    lines[6] = bad_line
    error = _error("\n".join(lines))
    assert error.line == 7
    assert words in error.reason, error.reason
    assert "(line 7)" in str(error)


def test_text_illegal_move_carries_rule() -> None:
    error = _error("1 Blue grow 6,2 -> 6,7\n")
    assert error.rule == "out_of_range" and error.line == 1


def test_text_unknown_ruleset() -> None:
    error = _error("# ruleset: nodewar/nope\n1 Blue grow 6,2 -> 6,6\n")
    assert error.line == 1 and "cannot load ruleset" in error.reason


TINY = {
    "game": "nodewar",
    "id": "tiny",
    "name": "Tiny",
    "board": {"width": 2, "height": 2, "distance": "euclidean"},
    "base": {"positions": [[0, 0], [1, 1]], "radius": 1, "branches": 1},
    "node": {"radius": 1, "branches": 2},
    "turns": {"first": "Blue", "limit": 300, "extension": 50},
}


def test_text_rejects_moves_after_the_end() -> None:
    # On a 2x2 board Blue's Base fills up after one grow; after Red's answer Blue has no move.
    text = "# ruleset: tiny\n1 Blue grow 0,0 -> 1,0\n2 Red grow 1,1 -> 0,1\n3 Blue loop 1,0 -> 0,0\n"
    with pytest.raises(MatchTextError) as info:
        MatchText().loads(text, lambda ref: TINY)
    assert info.value.line == 4 and "after the end of the game" in info.value.reason
    record = MatchText().loads(text.rsplit("3 Blue", 1)[0], lambda ref: TINY)
    assert record["result"]["reason"] == "no_moves" and record["result"]["winner"] == 1


def test_text_moves_past_the_limit_imply_extension(skirmish: NodeWarGame) -> None:
    record = random_record(skirmish, 2, length=skirmish.params.turn_limit)
    assert record["result"]["reason"] == "turn_limit"
    text = MatchText().dumps(record, skirmish)
    # Two more moves after the limit: the loader extends the game.
    state = skirmish.new_state()
    for data in record["moves"]:
        state.apply(skirmish.decode_move(data))
    state.extend()
    extra = []
    for _ in range(2):
        move = state.legal_moves()[0]
        extra.append(f"{state.turn} {skirmish.seats[state.to_move]} {skirmish.move_text(move)}")
        state.apply(move)
    back = loads(text + "\n".join(extra) + "\n")
    assert len(back["moves"]) == len(record["moves"]) + 2
    assert back["meta"]["extensions"] == 1
    assert "result" not in back


# -- odds and ends --------------------------------------------------------------------------------


def test_evaluator_weights_name_every_term() -> None:
    from pegboard_nodewar import EVALUATOR_TERMS

    assert tuple(load_shipped("standard")["evaluator"]) == EVALUATOR_TERMS
    assert len(EVALUATOR_TERMS) == 14


def test_every_event_has_one_line_of_text(game: NodeWarGame) -> None:
    rng = random.Random(4)
    state = game.new_state()
    seen = set()
    while state.result is None:
        for event in state.apply(rng.choice(state.legal_moves())):
            seen.add(event.kind)
            assert event.text and "\n" not in event.text
            json.dumps(event.to_json())
    assert {"node_placed", "line_added", "lines_cut", "game_over"} <= seen


def test_states_and_games_pickle(game: NodeWarGame) -> None:
    import pickle

    rng = random.Random(8)
    state = game.new_state()
    for _ in range(40):
        state.apply(rng.choice(state.legal_moves()))
    copy_ = pickle.loads(pickle.dumps(state))
    assert copy_.to_json() == state.to_json()
    assert copy_.undo() == state.undo()
    assert copy_.to_json() == state.to_json()


def test_python_example_in_the_rules_doc_runs() -> None:
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "nodewar.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", doc, flags=re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, "nodewar.md", "exec"), {})


def test_ascii_board(game: NodeWarGame) -> None:
    state = build(game, [(6, 6)], [], [(BB, (6, 6))])
    picture = str(state).splitlines()
    assert len(picture) == game.height + 1
    assert picture[-(2 + 2)].split()[1:][6] == "B"  # y = 2
    assert picture[-(6 + 2)].split()[1:][6] == "b"
    assert picture[-(4 + 2)].split()[1:][6] == "+"  # on a live line


@pytest.mark.parametrize(
    ("path", "value", "words"),
    [
        (("board", "distance"), "taxicab", "board.distance"),
        (("base", "positions"), [[6, 2]], "two [x, y] points"),
        (("base", "positions"), [[6, 2], [6, 2]], "different points"),
        (("base", "positions"), [[6, 2], [6, 40]], "not a point on the 13x19 board"),
        (("node", "branches"), 1, "node.branches"),
        (("turns", "first"), "Green", "turns.first"),
        (("turns", "limit"), 0, "turns.limit"),
    ],
)
def test_bad_ruleset_values(path, value, words: str) -> None:
    from pegboard_nodewar.rules import RulesetValueError

    ruleset = copy.deepcopy(load_shipped("standard"))
    ruleset[path[0]][path[1]] = value
    with pytest.raises(RulesetValueError, match=re.escape(words)):
        NodeWarGame(ruleset)


def test_text_replay_honours_rule_mods(game: NodeWarGame) -> None:
    from pathlib import Path

    from pegboard.plugins import manager as plugin_module
    from pegboard_nodewar import plugin

    example = Path(__file__).resolve().parents[2] / "plugins" / "examples" / "no_loops_mod.py"
    if not example.is_file():
        pytest.skip("the no-loops example plugin is not there")
    manager = plugin_module.Plugins(load_entry_points=False)
    manager.register(plugin, name="nodewar")
    manager.load_file(example)
    ruleset = dict(game.ruleset, mods=["no-loops"], id="no-loops")
    # Blue grows twice from the Base, then tries to loop 6,6 -> 7,5 while grows are available.
    text = (
        "1 Blue grow 6,2 -> 6,6\n2 Red grow 6,16 -> 6,12\n3 Blue grow 6,2 -> 7,5\n"
        "4 Red grow 6,16 -> 7,13\n5 Blue loop 6,6 -> 7,5\n"
    )
    previous = plugin_module._current
    plugin_module.set_plugins(manager)
    try:
        with pytest.raises(MatchTextError) as info:
            MatchText().loads(text, lambda ref: ruleset)
        assert info.value.line == 5 and info.value.rule == "mod:no-loops"
        # Without the mod the same file is fine.
        plain = MatchText().loads(text, lambda ref: dict(game.ruleset))
        assert len(plain["moves"]) == 5
    finally:
        plugin_module.set_plugins(previous)


def _spoil(record: dict, how: str) -> dict:
    record = copy.deepcopy(record)
    moves = record["moves"]
    if how in ("illegal first", "both"):
        moves[3] = {"kind": "grow", "from": [0, 18], "to": [0, 17]}  # no node there: a replay error
    if how in ("extra key", "both"):
        moves[20] = {**moves[20], "note": "hi"}  # a schema error
    if how == "float point":
        moves[20] = {**moves[20], "from": [float(moves[20]["from"][0]), moves[20]["from"][1]]}  # schema-valid 2.0
    if how == "off board":
        moves[20] = {**moves[20], "to": [40, 1]}  # schema-valid, not on the 13 x 19 board
    if how == "bad kind late":
        moves[-1] = {**moves[-1], "kind": "jump"}
    if how == "bad result":
        record["result"] = {"winner": 1 - (record["result"]["winner"] or 0), "reason": "no_moves"}
    return record


@pytest.mark.parametrize("how", ["none", "illegal first", "extra key", "both", "float point", "off board", "bad kind late", "bad result"])
def test_validate_verdicts_do_not_depend_on_strict_decode(game: NodeWarGame, how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # With strict_decode the schema stage leaves the moves to the replay's decoding and checks
    # their schema only when the replay fails: every report must be what the full schema stage gives.
    import dataclasses

    from pegboard.plugins.manager import get_plugins
    from pegboard.records.validate import validate_record

    record = _spoil(random_record(game, 5, 300), how)
    strict = validate_record(record, "r.match.json").to_json()
    games = get_plugins().games()
    monkeypatch.setitem(games, "nodewar", dataclasses.replace(games["nodewar"], strict_decode=False))
    assert validate_record(record, "r.match.json").to_json() == strict
    assert strict["ok"] == (how == "none")
    if how in ("extra key", "both"):
        assert strict["stage"] == "schema" and strict["errors"][0]["json_path"] == "$.moves[20]"
