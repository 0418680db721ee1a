"""Every string a pyglet window draws: each text layout (labels, wrapped labels, text fields)
is remembered while it exists, so a test can read what is on the screen after a frame."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class DrawnText:
    """The text layouts alive now (created and not yet deleted)."""

    def __init__(self) -> None:
        self.live: dict[int, Any] = {}

    def strings(self) -> list[str]:
        """The text of every layout alive now (what the next frame draws)."""
        out = []
        for layout in list(self.live.values()):
            try:
                text = layout.document.text
            except AttributeError:  # a layout half torn down
                continue
            if text.strip():
                out.append(text)
        return out


@contextmanager
def drawn_text() -> Iterator[DrawnText]:
    """Record text layouts while the block runs (pyglet's TextLayout, which every label is)."""
    from pyglet.text.layout import TextLayout

    seen = DrawnText()
    init, delete = TextLayout.__init__, TextLayout.delete

    def recording_init(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        seen.live[id(self)] = self

    def recording_delete(self: Any) -> None:
        seen.live.pop(id(self), None)
        delete(self)

    TextLayout.__init__ = recording_init  # type: ignore[method-assign]
    TextLayout.delete = recording_delete  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        TextLayout.__init__ = init  # type: ignore[method-assign]
        TextLayout.delete = delete  # type: ignore[method-assign]


__all__ = ["DrawnText", "drawn_text"]
