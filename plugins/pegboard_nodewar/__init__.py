"""Node War: grow a network of nodes from your Base, cut the enemy's lines, keep your nodes alive.

The rules engine is :mod:`pegboard_nodewar.engine`; the plugin hooks are in
:mod:`pegboard_nodewar.plugin`. The names below are loaded on first use, so
loading the plugin (every ``pegboard`` command does) does not import the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine import GROW, LOOP, MOVE_KINDS, REVIVE, SPLIT, Move, NodeWarGame, NodeWarState, perft
    from .rules import EVALUATOR_TERMS, SEATS, Params, load_shipped

_ENGINE = {"GROW", "LOOP", "MOVE_KINDS", "REVIVE", "SPLIT", "Move", "NodeWarGame", "NodeWarState", "perft"}
_RULES = {"EVALUATOR_TERMS", "SEATS", "Params", "load_shipped"}


def __getattr__(name: str) -> Any:
    if name in _ENGINE:
        from . import engine

        return getattr(engine, name)
    if name in _RULES:
        from . import rules

        return getattr(rules, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load(ruleset: str = "standard") -> NodeWarGame:
    """A game for a shipped ruleset id ("standard", "skirmish", "wide") or a .toml path."""
    from .engine import NodeWarGame
    from .rules import load_shipped

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
