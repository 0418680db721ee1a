"""tools/balance_starfall.py: a tiny batch with the random bot, and its answers to bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.starfall_helpers import load_tool


def _tool():  # type: ignore[no-untyped-def]
    return load_tool("balance_starfall")


def test_a_small_batch_reports_every_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = _tool()
    out = tmp_path / "batch.json"
    args = ["--pairs", "random:random", "--games", "2", "--rulesets", "quick", "--json", str(out), "--markdown"]
    assert tool.main(args) == 0
    text = capsys.readouterr().out
    assert "quick random - random" in text and "| quick | random - random | 2 |" in text
    data = json.loads(out.read_text())
    games = data["batches"][0]["games"]
    assert len(games) == 2 and {g["index"] for g in games} == {0, 1}
    summary = data["batches"][0]["summary"]
    assert sum(summary["endings"].values()) + sum(1 for g in games if g["reason"] not in summary["endings"]) == 2
    assert tool.main(["--summarise", str(out)]) == 0  # the tables again, from the file
    assert "| quick | random - random | 2 |" in capsys.readouterr().out
    again = tool.play("quick", ("random", "random"), 1, 1)  # a game replays from its seed and index
    assert (again.reason, again.plies, again.squares) == (games[1]["reason"], games[1]["plies"], tuple(games[1]["squares"]))


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = _tool()
    assert tool.main(["--pairs", "skill-x:random", "--games", "1"]) == 2
    assert tool.main(["--pairs", "random", "--games", "1"]) == 2
    assert tool.main(["--pairs", "random:random", "--rulesets", "nope", "--games", "1"]) == 1
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\x00\xff{not json")
    assert tool.main(["--summarise", str(garbage)]) == 1
    lines = [line for line in capsys.readouterr().err.splitlines() if line]
    assert len(lines) == 4 and all(line.startswith("error: ") for line in lines)
