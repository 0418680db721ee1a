"""Connect Four's board view for the Pegboard window (imports pyglet: load it only from the factory).

Click anywhere in a column to drop a disc there. The column under the pointer
is highlighted with a faint disc where yours would land; with hints on (the H
key) a small dot marks every column that still has room. The last disc played
carries a ring and a finished game's winning line is outlined.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pyglet import shapes

from pegboard.view import BoardViewBase

from .rules import Connect4Game, Connect4State

if TYPE_CHECKING:
    from pegboard.view import Session

FRAME = (30, 64, 175)
HOLE = (15, 23, 42)
HOVER = (51, 90, 200)
HINT = (148, 163, 184)
RING = (248, 250, 252)
WIN_LINE = (34, 197, 94)
DISC = ((220, 38, 38), (234, 179, 8))


class Connect4View(BoardViewBase):
    """Draws the frame, its holes and the discs; turns clicks into column moves."""

    seat_colors: Sequence[tuple[int, int, int]] = DISC

    def __init__(self, game: Connect4Game, session: Session) -> None:
        super().__init__(game, session)
        self.c4 = game
        self.hover: int | None = None
        self.cell = 0.0
        self.origin = (0.0, 0.0)

    # -- geometry ------------------------------------------------------------------------------------

    def _geometry(self) -> None:
        g, a = self.c4, self.area
        self.cell = max(4.0, min(a.width / g.columns, a.height / (g.rows + 1)) * 0.95)
        board_height = self.cell * g.rows
        self.origin = (a.x + (a.width - self.cell * g.columns) / 2, a.y + (a.height - self.cell * (g.rows + 1)) / 2)
        self._top = self.origin[1] + board_height

    def column_at(self, x: float, y: float) -> int | None:
        """The column under a point in board coordinates (relative to the area), or None."""
        gx = x + self.area.x - self.origin[0]
        if self.cell <= 0 or gx < 0:
            return None
        column = int(gx // self.cell)
        return column if column < self.c4.columns else None

    def cell_center(self, column: int, row: int) -> tuple[float, float]:
        """Window coordinates of a cell's centre (row 0 is the bottom); tests click and read pixels there."""
        return self.origin[0] + (column + 0.5) * self.cell, self.origin[1] + (row + 0.5) * self.cell

    # -- drawing -------------------------------------------------------------------------------------

    def _state(self) -> Connect4State:
        state = self.session.state
        assert isinstance(state, Connect4State)
        return state

    def rebuild(self) -> list[Any]:
        self._geometry()
        g, s = self.c4, self.cell
        state = self._state()
        playable = self.session.input_block() is None and state.result is None
        items: list[Any] = [
            shapes.Rectangle(self.origin[0], self.origin[1], s * g.columns, s * g.rows, color=FRAME, batch=self.batch)
        ]
        if self.hover is not None and playable:
            x = self.origin[0] + self.hover * s
            items.append(shapes.Rectangle(x, self.origin[1], s, s * g.rows, color=HOVER, batch=self.batch))
        radius = s * 0.4
        for column in range(g.columns):
            for row in range(g.rows):
                cx, cy = self.cell_center(column, row)
                owner = state.disc(column, row)
                items.append(shapes.Circle(cx, cy, radius, color=HOLE if owner is None else DISC[owner], batch=self.batch))
        open_columns = state.open_columns()
        if playable and self.hover in open_columns:
            assert self.hover is not None
            cx, cy = self.cell_center(self.hover, len(state.board[self.hover]))
            ghost = shapes.Circle(cx, cy, radius, color=DISC[state.to_move], batch=self.batch)
            ghost.opacity = 90
            items.append(ghost)
        if self.hints and playable:
            for column in open_columns:
                cx, _ = self.cell_center(column, g.rows)
                items.append(shapes.Circle(cx, self._top + s * 0.3, max(2.0, s * 0.08), color=HINT, batch=self.batch))
        items += self._markers(state, radius)
        return items

    def _markers(self, state: Connect4State, radius: float) -> list[Any]:
        """A ring on the last disc, and the winning line when the game was won."""
        items: list[Any] = []
        if state.history:
            column = state.history[-1]
            cx, cy = self.cell_center(column, len(state.board[column]) - 1)
            items.append(shapes.Arc(cx, cy, radius * 0.55, color=RING, thickness=2, batch=self.batch))
        result = state.result
        if result is not None and result.winner is not None and state.history:
            column = state.history[-1]
            line = state.line_through(column, len(state.board[column]) - 1, result.winner)
            for x, y in line:
                cx, cy = self.cell_center(x, y)
                items.append(shapes.Arc(cx, cy, radius + 1, color=WIN_LINE, thickness=4, batch=self.batch))
        return items

    # -- input ---------------------------------------------------------------------------------------

    def on_mouse_motion(self, x: float, y: float) -> None:
        column = self.column_at(x, y)
        if column != self.hover:
            self.hover = column
            self.refresh()

    def on_mouse_leave(self) -> None:
        if self.hover is not None:
            self.hover = None
            self.refresh()

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        column = self.column_at(x, y)
        if column is None:
            self.status = "Click a column to drop a disc."
            return
        self.play(column)
