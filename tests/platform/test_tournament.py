"""Tournaments: the Elo fit, its error bars, the SPRT, and the command."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from pegboard.batch.tournament import PairResult, fit_elo, sprt_bounds, sprt_llr


def _cutechess(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """cutechess-cli's Elo difference and 95 % margin for one pair (its Elo class)."""
    n = wins + draws + losses
    mu = (wins + 0.5 * draws) / n
    var = (wins * (1 - mu) ** 2 + draws * (0.5 - mu) ** 2 + losses * mu**2) / n
    sd = math.sqrt(var / n)

    def elo(p: float) -> float:
        return -400 * math.log10(1 / p - 1)

    return elo(mu), (elo(mu + 1.959964 * sd) - elo(mu - 1.959964 * sd)) / 2


def test_two_bots_match_cutechess() -> None:
    pair = PairResult(0, 1, wins=60, draws=20, losses=40)
    ratings, errors = fit_elo(2, [pair], prior_draws=0)
    diff, margin = _cutechess(60, 20, 40)
    assert ratings[0] - ratings[1] == pytest.approx(diff, rel=1e-4)
    assert ratings[0] == pytest.approx(-ratings[1])
    assert 2 * errors[0] == pytest.approx(margin, rel=0.05)  # the difference's error is twice each rating's


def test_round_robin_orders_and_centres_ratings() -> None:
    pairs = [
        PairResult(0, 1, wins=8, draws=2, losses=0),
        PairResult(0, 2, wins=10, draws=0, losses=0),
        PairResult(1, 2, wins=7, draws=1, losses=2),
    ]
    ratings, errors = fit_elo(3, pairs)
    assert ratings[0] > ratings[1] > ratings[2]
    assert sum(ratings) == pytest.approx(0.0, abs=1e-6)
    assert all(0 < e < 1000 for e in errors)
    more = [PairResult(p.a, p.b, wins=p.wins * 10, draws=p.draws * 10, losses=p.losses * 10) for p in pairs]
    _, tighter = fit_elo(3, more)
    assert all(t < e for t, e in zip(tighter, errors, strict=True))


def test_a_clean_sweep_stays_finite() -> None:
    ratings, errors = fit_elo(2, [PairResult(0, 1, wins=20)])
    assert 100 < ratings[0] < 1000 and math.isfinite(errors[0])


def test_equal_results_give_equal_ratings() -> None:
    ratings, _ = fit_elo(2, [PairResult(0, 1, wins=5, draws=2, losses=5)])
    assert ratings[0] == pytest.approx(ratings[1], abs=1e-6)


def test_sprt_decides_the_right_way() -> None:
    low, high = sprt_bounds(0.05, 0.05)
    assert low == pytest.approx(-2.944, abs=1e-3) and high == pytest.approx(2.944, abs=1e-3)
    assert sprt_llr(0, 0, 0, 0, 10) == 0.0
    assert sprt_llr(300, 100, 100, 0, 50) > high  # 70 % scoring is far above +50
    assert sprt_llr(100, 100, 300, 0, 50) < low
    assert sprt_llr(0, 0, 12, 0, 200) < low  # a sweep decides too (half a virtual game per result)


def test_tournament_command_table_records_and_json(cli: Any, tmp_path: Path) -> None:
    result = cli("tournament", "toy", "random", "takemost", "random", "--games", "4", "--out", tmp_path)
    assert result.code == 0, result.err
    assert "Elo" in result.out and "± 95%" in result.out and "takemost vs random #2" in result.out
    folders = sorted(p.name for p in tmp_path.iterdir())
    assert folders == ["random_1-vs-random_2", "random_1-vs-takemost", "takemost-vs-random_2"]  # random entered twice
    records = sorted((tmp_path / "random_1-vs-takemost").glob("*.match.json"))
    assert len(records) == 4
    assert cli("validate", *records).code == 0
    seats = [json.loads(r.read_text())["players"][0]["bot"] for r in records]
    assert seats == ["random", "takemost", "random", "takemost"]  # colours alternate
    data = json.loads(cli("tournament", "toy", "random", "takemost", "--games", "4", "--json").out)
    assert [p["wins"] + p["draws"] + p["losses"] + p["unfinished"] for p in data["pairs"]] == [4]
    again = json.loads(cli("tournament", "toy", "random", "takemost", "--games", "4", "--json").out)
    assert again == data  # seeded


def test_tournament_sprt_stops_early(cli: Any) -> None:
    data = json.loads(cli("tournament", "toy", "takemost", "random", "--games", "200", "--sprt", "0,300", "--json").out)
    pair = data["pairs"][0]
    assert pair["sprt"] in ("H0", "H1")
    assert pair["wins"] + pair["draws"] + pair["losses"] < 200


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["toy", "random"], "at least two bots"),
        (["toy", "random", "nobot"], "nobot"),
        (["toy", "random", "takemost", "--sprt", "10"], "--sprt expects"),
        (["toy", "random", "takemost", "--sprt", "10,0"], "ELO0 < ELO1"),
        (["nogame", "random", "takemost"], "nogame"),
    ],
)
def test_tournament_bad_input_is_one_line(cli: Any, args: list[str], message: str) -> None:
    result = cli("tournament", *args)
    assert result.code == 2
    assert len(result.err_lines) == 1 and message in result.err
