"""Translucent marks a board view draws over its board: an arrow from one point to another, a ring.

Review draws the better move with them (:meth:`pegboard.ui.board.BoardView.show_better_move`);
they are plain pyglet shapes in the batch and group the view gives, so they draw where its
other overlays do.
"""

from __future__ import annotations

import math
from typing import Any

from pyglet import shapes

from pegboard.ui import theme


def arrow_shapes(x0: float, y0: float, x1: float, y1: float, *, width: float, batch: Any, group: Any = None,
                 color: tuple[int, int, int, int] = theme.BETTER) -> list[Any]:
    """An arrow from (x0, y0) to (x1, y1): a shaft ``width`` thick and a head three times as wide,
    its tip on the end point. A zero-length arrow is a ring (see :func:`ring_shapes`)."""
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy)
    if length < 1e-6:
        return ring_shapes(x0, y0, width * 2.5, width=width, batch=batch, group=group, color=color)
    ux, uy = dx / length, dy / length
    head = min(length * 0.6, width * 3.2)
    bx, by = x1 - ux * head, y1 - uy * head  # where the shaft meets the head
    half = width * 1.6
    px, py = -uy * half, ux * half
    return [
        shapes.Line(x0, y0, bx, by, thickness=width, color=color, batch=batch, group=group),
        shapes.Triangle(x1, y1, bx + px, by + py, bx - px, by - py, color=color, batch=batch, group=group),
    ]


def ring_shapes(x: float, y: float, radius: float, *, width: float, batch: Any, group: Any = None,
                color: tuple[int, int, int, int] = theme.BETTER) -> list[Any]:
    """A ring of ``radius`` round (x, y), ``width`` thick (a move on one point: a claim, a build)."""
    return [shapes.Arc(x, y, radius, segments=40, thickness=width, color=color, batch=batch, group=group)]


__all__ = ["arrow_shapes", "ring_shapes"]
