"""Driving the Starfall window in tests the way a person does: settings, clicks, drags, time."""

from __future__ import annotations

from typing import Any

from pyglet.window import mouse

from pegboard.ui.settings import MemorySettings


class FakeTime:
    """A clock a test moves by hand (``session`` time sources)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def store(**values: Any) -> MemorySettings:
    """Starfall settings in memory: the player was welcomed already, plus ``values``."""
    s = MemorySettings()
    s.set_setting("starfall", "welcomed", True)
    for k, v in values.items():
        s.set_setting("starfall", k, v)
    return s


def center(window: Any, sq: int) -> tuple[float, float]:
    return window.board.painter.center(sq)  # type: ignore[no-any-return]


def settle(window: Any, seconds: float = 2.0) -> None:
    """Let animations finish (ticks of a sixtieth of a second)."""
    for _ in range(int(seconds * 60)):
        window.tick(1 / 60)
        if not window.board.busy():
            break


def drag(window: Any, frm: int, to: int) -> None:
    """A star dragged onto its neighbour (a star under a drone too: a drag swaps, a click selects the drone)."""
    (x0, y0), (x1, y1) = center(window, frm), center(window, to)
    window.send("on_mouse_motion", x0, y0, 0, 0)
    window.send("on_mouse_press", x0, y0, mouse.LEFT, 0)
    for t in (0.25, 0.5, 0.8, 1.0):
        window.send("on_mouse_drag", x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, 1, 1, mouse.LEFT, 0)
    window.send("on_mouse_release", x1, y1, mouse.LEFT, 0)


__all__ = ["FakeTime", "center", "drag", "settle", "store"]
