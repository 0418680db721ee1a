"""The explain line above the board: two lines at a glance that open into the whole story.

It shows the summary of the last moves (:func:`.explaining.summary`) in two lines. When that
is cut short, or the moves have more to tell, the line ends with "more ▾"; pointing at it
opens a box over the top of the board with every sentence (:func:`.explaining.detail`), and a
click keeps the box open until the next click.
"""

from __future__ import annotations

from pegboard.ui import theme
from pegboard.ui.rect import Rect
from pegboard.ui.widgets import Label, Panel, Widget, fit_text, text_width, wrapped_height

MORE = " more ▾"
PAD = 8


class ExplainLine:
    """The collapsed line (a :class:`Label`) and the box it opens into (a :class:`Panel`)."""

    def __init__(self) -> None:
        self.line = Label("", wrap=True, size=theme.SMALL_FONT_SIZE, color=theme.TEXT)
        self.box = Panel(color=theme.PANEL, border=theme.FOCUS)
        self.box_text = self.box.add(Label("", wrap=True, size=theme.SMALL_FONT_SIZE, color=theme.TEXT))
        self.box.show(False)
        self.short = ""
        self.full = ""
        self.enabled = True
        self.hover = False
        self.pinned = False
        self._room = Rect(0, 0, 0, 0)  # where the box may grow: down from the line, over the board

    @property
    def widgets(self) -> list[Widget]:
        return [self.line, self.box]

    @property
    def expanded(self) -> bool:
        return self.enabled and self.has_more and (self.hover or self.pinned)

    @property
    def has_more(self) -> bool:
        """True when the two lines do not tell everything."""
        if not self.short:
            return False
        cut = fit_lines(self.short, self.line.rect.width, 2) != self.short
        return cut or " ".join(self.full.split("\n")) != self.short

    def set_enabled(self, enabled: bool) -> None:
        """Settings → Explain moves: off leaves the line empty."""
        if enabled != self.enabled:
            self.enabled = enabled
            self._sync()

    def set_texts(self, short: str, full: str) -> None:
        """The last moves at a glance (``short``) and in full (``full``, one sentence a line)."""
        if (short, full) != (self.short, self.full):
            self.short, self.full = short, full
            self.pinned = False
            self._sync()

    def layout(self, line: Rect, room: Rect) -> None:
        """The line's rectangle, and the area the open box may cover."""
        self.line.set_rect(line)
        self._room = room
        self._sync()

    def shown_line(self) -> str:
        """The two lines as drawn, ending "more ▾" when there is more to read."""
        if not self.enabled:
            return ""
        if not self.has_more:
            return self.short
        text = fit_lines(self.short, self.line.rect.width - text_width(MORE, theme.SMALL_FONT_SIZE), 2)
        return (text if text == self.short else text.removesuffix(" …") + " …") + MORE

    def contains(self, x: float, y: float) -> bool:
        return self.line.rect.contains(x, y) or (self.expanded and self.box.rect.contains(x, y))

    def set_hover(self, x: float, y: float) -> bool:
        """The pointer is at (x, y); True when the box opened or closed."""
        was = self.expanded
        self.hover = self.contains(x, y)
        return self._changed(was)

    def leave(self) -> bool:
        was = self.expanded
        self.hover = False
        return self._changed(was)

    def press(self, x: float, y: float) -> bool:
        """A click at (x, y): on the line or the open box it pins or unpins the box (True: used)."""
        was = self.expanded
        if self.contains(x, y) and self.has_more:
            self.pinned = not self.pinned
            self.hover = self.pinned and self.hover
            self._changed(was)
            return True
        if self.pinned:  # a click elsewhere closes a pinned box, and goes on to the board
            self.pinned = False
            self._changed(was)
        return False

    def _changed(self, was: bool) -> bool:
        if self.expanded != was:
            self._sync()
            return True
        return False

    def _sync(self) -> None:
        self.line.set_text(self.shown_line())
        open_now = self.expanded
        self.box.show(open_now)
        self.line.show(not open_now)  # the open box takes the line's place
        if not open_now:
            return
        r, room = self.line.rect, self._room
        text_w = max(40.0, r.width - 2 * PAD)
        wanted = sum(wrapped_height(p, text_w, theme.SMALL_FONT_SIZE) for p in self.full.split("\n")) + 2 * PAD
        height = min(wanted, max(40.0, r.top - room.y))
        self.box.set_rect(Rect(r.x, r.top - height, r.width, height))
        self.box_text.set_rect(Rect(r.x + PAD, r.top - height + PAD, text_w, height - 2 * PAD))
        self.box_text.set_text(self.full)
        self.box.invalidate()


def fit_lines(text: str, width: float, lines: int, size: float = theme.SMALL_FONT_SIZE) -> str:
    """Whole sentences of ``text`` that fit in ``lines`` wrapped lines of ``width`` pixels, then "…"."""
    if width <= 0 or text_width(text, size) <= width * lines * 0.9:
        return text
    out = ""
    for sentence in text.split(". "):
        candidate = f"{out}{sentence}. " if out or sentence else out
        if text_width(candidate + "…", size) > width * lines * 0.9:
            break
        out = candidate
    return (out.rstrip() + " …") if out else fit_text(text, width * lines * 0.9, size)


__all__ = ["ExplainLine", "fit_lines"]
