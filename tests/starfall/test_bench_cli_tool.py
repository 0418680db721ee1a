"""tools/bench_starfall_cli.py: whole-process timings for both sides, and a clear refusal of a bad baseline."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.starfall_helpers import load_tool

ROOT = Path(__file__).resolve().parents[2]


def _tool():  # type: ignore[no-untyped-def]
    return load_tool("bench_starfall_cli")


def test_baseline_must_be_a_checkout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _tool().main(["--baseline", str(tmp_path)]) == 2
    assert "has no platform/pegboard" in capsys.readouterr().err


def test_validate_and_match_timed_on_both_sides(capsys: pytest.CaptureFixture[str]) -> None:
    # this checkout as its own baseline: every figure comes from a real child process
    assert _tool().main(["--baseline", str(ROOT), "-n", "1", "--rounds", "1"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if " ratio " in line]
    assert [row.split()[0] for row in rows] == ["validate", "match"]
    for row in rows:
        words = row.split()
        this, base, ratio = (float(words[i].rstrip("x")) for i in (words.index("this") + 1, words.index("baseline") + 1, -1))
        # the times are printed to 0.5 ms and the ratio to 0.005: allow for the rounding of all three
        slack = 0.005 + (base / this) * (0.0005 / this + 0.0005 / base)
        assert this > 0 and base > 0 and ratio == pytest.approx(base / this, abs=slack)
