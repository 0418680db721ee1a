"""Bad input everywhere: one `error: ...` line on stderr, exit 1 (invalid input) or 2 (usage), no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from support import toygame

POSITION = {"piles": [1, 2], "taken": [0, 0], "turn": 0, "limit": 9}


def one_error(result: Any, code: int, *fragments: str) -> str:
    assert result.code == code, (result.code, result.err)
    assert "Traceback" not in result.err
    lines = [line for line in result.err_lines if not line.startswith("warning: ")]
    assert len(lines) == 1, result.err
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    made = {
        "missing": tmp_path / "missing.json",
        "folder": tmp_path / "folder",
        "binary": tmp_path / "binary.json",
        "json": tmp_path / "malformed.json",
        "toml": tmp_path / "malformed.toml",
        "position": tmp_path / "position.json",
        "raising": tmp_path / "raising_plugin.py",
    }
    made["folder"].mkdir()
    made["binary"].write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    made["json"].write_text('{"piles": [1, 2,, ]}')
    made["toml"].write_text('game = "toy"\nname = \n')
    made["position"].write_text(json.dumps(POSITION))
    made["raising"].write_text("raise RuntimeError('plugin is broken')\n")
    return made


@pytest.mark.parametrize(
    ("kind", "fragment"),
    [
        ("missing", "file not found"),
        ("folder", "is a directory"),
        ("binary", "not UTF-8"),
        ("json", "invalid JSON: Expecting value"),
    ],
)
def test_validate_bad_files(cli: Any, files: dict[str, Path], kind: str, fragment: str) -> None:
    one_error(cli("validate", str(files[kind])), 1, fragment, str(files[kind]))


def test_validate_malformed_json_names_line_and_column(cli: Any, files: dict[str, Path]) -> None:
    one_error(cli("validate", str(files["json"])), 1, "line 1, column 17")


@pytest.mark.parametrize("kind", ["missing", "folder", "binary", "json"])
def test_legal_and_eval_bad_position_files(cli: Any, files: dict[str, Path], kind: str) -> None:
    one_error(cli("legal", "toy", str(files[kind])), 1, str(files[kind]))
    one_error(cli("eval", "toy", str(files[kind])), 1, str(files[kind]))


def test_position_that_breaks_the_schema(cli: Any, tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"piles": "many"}))
    one_error(cli("legal", "toy", str(path)), 1, "schema:", "$")


@pytest.mark.parametrize("kind", ["missing", "folder", "binary", "toml"])
def test_ruleset_commands_bad_files(cli: Any, files: dict[str, Path], kind: str) -> None:
    path = files[kind] if kind != "missing" else files["missing"].with_suffix(".toml")
    one_error(cli("ruleset", "check", str(path)), 1, str(path))
    one_error(cli("ruleset", "show", str(path)), 1, str(path))
    one_error(cli("match", "toy", "--ruleset", str(path)), 1, str(path))


def test_malformed_toml_names_line_and_column(cli: Any, files: dict[str, Path]) -> None:
    one_error(cli("ruleset", "check", str(files["toml"])), 1, "TOML syntax error", "line 2, column 8")


def test_convert_bad_inputs(cli: Any, files: dict[str, Path], tmp_path: Path) -> None:
    one_error(cli("convert", str(files["missing"]), str(tmp_path / "x.nim")), 1, "file not found")
    one_error(cli("convert", str(files["binary"]), str(tmp_path / "x.nim")), 1, "not UTF-8")
    one_error(cli("convert", str(files["position"]), str(files["position"])), 2, "refusing to overwrite the input")
    one_error(cli("convert", str(files["position"]), str(files["folder"])), 2, "the output is a directory")
    assert json.loads(files["position"].read_text()) == POSITION  # untouched


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["match", "chess"], "unknown game 'chess' (known: toy)"),
        (["match", "toy", "--left", "deep-blue"], "unknown bot for toy 'deep-blue'"),
        (["match", "toy", "--ruleset", "huge"], "unknown ruleset toy/huge (known: odd, short, standard)"),
        (["match", "toy", "--green", "random"], "no such option: --green (seat options are --left, --right)"),
        (["match", "toy", "--left"], "--left needs a value"),
        (["match", "toy", "--left", "random", "--seat", "LEFT=random"], "seat Left given twice"),
        (["match", "toy", "--seat", "left"], "--seat expects NAME=BOT"),
        (["match", "toy", "--left", "human"], "match plays bots only"),
        (["match", "toy", "stray"], "unexpected argument 'stray'"),
        (["match", "toy", "--games", "0"], "--games"),
        (["eval", "toy", "POSITION", "--evaluator", "oracle"], "unknown evaluator for toy 'oracle' (known: taken)"),
        (["legal", "chess", "POSITION"], "unknown game 'chess'"),
        (["legal", "toy", "POSITION", "--ruleset", "nope"], "unknown ruleset toy/nope"),
        (["rulesets", "chess"], "unknown game 'chess'"),
        (["ruleset", "show", "toy/nope"], "unknown ruleset toy/nope"),
        (["schema", "toy/board"], "unknown schema 'toy/board' (known: match, toy/ruleset, toy/move, toy/position)"),
        (["bench", "chess"], "unknown game 'chess'"),
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "toy", "--right", "oracle"], "unknown bot for toy 'oracle'"),
        (["demo", "chess"], "unknown game 'chess'"),
        (["frobnicate"], "No such command 'frobnicate'"),
        (["validate"], "Missing argument"),
        (["match", "toy", "--games", "many"], "Invalid value for '--games'"),
    ],
)
def test_usage_errors_exit_2(cli: Any, files: dict[str, Path], args: list[str], fragment: str) -> None:
    args = [str(files["position"]) if a == "POSITION" else a for a in args]
    one_error(cli(*args), 2, fragment)


def test_match_out_must_be_a_folder(cli: Any, files: dict[str, Path]) -> None:
    one_error(cli("match", "toy", "--out", str(files["position"])), 2, "--out must be a folder")
    demo = cli("demo", "toy", "--out", str(files["position"]))
    one_error(demo, 2, "--out must be a folder")
    assert demo.out == ""  # refused before the game is played
    assert json.loads(files["position"].read_text()) == POSITION


def test_plugin_file_that_raises_is_one_line(cli: Any, files: dict[str, Path]) -> None:
    line = one_error(cli("--plugin", str(files["raising"]), "games"), 1, "raised on import: RuntimeError: plugin is broken")
    assert str(files["raising"]) in line
    one_error(cli("--plugin", str(files["missing"]), "games"), 1, "plugin file not found")
    one_error(cli("--plugin", str(files["folder"]), "games"), 1, "plugin folder is not a Python package (no __init__.py)")


@pytest.mark.parametrize("command", [["games"], ["match", "toy", "-j", "1"]])
def test_plugin_raising_inside_a_hook_is_a_warning_line(cli: Any, tmp_path: Path, command: list[str]) -> None:
    plugin = toygame.write_plugin(tmp_path, "moody", "@hookimpl", "def pegboard_bots(game):", "    raise KeyError('mood')")
    result = cli("--plugin", str(plugin), *command)
    assert result.code == 0 and "Traceback" not in result.err
    assert result.err_lines == ["warning: plugin 'moody' raised in pegboard_bots: KeyError: 'mood'"]


def test_plugin_with_a_typo_in_a_hook_name(cli: Any, tmp_path: Path) -> None:
    plugin = toygame.write_plugin(tmp_path, "typo", "@hookimpl", "def pegboard_bot(game):", "    return []")
    one_error(cli("--plugin", str(plugin), "games"), 1, "unknown hook 'pegboard_bot'")


def test_a_crashing_bot_is_one_line(cli: Any, tmp_path: Path) -> None:
    plugin = toygame.write_plugin(
        tmp_path,
        "crashbot",
        "from pegboard.specs import Bot, BotSpec",
        "class Crash(Bot):",
        "    def choose(self, view, budget):",
        "        return 1 / 0",
        "@hookimpl",
        "def pegboard_bots(game):",
        "    return BotSpec('crash', 'Crash', lambda g, s: Crash())",
    )
    one_error(cli("--plugin", str(plugin), "match", "toy", "--left", "crash", "-j", "1"), 1, "bot 'crash' crashed", "ZeroDivisionError")


def test_installed_command_never_shows_a_traceback(tmp_path: Path) -> None:
    """The real console script, end to end, on garbage."""
    garbage = tmp_path / "garbage.match.json"
    garbage.write_bytes(os.urandom(64) + b"\xff")
    env = dict(os.environ, PEGBOARD_PLUGINS=toygame.__file__)
    command = [sys.executable, "-m", "pegboard", "validate", str(garbage)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert len(errors) == 1 and "not UTF-8" in errors[0]
    done = subprocess.run([sys.executable, "-m", "pegboard", "match", "toy", "--bogus", "x"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_python_warnings_from_plugins_are_one_line_each(cli: Any, tmp_path: Path) -> None:
    plugin = tmp_path / "chatty.py"
    plugin.write_text("import warnings\nwarnings.warn('old API in use\\nsecond line')\nwarnings.warn('careful')\n")
    result = cli("--plugin", str(plugin), "games")
    assert result.code == 0
    assert result.err_lines == ["warning: old API in use", "warning: careful"]


def test_no_command_prints_the_help(cli: Any) -> None:
    for args in ([], ["ruleset"]):
        result = cli(*args)
        assert result.code == 2
        assert result.err.startswith("Usage: pegboard") and "error:" not in result.err


@pytest.mark.parametrize(("name", "text"), [("empty.json", ""), ("empty.nim", ""), ("blank.nim", "\n  \n")])
def test_empty_files_are_syntax_errors(cli: Any, tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    one_error(cli("validate", str(path)), 1, "syntax:", str(path))
    one_error(cli("position", str(path)), 1, "syntax:", str(path))
    one_error(cli("convert", str(path), str(tmp_path / "out.match.json")), 1, "syntax:", str(path))
    assert not (tmp_path / "out.match.json").exists()


def test_json_escaping_half_a_surrogate_pair_is_refused_where_it_is(cli: Any, tmp_path: Path) -> None:
    """"\\udcfd" is valid JSON syntax but no character: such a record could never be written as UTF-8."""
    path = tmp_path / "half.match.json"
    path.write_text('{"format": "pegboard.match/1",\n "game": "toy\\udcfd"}')
    for args in (["validate"], ["convert"]):
        extra = [str(tmp_path / "out.nim")] if args == ["convert"] else []
        one_error(cli(*args, str(path), *extra), 1, "syntax: invalid JSON: a \\u escape names half of a surrogate pair", "line 2, column 14")
    assert not (tmp_path / "out.nim").exists()
    paired = tmp_path / "pair.json"
    paired.write_text('{"piles": [1, 2], "taken": [0, 0], "turn": 0, "limit": 9, "note": "\\ud83d\\ude00"}')
    assert "surrogate" not in cli("legal", "toy", str(paired)).err  # a whole pair is a character (here an emoji)


@pytest.mark.parametrize("text", ["[1, 2]", "42", "null", '"text"'])
def test_json_of_the_wrong_shape(cli: Any, tmp_path: Path, text: str) -> None:
    path = tmp_path / "shape.json"
    path.write_text(text)
    for args in (["validate"], ["position"], ["legal", "toy"], ["eval", "toy"]):
        one_error(cli(*args, str(path)), 1, "schema: $: expected a ", ", found a JSON ", str(path))


def test_empty_and_wrong_shape_rulesets(cli: Any, tmp_path: Path) -> None:
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    numbers = tmp_path / "numbers.toml"
    numbers.write_text("game = 3\nid = 4\n")
    for path in (empty, numbers):
        one_error(cli("ruleset", "check", str(path)), 1, "game: expected a string naming the game", str(path))
        one_error(cli("match", "toy", "--ruleset", str(path)), 1, str(path))


def test_validate_prints_one_line_per_file_even_with_many_schema_errors(cli: Any, tmp_path: Path) -> None:
    path = tmp_path / "object.json"
    path.write_text('{"a": 1}')
    line = one_error(cli("validate", str(path)), 1, "schema: $: 'format' is a required property", str(path))
    assert line.endswith(" more; --json lists them]")
    reports = json.loads(cli("validate", "--json", str(path)).out)
    assert len(reports[0]["errors"]) > 1


def test_position_out_never_overwrites_the_record_or_writes_into_a_folder(cli: Any, tmp_path: Path) -> None:
    cli("match", "toy", "--out", str(tmp_path / "m"))
    record = tmp_path / "m" / "match-0001.match.json"
    before = record.read_text()
    one_error(cli("position", str(record), "--out", str(record)), 2, "output: refusing to overwrite the input file")
    assert record.read_text() == before
    one_error(cli("position", str(record), "--out", str(tmp_path)), 2, "output: the output is a directory")
    one_error(cli("position", str(record), "--out", str(tmp_path / "no" / "p.json")), 2, "output: the folder does not exist")
    one_error(cli("convert", str(record), str(tmp_path / "no" / "m.nim")), 2, "output: the folder does not exist")
    one_error(cli("convert", str(record), str(tmp_path / "m.pdf")), 2, "output: Toy Nim records cannot be written as '.pdf'")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m"]


def test_ruleset_references_without_or_with_the_wrong_game_are_usage_errors(cli: Any) -> None:
    one_error(cli("ruleset", "show", "short"), 2, "ruleset 'short' needs a game: write <game>/short")
    one_error(cli("match", "toy", "--ruleset", "chess/standard"), 2, "ruleset 'chess/standard' is not a toy ruleset")


def test_plugin_ruleset_dirs_that_are_not_folders_are_one_warning_each(cli: Any, tmp_path: Path) -> None:
    plugin = toygame.write_plugin(tmp_path, "dirs", "@hookimpl", "def pegboard_ruleset_dirs():", "    return [3, 'nowhere']")
    result = cli("--plugin", str(plugin), "rulesets")
    assert result.code == 0 and "toy/standard" in result.out
    assert result.err_lines == [
        "warning: pegboard_ruleset_dirs returned int, not a path or RulesetDir; skipped",
        "warning: pegboard_ruleset_dirs: nowhere is not a folder; skipped",
    ]
