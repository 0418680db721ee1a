"""Elo maths (pegboard.ratings.elo), worked by hand."""

from __future__ import annotations

import math

import pytest

from pegboard.ratings import elo as ratings


def test_expected_score_of_equal_and_400_apart() -> None:
    assert ratings.expected_score(1000, 1000) == 0.5
    # 400 points ahead: 1 / (1 + 10^-1) = 10/11
    assert math.isclose(ratings.expected_score(1400, 1000), 10 / 11)
    assert math.isclose(ratings.expected_score(1000, 1400), 1 / 11)
    assert math.isclose(ratings.expected_score(1000, 1400) + ratings.expected_score(1400, 1000), 1.0)


def test_bot_ratings_and_weights_from_the_seed() -> None:
    assert ratings.bot_rating(10) == 920
    assert ratings.bot_rating(50) == 1400
    assert ratings.bot_rating(100) == 2000
    assert ratings.bot_rating(0) == 800
    assert ratings.bot_weight(10) == pytest.approx(0.1)
    assert ratings.bot_weight(50) == 0.5
    assert ratings.bot_weight(100) == 1.0
    with pytest.raises(ValueError):
        ratings.bot_rating(101)
    with pytest.raises(ValueError):
        ratings.bot_weight(-10)


def test_change_against_a_person_is_full_k() -> None:
    # equal ratings: a win is +16, a draw 0, a loss -16
    assert ratings.rating_change(1000, 1000, 1.0) == 16
    assert ratings.rating_change(1000, 1000, 0.5) == 0
    assert ratings.rating_change(1000, 1000, 0.0) == -16


def test_change_against_a_bot_is_scaled_by_skill() -> None:
    # 1000 beats skill 50 (1400): full change 32 * (1 - 1/11) = 29.09..., half of it
    full = 32 * (1 - 1 / 11)
    change = ratings.rating_change(1000, ratings.bot_rating(50), 1.0, weight=ratings.bot_weight(50))
    assert math.isclose(change, full / 2)
    # losing to skill 10 (920) from 1000: expected 1/(1+10^(-80/400)) = 0.6131...; a tenth of 32 * -0.6131
    expected = 1 / (1 + 10 ** (-80 / 400))
    change = ratings.rating_change(1000, ratings.bot_rating(10), 0.0, weight=ratings.bot_weight(10))
    assert math.isclose(change, -3.2 * expected)


def test_a_handicap_gap_replaces_the_rating_gap() -> None:
    # 1000 against skill 100 (2000) with the rocks: gap -1000 leaves -1000 + 50*20 = 0, so a coin toss
    update = ratings.update(1000, 2000, 1.0, weight=1.0, gap=0.0)
    assert update.expected == 0.5
    assert update.after == 1016
    assert update.change == 16
    # without the handicap the same win is worth almost the whole K
    assert ratings.update(1000, 2000, 1.0).change == pytest.approx(32 * (1 - 1 / (1 + 10 ** 2.5)))


def test_bad_scores_and_weights_are_refused() -> None:
    with pytest.raises(ValueError):
        ratings.rating_change(1000, 1000, 2.0)
    with pytest.raises(ValueError):
        ratings.rating_change(1000, 1000, 1.0, weight=1.5)
