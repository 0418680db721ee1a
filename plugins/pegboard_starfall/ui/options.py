"""Starfall's Settings: the entries of the panel and the ruleset a set of values plays.

Rule settings become overrides of the chosen base ruleset (``standard`` or a shipped
variant such as ``open_sky``) for fog, timers, salvage, asteroids, handicap and the
territory target, so a match record carries them and imports replay the same game.
Bot skill picks the bot seat ``skill-S``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pegboard.scripting import deep_merge, load_ruleset, ruleset_from_data
from pegboard.view import Setting, number_options

GAME = "starfall"
BASE_RULESET = "standard"
VARIANTS = (("standard", "Standard: the rulebook's game"),
            ("open_sky", "Open sky (claims take land)"))

RULES = "rules"
FOG = "fog"
TIMERS = "timers"
SALVAGE = "salvage"
EXPLAIN = "explain"
ASTEROIDS = "asteroids"
HANDICAP = "handicap"
TARGET = "target"
SKILL = "skill"
GUIDED = "guided"
FRIEND = "friend"

DEFAULTS: dict[str, Any] = {RULES: BASE_RULESET, FOG: "off", TIMERS: False, SALVAGE: False, EXPLAIN: True, ASTEROIDS: 3, HANDICAP: False,
                            TARGET: 69, SKILL: 10}
RULE_KEYS = (RULES, FOG, TIMERS, SALVAGE, ASTEROIDS, HANDICAP, TARGET, SKILL)


def settings(on_guided: Callable[[], Any], on_friend: Callable[[], Any]) -> list[Setting]:
    """The Settings panel's entries, in order."""
    return [
        Setting(RULES, "Rules", default=BASE_RULESET, rule=True, options=VARIANTS),
        Setting(FOG, "Fog of war", default="off", rule=True,
                options=(("off", "Off: the whole board shows"), ("seam", "From the seam"), ("dark", "Everything dark"))),
        Setting(TIMERS, "Timers", kind="toggle", default=False, rule=True,
                help="A 20-minute clock each and 60 seconds a move."),
        Setting(SALVAGE, "Salvage", kind="toggle", default=False, rule=True),
        Setting(EXPLAIN, "Explain moves", kind="toggle", default=True),
        Setting(ASTEROIDS, "Your asteroids", default=3, rule=True, options=number_options(0, 8)),
        Setting(HANDICAP, "Asteroids from ratings", kind="toggle", default=False, rule=True),
        Setting(TARGET, "Squares to win", default=69, rule=True, options=number_options(60, 100)),
        Setting(SKILL, "Bot skill", default=10, rule=True,
                options=tuple((s, f"{s}  (rated {bot_rating(s)})") for s in range(0, 101, 10))),
        Setting(GUIDED, "Guided first game", kind="action", help="Start the guided game", action=on_guided,
                tip="Guided first game: a dark board, no clock, and the game lights each square to tap."),
        Setting(FRIEND, "Play a friend", kind="action", help="Play a friend…", action=on_friend,
                tip="Play a friend: find someone in a lobby and play them online."),
    ]


def bot_rating(skill: int) -> int:
    """The rating of the bot at ``skill`` (800 + 12 x S)."""
    return 800 + 12 * int(skill)


def bot_id(skill: int) -> str:
    return f"skill-{int(skill)}"


def overrides(values: Mapping[str, Any], ratings: tuple[float, float] | None = None) -> dict[str, Any]:
    """The ruleset tables that ``values`` change (``ratings``: South's and North's, for the handicap)."""
    v = {**DEFAULTS, **values}
    out: dict[str, Any] = {
        "fog": {"mode": v[FOG]},
        "timers": {"enabled": bool(v[TIMERS])},
        "salvage": {"enabled": bool(v[SALVAGE])},
        "asteroids": {"base": int(v[ASTEROIDS])},
        "win": {"target": int(v[TARGET])},
    }
    if v[HANDICAP] and ratings is not None:
        out["handicap"] = {"enabled": True, "south_rating": float(ratings[0]), "north_rating": float(ratings[1])}
    return out


def ruleset_for(plugins: Any, values: Mapping[str, Any], ratings: tuple[float, float] | None = None) -> Any:
    """The resolved ruleset the settings play: the chosen base, or a "settings" ruleset built on it."""
    v = {**DEFAULTS, **values}
    base = load_ruleset(f"{GAME}/{v[RULES]}", game=GAME, plugins=plugins)
    if _only_rules_changed(v):
        return base
    data = deep_merge(base.data, overrides(values, ratings))
    data["id"] = "settings"
    data["name"] = "Starfall (your settings)"
    data["description"] = describe(values)
    return ruleset_from_data(data, plugins)


def _only_rules_changed(v: Mapping[str, Any]) -> bool:
    """True when no setting changes the chosen base ruleset (it is played as shipped)."""
    return all(v[k] == DEFAULTS[k] for k in (FOG, TIMERS, SALVAGE, ASTEROIDS, HANDICAP, TARGET))


def describe(values: Mapping[str, Any]) -> str:
    """One line naming the settings that differ from the standard game."""
    v = {**DEFAULTS, **values}
    parts = []
    if v[FOG] != "off":
        parts.append({"seam": "fog from the seam", "dark": "everything dark"}[v[FOG]])
    if v[TIMERS]:
        parts.append("timers")
    if v[SALVAGE]:
        parts.append("salvage")
    if v[ASTEROIDS] != DEFAULTS[ASTEROIDS]:
        parts.append(f"{v[ASTEROIDS]} asteroids")
    if v[HANDICAP]:
        parts.append("asteroids from ratings")
    if v[TARGET] != DEFAULTS[TARGET]:
        parts.append(f"{v[TARGET]} squares to win")
    base = "Standard Starfall" if v[RULES] == BASE_RULESET else f"Starfall {v[RULES].replace('_', ' ')}"
    return f"{base} with " + ", ".join(parts) + "." if parts else f"{base}."


__all__ = ["DEFAULTS", "RULE_KEYS", "bot_id", "bot_rating", "describe", "overrides", "ruleset_for", "settings"]
