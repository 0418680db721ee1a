"""tools/bench_starfall.py: the before/after comparison runs both sides and refuses a folder with no engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.starfall_helpers import load_tool

ROOT = Path(__file__).resolve().parents[2]


def _tool():  # type: ignore[no-untyped-def]
    return load_tool("bench_starfall")


def test_baseline_must_hold_the_engine_package(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        _tool().main(["--baseline", str(tmp_path), "--quick"])
    assert exc.value.code == 2
    assert "no pegboard_starfall package" in capsys.readouterr().err


def test_before_and_after_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    # this checkout's own engine as the "baseline": both columns come from real runs
    _tool().main(["--baseline", str(ROOT / "plugins"), "--quick", "--rounds", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["figure", "before", "after", "ratio"]
    rows = {line[:60].strip(): line[60:].split() for line in lines[1:]}
    assert {"random playouts (random_move + check + push)", "record validation (schema + replay + result)"} <= set(rows)
    before, after, ratio = (float(x.rstrip("x")) for x in rows["record validation (schema + replay + result)"][:3])
    assert before > 0 and after > 0 and ratio == pytest.approx(after / before, abs=0.01)
