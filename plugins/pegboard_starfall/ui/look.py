"""How Starfall looks: colours, star shapes, drone discs. Pure pyglet shapes, no state.

Every star colour also has its own shape (a player who cannot tell red from
green still tells a diamond from a circle):

=======  ===========  ============
colour   shape        why
=======  ===========  ============
red      diamond      sharp corners
yellow   five-point   a "star"
green    circle       round
blue     square       flat sides
violet   triangle     points up
=======  ===========  ============
"""

from __future__ import annotations

import math
from typing import Any

from pyglet import shapes

RGB = tuple[int, int, int]

STAR_COLORS: tuple[RGB, ...] = ((239, 68, 68), (250, 204, 21), (34, 197, 94), (59, 130, 246), (192, 132, 252))
STAR_SHAPES = ("diamond", "star", "circle", "square", "triangle")
#: The red-and-white checkerboard under the stars, muted so the stars stand out.
CHECKER: tuple[RGB, RGB] = ((96, 36, 44), (138, 134, 144))
SEAM: RGB = (226, 232, 240)
#: Owned squares: yours in gold, the other side's in blue (the same colours as the drone rims).
OWN_TINT: tuple[RGB, RGB] = ((234, 179, 8), (37, 99, 235))
ASTEROID: RGB = (120, 113, 108)
ASTEROID_DARK: RGB = (68, 64, 60)
HOLE: RGB = (8, 8, 12)
FOG: RGB = (10, 12, 20)
WRECK: RGB = (251, 146, 60)
MISSILE: RGB = (249, 115, 22)
GOLD: RGB = (234, 179, 8)
IVORY: RGB = (254, 249, 231)
LETTER_MINE: RGB = (220, 38, 38)
DISC_THEIRS: RGB = (30, 64, 175)
RIM_THEIRS: RGB = (147, 197, 253)
WHITE: RGB = (255, 255, 255)
SELECT: RGB = (253, 230, 138)
MOVE_DOT: RGB = (34, 197, 94)
TAKE_RING: RGB = (239, 68, 68)
TARGET: RGB = (249, 115, 22)
INSPECT: RGB = (148, 163, 184)
HINT: RGB = (74, 222, 128)
GUIDE: RGB = (56, 189, 248)
CHECKER_BOX: tuple[RGB, RGB] = ((220, 38, 38), (241, 245, 249))


def star_points(shape: str, x: float, y: float, k: float) -> list[tuple[float, float]]:
    """The outline of a star glyph of ``shape`` centred on (x, y) with radius ``k``."""
    if shape == "diamond":
        return [(x, y + k), (x + k * 0.8, y), (x, y - k), (x - k * 0.8, y)]
    if shape == "square":
        h = k * 0.78
        return [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
    if shape == "triangle":
        return [(x, y + k), (x + k * 0.95, y - k * 0.7), (x - k * 0.95, y - k * 0.7)]
    if shape == "star":
        pts = []
        for i in range(10):
            r = k if i % 2 == 0 else k * 0.45
            a = math.pi / 2 + i * math.pi / 5
            pts.append((x + r * math.cos(a), y + r * math.sin(a)))
        return pts
    return [(x + k * math.cos(a * math.pi / 12), y + k * math.sin(a * math.pi / 12)) for a in range(24)]


def star_glyph(color: int, x: float, y: float, k: float, batch: Any, group: Any, *, tint: RGB | None = None,
               alpha: int = 255, back: Any = None) -> list[Any]:
    """A star of colour index ``color``: a dark outline (in group ``back``, drawn first; by default
    ``group``) and the coloured shape (``tint`` overrides the colour)."""
    back = group if back is None else back
    shape = STAR_SHAPES[color % len(STAR_SHAPES)]
    fill = tint or STAR_COLORS[color % len(STAR_COLORS)]
    if shape == "circle":
        return [shapes.Circle(x, y, k * 1.08, color=(15, 15, 20, alpha), batch=batch, group=back),
                shapes.Circle(x, y, k * 0.9, color=(*fill, alpha), batch=batch, group=group)]
    if shape == "star":  # a star's points are thin: draw it larger
        k *= 1.15
    outer = star_points(shape, x, y, k * 1.12)
    inner = star_points(shape, x, y, k)
    return [shapes.Polygon(*outer, color=(15, 15, 20, alpha), batch=batch, group=back),
            shapes.Polygon(*inner, color=(*fill, alpha), batch=batch, group=group)]


def asteroid(x: float, y: float, k: float, batch: Any, group: Any, *, back: Any = None) -> list[Any]:
    """A lumpy grey rock: its body in group ``back`` (by default ``group``), its dark spots in ``group``."""
    lumps = (1.0, 0.82, 0.95, 0.78, 1.0, 0.88, 0.76, 0.93, 0.85)
    pts = [(x + k * r * math.cos(i * 2 * math.pi / len(lumps)), y + k * r * math.sin(i * 2 * math.pi / len(lumps)))
           for i, r in enumerate(lumps)]
    return [shapes.Polygon(*pts, color=ASTEROID, batch=batch, group=group if back is None else back),
            shapes.Circle(x - k * 0.3, y + k * 0.2, k * 0.18, color=ASTEROID_DARK, batch=batch, group=group),
            shapes.Circle(x + k * 0.3, y - k * 0.25, k * 0.13, color=ASTEROID_DARK, batch=batch, group=group)]


__all__ = ["STAR_COLORS", "STAR_SHAPES", "asteroid", "star_glyph", "star_points"]
