"""The history panel: every move; a click jumps to the position after it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pegboard.analysis.winchance import MARK_GLYPHS
from pegboard.match.session import Session
from pegboard.ui import theme
from pegboard.ui.rect import Rect
from pegboard.ui.widgets import Drawable, ListView, Panel, Ui, fit_text, label, text_width


@dataclass(frozen=True)
class HistoryRow:
    """One row: the move number ("" for the start), the seat, the move text and who played it."""

    number: str
    seat: str
    text: str
    by: str = ""
    seat_index: int | None = None
    note: bool = False  # a line of a move's explanation, under the move
    mark: str = ""  # in a review: the move's mark ("inaccuracy", "mistake", "blunder"), drawn as ?!, ?, ??


def compact_move_text(text: str) -> str:
    """Move text tightened for a narrow column: ``"grow 6,2 -> 6,6"`` becomes ``"grow 6,2→6,6"``."""
    return text.replace(" -> ", "→").replace("->", "→")


def lighten(color: Sequence[int], amount: float = 0.35) -> theme.RGB:
    """``color`` mixed with white, so seat colours stay readable on the dark list."""
    r, g, b = (int(c + (255 - c) * amount) for c in color[:3])
    return r, g, b


class HistoryList(ListView):
    """A list whose rows have columns: number (dim, right-aligned), seat (its colour), move, bot (dim)."""

    def __init__(self, on_select: Callable[[int], Any], row_style: Callable[[int], str]) -> None:
        super().__init__(on_select=on_select, row_style=row_style)
        self.entries: list[HistoryRow] = []
        self.seat_colors: Sequence[Sequence[int]] = theme.SEAT_COLORS
        self._columns = (0.0, 0.0)

    def set_entries(self, entries: Sequence[HistoryRow]) -> None:
        entries = list(entries)
        if entries != self.entries:
            self.entries = entries
            self.set_rows([_plain_text(e) for e in entries])
            self.invalidate()

    def columns(self) -> tuple[float, float]:
        """Widths of the number and seat columns for the current rows."""
        size = self.font_size()
        num = max((text_width(e.number, size) for e in self.entries), default=0.0)
        seat = max((text_width(e.seat, size, bold=True) for e in self.entries if e.number), default=0.0)
        return num, seat

    def build(self, ui: Ui, layer: int) -> Iterable[Drawable]:
        self._columns = self.columns()  # measured once per rebuild, used by every row
        return super().build(ui, layer)

    def row_key(self, index: int) -> Any:
        entry = self.entries[index] if index < len(self.entries) else None
        color = None if entry is None or entry.seat_index is None else tuple(
            self.seat_colors[entry.seat_index % len(self.seat_colors)])
        return (super().row_key(index), entry, self._columns, self.font_size(), color)

    def font_size(self) -> float:
        return theme.FONT_SIZE if self.rect.width >= 250 else theme.SMALL_FONT_SIZE

    def build_row(self, ui: Ui, layer: int, index: int, row: Rect, text_room: float, style: str) -> list[Drawable]:
        if index >= len(self.entries):
            return super().build_row(ui, layer, index, row, text_room, style)
        entry = self.entries[index]
        size = self.font_size()
        y = row.y + row.height / 2
        dim = style == "dim"
        text_color = theme.TEXT_DIM if dim else theme.TEXT
        if entry.note:
            return [label(ui, fit_text(entry.text, text_room - 14, theme.SMALL_FONT_SIZE), row.x + 22, y, layer,
                          size=theme.SMALL_FONT_SIZE, color=theme.TEXT_DIM)]
        if not entry.number:
            return [label(ui, entry.text, row.x + 8, y, layer, size=size, color=text_color)]
        num_w, seat_w = self._columns
        right = row.x + 8 + text_room
        x = row.x + 6
        number_color = theme.TEXT if style == "current" else theme.TEXT_DIM  # grey on the blue highlight is unreadable
        items = [label(ui, entry.number, x + num_w, y, layer, size=size, color=number_color, anchor_x="right")]
        x += num_w + 6
        if style == "current":  # a seat colour on the highlight can vanish (blue on blue)
            seat_color = theme.TEXT
        else:
            seat_color = theme.TEXT_DIM if dim or entry.seat_index is None else lighten(
                self.seat_colors[entry.seat_index % len(self.seat_colors)])
        items.append(label(ui, entry.seat, x, y, layer, size=size, color=seat_color, bold=not dim))
        x += seat_w + 6
        glyph = MARK_GLYPHS.get(entry.mark, "")
        glyph_w = text_width(glyph, size, bold=True) + 6 if glyph else 0.0
        shown = fit_text(entry.text, right - x - glyph_w, size)
        items.append(label(ui, shown, x, y, layer, size=size, color=text_color))
        after = x + text_width(shown, size)
        if glyph:  # the review's mark, right after the move in its colour
            items.append(label(ui, glyph, after + 5, y, layer, size=size, bold=True,
                               color=theme.TEXT if style == "current" else theme.MARK_COLORS[entry.mark]))
            after += glyph_w
        if entry.by:  # the bot that played it, only when there is room after the move
            room = right - (after + 8)
            if room > 0 and text_width(entry.by, theme.SMALL_FONT_SIZE) <= room:
                items.append(label(ui, entry.by, right, y, layer, size=theme.SMALL_FONT_SIZE, color=theme.TEXT_DIM,
                                   anchor_x="right"))
        return items


def _plain_text(entry: HistoryRow) -> str:
    parts = [entry.number, entry.seat, entry.text, MARK_GLYPHS.get(entry.mark, ""), f"({entry.by})" if entry.by else ""]
    return " ".join(p for p in parts if p)


class HistoryPanel(Panel):
    """Row 0 is the start, then each move (the position after it), each followed by the lines of
    its explanation when the board view gives one. Moves after the shown one are dimmed.

    Every move reads as the person at this screen may know it (``session.viewer``'s text and
    events: under fog, "a move out of sight"). One entry is open: its whole explanation shows;
    the others show their summary, cut at :attr:`NOTE_LINES` lines. The open entry is the one at
    the cursor until the person clicks one: a click on a move opens it (and jumps there), a click
    on its explanation opens or closes it without moving.
    """

    NOTE_LINES = 3  # a closed entry's explanation is cut at this many lines

    def __init__(self, on_jump: Callable[[int], Any]) -> None:
        super().__init__(title="History")
        self.cursor = 0
        self.on_jump = on_jump
        self.row_ply: list[int] = [0]  # the position each row stands for
        self.note_row: list[bool] = [False]  # True for a line of an explanation
        self.opened: int | None = None  # the entry the person opened (None: the one at the cursor; 0: none)
        self._moves = 0
        self._source: tuple[Session, Any] | None = None
        #: In a review: the marked moves, move number -> mark name (empty otherwise).
        self.marks: dict[int, str] = {}
        self.list: HistoryList = self.add(HistoryList(self._picked, self._style))

    def open_ply(self) -> int:
        """The move whose entry shows in full (0: none)."""
        return self.cursor if self.opened is None else self.opened

    def _picked(self, index: int) -> None:
        if not 0 <= index < len(self.row_ply):
            return
        ply = self.row_ply[index]
        if self.note_row[index]:
            self.opened = 0 if self.open_ply() == ply else ply
            self._again()
            return
        self.opened = ply
        self.on_jump(ply)
        self._again()  # the jump may be refused (online, or the move shown already)

    def _again(self) -> None:
        if self._source is not None:
            self.refresh(*self._source)

    def _style(self, index: int) -> str:
        ply = self.row_ply[index] if index < len(self.row_ply) else index
        if ply == self.cursor and (index == 0 or self.row_ply[index - 1] != ply):
            return "current"
        return "dim" if ply > self.cursor else "normal"

    def on_layout(self) -> None:
        r = self.rect
        self.list.set_rect(Rect(r.x + 8, r.y + 8, r.width - 16, max(0, r.height - 44)))

    def set_marks(self, marks: Mapping[int, str]) -> None:
        """Show these marks beside their moves (a review's); {} removes them. Call :meth:`refresh` after."""
        self.marks = dict(marks)

    def set_seat_colors(self, colors: Sequence[Sequence[int]]) -> None:
        self.list.seat_colors = colors
        self.list.invalidate()

    def refresh(self, session: Session, board: Any = None) -> None:
        """Rebuild the rows; ``board`` (a :class:`~pegboard.ui.board.BoardView`) explains the moves."""
        self._source = (session, board)
        if len(session.history) != self._moves:  # a move was played or taken back: the cursor's entry opens
            self._moves = len(session.history)
            self.opened = None
        self.cursor = session.cursor
        viewer = session.viewer
        entries = [HistoryRow("", "", "Start")]
        row_ply = [0]
        note_row = [False]
        size = theme.SMALL_FONT_SIZE
        room = max(60.0, self.list.rect.width - 44)
        opened = self.open_ply()
        for ply in session.history:
            by = "" if ply.by in _NOT_A_PLAYER else _bot_name(session, ply.by)
            text = compact_move_text(ply.text_for(viewer))
            entries.append(HistoryRow(str(ply.number), session.seat_name(ply.seat), text, by, ply.seat,
                                      mark=self.marks.get(ply.number, "")))
            row_ply.append(ply.number)
            note_row.append(False)
            for line in self._note_lines(board, ply, ply.number == opened, room, size):
                entries.append(HistoryRow("", "", line, note=True))
                row_ply.append(ply.number)
                note_row.append(True)
        self.row_ply = row_ply
        self.note_row = note_row
        self.list.set_entries(entries)
        self.list.selected = None
        shown = [i for i, p in enumerate(row_ply) if p == opened or p == self.cursor]
        self.list.ensure_visible(max(shown, default=0))
        self.list.ensure_visible(min(shown, default=0))  # the move's own row wins over its last note
        self.list.invalidate()

    def _note_lines(self, board: Any, record: Any, opened: bool, room: float, size: float) -> list[str]:
        """The explanation lines under one move: all of it when ``opened``, else its summary, cut short."""
        if board is None:
            return []
        note = board.history_note(record)
        text = note if opened else (board.history_summary(record) or note)
        lines = [line for paragraph in text.split("\n") for line in _wrap(paragraph, room, size)]
        if opened:
            return lines
        cut = len(lines) > self.NOTE_LINES
        if cut or (text != note and note):  # more to read: say how
            lines = lines[: self.NOTE_LINES]
            tail = " … (click for all)" if cut else " (click for all)"
            whole = lines[-1]
            kept = fit_text(whole, room - text_width(tail, size), size).rstrip("…").rstrip()
            if cut or kept != whole:  # end on a whole clause: half of one says something else ("2 red" of "2 red raiders")
                boundary = max(kept.rfind(", "), kept.rfind("; "))
                kept = kept[:boundary] if boundary > 0 else kept
            lines[-1] = kept + tail
        return lines


_NOT_A_PLAYER = frozenset({"human", "import", "resign", "timeout"})  # how a move came, not a bot's id


@lru_cache(maxsize=4096)
def _wrap(text: str, width: float, size: float) -> tuple[str, ...]:
    """``text`` broken into lines of at most ``width`` pixels at font ``size``."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return tuple(lines)


def _bot_name(session: Session, bot_id: str) -> str:
    """The display name of the bot that played a move (its id when it is no longer seated)."""
    for ctl in session.seats:
        if ctl.bot is not None and ctl.bot.id == bot_id:
            return ctl.bot.name
    try:
        return str(session.plugins.bot(session.game.id, bot_id).name)
    except Exception:  # noqa: BLE001 - an unknown id is shown as it is
        return bot_id


__all__ = ["HistoryList", "HistoryPanel", "HistoryRow", "compact_move_text"]
