"""``pegboard analyse`` and ``pegboard tournament --plot`` on the toy game: tables, JSON, annotated
records, plots, -j, and bad input as one error line with the documented exit code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from support import toygame

THROWN = toygame.THROWN_WIN  # move 3 throws the first player's win away


def one_error(result: Any, code: int, *fragments: str) -> str:
    assert result.code == code, (result.code, result.out, result.err)
    assert "Traceback" not in result.err
    lines = [line for line in result.err_lines if not line.startswith("warning: ")]
    assert len(lines) == 1, result.err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "thrown.match.json"
    path.write_text(json.dumps(toygame.record_of(THROWN, players=("takemost", "human"))))
    return path


def test_the_table_names_the_blunder_the_better_move_and_the_accuracy(cli: Any, record: Path) -> None:
    result = cli("analyse", record, "--budget", "50000", "-j", "1")
    assert result.code == 0, result.err
    out = result.out
    assert "Toy Nim, 8 moves, Right wins" in out
    row = next(line for line in out.splitlines() if line.count("│") > 2 and line.split("│")[1].strip() == "3")
    assert "blunder ??" in row and "1@2" in row  # the better move: take 1 from pile 2
    assert "accuracy" in out and "inaccuracies" in out
    assert "move 3 (Left, blunder" in out and "better 1@2" in out


def test_json_rows_and_sides_and_the_same_answer_for_any_j(cli: Any, record: Path) -> None:
    one = cli("analyse", record, "--json", "--budget", "3000", "-j", "1")
    two = cli("analyse", record, record, "--json", "--budget", "3000", "-j", "2")
    assert one.code == two.code == 0, two.err
    first, = json.loads(one.out)
    assert first["ok"] and first["game"] == "toy" and first["bot"] == "alphabeta" and first["budget"] == 3000
    assert [row["move"] for row in first["rows"]] == list(range(1, 9))
    assert [side["name"] for side in first["sides"]] == ["Left", "Right"]
    assert len(first["curve"]) == 9 and first["curve"][-1] == 0.0  # Right (seat 1) won
    assert json.loads(two.out) == [first, first]


def test_out_writes_annotated_records_that_validate_and_never_the_input(cli: Any, record: Path, tmp_path: Path) -> None:
    before = record.read_bytes()
    out = tmp_path / "annotated"
    result = cli("analyse", record, "--out", out, "--budget", "50000", "-j", "1")
    assert result.code == 0, result.err
    written = out / "thrown.match.json"
    assert f"wrote {written}" in result.out
    data = json.loads(written.read_text())
    assert [note["move"] for note in data["annotations"]] == list(range(1, 9))
    assert data["annotations"][2]["mark"] == "blunder" and data["annotations"][2]["better"] == {"pile": 2, "take": 1}
    assert cli("validate", written).code == 0
    again = cli("analyse", record, "--out", record.parent, "-j", "1")
    one_error(again, 1, "refusing to overwrite the input file")
    assert record.read_bytes() == before


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_plot_draws_the_evaluation_graph(cli: Any, record: Path, tmp_path: Path, suffix: str) -> None:
    pytest.importorskip("matplotlib", reason="the plot extra is not installed (tools/dev.py test installs it)")
    target = tmp_path / f"graph{suffix}"
    result = cli("analyse", record, "--plot", target, "-j", "1")
    assert result.code == 0, result.err
    head = target.read_bytes()[:400]
    assert head.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in head


def test_tournament_plot_draws_the_elo_table(cli: Any, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the plot extra is not installed (tools/dev.py test installs it)")
    target = tmp_path / "elo.svg"
    result = cli("tournament", "toy", "random", "takemost", "--games", "2", "-j", "1", "--plot", target)
    assert result.code == 0, result.err
    text = target.read_text()
    assert "<svg" in text and "takemost" in text and "random" in text


@pytest.mark.parametrize("command", [["analyse", "RECORD"], ["tournament", "toy", "random", "takemost", "-n", "2"]])
def test_plot_without_matplotlib_is_one_line_naming_the_extra(cli: Any, record: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    args = [str(record) if part == "RECORD" else part for part in command]
    target = tmp_path / "graph.png"
    one_error(cli(*args, "--plot", target), 2, "pip install 'pegboard[plot]'")
    assert not target.exists()


@pytest.mark.parametrize(("plot", "fragment"), [("graph.pdf", "must end in .png or .svg"), ("nowhere/graph.png", "does not exist")])
def test_a_plot_file_that_cannot_be_written_is_a_usage_error(cli: Any, record: Path, tmp_path: Path, plot: str, fragment: str) -> None:
    one_error(cli("analyse", record, "--plot", tmp_path / plot), 2, fragment)


def test_bad_files_are_one_line_each_and_the_good_ones_are_still_analysed(cli: Any, record: Path, tmp_path: Path) -> None:
    missing = tmp_path / "missing.match.json"
    garbage = tmp_path / "garbage.match.json"
    garbage.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    malformed = tmp_path / "malformed.match.json"
    malformed.write_text('{"format": "pegboard.match/1", "game": ')
    illegal = tmp_path / "illegal.match.json"
    data = json.loads(record.read_text())
    data["moves"][1] = {"pile": 1, "take": 3}  # pile 1 holds 2 after the first move
    illegal.write_text(json.dumps(data))
    result = cli("analyse", missing, garbage, malformed, illegal, record, "-j", "1")
    assert result.code == 1 and "Traceback" not in result.err
    errors = result.err_lines
    assert len(errors) == 4 and all(line.startswith("error: ") for line in errors)
    assert "file not found" in errors[0] and "not UTF-8" in errors[1] and "invalid JSON" in errors[2]
    assert "replay: move 2" in errors[3]
    assert "Toy Nim, 8 moves" in result.out  # the good record is analysed all the same


@pytest.mark.parametrize(("args", "fragment"), [
    (["--bot", "nobody"], "unknown bot for toy 'nobody'"),
    (["--evaluator", "nothing"], "unknown evaluator for toy 'nothing'"),
    (["--budget", "0"], "--budget"),
    (["--executor", "cloud"], "unknown executor 'cloud'"),
])
def test_usage_errors_exit_2(cli: Any, record: Path, args: list[str], fragment: str) -> None:
    one_error(cli("analyse", record, *args), 2, fragment)


def test_out_must_be_a_folder(cli: Any, record: Path) -> None:
    one_error(cli("analyse", record, "--out", record), 2, "--out must be a folder")


def test_a_bot_whose_search_raises_is_one_line(cli: Any, record: Path, tmp_path: Path) -> None:
    plugin = toygame.write_plugin(
        tmp_path,
        "crashsearch",
        "from pegboard.specs import Bot, BotSpec",
        "class Crash(Bot):",
        "    def choose(self, view, budget):",
        "        return view.legal_moves()[0]",
        "    def search(self, view, *, seconds=None, work=None):",
        "        return 1 / 0",
        "@hookimpl",
        "def pegboard_bots(game):",
        "    return BotSpec('crash', 'Crash', lambda g, s: Crash())",
    )
    one_error(cli("--plugin", plugin, "analyse", record, "--bot", "crash", "-j", "1"), 1, "bot 'crash' crashed analysing move 1", "ZeroDivisionError")


def test_an_unfinished_game_without_hidden_information_is_analysed(cli: Any, record: Path, tmp_path: Path) -> None:
    data = json.loads(record.read_text())
    data["moves"] = data["moves"][:3]
    del data["result"]
    unfinished = tmp_path / "unfinished.match.json"
    unfinished.write_text(json.dumps(data))
    result = cli("analyse", unfinished, "--json", "-j", "1")
    assert result.code == 0, result.err
    assert len(json.loads(result.out)[0]["rows"]) == 3
