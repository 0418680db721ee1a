"""Pegboard: a plugin-based platform for turn-based board games.

``import pegboard`` stays cheap: the scripting API (:mod:`pegboard.scripting`:
``load_game``, ``bots``, ``play_match``, ``validate``, ``read_record``,
``write_record``, ``load_plugin``) is imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .game import Event, Game, IllegalMove, PegboardError, Result, State
from .hookspecs import hookimpl

if TYPE_CHECKING:
    from .scripting import bots, load_game, load_plugin, play_match, read_record, validate, write_record

from .version import __version__

_SCRIPTING = ("bots", "load_game", "load_plugin", "play_match", "read_record", "validate", "write_record")

__all__ = ["Event", "Game", "IllegalMove", "PegboardError", "Result", "State", "hookimpl", "__version__", *_SCRIPTING]


def __getattr__(name: str) -> Any:
    if name in _SCRIPTING:
        from . import scripting

        return getattr(scripting, name)
    raise AttributeError(f"module 'pegboard' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_SCRIPTING})
