"""Pegboard: a plugin-based platform for turn-based board games."""

from .game import Event, Game, IllegalMove, PegboardError, Result, State
from .hookspecs import hookimpl

__version__ = "0.1.0"

__all__ = ["Event", "Game", "IllegalMove", "PegboardError", "Result", "State", "hookimpl", "__version__"]
