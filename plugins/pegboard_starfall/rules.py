"""The settings of one Starfall ruleset, read once from the resolved ruleset dict."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from pegboard.game import PegboardError

from .shapes import SHAPE_ROWS

#: Payout rows from the highest to the lowest (the order shapes are paid in).
ROW_IDS: tuple[str, ...] = SHAPE_ROWS
#: Drone names a payout may give.
DRONE_NAMES = ("scout", "shield", "raider_white", "raider_red", "hunter", "warp", "siege", "bomb")
#: What a row pays once its side holds the drone cap.
AT_NINE = ("nothing", "missile", "asteroid", "bomb")
FOG_MODES = ("off", "seam", "dark")
#: Where the six-line's at-cap asteroid lands on the other side's land.
DROP_TARGETS = ("random", "empty", "aimed")


class RulesetValueError(PegboardError, ValueError):
    """A ruleset value the Starfall engine cannot play with (names the key)."""


# Payout and Rules are named tuples, not dataclasses: the same fields, keywords, defaults,
# repr and equality, and immutable, but a dataclass generates and compiles its methods in
# every process that imports it (~25 M instructions for these two, 4% of a one-record
# ``pegboard validate``) where a named tuple's come ready-made.


class Payout(NamedTuple):
    """One row of the payout table."""

    drones: tuple[str, ...]
    at_nine: str


DEFAULT_PAYOUT: dict[str, dict[str, Any]] = {
    "block3x3": {"drones": ["warp", "siege", "hunter"], "at_nine": "nothing"},
    "cross54_or_block2x3": {"drones": ["warp", "siege"], "at_nine": "nothing"},
    "cross44_53_or_line7": {"drones": ["warp"], "at_nine": "nothing"},
    "L43": {"drones": ["siege"], "at_nine": "nothing"},
    "V": {"drones": ["hunter"], "at_nine": "nothing"},
    "plus_or_X": {"drones": ["hunter"], "at_nine": "nothing"},
    "L33": {"drones": ["bomb"], "at_nine": "bomb"},
    "T33": {"drones": ["raider_red"], "at_nine": "missile"},
    "line6": {"drones": ["hunter"], "at_nine": "asteroid"},
    "hook4": {"drones": ["raider_red"], "at_nine": "missile"},
    "line5": {"drones": ["raider_white"], "at_nine": "missile"},
    "block2x2": {"drones": ["shield"], "at_nine": "nothing"},
    "line4": {"drones": ["scout"], "at_nine": "nothing"},
}

#: The standard payout table (read-only): what :class:`Rules` holds when built without a table.
STANDARD_PAYOUT: Mapping[str, Payout] = MappingProxyType(
    {row: Payout(tuple(e["drones"]), e["at_nine"]) for row, e in DEFAULT_PAYOUT.items()}
)


class Rules(NamedTuple):
    """Every number the engine reads from a ruleset (see rulesets/starfall/standard.toml)."""

    width: int = 11
    height: int = 11
    colors: int = 5
    target: int = 69
    max_turns: int = 300
    asteroids: tuple[int, int] = (3, 3)
    drift_threshold: int = 8
    missile_range: int = 3
    fog_missile_range: int = 5
    start_missiles: int = 1
    scout_shots: int = 1
    hunter_shots: int = 2
    scout_load: int = 1
    hunter_load: int = 2
    claim_radius: int = 1
    warp_radius: int = 1
    drone_cap: int = 9
    max_power: int = 3
    turret_cost: int = 10
    fog: str = "off"
    salvage: bool = False
    wreck_rounds: int = 5
    timers: bool = False
    clock_seconds: float = 1200.0
    move_seconds: float = 60.0
    payout: Mapping[str, Payout] = STANDARD_PAYOUT
    #: "random": any square the other side owns without an asteroid; "empty": one with no drone either;
    #: "aimed": the mover picks one (not the Command) with an ``aim`` move.
    drop_target: str = "random"
    #: Claims and warps also take the other side's land (not under its drones).
    claim_enemy: bool = False
    #: A scout's claim that takes any of the other side's squares spends the scout.
    spend_on_take: bool = False
    #: Power a siege needs to win beside the enemy Command.
    siege_power: int = 1
    #: "Asteroids from ratings" is switched on (the ratings may still be missing).
    handicap: bool = False
    #: South's rating minus North's left after the handicap's rocks; None without both ratings.
    handicap_gap: float | None = None

    @property
    def fogged(self) -> bool:
        return self.fog != "off"

    @property
    def range(self) -> int:
        """Missile range in force (longer under fog)."""
        return self.fog_missile_range if self.fogged else self.missile_range

    @classmethod
    def from_ruleset(cls, data: Mapping[str, Any]) -> Rules:
        """Read a resolved ruleset dict; missing tables fall back to the standard values."""
        board = data.get("board", {})
        win = data.get("win", {})
        ast = data.get("asteroids", {})
        mis = data.get("missiles", {})
        claims = data.get("claims", {})
        drones = data.get("drones", {})
        fog = data.get("fog", {})
        salvage = data.get("salvage", {})
        timers = data.get("timers", {})
        base = int(ast.get("base", 3))
        south = int(ast.get("south", base))
        north = int(ast.get("north", base))
        handicap = data.get("handicap", {})
        gap_left: float | None = None
        if handicap.get("enabled") and "south_rating" in handicap and "north_rating" in handicap:
            (south, north), gap_left = handicap_asteroids(
                base, float(handicap["south_rating"]), float(handicap["north_rating"]),
                int(handicap.get("points_per_asteroid", 50)),
            )
        payout = {}
        table = data.get("payout", {})
        for row in ROW_IDS:
            entry = table.get(row, DEFAULT_PAYOUT[row])
            names = entry.get("drones", [])
            if isinstance(names, str):
                names = [names]
            at_nine = entry.get("at_nine", "nothing")
            for name in names:
                if name not in DRONE_NAMES:
                    raise RulesetValueError(f"payout.{row}: unknown drone {name!r}")
            if at_nine not in AT_NINE:
                raise RulesetValueError(f"payout.{row}.at_nine: unknown value {at_nine!r}")
            payout[row] = Payout(tuple(names), at_nine)
        rules = cls(
            width=int(board.get("width", 11)),
            height=int(board.get("height", 11)),
            colors=int(board.get("colors", 5)),
            target=int(win.get("target", 69)),
            max_turns=int(win.get("max_turns", 300)),
            asteroids=(south, north),
            drift_threshold=int(ast.get("drift_threshold", 8)),
            missile_range=int(mis.get("range", 3)),
            fog_missile_range=int(mis.get("fog_range", 5)),
            start_missiles=int(mis.get("start_stock", 1)),
            scout_shots=int(mis.get("scout_shots", 1)),
            hunter_shots=int(mis.get("hunter_shots", 2)),
            scout_load=int(mis.get("scout_load", 1)),
            hunter_load=int(mis.get("hunter_load", 2)),
            claim_radius=int(claims.get("claim_radius", 1)),
            warp_radius=int(claims.get("warp_radius", 1)),
            drone_cap=int(drones.get("cap", 9)),
            max_power=int(drones.get("max_power", 3)),
            turret_cost=int(drones.get("turret_cost", 10)),
            fog=str(fog.get("mode", "off")),
            salvage=bool(salvage.get("enabled", False)),
            wreck_rounds=int(salvage.get("wreck_rounds", 5)),
            timers=bool(timers.get("enabled", False)),
            clock_seconds=float(timers.get("clock_seconds", 1200)),
            move_seconds=float(timers.get("move_seconds", 60)),
            payout=payout,
            drop_target=str(ast.get("drop_target", "random")),
            claim_enemy=bool(claims.get("take_enemy", False)),
            spend_on_take=bool(claims.get("spend_on_take", False)),
            siege_power=int(win.get("siege_power", 1)),
            handicap=bool(handicap.get("enabled", False)),
            handicap_gap=gap_left,
        )
        rules.validate()
        return rules

    def validate(self) -> None:
        """Raise :class:`RulesetValueError` for values the engine cannot play."""
        if self.width < 5 or self.height < 7 or self.height % 2 == 0:
            raise RulesetValueError(
                "board: width at least 5, height at least 7 and odd (the starting blocks stay off the seam row)"
            )
        if not 3 <= self.colors <= 5:
            raise RulesetValueError("board.colors must be 3..5")
        if not 1 <= self.target <= self.width * self.height:
            raise RulesetValueError("win.target must be between 1 and the number of squares")
        if self.fog not in FOG_MODES:
            raise RulesetValueError(f"fog.mode must be one of {', '.join(FOG_MODES)}")
        if self.drop_target not in DROP_TARGETS:
            raise RulesetValueError(f"asteroids.drop_target must be one of {', '.join(DROP_TARGETS)}")
        if min(self.asteroids) < 0:
            raise RulesetValueError("asteroids: counts cannot be negative")
        if self.max_power < 1 or self.drone_cap < 1:
            raise RulesetValueError("drones: cap and max_power must be at least 1")
        if not 1 <= self.siege_power <= self.max_power:
            raise RulesetValueError("win.siege_power must be between 1 and drones.max_power")




def handicap_asteroids(
    base: int, rating_south: float, rating_north: float, points_per_asteroid: int = 50
) -> tuple[tuple[int, int], float]:
    """Asteroid counts (South, North) from two ratings, and the rating gap left after the rocks.

    n = floor(gap / points_per_asteroid); ceil(n/2) rocks go to the stronger side's half and
    floor(n/2) come off the weaker side's (never below 0). The gap left keeps its sign.
    """
    gap = rating_south - rating_north
    n = int(abs(gap) // points_per_asteroid)
    add, remove = (n + 1) // 2, n // 2
    counts = (base + add, max(0, base - remove)) if gap >= 0 else (max(0, base - remove), base + add)
    left = gap - points_per_asteroid * n if gap >= 0 else gap + points_per_asteroid * n
    return counts, left
