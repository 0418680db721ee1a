"""Starfall: a match-the-stars game of drones, missiles and territory, as a Pegboard plugin.

The rules engine lives in :mod:`pegboard_starfall.state`; :mod:`pegboard_starfall.plugin`
registers it with Pegboard. See ``docs/rules/starfall.md`` for the rules as implemented.
"""

from __future__ import annotations

__all__ = ["StarfallGame"]


def __getattr__(name: str) -> object:  # lazy, so importing the package stays cheap
    if name == "StarfallGame":
        from .game import StarfallGame

        return StarfallGame
    raise AttributeError(name)
