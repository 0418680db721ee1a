"""Where a bomb's ram stops (a leaf module: move generation and the effects both need it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .state import StarfallState


def ram_centre(st: StarfallState, sq: int, d: int, vis: bytearray | None) -> int | None:
    """The blast centre of a ram from sq in direction d, or None if that ram is not legal."""
    kind, ast = st.kind, st.ast
    last = -1
    for t in st.geo.rays[sq][d]:
        if vis is not None and not vis[t]:
            return None
        if ast[t] or kind[t]:
            return t
        last = t
    return last if last >= 0 else None
