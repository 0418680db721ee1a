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
            self.curve = curve
            self.invalidate()
            self.cursor_mark.invalidate()

    def set_marks(self, marks: Mapping[int, str]) -> None:
        """The marked moves: move number -> mark name ("inaccuracy", "mistake", "blunder")."""
        marks = dict(marks)
        if marks != self.marks:
            self.marks = marks
            self.invalidate()

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
        batch = ui.batch
        items.append(shapes.Rectangle(plot.x, plot.y, plot.width, plot.height, color=theme.INPUT, batch=batch,
                                      group=ui.group(layer, 1)))
        middle = self.y_of(0.5)
        items.append(shapes.Line(plot.x, middle, plot.right, middle, thickness=1, color=theme.PANEL_BORDER, batch=batch,
                                 group=ui.group(layer, 1)))
        step = plot.width / max(1, self.plies)
        bar = max(1.0, step)
        seat0, seat1 = self.colors[0], self.colors[1 % len(self.colors)]
        points: list[tuple[float, float] | None] = []
        for ply, chance in enumerate(self.curve):
            if chance is None:
                points.append(None)
                continue
            x, y = self.x_of(ply), self.y_of(chance)
            points.append((x, y))
            low, high = sorted((middle, y))
            if high - low >= 0.5:
                color = (*(seat0 if chance >= 0.5 else seat1), 110)
                items.append(shapes.Rectangle(x - bar / 2, low, bar, high - low, color=color, batch=batch,
                                              group=ui.group(layer, 1)))
        for a, b in zip(points, points[1:], strict=False):
            if a is not None and b is not None:
                items.append(shapes.Line(*a, *b, thickness=2, color=theme.TEXT, batch=batch, group=ui.group(layer, 2)))
        for number, mark in sorted(self.marks.items()):
            point = points[number] if number < len(points) else None
            if point is not None:
                items.append(shapes.Circle(*point, 5.5, color=theme.BACKGROUND, batch=batch, group=ui.group(layer, 3)))
                items.append(shapes.Circle(*point, 4, color=theme.MARK_COLORS[mark], batch=batch, group=ui.group(layer, 3)))
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
