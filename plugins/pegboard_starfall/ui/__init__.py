"""Starfall in the match window: the board view, its settings, the guided first game.

Importing this package imports pyglet; the plugin only does so from the
renderer factory, so headless use never pays for it.
"""

from __future__ import annotations

from typing import Any


def make_view(game: Any, session: Any) -> Any:
    """The renderer factory (``RendererSpec.factory``) for the Starfall board."""
    from .view import StarfallView

    return StarfallView(game, session)


__all__ = ["make_view"]
