"""Colours, sizes and fonts of the window shell (one place to restyle it)."""

from __future__ import annotations

RGB = tuple[int, int, int]


def hex_color(value: str) -> RGB:
    value = value.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


BACKGROUND: RGB = hex_color("#0f172a")
BOARD_BACKGROUND: RGB = hex_color("#111827")
BAR: RGB = hex_color("#1e293b")
PANEL: RGB = hex_color("#1e293b")
PANEL_BORDER: RGB = hex_color("#334155")
BUTTON: RGB = hex_color("#334155")
BUTTON_HOVER: RGB = hex_color("#475569")
BUTTON_ACTIVE: RGB = hex_color("#2563eb")
BUTTON_DISABLED: RGB = hex_color("#1a2333")
BUTTON_PRESSED: RGB = hex_color("#263244")
BUTTON_ACTIVE_HOVER: RGB = hex_color("#3b82f6")
BUTTON_PRESSED_ACTIVE: RGB = hex_color("#1d4ed8")
TEXT: RGB = hex_color("#e2e8f0")
TEXT_DIM: RGB = hex_color("#64748b")
TEXT_DISABLED: RGB = hex_color("#475569")
TEXT_WARN: RGB = hex_color("#fbbf24")
TEXT_ERROR: RGB = hex_color("#f87171")
ROW_CURRENT: RGB = hex_color("#1d4ed8")
ROW_HOVER: RGB = hex_color("#334155")
INPUT: RGB = hex_color("#0b1220")
FOCUS: RGB = hex_color("#60a5fa")
TOOLTIP: RGB = hex_color("#0b1220")
CARD_SELECTED: RGB = hex_color("#1e3a5f")  # the game chooser's picked card
WIN: RGB = hex_color("#15803d")  # the end screen's band after a win
LOSS: RGB = hex_color("#b91c1c")  # ... and after a loss
DIM_OVERLAY = (0, 0, 0, 150)

#: Default seat colours (seat 0, seat 1, ...) when a board view names none.
SEAT_COLORS: tuple[RGB, ...] = (hex_color("#3b82f6"), hex_color("#ef4444"), hex_color("#22c55e"), hex_color("#eab308"))

#: The shipped UI font (pegboard/ui/fonts, registered by pegboard.ui.typeface) and its type scale.
FONT_NAME = "Inter"
TITLE_FONT_SIZE = 15  # dialog and panel titles, the end screen's result
FONT_SIZE = 11  # body: buttons, lists, the status line
SMALL_FONT_SIZE = 9.5  # notes, explanations, the evaluation figures

#: Spacing: one unit between neighbours, padding inside panels and dialogs, corner radius.
GAP = 6
DIALOG_PAD = 16
RADIUS = 6
BUTTON_PAD = 10  # between a button's edge and its content
ICON_SIZE = 16
ICON_GAP = 6
TOOLTIP_DELAY = 0.45  # seconds of hover before a button's tooltip floats up

TOP_BAR_HEIGHT = 44
STATUS_HEIGHT = 30
HISTORY_WIDTH = 300
ROW_HEIGHT = 24
PADDING = 8

#: Review: the better move drawn on the board (translucent green) and the marks' colours.
BETTER: tuple[int, int, int, int] = (74, 222, 128, 205)
MARK_COLORS: dict[str, RGB] = {"inaccuracy": hex_color("#eab308"), "mistake": hex_color("#f97316"),
                               "blunder": hex_color("#ef4444")}
EVAL_GRAPH_HEIGHT = 118  # layout pixels under the board while reviewing
