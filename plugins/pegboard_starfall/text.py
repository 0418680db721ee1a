"""A plain-text picture of a position, for logs, tests and the terminal.

One cell per square, North's back row at the top. A drone shows its letter (capital for
South, small for North) and a trailing power digit when stacked; otherwise the star colour
(0-4), ``#`` for an asteroid, ``.`` for a hole. Owned squares are marked after the cell:
``<`` South, ``>`` North. Example row: ``3  1< M< 2< 0 ...``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .pieces import LETTERS

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


def render(st: StarfallState) -> str:
    """The board as text, top row (North's back row) first, with row and column numbers."""
    geo = st.geo
    lines = []
    for r in reversed(range(geo.height)):
        seam = " seam" if r == geo.seam else ""
        lines.append(f"{r:2d} " + " ".join(cell(st, r * geo.width + c) for c in range(geo.width)).rstrip() + seam)
    lines.append("   " + " ".join(f"{c:<3d}" for c in range(geo.width)).rstrip())
    who = ("South", "North")[st.to_move]
    stock = f"stock S {st.command_stock(0)} / N {st.command_stock(1)}"
    owned = st.territory()
    status = f"turn {st.turn}, {who} to move, squares {owned[0]}-{owned[1]}, {stock}"
    if st.result is not None:
        status = f"game over: {st.result.text or st.result.reason}"
    lines.append(status)
    return "\n".join(lines)
