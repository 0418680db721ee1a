"""tools/count_bytecodes.py: the bytecodes of a real command line, where they ran, and its exit code."""

from __future__ import annotations

from pathlib import Path

import pytest

from pegboard.cli.app import run
from support.starfall_helpers import load_tool


def test_counts_a_validate_and_names_the_engine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "records"
    assert run(["match", "starfall", "--south", "random", "--north", "random", "-n", "1", "--seed", "3",
                "--out", str(out)]) == 0
    (record,) = out.glob("*.json")
    capsys.readouterr()
    assert load_tool("count_bytecodes").main(["--top", "5", "validate", "-j", "1", str(record)]) == 0
    head, *rows = capsys.readouterr().err.splitlines()
    words = head.split()
    assert words[0] == "bytecodes" and int(words[1].replace(",", "")) > 10_000 and words[-1] == "0)"
    assert len(rows) == 5
    counts = [int(row.split()[0].replace(",", "")) for row in rows]
    assert counts == sorted(counts, reverse=True)
    assert any("shapes.py:" in row or "effects.py:" in row for row in rows)  # the replay was traced


def test_a_failing_command_passes_its_exit_code_through(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert load_tool("count_bytecodes").main(["validate", str(tmp_path / "missing.json")]) == 1
    assert "(exit 1)" in capsys.readouterr().err


def test_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    tool = load_tool("count_bytecodes")
    assert tool.main([]) == 2
    assert tool.main(["--top", "many", "games"]) == 2
    assert "usage:" in capsys.readouterr().err
