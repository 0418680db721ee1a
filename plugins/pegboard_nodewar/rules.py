"""Node War ruleset parameters: every number of the game, read from a resolved ruleset.

The engine never hard-codes a rule number; it reads :class:`Params`, built
from the resolved ruleset mapping (see ``rulesets/nodewar/standard.toml``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pegboard.game import PegboardError

from .geometry import METRICS
from .seats import SEATS as SEATS  # re-exported: where the engine and the formats find it

EVALUATOR_TERMS = (
    "alive_nodes",
    "dead_nodes",
    "base_siege",
    "mobility",
    "loop_redundancy",
    "free_base_slots",
    "front_line_advance",
    "centre_line",
    "wide_network",
    "flank_watch",
    "weak_points",
    "siege_presence",
    "opening_rush",
    "base_room",
)


class RulesetValueError(PegboardError, ValueError):
    """A ruleset value the engine cannot play with; the message names the key."""


@dataclass(frozen=True)
class Params:
    """The numbers of one Node War ruleset."""

    width: int
    height: int
    metric: str
    bases: tuple[tuple[int, int], tuple[int, int]]
    base_radius: int
    base_branches: int
    node_radius: int
    node_branches: int
    first: int
    turn_limit: int
    extension: int

    @classmethod
    def from_ruleset(cls, ruleset: Mapping[str, Any]) -> Params:
        def table(name: str) -> Mapping[str, Any]:
            value = ruleset.get(name)
            if not isinstance(value, Mapping):
                raise RulesetValueError(f"ruleset is missing the [{name}] table")
            return value

        def number(tab: str, key: str, minimum: int = 1) -> int:
            value = table(tab).get(key)
            if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
                raise RulesetValueError(f"{tab}.{key} must be an integer >= {minimum}, got {value!r}")
            return value

        board, turns = table("board"), table("turns")
        width, height = number("board", "width", 2), number("board", "height", 2)
        metric = board.get("distance", "euclidean")
        if metric not in METRICS:
            raise RulesetValueError(f"board.distance must be one of {', '.join(METRICS)}, got {metric!r}")
        raw_bases = table("base").get("positions")
        if not isinstance(raw_bases, list) or len(raw_bases) != 2:
            raise RulesetValueError("base.positions must list two [x, y] points (Blue, then Red)")
        bases = []
        for item in raw_bases:
            if (
                not isinstance(item, list)
                or len(item) != 2
                or not all(isinstance(v, int) for v in item)
                or not (0 <= item[0] < width and 0 <= item[1] < height)
            ):
                raise RulesetValueError(f"base position {item!r} is not a point on the {width}x{height} board")
            bases.append((item[0], item[1]))
        if bases[0] == bases[1]:
            raise RulesetValueError("the two Bases must be on different points")
        first = turns.get("first", SEATS[0])
        if first not in SEATS:
            raise RulesetValueError(f"turns.first must be 'Blue' or 'Red', got {first!r}")
        return cls(
            width=width,
            height=height,
            metric=metric,
            bases=(bases[0], bases[1]),
            base_radius=number("base", "radius"),
            base_branches=number("base", "branches"),
            node_radius=number("node", "radius"),
            node_branches=number("node", "branches", 2),
            first=SEATS.index(first),
            turn_limit=number("turns", "limit"),
            extension=number("turns", "extension"),
        )


def load_shipped(ref: str = "standard") -> dict[str, Any]:
    """The resolved ruleset for a shipped id ("standard", "nodewar/skirmish") or a ``.toml`` path.

    A thin wrapper over the platform's loader (``extends`` merged, schema checked).
    """
    from pegboard.scripting import load_ruleset

    name = ref if ("/" in ref or ref.endswith(".toml")) else f"nodewar/{ref}"
    return dict(load_ruleset(name, game="nodewar").data)
