"""Match records: building, staged validation, replay, conversion, positions, schemas."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from pegboard.errors import MatchFileError
from pegboard.plugins.manager import Plugins
from pegboard.records.files import read_position, record_from_moves, write_record
from pegboard.records.replay import replay
from pegboard.records.schemas import CURRENT_GAME, match_validator, schema_names
from pegboard.records.validate import convert, read_record, validate_file
from pegboard.rules.rulesets import load_game, load_ruleset

# Toy standard: piles [3, 4, 5], take 1..3; the taker of the last token wins.
WIN_FOR_LEFT = [(2, 3), (2, 2), (1, 3), (1, 1), (0, 3)]  # Left takes the last token


def make_record(plugins: Plugins, moves: list[tuple[int, int]] = WIN_FOR_LEFT, ruleset: str = "toy/standard", seed: int = 0) -> dict[str, Any]:
    loaded = load_ruleset(ruleset, plugins=plugins)
    game = load_game("toy", loaded, plugins=plugins)
    state = game.new_state(seed)
    for move in moves:
        state.apply(move)
    return record_from_moves(game, loaded, seed, ["random", "human"], moves, state.result, {"note": "test"})


def save(path: Path, record: Any) -> Path:
    path.write_text(json.dumps(record, indent=2), encoding="utf-8")
    return path


def test_record_shape(toy_plugins: Plugins) -> None:
    record = make_record(toy_plugins)
    assert record["format"] == "pegboard.match/1" and record["game"] == "toy" and record["seed"] == 0
    assert record["players"] == [
        {"seat": "Left", "name": "random", "bot": "random"},
        {"seat": "Right", "name": "Human", "bot": None},
    ]
    assert record["moves"][0] == {"pile": 2, "take": 3}
    assert record["result"] == {"winner": 0, "reason": "last_token", "scores": [9, 3]}
    assert record["ruleset"]["nim"]["piles"] == [3, 4, 5] and record["meta"] == {"note": "test"}


def test_valid_file_passes_every_stage(toy_plugins: Plugins, tmp_path: Path) -> None:
    path = write_record(make_record(toy_plugins), tmp_path / "a.match.json", toy_plugins)
    report = validate_file(path, toy_plugins)
    assert report.ok and report.stage == "result" and report.errors == []
    assert report.moves == 5 and report.result == {"winner": 0, "reason": "last_token", "scores": [9, 3]}
    assert read_record(path, toy_plugins)["moves"] == make_record(toy_plugins)["moves"]


def test_syntax_stage_reports_line_and_column(toy_plugins: Plugins, tmp_path: Path) -> None:
    path = tmp_path / "bad.match.json"
    path.write_text('{\n  "format": "pegboard.match/1",\n  "game": toy\n}', encoding="utf-8")
    report = validate_file(path, toy_plugins)
    assert not report.ok and report.stage == "syntax"
    error = report.errors[0]
    assert (error.line, error.column) == (3, 11)
    assert str(error) == f"syntax: invalid JSON: Expecting value ({path}, line 3, column 11)"


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        ("missing", "file not found"),
        ("folder", "is a directory"),
        ("binary", "not UTF-8"),
        ("nul", "NUL bytes"),
        ("suffix", "unknown match file type '.zip'"),
    ],
)
def test_syntax_stage_bad_files(toy_plugins: Plugins, tmp_path: Path, setup: str, reason: str) -> None:
    path = tmp_path / "x.match.json"
    if setup == "folder":
        path.mkdir()
    elif setup == "binary":
        path.write_bytes(b"\x00\x01\xfe\xff garbage")
    elif setup == "nul":
        path.write_bytes(b'{"a": "\x00"}')
    elif setup == "suffix":
        path = tmp_path / "x.zip"
        path.write_bytes(b"PK garbage")
    report = validate_file(path, toy_plugins)
    assert not report.ok and report.stage == "syntax"
    assert reason in report.errors[0].reason


def test_schema_stage_reports_every_error_with_its_json_path(toy_plugins: Plugins, tmp_path: Path) -> None:
    record = make_record(toy_plugins)
    record["moves"][3] = {"pile": -1, "take": 1}
    record["moves"][4] = {"pile": 0}
    record["seed"] = "zero"
    del record["format"]
    report = validate_file(save(tmp_path / "s.match.json", record), toy_plugins)
    assert not report.ok and report.stage == "schema"
    found = [(e.json_path, e.reason) for e in report.errors]
    assert ("$", "'format' is a required property") in found
    assert ("$.moves[3].pile", "-1 is less than the minimum of 0") in found
    assert ("$.moves[4]", "'take' is a required property") in found
    assert ("$.seed", "'zero' is not of type 'integer'") in found
    assert str(report.errors[0]).startswith("schema: $")


def test_schema_stage_checks_the_embedded_ruleset_and_players(toy_plugins: Plugins, tmp_path: Path) -> None:
    record = make_record(toy_plugins)
    record["ruleset"]["nim"]["max_take"] = 0
    report = validate_file(save(tmp_path / "r.match.json", record), toy_plugins)
    assert [e.json_path for e in report.errors] == ["$.ruleset.nim.max_take"]
    record = make_record(toy_plugins)
    record["players"].append({"seat": "Third", "name": "x"})
    report = validate_file(save(tmp_path / "p.match.json", record), toy_plugins)
    assert report.errors[0].json_path == "$.players" and "expected 2 players (Left, Right), found 3" in report.errors[0].reason
    record = make_record(toy_plugins)
    record["ruleset"]["mods"] = ["warp"]
    report = validate_file(save(tmp_path / "m.match.json", record), toy_plugins)
    assert report.errors[0].json_path == "$.ruleset.mods[0]" and "unknown rule mod 'warp'" in report.errors[0].reason


def test_schema_stage_unknown_game(toy_plugins: Plugins, tmp_path: Path) -> None:
    record = make_record(toy_plugins)
    record["game"] = "chess"
    report = validate_file(save(tmp_path / "g.match.json", record), toy_plugins)
    assert report.stage == "schema" and report.errors[0].json_path == "$.game"
    assert "unknown game 'chess' (known: toy)" in report.errors[0].reason


def test_replay_stage_names_the_move_and_the_rule(toy_plugins: Plugins, tmp_path: Path) -> None:
    record = make_record(toy_plugins, WIN_FOR_LEFT[:3])
    record["moves"].append({"pile": 1, "take": 3})  # pile 1 holds only 1 now
    report = validate_file(save(tmp_path / "i.match.json", record), toy_plugins)
    assert not report.ok and report.stage == "replay"
    error = report.errors[0]
    assert error.move == 4 and error.rule == "take" and error.json_path == "$.moves[3]"
    assert str(error) == f"replay: move 4: 3@1 is illegal: pile 1 holds only 1 [take] ({tmp_path / 'i.match.json'})"


def test_replay_stage_moves_after_the_end(toy_plugins: Plugins, tmp_path: Path) -> None:
    record = make_record(toy_plugins)
    record["moves"].append({"pile": 0, "take": 1})
    report = validate_file(save(tmp_path / "e.match.json", record), toy_plugins)
    assert report.stage == "replay" and report.errors[0].move == 6 and report.errors[0].rule == "game_over"


def test_replay_stage_mod_rules(toy_plugins: Plugins, tmp_path: Path) -> None:
    record = make_record(toy_plugins, [(1, 1)], ruleset="toy/odd")
    record["moves"].append({"pile": 1, "take": 2})
    report = validate_file(save(tmp_path / "o.match.json", record), toy_plugins)
    assert report.stage == "replay" and report.errors[0].rule == "mod:odd-only"


def test_moves_past_a_turn_limit_imply_an_extension(toy_plugins: Plugins, tmp_path: Path) -> None:
    # toy/short: max_turns 4, extend_by 2, piles shuffled by the seed
    moves = [(0, 1), (0, 1), (1, 1), (1, 1), (2, 1), (2, 1)]
    record = make_record(toy_plugins, moves[:4], ruleset="toy/short")
    assert record["result"]["reason"] == "turn_limit"
    report = validate_file(save(tmp_path / "t.match.json", record), toy_plugins)
    assert report.ok and report.result["reason"] == "turn_limit"
    record["moves"] = [{"pile": p, "take": t} for p, t in moves]  # two more moves: extended once
    record["result"] = {"winner": None, "reason": "turn_limit", "scores": [3, 3]}
    report = validate_file(save(tmp_path / "t2.match.json", record), toy_plugins)
    assert report.ok, report.errors
    state, events = replay(record, toy_plugins)
    assert state.ply == 6 and state.result is not None and state.result.reason == "turn_limit"
    assert [e.kind for e in events].count("took") == 6


def test_result_stage(toy_plugins: Plugins, tmp_path: Path) -> None:
    record = make_record(toy_plugins)
    record["result"]["winner"] = 1
    report = validate_file(save(tmp_path / "w.match.json", record), toy_plugins)
    assert report.stage == "result" and report.errors[0].json_path == "$.result"
    assert "declares winner 1 by 'last_token', the replay gives winner 0 by 'last_token'" in report.errors[0].reason
    record = make_record(toy_plugins)
    record["result"]["scores"] = [1, 1]
    assert "declares scores [1, 1]" in validate_file(save(tmp_path / "s.match.json", record), toy_plugins).errors[0].reason
    record = make_record(toy_plugins, WIN_FOR_LEFT[:2])
    record["result"] = {"winner": 0, "reason": "last_token"}
    report = validate_file(save(tmp_path / "n.match.json", record), toy_plugins)
    assert report.stage == "result" and "not over after 2 moves" in report.errors[0].reason


def test_unfinished_record_without_result_is_valid(toy_plugins: Plugins, tmp_path: Path) -> None:
    record = make_record(toy_plugins, WIN_FOR_LEFT[:2])
    assert "result" not in record
    report = validate_file(save(tmp_path / "u.match.json", record), toy_plugins)
    assert report.ok and report.result is None


@pytest.mark.parametrize("reason", ["flag", "move_time"])
def test_a_clock_result_on_an_unfinished_game_is_valid(toy_plugins: Plugins, tmp_path: Path, reason: str) -> None:
    """The window adjudicates a flag fall without a move; validate and import agree on it."""
    record = make_record(toy_plugins, WIN_FOR_LEFT[:2])
    record["result"] = {"winner": 1, "reason": reason, "text": "Left ran out of time"}
    report = validate_file(save(tmp_path / "f.match.json", record), toy_plugins)
    assert report.ok, report.errors
    assert report.result == record["result"] and report.moves == 2


def test_errors_and_reports_survive_pickling(toy_plugins: Plugins, tmp_path: Path) -> None:
    record = make_record(toy_plugins)
    record["result"]["winner"] = 1
    report = validate_file(save(tmp_path / "w.match.json", record), toy_plugins)
    again = pickle.loads(pickle.dumps(report))
    assert str(again.errors[0]) == str(report.errors[0]) and again.to_json() == report.to_json()


def test_convert_json_to_text_and_back(toy_plugins: Plugins, tmp_path: Path) -> None:
    source = write_record(make_record(toy_plugins), tmp_path / "a.match.json", toy_plugins)
    text = tmp_path / "a.nim"
    convert(source, text, toy_plugins)
    assert text.read_text().splitlines()[:3] == ["# pegboard toy match", "# ruleset: toy/standard", "# seed: 0"]
    back = tmp_path / "b.match.json"
    report = convert(text, back, toy_plugins)
    assert report.ok
    original, converted = json.loads(source.read_text()), json.loads(back.read_text())
    for key in ("format", "game", "ruleset", "seed", "moves"):
        assert converted[key] == original[key]
    assert converted["result"]["winner"] == original["result"]["winner"]
    assert not list(tmp_path.glob(".*.tmp"))  # no temporary files left behind


def test_convert_never_overwrites_the_input_or_unasked_files(toy_plugins: Plugins, tmp_path: Path) -> None:
    source = write_record(make_record(toy_plugins), tmp_path / "a.match.json", toy_plugins)
    before = source.read_text()
    with pytest.raises(MatchFileError, match="refusing to overwrite the input"):
        convert(source, source, toy_plugins, force=True)
    other = tmp_path / "exists.nim"
    other.write_text("keep me")
    with pytest.raises(MatchFileError, match="use --force"):
        convert(source, other, toy_plugins)
    assert other.read_text() == "keep me" and source.read_text() == before
    convert(source, other, toy_plugins, force=True)
    assert other.read_text().startswith("# pegboard toy match")
    with pytest.raises(MatchFileError, match="cannot be written as '.pgn'"):
        convert(source, tmp_path / "x.pgn", toy_plugins)
    assert not (tmp_path / "x.pgn").exists()


def test_convert_refuses_an_invalid_source(toy_plugins: Plugins, tmp_path: Path) -> None:
    record = make_record(toy_plugins)
    record["result"]["winner"] = 1
    source = save(tmp_path / "w.match.json", record)
    with pytest.raises(MatchFileError) as caught:
        convert(source, tmp_path / "w.nim", toy_plugins)
    assert caught.value.stage == "result" and not (tmp_path / "w.nim").exists()


def test_text_format_errors_name_the_line(toy_plugins: Plugins, tmp_path: Path) -> None:
    path = tmp_path / "bad.nim"
    path.write_text("# pegboard toy match\n1 Left 1@0\n3 Right 1@0\n")
    report = validate_file(path, toy_plugins)
    assert report.stage == "syntax" and report.errors[0].line == 3
    assert "expected move number 2" in str(report.errors[0]) and str(path) in str(report.errors[0])


def test_read_position(toy_plugins: Plugins, tmp_path: Path) -> None:
    game = load_game("toy", plugins=toy_plugins)
    schema_dir = toy_plugins.game("toy").schema_dir
    path = save(tmp_path / "pos.json", {"piles": [1, 2], "taken": [0, 0], "turn": 0, "limit": 9})
    assert read_position(path, game, schema_dir).legal_moves() == [(0, 1), (1, 1), (1, 2)]
    bad = save(tmp_path / "bad.json", {"piles": [1, -2], "taken": [0, 0], "turn": 0, "limit": 9})
    with pytest.raises(MatchFileError) as caught:
        read_position(bad, game, schema_dir)
    assert caught.value.stage == "schema" and caught.value.json_path == "$.piles[1]"
    with pytest.raises(MatchFileError, match="not a nim position"):
        read_position(save(tmp_path / "engine.json", {"piles": [1]}), game, None)


def test_match_schema_links_the_games_move_schema(toy_plugins: Plugins) -> None:
    schema_dir = toy_plugins.game("toy").schema_dir
    check = match_validator(schema_dir)
    assert check is match_validator(schema_dir)  # compiled once
    assert check.schema["properties"]["moves"]["items"]["$ref"] == f"{CURRENT_GAME}move.schema.json"
    assert not list(match_validator(None).iter_errors(dict(make_record(toy_plugins), moves=[{"any": "thing"}])))
    assert schema_names([("toy", schema_dir)]) == ["match", "toy/ruleset", "toy/move", "toy/position"]
