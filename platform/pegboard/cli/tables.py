"""Plain-text tables for the command line, drawn with box characters.

The commands used to print with rich, whose table and console modules take
longer to import than the rest of a short command like ``pegboard games``.
This is the little the commands need: a title, columns (left or right
justified), rows, section lines and a caption. A table wider than the
console shrinks its widest columns and wraps their cells at spaces; a word
longer than its column is cut with "…". Cell text prints as it is (no markup).
"""

from __future__ import annotations

import os
import sys
from typing import TextIO

# Heavy lines under and around the header, light lines for the body (rich's "heavy head" box).
_TOP = ("┏", "━", "┳", "┓")
_HEAD = ("┃", "┃", "┃")
_UNDER_HEAD = ("┡", "━", "╇", "┩")
_BODY = ("│", "│", "│")
_SECTION = ("├", "─", "┼", "┤")
_BOTTOM = ("└", "─", "┴", "┘")


class Table:
    """Columns, rows and optional section breaks; :meth:`render` gives the lines."""

    def __init__(self, title: str = "", caption: str = "") -> None:
        self.title = title
        self.caption = caption
        self.headers: list[str] = []
        self.right: list[bool] = []
        self.rows: list[list[str] | None] = []  # None: a section line

    def add_column(self, header: str, *, justify: str = "left") -> None:
        self.headers.append(header)
        self.right.append(justify == "right")

    def add_row(self, *cells: str) -> None:
        self.rows.append([str(cell) for cell in cells] + [""] * (len(self.headers) - len(cells)))

    def add_section(self) -> None:
        self.rows.append(None)

    def render(self, width: int | None = None) -> list[str]:
        """The table's lines, fitted into ``width`` characters when given."""
        count = len(self.headers)
        if count == 0:
            return []
        texts = [self.headers, *(row for row in self.rows if row is not None)]
        widths = [max(len(line) for cells in texts for line in cells[i].split("\n")) for i in range(count)]
        if width is not None:
            room = width - 3 * count - 1  # "│ " before each column, " │" after the last
            while sum(widths) > room and max(widths) > 1:
                widest = max(range(count), key=lambda i: (widths[i], i))
                widths[widest] -= 1
        total = sum(widths) + 3 * count + 1
        lines: list[str] = []
        if self.title:
            lines.append(self.title.center(total).rstrip())
        lines.append(_rule(_TOP, widths))
        lines += _cells(self.headers, widths, [False] * count, _HEAD)
        lines.append(_rule(_UNDER_HEAD, widths))
        for row in self.rows:
            if row is None:
                lines.append(_rule(_SECTION, widths))
            else:
                lines += _cells(row, widths, self.right, _BODY)
        lines.append(_rule(_BOTTOM, widths))
        if self.caption:
            lines.append(self.caption.center(total).rstrip())
        return lines


def print_table(table: Table, file: TextIO | None = None) -> None:
    """Print ``table`` fitted to the console width (``COLUMNS``, the terminal, or 120 for a pipe or file)."""
    stream = file or sys.stdout
    stream.write("\n".join(table.render(console_width(stream))) + "\n")


def console_width(stream: TextIO) -> int:
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        if stream.isatty():
            return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError):
        pass
    return 120


def _rule(parts: tuple[str, str, str, str], widths: list[int]) -> str:
    left, line, cross, right = parts
    return left + cross.join(line * (w + 2) for w in widths) + right


def _cells(cells: list[str], widths: list[int], right: list[bool], edges: tuple[str, str, str]) -> list[str]:
    wrapped = [_wrap(text, w) for text, w in zip(cells, widths)]
    height = max(len(lines) for lines in wrapped)
    left, middle, end = edges
    out = []
    for n in range(height):
        parts = []
        for lines, w, flush_right in zip(wrapped, widths, right):
            text = lines[n] if n < len(lines) else ""
            parts.append(text.rjust(w) if flush_right else text.ljust(w))
        out.append(f"{left} " + f" {middle} ".join(parts) + f" {end}")
    return out


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken at spaces; long words end in "…"."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split(" "):
            if len(word) > width:
                word = word[: width - 1] + "…"
            if not current:
                current = word
            elif len(current) + 1 + len(word) <= width:
                current += " " + word
            else:
                lines.append(current)
                current = word
        lines.append(current)
    return lines
