"""Rated games in the local profile: register at the first move, finish at the result.

Uses the local profile (SQLite) and its Elo ratings through :mod:`pegboard.scripting`. A game is rated when one person plays one skill bot outside the
guided game (see :func:`.match.is_rated`).
"""

from __future__ import annotations

import logging
from typing import Any

from . import match, options

log = logging.getLogger(__name__)

GAME = "starfall"


def open_profile() -> Any:
    """The local profile, or None when it cannot be opened (the window still plays, unrated)."""
    from pegboard.errors import ProfileError
    from pegboard.scripting import open_profile as _open

    try:
        return _open()
    except ProfileError as exc:
        log.warning("profile unavailable, games are not rated: %s", exc)
        return None


def rating(profile: Any) -> float:
    """The person's rating (the starting rating without a profile)."""
    from pegboard.scripting import START_RATING

    return float(profile.rating) if profile is not None else START_RATING


def register(session: Any, profile: Any) -> None:
    """Record the rated game under way in the profile (once; a no-op when not rated)."""
    info = match.info(session)
    if profile is None or info.registered or not match.is_rated(session):
        return
    skill = match.skill_of(session)
    assert skill is not None
    seat = match.human_seat(session)
    gap = session.game.rating_gap(seat) if seat is not None else None
    info.rating_before = rating(profile)
    profile.start_rated(info.match_id, game=GAME, opponent=options.bot_id(skill),
                        opponent_rating=options.bot_rating(skill), skill=skill, gap=gap)
    info.registered = True


def finish(session: Any, profile: Any) -> str:
    """Record the result of a registered game; returns the end dialog's line about the rating."""
    info = match.info(session)
    result = session.result
    if profile is None or not info.registered or result is None:
        return info.result_note
    if not info.finished:
        seat = match.human_seat(session)
        score = 0.5 if result.winner is None else 1.0 if result.winner == seat else 0.0
        row = profile.finish_rated(info.match_id, score)
        info.finished = True
        before, after = row.rating_before, row.rating_after
        info.rating_after = after
        info.result_note = f"Your rating: {before:.0f} → {after:.0f} ({after - before:+.1f})."
    return info.result_note


def abandon(info: match.MatchInfo, profile: Any) -> str:
    """A registered, unfinished game was left for a new one: it counts as a loss."""
    if profile is None or not info.registered or info.finished:
        return ""
    before = rating(profile)
    profile.finish_rated(info.match_id, 0.0)
    info.finished = True
    after = rating(profile)
    return f"The game you left counts as a loss: rating {before:.0f} → {after:.0f}."


__all__ = ["abandon", "finish", "open_profile", "rating", "register"]
