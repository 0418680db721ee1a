"""Starting Starfall games from the Settings, and the rated-game bookkeeping around them.

A game is *rated* when one person plays a skill bot (``skill-S``) outside the
guided game, in a game begun in the window (an imported one is not rated).
Rated games are registered in the local profile when their first move is
played (so merely opening the window costs nothing) and finished when the
result comes; starting another game meanwhile records a loss (the
profile does that when the next rated game starts, and :func:`abandon` does
it at once when the person starts a new game).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from pegboard.scripting import digest_of, load_game

from . import options

SKILL_PREFIX = "skill-"


@dataclass
class MatchInfo:
    """What the window knows about the session's current game beyond the session itself."""

    match_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    generation: Any = None  # (game, seed) of the game it belongs to (a restart makes a new one)
    guide: Any = None  # the guided game's :class:`~.guided.Guide`, when this is the guided game
    registered: bool = False
    finished: bool = False
    rating_before: float | None = None
    rating_after: float | None = None
    result_note: str = ""

    @property
    def guided(self) -> bool:
        return self.guide is not None


_INFO: WeakKeyDictionary[Any, MatchInfo] = WeakKeyDictionary()
_NEXT_GUIDE: WeakKeyDictionary[Any, Any] = WeakKeyDictionary()


def info(session: Any) -> MatchInfo:
    """The :class:`MatchInfo` of the session's current game (a fresh one after a restart)."""
    found = _INFO.get(session)
    root = _root(session)
    if found is None or found.generation[0] is not root[0] or found.generation[1] != root[1]:
        found = MatchInfo(generation=root, guide=_NEXT_GUIDE.pop(session, None))
        _INFO[session] = found
    return found


def _root(session: Any) -> Any:
    """An identity for the game under way: its first state survives moves, undo and jumps."""
    return (session.game, session.seed)


def guide_next(session: Any, guide: Any) -> None:
    """The session's next game (started right after this call) is the guided game, led by ``guide``."""
    _NEXT_GUIDE[session] = guide


def drop_guide(session: Any) -> None:
    """The current game is no longer led by the guide."""
    info(session).guide = None


def previous(session: Any) -> MatchInfo | None:
    """The info of an earlier game of the session, if the game changed since it was made."""
    found = _INFO.get(session)
    root = _root(session)
    if found is not None and (found.generation[0] is not root[0] or found.generation[1] != root[1]):
        return found
    return None


def skill_of(session: Any) -> int | None:
    """The bot's skill when one person plays one skill bot, else None."""
    seats = session.seats
    humans = [c for c in seats if c.is_human]
    bots = [c for c in seats if not c.is_human]
    if len(humans) != 1 or len(bots) != 1 or not bots[0].id.startswith(SKILL_PREFIX):
        return None
    try:
        return int(bots[0].id[len(SKILL_PREFIX):])
    except ValueError:
        return None


def human_seat(session: Any) -> int | None:
    humans = [i for i, c in enumerate(session.seats) if c.is_human]
    return humans[0] if len(humans) == 1 else None


def imported(session: Any) -> bool:
    """True when the game under way came from a file (Import): its moves were not played here."""
    history = session.history
    return bool(history) and history[0].by == "import"


def is_rated(session: Any) -> bool:
    """One person against a skill bot, outside the guided game, in a game begun in this window
    (an imported one could be a position already won)."""
    return skill_of(session) is not None and not info(session).guided and not imported(session)


def wanted_seats(session: Any, plugins: Any, skill: int) -> list[Any]:
    """The seats for bot skill ``skill``: the bot seat becomes ``skill-S`` if that bot is installed."""
    seats: list[Any] = ["human" if c.is_human else c.bot for c in session.seats]
    bots = [i for i, c in enumerate(session.seats) if not c.is_human]
    wanted = options.bot_id(skill)
    if len(bots) == 1 and wanted in plugins.bots(session.game.id):
        seats[bots[0]] = wanted
    return seats


def configure(session: Any, plugins: Any, values: Mapping[str, Any], ratings: tuple[float, float] | None = None, *,
              force: bool = False) -> bool:
    """Make the session play ``values`` (rules and bot skill); restart only if something differs
    (or ``force``). Returns True when a new game started."""
    ruleset = options.ruleset_for(plugins, values, ratings)
    seats = wanted_seats(session, plugins, int(values.get(options.SKILL, options.DEFAULTS[options.SKILL])))
    same_rules = digest_of(dict(session.game.ruleset)) == ruleset.digest
    same_seats = [s if isinstance(s, str) else s.id for s in seats] == [c.id if not c.is_human else "human"
                                                                         for c in session.seats]
    if same_rules and same_seats and not force:
        return False
    game = session.game if same_rules else load_game(ruleset, plugins=plugins)
    # the profile's settings applied to a game not yet begun keep its deal (a --seed game stays that seed)
    keep = session.seed if session.cursor == 0 and not force else None
    session.restart(game=game, seats=seats, ruleset=ruleset.ref, seed=keep)
    return True


__all__ = ["MatchInfo", "configure", "human_seat", "imported", "info", "is_rated", "drop_guide", "guide_next", "previous", "skill_of", "wanted_seats"]
