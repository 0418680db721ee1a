"""tools/tune_weights.py and tools/calibrate_win_scale.py: the Texel fit moves weights toward what predicts outcomes, keeps what it is told to, and both run end to end."""

from __future__ import annotations

import math
import random
import tomllib
from pathlib import Path

import pytest

from support.starfall_helpers import load_tool


def _rows(count: int, seed: int) -> list[tuple[tuple[float, ...], float]]:
    """Positions whose outcome follows 3 * x0 - 1 * x1 (scale 1), with x2 pure noise."""
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        x = (rng.uniform(-2, 2), rng.uniform(-2, 2), rng.uniform(-2, 2))
        p = 1 / (1 + math.exp(-(3 * x[0] - x[1])))
        rows.append((x, 1.0 if rng.random() < p else 0.0))
    return rows


def test_the_fit_finds_the_weights_behind_the_outcomes_and_beats_the_start_on_held_out_games() -> None:
    tool = load_tool("tune_weights")
    fit, test = _rows(3000, 1), _rows(1000, 2)
    start = [1.0, 1.0, 1.0]
    fitted = tool.fit_weights(fit, start, [0, 1, 2], 1.0, 0.0)
    assert 2.5 < fitted[0] < 3.5 and -1.4 < fitted[1] < -0.6 and abs(fitted[2]) < 0.3
    assert tool.log_loss(test, fitted, 1.0) < tool.log_loss(test, start, 1.0) - 0.05


def test_kept_terms_stay_and_the_ridge_pulls_toward_the_start() -> None:
    tool = load_tool("tune_weights")
    rows = _rows(2000, 3)
    free_only = tool.fit_weights(rows, [1.0, 1.0, 1.0], [0, 2], 1.0, 0.0)
    assert free_only[1] == 1.0
    loose = tool.fit_weights(rows, [1.0, 1.0, 1.0], [0, 1, 2], 1.0, 0.0)
    tight = tool.fit_weights(rows, [1.0, 1.0, 1.0], [0, 1, 2], 1.0, 10.0)
    assert abs(tight[0] - 1.0) < abs(loose[0] - 1.0)


def test_a_small_self_play_fit_writes_an_evaluator_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = load_tool("tune_weights")
    out = tmp_path / "fitted.toml"
    assert tool.main(["nodewar", "--bot", "easy", "--games", "4", "--every", "4", "--keep", "opening_rush", "--toml", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "held-out games" in printed and "(kept)" in printed
    table = tomllib.loads(out.read_text())["evaluator"]
    assert "alive_nodes" in table and table["opening_rush"] == 1.0


def test_an_unknown_kept_term_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    tool = load_tool("tune_weights")
    assert tool.main(["nodewar", "--bot", "easy", "--games", "2", "--keep", "no_such_term"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: no term no_such_term")


def test_the_win_scale_calibration_fits_a_constant_from_self_play(capsys: pytest.CaptureFixture[str]) -> None:
    tool = load_tool("calibrate_win_scale")
    assert tool.main(["nodewar", "--bot", "easy", "--games", "2", "--every", "5"]) == 0
    assert "fitted win_scale" in capsys.readouterr().out
