"""Where squares are on screen and how one square is drawn (checker, land, star, drone ...).

The board is drawn from a :class:`Frame`: the layers of a position as one side
sees it. ``bottom`` is the side whose back row is at the bottom of the
screen (the board turns half a turn for North).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyglet
from pyglet import shapes

from pegboard.view import theme

from ..pieces import ALL_STARS, COMMAND, LETTERS, RED_SQUARES, TURRET, WHITE_SQUARES
from . import look

FONT = theme.FONT_NAME


@dataclass
class Frame:
    """What is drawn for each square (lists indexed by square); ``visible`` None: all seen."""

    star: list[int]
    ast: list[int]
    owner: list[int]
    kind: list[int]
    side: list[int]
    power: list[int]
    ride: list[int]
    miss: list[int]
    wreck: list[int]
    visible: bytes | None = None

    @classmethod
    def of(cls, st: Any, visible: bytes | bytearray | None = None) -> Frame:
        """A copy of the layers of state ``st`` (a player view under fog)."""
        return cls(list(st.star), list(st.ast), list(st.owner), list(st.kind), list(st.side), list(st.power),
                   list(st.ride), list(st.miss), list(st.wreck), bytes(visible) if visible is not None else None)

    def seen(self, sq: int) -> bool:
        return self.visible is None or bool(self.visible[sq])


class Groups:
    """Draw order of the board's layers (one pyglet group each), under ``parent`` if given
    (an animated square's :class:`~pegboard.ui.transform.Transform`).

    Whatever must cover something else is in a later group: inside one group pyglet draws in
    vertex-buffer order, which a square rebuilt into freed space does not keep (a round star's
    dark outline once covered its fill)."""

    def __init__(self, parent: pyglet.graphics.Group | None = None) -> None:
        def group(order: int) -> pyglet.graphics.Group:
            return pyglet.graphics.Group(order=order, parent=parent)

        self.checker, self.land, self.seam = group(0), group(1), group(2)
        self.star_back, self.star = group(3), group(4)  # outlines and rock bodies; fills and rock spots
        self.wreck_back, self.wreck = group(5), group(6)
        self.barrels, self.disc, self.mark = group(7), group(8), group(9)  # turret barrels, disc, rim
        self.badge_back, self.badge, self.text = group(10), group(11), group(12)  # ride boxes, bubbles, letters
        self.fog, self.over = group(13), group(14)


class Painter:
    """Board geometry (square centres, hit tests) and the drawing of squares."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.size = width * height
        self.seam = height // 2
        self.cell = 40.0
        self.origin = (0.0, 0.0)
        self.bottom = 0
        self.groups = Groups()

    def fit(self, x: float, y: float, w: float, h: float) -> None:
        """Place the board centred in the rectangle (x, y, w, h)."""
        self.cell = max(8.0, min(w / self.width, h / self.height))
        self.origin = (x + (w - self.cell * self.width) / 2, y + (h - self.cell * self.height) / 2)

    def screen_cr(self, sq: int) -> tuple[int, int]:
        c, r = sq % self.width, sq // self.width
        if self.bottom == 1:
            return self.width - 1 - c, self.height - 1 - r
        return c, r

    def center(self, sq: int) -> tuple[float, float]:
        """Window coordinates of the centre of square ``sq``."""
        c, r = self.screen_cr(sq)
        return self.origin[0] + (c + 0.5) * self.cell, self.origin[1] + (r + 0.5) * self.cell

    def square_at(self, x: float, y: float) -> int | None:
        """The square under window point (x, y), or None off the board."""
        c = int((x - self.origin[0]) // self.cell)
        r = int((y - self.origin[1]) // self.cell)
        if not (0 <= c < self.width and 0 <= r < self.height) or x < self.origin[0] or y < self.origin[1]:
            return None
        if self.bottom == 1:
            c, r = self.width - 1 - c, self.height - 1 - r
        return r * self.width + c

    @property
    def rect(self) -> tuple[float, float, float, float]:
        return self.origin[0], self.origin[1], self.cell * self.width, self.cell * self.height

    # -- the ground: checker, land, seam ---------------------------------------------------------

    def ground(self, frame: Frame, me: int, batch: Any) -> list[Any]:
        """Checker squares, owned land tints and the seam (what never animates)."""
        g, s = self.groups, self.cell
        items: list[Any] = []
        for sq in range(self.size):
            x, y = self.center(sq)
            c, r = sq % self.width, sq // self.width
            items.append(shapes.Rectangle(x - s / 2, y - s / 2, s, s, color=look.CHECKER[(c + r) % 2], batch=batch,
                                          group=g.checker))
            owner = frame.owner[sq]
            if owner >= 0 and frame.seen(sq) or owner == me:
                tint = look.OWN_TINT[0 if owner == me else 1]
                items.append(shapes.Rectangle(x - s / 2, y - s / 2, s, s, color=(*tint, 120), batch=batch, group=g.land))
                items.append(shapes.Box(x - s / 2 + 1, y - s / 2 + 1, s - 2, s - 2, thickness=max(1.0, s * 0.04),
                                        color=(*tint, 230), batch=batch, group=g.land))
        ox, oy, bw, _bh = self.rect
        seam_y = oy + self.seam * s
        for yy in (seam_y, seam_y + s):
            items.append(shapes.Rectangle(ox, yy - 1.5, bw, 3, color=(*look.SEAM, 220), batch=batch, group=g.seam))
        return items

    # -- one square's contents ------------------------------------------------------------------

    def contents(self, frame: Frame, sq: int, me: int, batch: Any, *, dx: float = 0.0, dy: float = 0.0,
                 scale: float = 1.0, star_only: bool = False, alpha: int = 255,
                 groups: Groups | None = None) -> list[Any]:
        """The star (or rock or hole), wreck and drone of ``sq``, shifted by (dx, dy) pixels
        (drawn in ``groups``, by default the board's own)."""
        g, s = groups or self.groups, self.cell
        x, y = self.center(sq)
        x, y = x + dx, y + dy
        if not frame.seen(sq):
            return [shapes.Rectangle(x - s / 2, y - s / 2, s, s, color=look.FOG, batch=batch, group=g.fog)]
        items: list[Any] = []
        if frame.ast[sq]:
            items += look.asteroid(x, y, s * 0.4 * scale, batch, g.star, back=g.star_back)
        elif frame.star[sq] >= 0:
            items += look.star_glyph(frame.star[sq], x, y, s * 0.3 * scale, batch, g.star, alpha=alpha)
        else:
            items.append(shapes.Rectangle(x - s * 0.42, y - s * 0.42, s * 0.84, s * 0.84, color=look.HOLE, batch=batch,
                                          group=g.star))
        if star_only:
            return items
        if frame.wreck[sq]:
            items.append(shapes.Circle(x, y, s * 0.46, color=(*look.WRECK, 90), batch=batch, group=g.wreck_back))
            items.append(shapes.Arc(x, y, s * 0.42, thickness=max(2.0, s * 0.06), color=(*look.WRECK, 230),
                                    batch=batch, group=g.wreck))
        if frame.kind[sq]:
            items += self.drone(frame, sq, me, x, y, batch, scale, groups=g)
        return items

    def drone(self, frame: Frame, sq: int, me: int, x: float, y: float, batch: Any, scale: float = 1.0, *,
              groups: Groups | None = None) -> list[Any]:
        """A drone disc: letter, rim, ride boxes (bottom-left), missile bubble (top-right), power."""
        g, s = groups or self.groups, self.cell
        k, mine = frame.kind[sq], frame.side[sq] == me
        radius = s * 0.38 * scale
        fill, rim, ink = (look.IVORY, look.GOLD, look.LETTER_MINE) if mine else (look.DISC_THEIRS, look.RIM_THEIRS, look.WHITE)
        items: list[Any] = []
        if k == TURRET:  # eight barrels
            for i in range(8):
                dx, dy = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)][i]
                n = (dx * dx + dy * dy) ** 0.5
                items.append(shapes.Line(x, y, x + dx / n * s * 0.48, y + dy / n * s * 0.48, thickness=max(2.0, s * 0.08),
                                         color=rim, batch=batch, group=g.barrels))
        items.append(shapes.Circle(x, y, radius, color=fill, batch=batch, group=g.disc))
        items.append(shapes.Arc(x, y, radius, thickness=max(2.0, s * 0.07), color=rim, batch=batch,
                                group=g.mark))
        items.append(pyglet.text.Label(LETTERS[k], x=x, y=y, anchor_x="center", anchor_y="center", weight="bold", font_name=FONT,
                                       font_size=max(6.0, s * 0.3 * scale), color=(*ink, 255), batch=batch, group=g.text))
        if scale < 0.6:
            return items
        items += self._ride_boxes(frame.ride[sq], x - radius * 0.95, y - radius * 0.95, batch, g)
        missiles = frame.miss[sq]
        if missiles or k == COMMAND:
            bx, by, br = x + radius * 0.78, y + radius * 0.78, s * 0.15
            items.append(shapes.Circle(bx, by, br, color=look.MISSILE, batch=batch, group=g.badge))
            items.append(pyglet.text.Label(str(missiles), x=bx, y=by, anchor_x="center", anchor_y="center", weight="bold", font_name=FONT,
                                           font_size=max(5.0, s * 0.14), color=(255, 255, 255, 255), batch=batch,
                                           group=g.text))
        if frame.power[sq] > 1:
            px, py, pr = x + radius * 0.8, y - radius * 0.8, s * 0.13
            items.append(shapes.Circle(px, py, pr, color=(15, 23, 42), batch=batch, group=g.badge))
            items.append(pyglet.text.Label(str(frame.power[sq]), x=px, y=py, anchor_x="center", anchor_y="center", font_name=FONT,
                                           weight="bold", font_size=max(5.0, s * 0.13), color=(255, 255, 255, 255),
                                           batch=batch, group=g.text))
        return items

    def _ride_boxes(self, ride: int, x: float, y: float, batch: Any, g: Groups) -> list[Any]:
        """One small box per ridden colour from (x, y) rightwards; a hunter's box holds every colour."""
        s = self.cell
        b = s * 0.15
        items: list[Any] = []
        if ride & ALL_STARS == ALL_STARS:
            items.append(shapes.Rectangle(x - 1, y - 1, b * 1.6 + 2, b + 2, color=(15, 15, 20), batch=batch,
                                          group=g.badge_back))
            for i, color in enumerate(look.STAR_COLORS):
                items.append(shapes.Rectangle(x + i * b * 1.6 / 5, y, b * 1.6 / 5, b, color=color, batch=batch,
                                              group=g.badge))
            return items
        colors = [look.STAR_COLORS[c] for c in range(5) if ride >> c & 1]
        if ride & RED_SQUARES:
            colors.append(look.CHECKER_BOX[0])
        if ride & WHITE_SQUARES:
            colors.append(look.CHECKER_BOX[1])
        for i, color in enumerate(colors):
            bx = x + i * (b + 2)
            items.append(shapes.Rectangle(bx - 1, y - 1, b + 2, b + 2, color=(15, 15, 20), batch=batch, group=g.badge_back))
            items.append(shapes.Rectangle(bx, y, b, b, color=color, batch=batch, group=g.badge))
        return items


__all__ = ["Frame", "Painter"]
