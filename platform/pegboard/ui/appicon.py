"""The window's icon, drawn in code: a peg board (a rounded tile with three rows of pegs).

Made at the sizes desktops ask for, so nothing is shipped and it looks the same everywhere.
"""

from __future__ import annotations

from typing import Any

from pegboard.ui import theme

SIZES = (16, 32, 64)
_PEGS = ((theme.SEAT_COLORS[0], theme.TEXT_DIM, theme.SEAT_COLORS[1]),
         (theme.TEXT_DIM, theme.TEXT_WARN, theme.TEXT_DIM),
         (theme.SEAT_COLORS[1], theme.TEXT_DIM, theme.SEAT_COLORS[0]))


def icon_pixels(size: int) -> bytes:
    """RGBA rows, bottom row first (pyglet's order), of the icon at ``size`` x ``size``."""
    radius, peg = size * 0.2, size * 0.11
    tile = bytes((*theme.BAR, 255))
    out = bytearray(size * size * 4)  # transparent
    for y in range(size):
        py = y + 0.5
        # the tile's row: the full width, less the rounded corners near the top and bottom
        edge = max(0.0, radius - min(py, size - py))
        inset = radius - (radius * radius - edge * edge) ** 0.5 if edge else 0.0
        left, right = round(inset), size - round(inset)
        row = bytearray(tile * (right - left))
        for col in range(3):
            prow = min(2, max(0, round(py / size * 4) - 1))
            dy = py - size * (prow + 1) / 4
            if dy * dy < peg * peg:  # this row crosses a peg of grid row ``prow``: paint its chord
                half = (peg * peg - dy * dy) ** 0.5
                gx = size * (col + 1) / 4
                a, b = max(left, round(gx - half)), min(right, round(gx + half))
                row[(a - left) * 4 : (b - left) * 4] = bytes((*_PEGS[prow][col], 255)) * max(0, b - a)
        out[(y * size + left) * 4 : (y * size + right) * 4] = row
    return bytes(out)


def icon_images() -> list[Any]:
    """The icon as pyglet images, one per size in :data:`SIZES`."""
    import pyglet

    return [pyglet.image.ImageData(size, size, "RGBA", icon_pixels(size)) for size in SIZES]


__all__ = ["SIZES", "icon_images", "icon_pixels"]
