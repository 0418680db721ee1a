"""The evaluation graph of a review: seat 0's win chance after every ply, under the board.

The curve fills as the analysis judges positions (an unjudged ply leaves a gap), shaded
towards the side it favours; each marked move is a dot in its mark's colour at the chance the
move left; the ply shown is a vertical line. A click or a drag on the graph asks for that
ply. The header says how far the analysis is ("Analysing 34/120") or, once it is done, each
side's accuracy; its button leaves the review.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pyglet import shapes

from pegboard.ui import theme
from pegboard.ui.rect import Rect
from pegboard.ui.widgets import Button, Drawable, Panel, Ui, Widget, fit_text, label, text_width

HEADER = 24  # the header row's height (layout pixels)
PAD = 8


class _Cursor(Widget):
    """The ply shown: a line across the plot (its own widget, so moving it redraws only itself)."""

    def __init__(self, graph: EvalGraph) -> None:
        super().__init__()
        self.graph = graph

    def build(self, ui: Ui, layer: int) -> Iterable[Drawable]:
        g = self.graph
        plot = g.plot_rect()
        if g.plies <= 0 or plot.width <= 0:
            return []
        x = g.x_of(g.cursor)
        items: list[Drawable] = [shapes.Line(x, plot.y - 2, x, plot.top + 2, thickness=2, color=theme.FOCUS,
                                             batch=ui.batch, group=ui.group(layer, 2))]
        chance = g.curve[g.cursor] if g.cursor < len(g.curve) else None
        if chance is not None:
            items.append(shapes.Circle(x, g.y_of(chance), 4, color=theme.FOCUS, batch=ui.batch, group=ui.group(layer, 3)))
        return items


class _Plot(Widget):
    """The curve, its shading and the marks, kept per ply: as verdicts arrive one by one only the
    new plies' shapes are made (rebuilding every ply's for each verdict stalled long games)."""

    def __init__(self, graph: EvalGraph) -> None:
        super().__init__()
        self.graph = graph
        self._plies: dict[int, tuple[Any, list[Drawable]]] = {}  # ply -> (what it shows, its shapes)

    def sync(self, ui: Ui, layer: int = 0, depth: int = 0) -> None:
        if not self.visible:
            self.clear()
            return
        if self._dirty:
            self._update(ui, layer * 16 + min(depth, 15))
            self._dirty = False

    def _update(self, ui: Ui, level: int) -> None:
        g = self.graph
        plot = g.plot_rect()
        geometry = (plot, g.plies, tuple(g.colors[:2]))
        curve, marks = g.curve, g.marks
        wanted = {}
        if plot.width > 0 and plot.height > 0:
            for ply, chance in enumerate(curve):
                if chance is not None:
                    wanted[ply] = (geometry, chance, curve[ply + 1] if ply + 1 < len(curve) else None, marks.get(ply))
        for ply in [p for p in self._plies if wanted.get(p) != self._plies[p][0]]:
            for item in self._plies.pop(ply)[1]:
                item.delete()
        for ply, look in wanted.items():
            if ply not in self._plies:
                self._plies[ply] = (look, self._shapes(ui, level, ply, look[1], look[2], look[3]))

    def _shapes(self, ui: Ui, level: int, ply: int, chance: float, after: float | None, mark: str | None) -> list[Drawable]:
        """Ply ``ply``'s bar from the middle, the segment to the next ply, and its mark's dot."""
        g, batch = self.graph, ui.batch
        plot = g.plot_rect()
        middle, step = g.y_of(0.5), plot.width / max(1, g.plies)
        x, y = g.x_of(ply), g.y_of(chance)
        items: list[Drawable] = []
        low, high = sorted((middle, y))
        if high - low >= 0.5:
            color = (*(g.colors[0] if chance >= 0.5 else g.colors[1 % len(g.colors)]), 110)
            half = max(1.0, step) / 2
            left, right = max(plot.x, x - half), min(plot.x + plot.width, x + half)  # the end bars stay inside
            items.append(shapes.Rectangle(left, low, max(1.0, right - left), high - low, color=color, batch=batch,
                                          group=ui.group(level, 0)))
        if after is not None:
            items.append(shapes.Line(x, y, g.x_of(ply + 1), g.y_of(after), thickness=2, color=theme.TEXT, batch=batch,
                                     group=ui.group(level, 1)))
        if mark is not None:
            items.append(shapes.Circle(x, y, 5.5, color=theme.BACKGROUND, batch=batch, group=ui.group(level, 2)))
            items.append(shapes.Circle(x, y, 4, color=theme.MARK_COLORS[mark], batch=batch, group=ui.group(level, 3)))
        return items

    def clear(self) -> None:
        for _look, items in self._plies.values():
            for item in items:
                item.delete()
        self._plies = {}
        super().clear()


class EvalGraph(Panel):
    """The graph (see the module docstring). ``on_jump(ply)`` is asked for a ply; ``on_close``
    leaves the review. Fill it with :meth:`set_curve`, :meth:`set_marks`, :meth:`set_cursor`,
    :meth:`set_header`."""

    def __init__(self, on_jump: Callable[[int], Any], on_close: Callable[[], Any]) -> None:
        super().__init__()
        self.on_jump = on_jump
        self.curve: list[float | None] = []
        self.marks: dict[int, str] = {}
        self.cursor = 0
        self.header = ""
        self.colors: Sequence[theme.RGB] = theme.SEAT_COLORS
        self.dragging = False
        self.close_button = self.add(Button("Close review", on_close, tooltip="Close review (Esc): back to the finished game."))
        self.plot = self.add(_Plot(self))
        self.cursor_mark = self.add(_Cursor(self))

    # -- filling ------------------------------------------------------------------------------

    @property
    def plies(self) -> int:
        """The last ply (the number of moves): the curve has one more point, the start."""
        return len(self.curve) - 1

    def set_curve(self, curve: Sequence[float | None]) -> None:
        """Seat 0's win chance per position (index 0 the start; None: not judged yet)."""
        curve = list(curve)
        if curve != self.curve:
            rescaled = len(curve) != len(self.curve)
            self.curve = curve
            self.plot.invalidate()
            self.cursor_mark.invalidate()
            if rescaled:
                self.invalidate()

    def set_marks(self, marks: Mapping[int, str]) -> None:
        """The marked moves: move number -> mark name ("inaccuracy", "mistake", "blunder")."""
        marks = dict(marks)
        if marks != self.marks:
            self.marks = marks
            self.plot.invalidate()

    def set_cursor(self, ply: int) -> None:
        if ply != self.cursor:
            self.cursor = ply
            self.cursor_mark.invalidate()

    def set_header(self, text: str) -> None:
        if text != self.header:
            self.header = text
            self.invalidate()

    # -- geometry -------------------------------------------------------------------------------

    def on_layout(self) -> None:
        r = self.rect
        w = self.close_button.natural_width("full")
        self.close_button.set_rect(Rect(r.right - PAD - w, r.top - HEADER - 2, w, HEADER - 2))
        self.plot.set_rect(r)
        self.plot.invalidate()
        self.cursor_mark.set_rect(r)

    def plot_rect(self) -> Rect:
        """Where the curve is drawn (layout pixels)."""
        r = self.rect
        gutter = text_width("100%", theme.SMALL_FONT_SIZE) + 6  # the scale's labels, left of the plot
        return Rect(r.x + PAD + gutter, r.y + PAD, max(0.0, r.width - 2 * PAD - gutter),
                    max(0.0, r.height - HEADER - 2 * PAD - 2))

    def x_of(self, ply: int) -> float:
        plot = self.plot_rect()
        return plot.x + plot.width * ply / max(1, self.plies)

    def y_of(self, chance: float) -> float:
        plot = self.plot_rect()
        return plot.y + plot.height * min(1.0, max(0.0, chance))

    def ply_at(self, x: float) -> int:
        """The ply nearest the x coordinate ``x`` (clamped to the line)."""
        plot = self.plot_rect()
        if plot.width <= 0 or self.plies <= 0:
            return 0
        return min(self.plies, max(0, round((x - plot.x) / plot.width * self.plies)))

    # -- drawing --------------------------------------------------------------------------------

    def build(self, ui: Ui, layer: int) -> Iterable[Drawable]:
        items = list(super().build(ui, layer))
        r, plot = self.rect, self.plot_rect()
        room = self.close_button.rect.x - (r.x + PAD) - 8
        items.append(label(ui, fit_text(self.header, room, theme.SMALL_FONT_SIZE), r.x + PAD, r.top - HEADER / 2 - 2, layer,
                           size=theme.SMALL_FONT_SIZE, color=theme.TEXT))
        if plot.width <= 0 or plot.height <= 0 or self.plies < 0:
            return items
        batch = ui.batch  # the curve itself is the _Plot child's
        items.append(shapes.Rectangle(plot.x, plot.y, plot.width, plot.height, color=theme.INPUT, batch=batch,
                                      group=ui.group(layer, 1)))
        middle = self.y_of(0.5)
        items.append(shapes.Line(plot.x, middle, plot.right, middle, thickness=1, color=theme.PANEL_BORDER, batch=batch,
                                 group=ui.group(layer, 1)))
        for chance, text in ((1.0, "100%"), (0.5, "50%"), (0.0, "0%")):
            items.append(label(ui, text, plot.x - 4, self.y_of(chance), layer, size=theme.SMALL_FONT_SIZE,
                               color=theme.TEXT_DIM, anchor_x="right"))
        return items

    # -- input ----------------------------------------------------------------------------------

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if self.close_button.contains(x, y):
            return super().on_mouse_press(x, y, button, modifiers)
        if self.plot_rect().contains(x, y) or (self.rect.contains(x, y) and y < self.close_button.rect.y):
            self.dragging = True
            self.on_jump(self.ply_at(x))
        return True

    def on_mouse_drag(self, x: float, y: float) -> bool:
        if not self.dragging:
            return False
        self.on_jump(self.ply_at(x))
        return True

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        self.dragging = False
        return super().on_mouse_release(x, y, button, modifiers)


__all__ = ["EvalGraph"]
