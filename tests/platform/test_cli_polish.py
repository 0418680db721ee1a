"""The command line as a newcomer meets it (issue 28, item 11): files of the wrong kind, bot ids
in any case, distinct tournament rows, paths as typed, whole --help summaries, one seat
convention, --json everywhere a table is, a lobby line first, a demo that leaves nothing behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from support import toygame

POSITION = {"piles": [1, 2], "taken": [0, 0], "turn": 0, "limit": 9}


def one_error(result: Any, code: int) -> str:
    assert result.code == code, (result.code, result.err)
    lines = [line for line in result.err_lines if not line.startswith("warning: ")]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.err, result.err
    return str(lines[0])


@pytest.fixture
def record(cli: Any, tmp_path: Path) -> Path:
    assert cli("match", "toy", "--games", "1", "--out", str(tmp_path / "m")).code == 0
    return tmp_path / "m" / "match-0001.match.json"


# -- files of the wrong kind -------------------------------------------------------------------


def test_a_match_record_given_for_a_position_is_named_as_one(cli: Any, record: Path) -> None:
    for command in ("legal", "eval"):
        line = one_error(cli(command, "toy", str(record)), 1)
        assert "expected a Toy Nim position, found a Toy Nim match record" in line and "pegboard position" in line
        assert "required property" not in line


def test_a_position_given_for_a_match_record_is_named_as_one(cli: Any, tmp_path: Path) -> None:
    position = tmp_path / "position.json"
    position.write_text(json.dumps(POSITION))
    for command in (("validate", str(position)), ("convert", str(position), str(tmp_path / "out.nim"))):
        line = one_error(cli(*command), 1)
        assert "expected a match record, found a Toy Nim position" in line, line
    report = json.loads(cli("validate", "--json", str(position)).out)[0]
    assert len(report["errors"]) == 1 and "found a Toy Nim position" in report["errors"][0]["reason"]


def test_a_record_whose_game_is_wrong_is_one_error_not_one_per_move(cli: Any, record: Path, tmp_path: Path) -> None:
    data = json.loads(record.read_text())
    data["game"] = "nodewar"  # a game that is installed, with other move shapes
    wrong = tmp_path / "wrong.match.json"
    wrong.write_text(json.dumps(data))
    result = cli("validate", "--json", str(wrong), entry_points=True)
    errors = json.loads(result.out)[0]["errors"]
    assert result.code == 1 and len(errors) == 1, errors
    assert errors[0]["reason"] == "the record says its game is Node War, but its ruleset (and so its moves) is for Toy Nim"


def test_a_json_file_given_as_a_ruleset_and_a_ruleset_given_as_a_record(cli: Any, record: Path, tmp_path: Path) -> None:
    line = one_error(cli("ruleset", "check", str(record)), 1)
    assert "expected a TOML ruleset, found a Toy Nim match record (JSON)" in line
    ruleset = tmp_path / "mine.toml"
    ruleset.write_text('game = "toy"\nid = "mine"\n')
    line = one_error(cli("validate", str(ruleset)), 1)
    assert "the file looks like a Toy Nim ruleset (TOML)" in line


def test_json_that_is_no_object_is_described_and_a_broken_object_keeps_the_schema_message(cli: Any, tmp_path: Path) -> None:
    path = tmp_path / "odd.json"
    for text, words in (("[1, 2]", "expected a Toy Nim position, found a JSON list"), ('"x"', "found a JSON string"),
                        ('{"piles": [1, 2]}', "$: 'taken' is a required property")):
        path.write_text(text)
        assert words in one_error(cli("legal", "toy", str(path)), 1)


# -- bot ids, tournament rows ------------------------------------------------------------------


def test_bot_ids_match_in_any_case_as_seat_options_do(cli: Any) -> None:
    result = cli("match", "toy", "--LEFT", "TakeMost", "--right", "RANDOM", "--games", "2", "--json")
    assert result.code == 0, result.err
    assert [row["bot"] for row in json.loads(result.out)["entrants"]] == ["takemost", "random"]  # as the game spells them
    assert toygame.make_plugins().bot("toy", "TAKEMOST").id == "takemost"
    assert "unknown bot for toy 'takemostt'" in one_error(cli("match", "toy", "--left", "takemostt"), 2)


def test_a_bot_entered_twice_gets_two_distinct_rows(cli: Any) -> None:
    result = cli("tournament", "toy", "takemost", "TakeMost", "random", "--games", "2", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert sorted(row["entrant"] for row in data["standings"]) == ["random", "takemost #1", "takemost #2"]
    assert {row["bot"] for row in data["standings"]} == {"takemost", "random"}
    assert data["pairs"][0]["entrants"] == ["takemost #1", "takemost #2"]
    table = cli("tournament", "toy", "takemost", "takemost", "--games", "2").out
    assert "takemost #1" in table and "takemost #2" in table


# -- paths, help texts ----------------------------------------------------------------------------


def test_paths_in_errors_are_as_typed(cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rs").mkdir()
    Path("rs/bad.toml").write_text('game = "toy"\nextends = "toy/standard"\n[nim]\nmax_take = "x"\n')
    Path("rs/loop1.toml").write_text('game = "toy"\nextends = "loop2.toml"\n')
    Path("rs/loop2.toml").write_text('game = "toy"\nextends = "loop1.toml"\n')
    Path("rs/m.json").write_text(json.dumps({"moves": [], "seed": 0, "game": "toy"}))
    for args in (("ruleset", "check", "rs/bad.toml"), ("ruleset", "show", "rs/loop1.toml"), ("ruleset", "check", "rs/m.json"),
                 ("match", "toy", "--ruleset", "rs/bad.toml"), ("validate", "rs/none.json")):
        line = one_error(cli(*args), 1)
        assert line.endswith(f"({args[-1] if args[0] != 'match' else 'rs/bad.toml'})"), line
        assert str(tmp_path) not in line


def help_texts(cli: Any) -> dict[str, str]:
    import typer

    from pegboard.cli.app import create_app
    from pegboard.plugins.manager import Plugins

    root = typer.main.get_command(create_app(Plugins(load_entry_points=False)))
    commands = [[name] for name in root.commands]  # type: ignore[attr-defined]
    commands += [[name, sub] for name in root.commands for sub in getattr(root.commands[name], "commands", {})]  # type: ignore[attr-defined]
    assert len(commands) >= 20
    return {" ".join(command): cli(*command, "--help").out for command in commands}


def test_the_root_help_shows_every_summary_whole(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    for columns in ("60", "80", "120"):
        monkeypatch.setenv("COLUMNS", columns)
        lines = cli("--help").out.split("Commands:")[1].splitlines()
        rows = [line.split(None, 1) for line in lines if line.strip()]
        assert len(rows) >= 19
        assert all(len(row) == 2 and row[1].endswith(".") and not row[1].endswith("...") for row in rows), rows


def test_every_help_text_names_seats_one_way(cli: Any) -> None:
    """Seats by the game's names or their order ("the first seat"), never by a number."""
    import re

    texts = help_texts(cli)
    numbered = {name: text for name, text in texts.items() if re.search(r"\bseat [0-9]", text)}
    assert numbered == {}


# -- --json ------------------------------------------------------------------------------------


def test_rulesets_and_bench_print_json(cli: Any) -> None:
    rulesets = json.loads(cli("rulesets", "toy", "--json").out)
    assert {row["ref"] for row in rulesets} >= {"toy/standard", "toy/odd"}
    standard = next(row for row in rulesets if row["ref"] == "toy/standard")
    assert standard["game"] == "toy" and standard["mods"] == [] and Path(standard["file"]).is_file()
    bench = cli("bench", "toy", "--quick", "--json")
    assert bench.code == 0, bench.err
    rows = json.loads(bench.out)
    assert rows and all(row["game"] == "toy" and isinstance(row["value"], float | int) and row["unit"] for row in rows)


# -- the lobby's first line, the demo's folder ------------------------------------------------------


def test_lobby_serve_prints_its_own_line_first(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "pegboard", "lobby", "serve", "--port", "0", "--no-list"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env={**os.environ, "PEGBOARD_HOME": str(tmp_path)}) as lobby:
        assert lobby.stdout is not None and lobby.stderr is not None
        first = lobby.stdout.readline()  # printed once the lobby listens
        lobby.terminate()
        log = lobby.stderr.read()
    assert first.startswith("lobby on ws://127.0.0.1:") and "4-letter codes" in first
    assert "((" not in first and "))" not in first and first.count("(") == first.count(")") == 1
    assert "listening" not in log  # websockets' own "server listening on ..." line is not printed


def test_demo_without_out_leaves_no_folder_behind(cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    result = cli("demo", "toy")
    assert result.code == 0, result.err
    assert "record: valid" in result.out and "--out DIR keeps it" in result.out
    assert list(scratch.iterdir()) == []
    kept = tmp_path / "kept"
    assert cli("demo", "toy", "--out", str(kept)).code == 0 and (kept / "match-0001.match.json").is_file()


# -- exit codes ------------------------------------------------------------------------------------


def test_output_paths_that_cannot_be_written_are_usage_errors(cli: Any, record: Path, tmp_path: Path) -> None:
    assert "cannot be written as '.pdf'" in one_error(cli("convert", str(record), str(tmp_path / "m.pdf")), 2)
    assert "refusing to overwrite the input file" in one_error(cli("position", str(record), "--out", str(record)), 2)
    assert cli("convert", str(record), str(tmp_path / "m.nim")).code == 0
    assert "the file exists (use --force" in one_error(cli("convert", str(record), str(tmp_path / "m.nim")), 2)


def test_a_missing_optional_extra_is_a_usage_error_naming_it(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if pegboard[ray] were not installed
    line = one_error(cli("match", "toy", "--games", "2", "--executor", "ray"), 2)
    assert "pip install 'pegboard[ray]'" in line


def test_validate_json_reports_the_rule_a_move_broke(cli: Any, record: Path, tmp_path: Path) -> None:
    data = json.loads(record.read_text())
    data["moves"][0] = {"pile": 0, "take": 9}
    broken = tmp_path / "broken.match.json"
    broken.write_text(json.dumps(data))
    error = json.loads(cli("validate", "--json", str(broken)).out)[0]["errors"][0]
    assert (error["stage"], error["move"], error["rule"]) == ("replay", 1, "take")
