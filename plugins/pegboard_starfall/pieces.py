"""Drone kinds, ride masks and the names used in positions and explain-moves texts."""

from __future__ import annotations

from typing import Any

NONE, COMMAND, SCOUT, SHIELD, RAIDER, HUNTER, WARP, SIEGE, BOMB, TURRET = range(10)
#: The letter each kind wears (index = kind code).
LETTERS = ".MSGRHWXBT"
KIND_NAMES = ("none", "command", "scout", "shield", "raider", "hunter", "warp", "siege", "bomb", "turret")
KIND_BY_LETTER = {letter: kind for kind, letter in enumerate(LETTERS) if kind}

SIDE_NAMES = ("South", "North")
COLOR_NAMES = ("red", "yellow", "green", "blue", "violet")

# Ride mask bits: bit k (k < 5) = rides stars of colour k; these two = rides checker squares.
RED_SQUARES = 1 << 5
WHITE_SQUARES = 1 << 6
ALL_STARS = (1 << 5) - 1
#: STAR_BITS[c]: the ride bit of star colour c; index -1 (no star) gives none.
STAR_BITS = (*(1 << k for k in range(5)), 0)
#: CHECKER_BITS[checker colour] (geometry.RED, geometry.WHITE): the ride bit of that colour's squares.
CHECKER_BITS = (RED_SQUARES, WHITE_SQUARES)
#: Kinds that fire missiles, with the ruleset keys of their shots per turn and load size.
SHOOTERS = (SCOUT, HUNTER)
#: Kinds a shield's sweep takes.
SWEPT = frozenset({SCOUT, HUNTER, WARP, SHIELD})
#: Kinds that move a single step only.
STEPPERS = frozenset({SHIELD, SIEGE})
#: Kinds that never move.
FIXED = frozenset({COMMAND, TURRET})


def payout_kind(name: str, color: int) -> tuple[int, int]:
    """(kind, ride mask) of a drone a payout row names, made from stars of ``color``."""
    if name == "raider_white":
        return RAIDER, WHITE_SQUARES
    if name == "raider_red":
        return RAIDER, RED_SQUARES
    if name == "hunter":
        return HUNTER, ALL_STARS
    kind = {"scout": SCOUT, "shield": SHIELD, "warp": WARP, "siege": SIEGE, "bomb": BOMB}[name]
    return kind, (0 if kind in STEPPERS else 1 << color)


def drone_label(name: str) -> str:
    """'raider_white' -> 'white raider' for explain texts."""
    if name.startswith("raider_"):
        return f"{name[7:]} raider"
    return name


def ride_names(mask: int) -> dict[str, list[Any]]:
    """A ride mask as JSON: star colour indices and checker colours."""
    return {
        "stars": [k for k in range(5) if mask >> k & 1],
        "squares": [n for n, bit in (("red", RED_SQUARES), ("white", WHITE_SQUARES)) if mask & bit],
    }


def ride_mask(data: dict[str, Any]) -> int:
    mask = 0
    for k in data.get("stars", []):
        mask |= 1 << int(k)
    for n in data.get("squares", []):
        mask |= RED_SQUARES if n == "red" else WHITE_SQUARES
    return mask
