"""The toy game's board view: a grid of cells, stones as discs (test-only)."""

from __future__ import annotations

from typing import Any

from pyglet import shapes

from pegboard.ui.board import BoardViewBase
from support.gridtoy import ToyGame

STONE = ((30, 30, 30), (240, 240, 240))
CELL = (180, 140, 80)
HINT = (34, 197, 94)
HOVER = (250, 204, 21)


class ToyBoardView(BoardViewBase):
    seat_colors = ((20, 20, 20), (235, 235, 235))

    def __init__(self, game: ToyGame, session: Any) -> None:
        super().__init__(game, session)
        self.toy = game
        self.hover: int | None = None
        self.size = 0.0
        self.origin = (0.0, 0.0)

    def _geometry(self) -> None:
        g, a = self.toy, self.area
        self.size = max(4.0, min(a.width / g.width, a.height / g.height) * 0.95)
        self.origin = (a.x + (a.width - self.size * g.width) / 2, a.y + (a.height - self.size * g.height) / 2)

    def cell_at(self, x: float, y: float) -> int | None:
        """Board coordinates (relative to the area) to a cell index."""
        gx = x + self.area.x - self.origin[0]
        gy = y + self.area.y - self.origin[1]
        cx, cy = int(gx // self.size), int(gy // self.size)
        if gx < 0 or gy < 0 or not (0 <= cx < self.toy.width and 0 <= cy < self.toy.height):
            return None
        return self.toy.cell(cx, cy)

    def cell_center(self, cell: int) -> tuple[float, float]:
        """Window coordinates of a cell's centre (tests click there)."""
        x, y = self.toy.xy(cell)
        return self.origin[0] + (x + 0.5) * self.size, self.origin[1] + (y + 0.5) * self.size

    def rebuild(self) -> list[Any]:
        self._geometry()
        g, s = self.toy, self.size
        state = self.session.state
        items: list[Any] = []
        playable = self.session.input_block() is None
        for cell in range(g.cells):
            x, y = g.xy(cell)
            px, py = self.origin[0] + x * s, self.origin[1] + y * s
            color = HOVER if cell == self.hover else CELL
            items.append(shapes.Rectangle(px + 1, py + 1, s - 2, s - 2, color=color, batch=self.batch))
            owner = state.board[cell]
            cx, cy = px + s / 2, py + s / 2
            if owner >= 0:
                items.append(shapes.Circle(cx, cy, s * 0.38, color=STONE[owner], batch=self.batch))
            elif self.hints and playable:
                items.append(shapes.Circle(cx, cy, max(2.0, s * 0.08), color=HINT, batch=self.batch))
        return items

    def on_mouse_motion(self, x: float, y: float) -> None:
        cell = self.cell_at(x, y)
        if cell != self.hover:
            self.hover = cell
            self.refresh()

    def on_mouse_leave(self) -> None:
        if self.hover is not None:
            self.hover = None
            self.refresh()

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        cell = self.cell_at(x, y)
        if cell is None:
            self.status = "Click a cell of the board."
            return
        self.play(cell)
