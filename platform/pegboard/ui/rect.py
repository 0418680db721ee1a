"""Axis-aligned rectangles in window pixels (origin bottom-left, like pyglet)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rect:
    """``x, y`` is the bottom-left corner; sizes are never negative."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height

    @property
    def center(self) -> tuple[float, float]:
        return self.x + self.width / 2, self.y + self.height / 2

    def contains(self, px: float, py: float) -> bool:
        return self.x <= px < self.right and self.y <= py < self.top

    def local(self, px: float, py: float) -> tuple[float, float]:
        """Window coordinates to coordinates relative to this rectangle's bottom-left corner."""
        return px - self.x, py - self.y
