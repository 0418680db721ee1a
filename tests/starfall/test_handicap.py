"""Handicap "asteroids from ratings": the counts, the gap left, and the rated game that uses it.

Numbers from the seed: skill 10 = 920, skill 50 = 1400, skill 100 = 2000; a new player is 1000.
"""

from __future__ import annotations

import math

import pytest

from pegboard.errors import RulesetError
from pegboard.ratings import elo as ratings
from pegboard.ratings.profile import open_profile
from pegboard.rules.rulesets import build_game, deep_merge, load_ruleset, ruleset_from_data
from pegboard_starfall.rules import handicap_asteroids


@pytest.mark.parametrize(
    "base, south, north, counts, left",
    [
        # 1000 against skill 10 (920): gap 80, one rock, to the stronger (South); 30 points left
        (3, 1000, 920, (4, 3), 30),
        # 1000 against skill 50 (1400): gap -400, n = 8: North +4, South -4 stops at 0; nothing left
        (3, 1000, 1400, (0, 7), 0),
        # 1000 against skill 100 (2000): gap -1000, n = 20: North +10, South cannot lose 10
        (3, 1000, 2000, (0, 13), 0),
        # skill 10 against skill 50: gap -480, n = 9: North +5, South -4 (stops at 0); -30 left, sign kept
        (3, 920, 1400, (0, 8), -30),
        # skill 50 against skill 10 from a base of 5: South +5, North 5 - 4 = 1
        (5, 1400, 920, (10, 1), 30),
        # under one step: no rocks, the whole gap left
        (3, 1449, 1400, (3, 3), 49),
        (3, 1400, 1449, (3, 3), -49),
        # exactly two steps: one each way
        (3, 1100, 1000, (4, 2), 0),
    ],
)
def test_asteroid_counts_and_gap_left(base: int, south: float, north: float, counts: tuple[int, int], left: float) -> None:
    assert handicap_asteroids(base, south, north) == (counts, left)


def _rated_game(ruleset: str, south: float, north: float, **extra: object):  # type: ignore[no-untyped-def]
    base = load_ruleset(ruleset, game="starfall")
    data = deep_merge(base.data, extra)
    game = build_game(ruleset_from_data(data))
    return build_game(ruleset_from_data(deep_merge(data, game.rating_overrides((south, north)))))


def _rocks(game, seed: int = 4) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    st = game.new_state(seed)
    geo = game.geo
    return (sum(st.ast[s] for s in range(geo.size) if geo.half[s] == 0),
            sum(st.ast[s] for s in range(geo.size) if geo.half[s] == 1))


def test_the_switch_places_the_rocks_and_reports_the_gap_left() -> None:
    player, bot = ratings.START_RATING, ratings.bot_rating(50)
    on = _rated_game("starfall/standard", player, bot, handicap={"enabled": True})
    assert _rocks(on) == (0, 7)
    assert on.rating_gap(0) == 0 and on.rating_gap(1) == 0
    near = _rated_game("starfall/standard", 1000, ratings.bot_rating(10), handicap={"enabled": True})
    assert _rocks(near) == (4, 3)
    assert near.rating_gap(0) == 30 and near.rating_gap(1) == -30
    off = _rated_game("starfall/standard", player, bot)  # the switch is off in standard
    assert _rocks(off) == (3, 3)
    assert off.rating_gap(0) is None


def test_the_switch_is_schema_checked() -> None:
    base = load_ruleset("starfall/standard", game="starfall")
    for bad in ({"enabled": "yes"}, {"points_per_asteroid": 0}, {"south_rating": "high"}, {"rocks": 2}):
        with pytest.raises(RulesetError):
            ruleset_from_data(deep_merge(base.data, {"handicap": bad}))


def test_a_rated_game_with_the_handicap_uses_the_gap_left() -> None:
    skill = 10
    game = _rated_game("starfall/standard", 1000, ratings.bot_rating(skill), handicap={"enabled": True})
    with open_profile() as prof:
        prof.start_rated("hc", game="starfall", opponent=f"skill-{skill}", opponent_rating=ratings.bot_rating(skill),
                         skill=skill, gap=game.rating_gap(0))
        row = prof.finish_rated("hc", ratings.WIN)
    expected = 1 / (1 + 10 ** (-30 / 400))  # the 30 points left, not the 80 of the ratings
    assert math.isclose(row.rating_after, 1000 + 0.1 * 32 * (1 - expected))
    assert row.gap == 30
