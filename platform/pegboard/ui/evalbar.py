"""The evaluation bar (always from seat 0's side) and its breakdown panel."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pegboard.specs import Evaluation
from pegboard.ui import theme
from pegboard.ui.rect import Rect
from pegboard.ui.widgets import LAYER_OVERLAY, Drawable, Label, Panel, Ui, Widget, box_shape, label, rect_shape

NOTE = "A quick static heuristic, not a search: it can misjudge tactics that need deeper calculation."


def fill_fraction(score: float, scale: float) -> float:
    """How much of the bar seat 0's colour fills: 0.5 is level, towards 1 good for seat 0."""
    return 0.5 + 0.5 * math.tanh(score / scale) if scale > 0 else 0.5


class EvalBar(Widget):
    """Seat 0's colour fills from the left, seat 1's from the right; a click toggles the breakdown."""

    def __init__(self, on_click: Callable[[], Any] | None = None) -> None:
        super().__init__()
        self.on_click = on_click
        self.evaluation: Evaluation | None = None
        self.scale = 10.0
        self.colors: Sequence[theme.RGB] = theme.SEAT_COLORS
        self.open = False

    def set_evaluation(self, evaluation: Evaluation | None) -> None:
        self.evaluation = evaluation
        self.invalidate()

    @property
    def fraction(self) -> float:
        return 0.5 if self.evaluation is None else fill_fraction(self.evaluation.score, self.scale)

    def build(self, ui: Ui, layer: int) -> Iterable[Drawable]:
        r = self.rect
        if self.evaluation is None:
            return [rect_shape(ui, r, theme.BUTTON_DISABLED, layer), box_shape(ui, r, theme.PANEL_BORDER, layer),
                    label(ui, "no evaluator", r.x + r.width / 2, r.y + r.height / 2, layer, color=theme.TEXT_DIM,
                          anchor_x="center", size=theme.SMALL_FONT_SIZE)]
        split = r.x + r.width * self.fraction
        score = self.evaluation.score
        text = f"{score:+.1f}" if abs(score) < 1000 else f"{score:+.0f}"
        items = [
            rect_shape(ui, Rect(r.x, r.y, split - r.x, r.height), self.colors[0], layer, sub=0),
            rect_shape(ui, Rect(split, r.y, r.right - split, r.height), self.colors[1 % len(self.colors)], layer, sub=0),
            rect_shape(ui, Rect(r.x + r.width / 2 - 1, r.y, 2, r.height), (255, 255, 255), layer, sub=1),
            box_shape(ui, r, theme.FOCUS if self.hover or self.open else theme.PANEL_BORDER, layer, sub=1),
            rect_shape(ui, Rect(r.x + r.width / 2 - 26, r.y + 3, 52, r.height - 6), (15, 23, 42, 200), layer, sub=2, radius=3),
            label(ui, text, r.x + r.width / 2, r.y + r.height / 2, layer, anchor_x="center", size=theme.SMALL_FONT_SIZE, sub=3),
        ]
        return items

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if self.on_click is not None:
            self.on_click()
        return True


class BreakdownPanel(Panel):
    """Every term of the evaluation: each seat's raw value, the weight and the contribution."""

    ROW = 20

    def __init__(self, seats: Sequence[str]) -> None:
        super().__init__(title="Evaluation", layer=LAYER_OVERLAY)
        self.seats = list(seats)
        self.evaluation: Evaluation | None = None
        self.note = self.add(Label(NOTE, wrap=True, size=theme.SMALL_FONT_SIZE, color=theme.TEXT_DIM))
        self.visible = False

    def wanted_height(self) -> float:
        rows = len(self.evaluation.terms) if self.evaluation else 0
        return 44 + (rows + 2) * self.ROW + 46

    def set_evaluation(self, evaluation: Evaluation | None, seats: Sequence[str]) -> None:
        self.evaluation = evaluation
        self.seats = list(seats)
        self.invalidate()

    def on_layout(self) -> None:
        r = self.rect
        self.note.set_rect(Rect(r.x + 14, r.y + 8, r.width - 28, 38))

    def build(self, ui: Ui, layer: int) -> Iterable[Drawable]:
        items = list(super().build(ui, layer))
        r = self.rect
        seats = self.seats or ["seat 0", "seat 1"]
        # one right-aligned column per seat, then the weight and the contribution
        cols = [r.x + 14, *[r.right - 110 - 70 * (len(seats) - i) for i in range(len(seats))], r.right - 110, r.right - 16]
        last = len(cols) - 1
        y = r.top - 52
        heads = ["term", *seats, "weight", "="]
        for i, head in enumerate(heads):
            items.append(label(ui, head, cols[i], y, layer, size=theme.SMALL_FONT_SIZE, color=theme.TEXT_DIM,
                               anchor_x="left" if i == 0 else "right", bold=True))
        if self.evaluation is None:
            items.append(label(ui, "No evaluation for this game.", cols[0], y - self.ROW, layer))
            return items
        for term in self.evaluation.terms:
            y -= self.ROW
            color = theme.TEXT if term.contribution == 0 else (theme.SEAT_COLORS[0] if term.contribution > 0 else theme.TEXT_ERROR)
            per_seat = [_num(term.values[i]) if i < len(term.values) else "" for i in range(len(seats))]
            values = [term.name.replace("_", " "), *per_seat, _num(term.weight), f"{term.contribution:+.2f}"]
            for i, value in enumerate(values):
                items.append(label(ui, value, cols[i], y, layer, size=theme.SMALL_FONT_SIZE,
                                   color=color if i == last else theme.TEXT, anchor_x="left" if i == 0 else "right"))
        y -= self.ROW
        items.append(label(ui, "total", cols[0], y, layer, size=theme.SMALL_FONT_SIZE, bold=True))
        items.append(label(ui, f"{self.evaluation.score:+.2f}", cols[last], y, layer, size=theme.SMALL_FONT_SIZE, bold=True,
                           anchor_x="right"))
        return items


def _num(value: float) -> str:
    return f"{value:g}" if float(value).is_integer() else f"{value:.2f}"
