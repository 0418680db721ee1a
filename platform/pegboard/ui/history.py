"""The history panel: every move; a click jumps to the position after it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..session import Session
from .rect import Rect
from .widgets import ListView, Panel


class HistoryPanel(Panel):
    """Row 0 is the start; row k the position after move k. Moves after the shown one are dimmed."""

    def __init__(self, on_jump: Callable[[int], Any]) -> None:
        super().__init__(title="History")
        self.cursor = 0
        self.list = self.add(ListView(on_select=on_jump, row_style=self._style))

    def _style(self, index: int) -> str:
        if index == self.cursor:
            return "current"
        return "dim" if index > self.cursor else "normal"

    def on_layout(self) -> None:
        r = self.rect
        self.list.set_rect(Rect(r.x + 8, r.y + 8, r.width - 16, max(0, r.height - 44)))

    def refresh(self, session: Session) -> None:
        rows = ["Start"]
        for ply in session.history:
            who = session.seat_name(ply.seat)
            tag = "" if ply.by in ("human", "import") else f"  ({ply.by})"
            rows.append(f"{ply.number}. {who}  {ply.text}{tag}")
        self.cursor = session.cursor
        self.list.set_rows(rows)
        self.list.selected = None
        self.list.ensure_visible(self.cursor)
        self.list.invalidate()


__all__ = ["HistoryPanel"]
