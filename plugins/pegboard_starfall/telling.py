"""How a move reads to a side that may not see all of it (``State.move_text_for``).

Under fog a side is told a move in full only when it sees every square the move names, as
the move begins. Otherwise it reads the part it sees ("fire from e10 out of sight", "move
from out of sight to c7") or, seeing none of it, "a move out of sight". Without fog, and
for the mover itself, a move reads as its notation (:func:`pegboard_starfall.moves.text`).
Passes, timeouts and resignations are public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import fog
from . import moves as mv

if TYPE_CHECKING:
    from .state import StarfallState

OUT_OF_SIGHT = "a move out of sight"
_PUBLIC = frozenset({mv.PASS, mv.TIMEOUT, mv.CONCEDE})
_TWO_SQUARES = frozenset({mv.SWAP, mv.FIRE, mv.MOVE, mv.WARP, mv.STRIKE})


def move_text_for(st: StarfallState, move: mv.SfMove, seat: int) -> str:
    """``move``, about to be played from ``st``, as ``seat`` may read it."""
    full = mv.text(st.geo, move)
    if not st.rules.fogged or seat == st.current or move.kind in _PUBLIC or move.a < 0:
        return full
    vis = fog.visible(st, seat)
    name = st.geo.name
    if move.kind not in _TWO_SQUARES:  # claim, build, ram, aim: one square
        return full if vis[move.a] else OUT_OF_SIGHT
    a_seen, b_seen = bool(vis[move.a]), bool(vis[move.b])
    if a_seen and b_seen:
        return full
    if not a_seen and not b_seen:
        return OUT_OF_SIGHT
    seen = name(move.a) if a_seen else name(move.b)
    if move.kind == mv.SWAP:
        return f"swap at {seen} (the other star is out of sight)"
    if move.kind == mv.FIRE:
        return f"fire from {seen} out of sight" if a_seen else f"a missile from out of sight at {seen}"
    return f"{move.kind} from {seen} out of sight" if a_seen else f"{move.kind} from out of sight to {seen}"


__all__ = ["OUT_OF_SIGHT", "move_text_for"]
