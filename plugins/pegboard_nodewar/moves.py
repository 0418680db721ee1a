"""Node War's move type and the engine's cell and line codes (a leaf module: the engine,
the notation and the position format all import it)."""

from __future__ import annotations

from typing import NamedTuple

GROW, SPLIT, LOOP, REVIVE = "grow", "split", "loop", "revive"
MOVE_KINDS = (GROW, SPLIT, LOOP, REVIVE)

EMPTY = -1
REGULAR, BASE = 1, 2
LIVE, CUT, GONE = 0, 1, 2


class Move(NamedTuple):
    """One Node War move: ``kind`` (grow/split/loop/revive), source and target points.

    Points are flat indices of the game's board (``game.point(x, y)``).
    """

    kind: str
    src: int
    dst: int


__all__ = ["BASE", "CUT", "EMPTY", "GONE", "GROW", "LIVE", "LOOP", "MOVE_KINDS", "REGULAR", "REVIVE", "SPLIT", "Move"]
