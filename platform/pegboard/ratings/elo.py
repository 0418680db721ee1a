"""Elo ratings: the pure maths, with no storage (see :mod:`pegboard.ratings.profile` for that).

A player's rating moves the chess way after each rated game: by ``K * weight * (score -
expected)``, where ``expected = 1 / (1 + 10 ** ((Rb - Ra) / 400))``. A bot of skill S
(0-100) is rated ``800 + 12 * S`` and a game against it counts with weight ``S / 100``; a
game against a person counts in full. A game whose handicap already evened out part of the
gap (Starfall's "asteroids from ratings") passes the gap that is left, and the expected
score is worked out from that instead of from the two ratings.
"""

from __future__ import annotations

from dataclasses import dataclass

#: A new player's rating.
START_RATING = 1000.0
#: The most one game can move a rating (at full weight).
K_FACTOR = 32.0
#: A bot of skill 0 is rated this much; each skill point adds :data:`POINTS_PER_SKILL`.
BOT_BASE_RATING = 800.0
POINTS_PER_SKILL = 12.0
#: Bot skills run from 0 to this.
MAX_SKILL = 100

#: Scores a finished game can give the player.
WIN, DRAW, LOSS = 1.0, 0.5, 0.0


def expected_from_gap(gap: float) -> float:
    """Expected score of a player rated ``gap`` points above the opponent (negative: below)."""
    return 1.0 / (1.0 + float(10.0 ** (-gap / 400.0)))


def expected_score(rating: float, opponent: float) -> float:
    """Expected score of a player rated ``rating`` against one rated ``opponent``."""
    return expected_from_gap(rating - opponent)


def bot_rating(skill: int) -> float:
    """The rating of a bot playing at ``skill`` (0-100): 800 + 12 * skill."""
    _check_skill(skill)
    return BOT_BASE_RATING + POINTS_PER_SKILL * skill


def bot_weight(skill: int) -> float:
    """How much a game against a bot of ``skill`` counts: skill / 100 of the full change."""
    _check_skill(skill)
    return skill / MAX_SKILL


def _check_skill(skill: int) -> None:
    if not 0 <= skill <= MAX_SKILL:
        raise ValueError(f"a bot skill runs from 0 to {MAX_SKILL}, not {skill}")


def rating_change(rating: float, opponent: float, score: float, *, weight: float = 1.0, gap: float | None = None) -> float:
    """How far one game moves ``rating``.

    ``score`` is 1 (win), 0.5 (draw) or 0 (loss); ``weight`` scales the change (``S / 100``
    against a bot of skill S, 1 against a person); ``gap`` is the rating gap (player minus
    opponent) a handicap left, when the game had one, else the two ratings give it.
    """
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score is between 0 and 1, not {score}")
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"a weight is between 0 and 1, not {weight}")
    expected = expected_from_gap(rating - opponent if gap is None else gap)
    return K_FACTOR * weight * (score - expected)


@dataclass(frozen=True)
class Update:
    """One rated game's effect on a rating."""

    before: float
    after: float
    expected: float

    @property
    def change(self) -> float:
        return self.after - self.before


def update(rating: float, opponent: float, score: float, *, weight: float = 1.0, gap: float | None = None) -> Update:
    """The rating after one game (see :func:`rating_change` for the arguments)."""
    change = rating_change(rating, opponent, score, weight=weight, gap=gap)
    expected = expected_from_gap(rating - opponent if gap is None else gap)
    return Update(before=rating, after=rating + change, expected=expected)
