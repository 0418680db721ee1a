"""Pegboard: a plugin-based platform for turn-based board games.

``import pegboard`` stays cheap: the scripting API (:mod:`pegboard.scripting`:
``load_game``, ``bots``, ``play_match``, ``validate``, ``read_record``,
``write_record``, ``analyse``, ``load_plugin``) is imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pegboard.game import Event, Game, IllegalMove, PegboardError, Result, State
from pegboard.hookspecs import hookimpl

if TYPE_CHECKING:
    from pegboard.scripting import analyse as analyse
    from pegboard.scripting import bots as bots
    from pegboard.scripting import load_game as load_game
    from pegboard.scripting import load_plugin as load_plugin
    from pegboard.scripting import play_match as play_match
    from pegboard.scripting import read_record as read_record
    from pegboard.scripting import validate as validate
    from pegboard.scripting import write_record as write_record

from pegboard.version import __version__

_SCRIPTING = ("analyse", "bots", "load_game", "load_plugin", "play_match", "read_record", "validate", "write_record")

__all__ = ["Event", "Game", "IllegalMove", "PegboardError", "Result", "State", "hookimpl", "__version__", *_SCRIPTING]


def __getattr__(name: str) -> Any:
    if name in _SCRIPTING:
        from pegboard import scripting

        return getattr(scripting, name)
    raise AttributeError(f"module 'pegboard' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_SCRIPTING})
