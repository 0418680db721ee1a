"""A plain-text picture of a position, for logs, tests and the terminal.

One cell per square, North's back row at the top (South's, for North's player). A drone shows its letter (capital for
South, small for North) and a trailing power digit when stacked; otherwise the star colour
(0-4), ``#`` for an asteroid, ``.`` for a hole. Owned squares are marked after the cell:
``<`` South, ``>`` North. Example row: ``3  1< M< 2< 0 ...``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .pieces import LETTERS, SIDE_NAMES

if TYPE_CHECKING:
    from .state import StarfallState


def cell(st: StarfallState, sq: int) -> str:
    k = st.kind[sq]
    if k:
        letter = LETTERS[k] if st.side[sq] == 0 else LETTERS[k].lower()
        body = letter + (str(st.power[sq]) if st.power[sq] > 1 else "")
    elif st.ast[sq]:
        body = "#"
    elif st.star[sq] < 0:
        body = "."
    else:
        body = str(st.star[sq])
    mark = {0: "<", 1: ">"}.get(st.owner[sq], "")
    return (body + mark).ljust(3)


def render(st: StarfallState, bottom: int = 0) -> str:
    """The board as text with row and column numbers: ``bottom``'s back row last (South's by
    default; for North the picture turns half a circle, as the window draws it)."""
    geo = st.geo
    lines = []
    rows = reversed(range(geo.height)) if bottom == 0 else range(geo.height)
    cols = list(range(geo.width)) if bottom == 0 else list(reversed(range(geo.width)))
    for r in rows:
        seam = " seam" if r == geo.seam else ""
        lines.append(f"{r:2d} " + " ".join(cell(st, r * geo.width + c) for c in cols).rstrip() + seam)
    lines.append("   " + " ".join(f"{c:<3d}" for c in cols).rstrip())
    who = SIDE_NAMES[st.to_move]
    stock = f"stock S {st.command_stock(0)} / N {st.command_stock(1)}"
    owned = st.territory()
    status = f"turn {st.turn}, {who} to move, squares {owned[0]}-{owned[1]}, {stock}"
    if st.result is not None:
        status = f"game over: {st.result.text or st.result.reason}"
    lines.append(status)
    return "\n".join(lines)
