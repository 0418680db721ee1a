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


class Glyph(shapes.ShapeBase):
    """A filled outline and a filled shape inside it, as one vertex list: each a fan of triangles
    about (x, y), the outline's first, so the fill always covers it. One vertex list builds in
    half the time of two shapes (an animation step builds dozens of stars)."""

    def __init__(self, x: float, y: float, outer: list[tuple[float, float]], inner: list[tuple[float, float]],
                 outline: tuple[int, int, int, int], fill: tuple[int, int, int, int], batch: Any = None,
                 group: Any = None) -> None:
        self._x, self._y = x, y
        self._polys = [[(px - x, py - y) for px, py in outer], [(px - x, py - y) for px, py in inner]]
        self._colors = outline * (3 * len(outer)) + fill * (3 * len(inner))
        super().__init__(3 * (len(outer) + len(inner)), batch=batch, group=group)

    def _create_vertex_list(self) -> None:
        n = self._num_verts
        program: Any = self._program  # typed to want a batch and a group; None is fine (as in pyglet's own shapes)
        self._vertex_list = program.vertex_list(
            n, self._draw_mode, self._batch, self._group, position=("f", self._get_vertices()),
            colors=("Bn", self._colors), translation=("f", (self._x, self._y) * n), rotation=("f", (0.0,) * n))

    def _get_vertices(self) -> list[float]:
        out: list[float] = []
        for pts in self._polys:
            for i, (ax, ay) in enumerate(pts):
                bx, by = pts[(i + 1) % len(pts)]
                out += (0.0, 0.0, ax, ay, bx, by)
        return out

    def _update_vertices(self) -> None:
        vertex_list: Any = self._vertex_list
        vertex_list.position[:] = self._get_vertices()

    def _update_color(self) -> None:
        vertex_list: Any = self._vertex_list
        vertex_list.colors[:] = self._colors


def _ring(x: float, y: float, r: float) -> list[tuple[float, float]]:
    """A circle's outline with pyglet's own segment count for that radius."""
    n = max(14, int(r / 1.25))
    return [(x + r * math.cos(i * 2 * math.pi / n), y + r * math.sin(i * 2 * math.pi / n)) for i in range(n)]


def star_glyph(color: int, x: float, y: float, k: float, batch: Any, group: Any, *, tint: RGB | None = None,
               alpha: int = 255) -> list[Any]:
    """A star of colour index ``color``: a dark outline and the coloured shape (``tint`` overrides the colour)."""
    shape = STAR_SHAPES[color % len(STAR_SHAPES)]
    fill = tint or STAR_COLORS[color % len(STAR_COLORS)]
    if shape == "circle":
        outer, inner = _ring(x, y, k * 1.08), _ring(x, y, k * 0.9)
    else:
        if shape == "star":  # a star's points are thin: draw it larger
            k *= 1.15
        outer, inner = star_points(shape, x, y, k * 1.12), star_points(shape, x, y, k)
    return [Glyph(x, y, outer, inner, (15, 15, 20, alpha), (*fill, alpha), batch, group)]


def asteroid(x: float, y: float, k: float, batch: Any, group: Any, *, back: Any = None) -> list[Any]:
    """A lumpy grey rock: its body in group ``back`` (by default ``group``), its dark spots in ``group``."""
    lumps = (1.0, 0.82, 0.95, 0.78, 1.0, 0.88, 0.76, 0.93, 0.85)
    pts = [(x + k * r * math.cos(i * 2 * math.pi / len(lumps)), y + k * r * math.sin(i * 2 * math.pi / len(lumps)))
           for i, r in enumerate(lumps)]
    return [shapes.Polygon(*pts, color=ASTEROID, batch=batch, group=group if back is None else back),
            shapes.Circle(x - k * 0.3, y + k * 0.2, k * 0.18, color=ASTEROID_DARK, batch=batch, group=group),
            shapes.Circle(x + k * 0.3, y - k * 0.25, k * 0.13, color=ASTEROID_DARK, batch=batch, group=group)]


__all__ = ["STAR_COLORS", "STAR_SHAPES", "asteroid", "star_glyph", "star_points"]
