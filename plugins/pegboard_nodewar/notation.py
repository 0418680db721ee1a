"""Move text: ``grow 6,2 -> 6,6`` (type, source x,y, arrow, target x,y).

``→`` is accepted for ``->`` and spaces around commas and the arrow are
tolerated. Parsing checks the shape and that both points are on the board;
whether the move is legal is the state's business.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pegboard.game import InvalidMoveEncoding

from .moves import MOVE_KINDS, Move

if TYPE_CHECKING:
    from .engine import NodeWarGame

#: One "x,y" point of move text (two integer groups).
POINT = r"(-?\d+)\s*,\s*(-?\d+)"
MOVE_RE = re.compile(rf"^\s*([A-Za-z]+)\s+{POINT}\s*(?:->|→)\s*{POINT}\s*$")


def parse_move_text(text: str, game: NodeWarGame) -> Move:
    """A :class:`Move` from its text; raises InvalidMoveEncoding with the reason."""
    found = MOVE_RE.match(text)
    if found is None:
        raise InvalidMoveEncoding(f"expected '<grow|split|loop|revive> x,y -> x,y', got {text.strip()!r}")
    kind = found.group(1).lower()
    if kind not in MOVE_KINDS:
        raise InvalidMoveEncoding(f"unknown move type {found.group(1)!r} (grow, split, loop or revive)")
    sx, sy, tx, ty = (int(found.group(i)) for i in range(2, 6))
    for x, y in ((sx, sy), (tx, ty)):
        if not game.geo.on_board(x, y):
            raise InvalidMoveEncoding(f"{x},{y} is off the {game.width}x{game.height} board")
    return Move(kind, game.geo.point(sx, sy), game.geo.point(tx, ty))
