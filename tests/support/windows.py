"""Helpers for tests that drive the real (headless) window: pixels read back from a frame."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def pixel(image: Any, x: float, y: float) -> tuple[int, ...]:
    """The RGB colour of a pyglet ImageData at (x, y) (window pixels, origin bottom-left)."""
    data = image.get_data("RGBA", image.width * 4)
    i = (int(y) * image.width + int(x)) * 4
    return tuple(data[i : i + 3])


def close(a: Sequence[int], b: Sequence[int], tol: int = 6) -> bool:
    """True when two colours differ by at most ``tol`` in every channel."""
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))
