"""A pyglet group that draws its contents moved and scaled, for cheap animation.

Building shapes and labels costs far more than drawing them: an animation that
recreates its drawables every frame spends its time in Python. Put what moves
under a :class:`Transform` once, then change only the transform each frame
(``set(dx, dy, scale)``): the vertex data stays as it is and the window's view
matrix does the moving while the group draws.
"""

from __future__ import annotations

from typing import Any

import pyglet
from pyglet.math import Mat4, Vec3


def current_window() -> Any:
    """The window whose GL context is current (the one being drawn), or None."""
    context = pyglet.gl.current_context
    for window in pyglet.app.windows:
        if window.context is context:
            return window
    return None


class Transform(pyglet.graphics.Group):
    """Draws its children shifted by (dx, dy) pixels and scaled by ``scale`` about (cx, cy).

    Each Transform is its own group (never merged with another one), so every
    animated item can move on its own.
    """

    def __init__(self, cx: float = 0.0, cy: float = 0.0, *, order: int = 0,
                 parent: pyglet.graphics.Group | None = None) -> None:
        super().__init__(order=order, parent=parent)
        self.cx, self.cy = cx, cy
        self.dx = self.dy = 0.0
        self.scale = 1.0
        self._window: Any = None
        self._saved: Mat4 | None = None

    def set(self, dx: float, dy: float, scale: float = 1.0) -> None:
        """Where to draw from now on (takes effect at the next draw)."""
        self.dx, self.dy, self.scale = dx, dy, scale

    def matrix(self) -> Mat4:
        """Scale about (cx, cy), then shift by (dx, dy)."""
        s = self.scale
        return Mat4.from_translation(Vec3(self.cx + self.dx, self.cy + self.dy, 0.0)) @ Mat4.from_scale(
            Vec3(s, s, 1.0)) @ Mat4.from_translation(Vec3(-self.cx, -self.cy, 0.0))

    def set_state(self) -> None:
        window = self._window = current_window()
        if window is None or (self.dx == self.dy == 0.0 and self.scale == 1.0):
            self._saved = None
            return
        self._saved = window.view
        window.view = self._saved @ self.matrix()

    def unset_state(self) -> None:
        if self._saved is not None and self._window is not None:
            self._window.view = self._saved
        self._saved = None

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)


__all__ = ["Transform", "current_window"]
