"""Node War: grow a network of nodes from your Base, cut the enemy's lines, keep yours alive.

The rules engine is :mod:`pegboard_nodewar.engine`; the plugin hooks are in
:mod:`pegboard_nodewar.plugin`.
"""

from .engine import GROW, LOOP, MOVE_KINDS, REVIVE, SPLIT, Move, NodeWarGame, NodeWarState, perft
from .rules import EVALUATOR_TERMS, SEATS, Params, load_shipped


def load(ruleset: str = "standard") -> NodeWarGame:
    """A game for a shipped ruleset id ("standard", "skirmish", "wide") or a .toml path."""
    return NodeWarGame(load_shipped(ruleset))


__all__ = [
    "EVALUATOR_TERMS",
    "GROW",
    "LOOP",
    "MOVE_KINDS",
    "Move",
    "NodeWarGame",
    "NodeWarState",
    "Params",
    "REVIVE",
    "SEATS",
    "SPLIT",
    "load",
    "load_shipped",
    "perft",
]
