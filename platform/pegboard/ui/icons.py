"""The shell's button icons, drawn with pyglet shapes (crisp at any size, no font needed).

Each icon is a function of the centre, the size of its square (pixels) and the colour; it
puts its shapes into the caller's batch and group and returns them. :data:`ICONS` names
them; every top-bar button has its own, so even a compact bar of icons reads at a glance.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from pyglet import shapes
from pyglet.graphics import Batch, Group

RGB = tuple[int, int, int]
Icon = Callable[[float, float, float, RGB, Batch, Group], list[Any]]


def _line(x0: float, y0: float, x1: float, y1: float, width: float, color: RGB, batch: Batch, group: Group) -> Any:
    return shapes.Line(x0, y0, x1, y1, thickness=width, color=color, batch=batch, group=group)


def _head(x: float, y: float, angle: float, size: float, color: RGB, batch: Batch, group: Group) -> Any:
    """An arrowhead with its tip at (x, y) pointing along ``angle`` (radians)."""
    back = angle + math.pi
    left, right = back - 0.55, back + 0.55
    return shapes.Triangle(x, y, x + size * math.cos(left), y + size * math.sin(left),
                           x + size * math.cos(right), y + size * math.sin(right), color=color, batch=batch, group=group)


def _turn(cx: float, cy: float, s: float, color: RGB, batch: Batch, group: Group, *, mirrored: bool) -> list[Any]:
    """A curved arrow over the top: undo comes down on the left, redo on the right."""
    r, w, oy = s * 0.32, max(1.5, s * 0.11), cy - s * 0.06
    arc = shapes.Arc(cx, oy, r, angle=200.0, start_angle=-10.0, thickness=w, color=color, batch=batch, group=group)
    end_x = cx + r * math.cos(math.radians(190.0)) * (-1 if mirrored else 1)
    end_y = oy + r * math.sin(math.radians(190.0))
    return [arc, _head(end_x, end_y - s * 0.26, -math.pi / 2, s * 0.3, color, batch, group)]


def undo(cx: float, cy: float, s: float, color: RGB, batch: Batch, group: Group) -> list[Any]:
    return _turn(cx, cy, s, color, batch, group, mirrored=False)


def redo(cx: float, cy: float, s: float, color: RGB, batch: Batch, group: Group) -> list[Any]:
    return _turn(cx, cy, s, color, batch, group, mirrored=True)


def resume(cx: float, cy: float, s: float, color: RGB, batch: Batch, group: Group) -> list[Any]:
    """A play triangle."""
    h = s * 0.36
    return [shapes.Triangle(cx - h * 0.8, cy - h, cx - h * 0.8, cy + h, cx + h, cy, color=color, batch=batch, group=group)]


def customize(cx: float, cy: float, s: float, color: RGB, batch: Batch, group: Group) -> list[Any]:
    """Three sliders with their knobs at different places (who plays, which rules)."""
    w = max(1.2, s * 0.08)
    items: list[Any] = []
    for i, knob in enumerate((0.25, -0.2, 0.1)):
        y = cy + (1 - i) * s * 0.3
        items.append(_line(cx - s * 0.4, y, cx + s * 0.4, y, w, color, batch, group))
        items.append(shapes.Circle(cx + knob * s, y, s * 0.11, color=color, batch=batch, group=group))
    return items


def settings(cx: float, cy: float, s: float, color: RGB, batch: Batch, group: Group) -> list[Any]:
    """A gear: a ring with eight teeth."""
    r, w = s * 0.24, max(1.5, s * 0.12)
    items: list[Any] = [shapes.Arc(cx, cy, r, thickness=w, color=color, batch=batch, group=group)]
    for i in range(8):
        a = i * math.pi / 4
        items.append(_line(cx + r * math.cos(a), cy + r * math.sin(a), cx + (r + s * 0.16) * math.cos(a),
                           cy + (r + s * 0.16) * math.sin(a), s * 0.13, color, batch, group))
    return items


def history(cx: float, cy: float, s: float, color: RGB, batch: Batch, group: Group) -> list[Any]:
    """A list: three rows, each with a bullet."""
    w = max(1.2, s * 0.09)
    items: list[Any] = []
    for i in range(3):
        y = cy + (1 - i) * s * 0.28
        items.append(shapes.Circle(cx - s * 0.34, y, s * 0.07, color=color, batch=batch, group=group))
        items.append(_line(cx - s * 0.18, y, cx + s * 0.4, y, w, color, batch, group))
    return items


def _tray(cx: float, cy: float, s: float, color: RGB, batch: Batch, group: Group) -> list[Any]:
    w, bottom, top = max(1.2, s * 0.09), cy - s * 0.38, cy - s * 0.1
    return [_line(cx - s * 0.4, bottom, cx + s * 0.4, bottom, w, color, batch, group),
            _line(cx - s * 0.4, bottom - w / 2, cx - s * 0.4, top, w, color, batch, group),
            _line(cx + s * 0.4, bottom - w / 2, cx + s * 0.4, top, w, color, batch, group)]


def export(cx: float, cy: float, s: float, color: RGB, batch: Batch, group: Group) -> list[Any]:
    """An arrow rising out of a tray (a file goes out)."""
    w = max(1.2, s * 0.1)
    return [*_tray(cx, cy, s, color, batch, group), _line(cx, cy - s * 0.24, cx, cy + s * 0.2, w, color, batch, group),
            _head(cx, cy + s * 0.44, math.pi / 2, s * 0.3, color, batch, group)]


def import_(cx: float, cy: float, s: float, color: RGB, batch: Batch, group: Group) -> list[Any]:
    """An arrow dropping into a tray (a file comes in)."""
    w = max(1.2, s * 0.1)
    return [*_tray(cx, cy, s, color, batch, group), _line(cx, cy + s * 0.44, cx, cy, w, color, batch, group),
            _head(cx, cy - s * 0.22, -math.pi / 2, s * 0.3, color, batch, group)]


def new(cx: float, cy: float, s: float, color: RGB, batch: Batch, group: Group) -> list[Any]:
    """A plus: a fresh game."""
    w, r = max(1.5, s * 0.14), s * 0.38
    return [_line(cx - r, cy, cx + r, cy, w, color, batch, group), _line(cx, cy - r, cx, cy + r, w, color, batch, group)]


def online(cx: float, cy: float, s: float, color: RGB, batch: Batch, group: Group) -> list[Any]:
    """Two arrows passing each other (moves go back and forth with a friend)."""
    w = max(1.2, s * 0.1)
    return [_line(cx - s * 0.4, cy + s * 0.18, cx + s * 0.2, cy + s * 0.18, w, color, batch, group),
            _head(cx + s * 0.42, cy + s * 0.18, 0.0, s * 0.28, color, batch, group),
            _line(cx + s * 0.4, cy - s * 0.18, cx - s * 0.2, cy - s * 0.18, w, color, batch, group),
            _head(cx - s * 0.42, cy - s * 0.18, math.pi, s * 0.28, color, batch, group)]


def resign(cx: float, cy: float, s: float, color: RGB, batch: Batch, group: Group) -> list[Any]:
    """A flag on a pole."""
    w, pole = max(1.2, s * 0.1), cx - s * 0.28
    return [_line(pole, cy - s * 0.44, pole, cy + s * 0.44, w, color, batch, group),
            shapes.Triangle(pole, cy + s * 0.44, pole, cy, cx + s * 0.38, cy + s * 0.22, color=color, batch=batch,
                            group=group)]


def leave(cx: float, cy: float, s: float, color: RGB, batch: Batch, group: Group) -> list[Any]:
    """An arrow walking out through a door."""
    w = max(1.2, s * 0.1)
    return [_line(cx - s * 0.1, cy + s * 0.42, cx - s * 0.42, cy + s * 0.42, w, color, batch, group),
            _line(cx - s * 0.42, cy + s * 0.42 + w / 2, cx - s * 0.42, cy - s * 0.42 - w / 2, w, color, batch, group),
            _line(cx - s * 0.42, cy - s * 0.42, cx - s * 0.1, cy - s * 0.42, w, color, batch, group),
            _line(cx - s * 0.2, cy, cx + s * 0.2, cy, w, color, batch, group),
            _head(cx + s * 0.44, cy, 0.0, s * 0.3, color, batch, group)]


def games(cx: float, cy: float, s: float, color: RGB, batch: Batch, group: Group) -> list[Any]:
    """Four tiles: the game chooser."""
    d, gap = s * 0.36, s * 0.1
    corners = [(cx - gap / 2 - d, cy + gap / 2), (cx + gap / 2, cy + gap / 2), (cx - gap / 2 - d, cy - gap / 2 - d),
               (cx + gap / 2, cy - gap / 2 - d)]
    return [shapes.RoundedRectangle(x, y, d, d, radius=max(1.0, s * 0.06), color=color, batch=batch, group=group)
            for x, y in corners]


ICONS: dict[str, Icon] = {
    "undo": undo, "redo": redo, "resume": resume, "customize": customize, "settings": settings,
    "history": history, "export": export, "import": import_, "new": new, "online": online,
    "resign": resign, "leave": leave, "games": games,
}


def draw(name: str, cx: float, cy: float, size: float, color: RGB, batch: Batch, group: Group) -> list[Any]:
    """The shapes of icon ``name`` centred on (cx, cy) in a ``size``-pixel square."""
    return ICONS[name](cx, cy, size, color, batch, group)


__all__ = ["ICONS", "draw"]
