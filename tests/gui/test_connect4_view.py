"""The example Connect Four package's board view in the real window (headless), loaded as ``--plugin FOLDER``."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("PYGLET_HEADLESS", "1")  # before anything imports pyglet

import pytest

from pegboard.plugins.manager import Plugins
from support.windows import close, pixel

pytestmark = pytest.mark.gui

PACKAGE = Path(__file__).resolve().parents[2] / "plugins" / "examples" / "connect4" / "pegboard_connect4"
RED, YELLOW, HOLE = (220, 38, 38), (234, 179, 8), (15, 23, 42)


@pytest.fixture
def open_connect4(opened: list[Any]) -> Callable[..., Any]:
    from pegboard.ui import make_session, open_window

    plugins = Plugins(load_entry_points=False, plugin_files=[PACKAGE])

    def make(seats: tuple[str, str] = ("human", "human")) -> Any:
        session = make_session("connect4", None, list(seats), plugins, threaded=False)
        window = open_window(session, plugins, width=1100, height=760, schedule=False)
        opened.append(window)  # closed after the test (conftest's opened)
        return window

    return make


def drop(window: Any, column: int) -> None:
    """Click high up in a column (any cell of it plays the column)."""
    x, y = window.board.cell_center(column, window.session.game.rows - 1)
    window.click(x, y)
    window.tick(0.03)


def test_the_package_view_is_the_board_and_clicks_drop_discs_to_the_bottom(open_connect4: Callable[..., Any]) -> None:
    w = open_connect4()
    assert type(w.board).__name__ == "Connect4View"
    drop(w, 3)
    drop(w, 3)
    assert w.session.state.board[3] == [0, 1]
    image = w.render()
    assert close(pixel(image, *w.board.cell_center(3, 0)), RED), "Red's disc fell to the bottom of column d"
    assert close(pixel(image, *w.board.cell_center(3, 1)), YELLOW), "Yellow's disc sits on it"
    assert close(pixel(image, *w.board.cell_center(4, 0)), HOLE), "other cells stay empty"


def test_a_full_column_explains_itself_in_the_status_line(open_connect4: Callable[..., Any]) -> None:
    w = open_connect4()
    for _ in range(6):
        drop(w, 0)
    drop(w, 0)
    assert w.session.state.ply == 6
    assert w.board.status_text() == "Column a is full (rule column_full)."


def test_the_bot_answers_each_click(open_connect4: Callable[..., Any]) -> None:
    w = open_connect4(("human", "easy"))
    drop(w, 3)
    w.tick(0.05)
    assert w.session.state.ply == 2, "Easy answered the click"
    drop(w, 3)
    w.tick(0.05)
    assert w.session.state.ply == 4 and w.session.state.board[3][:1] == [0]


def test_a_won_game_outlines_the_winning_line(open_connect4: Callable[..., Any], tmp_path: Path) -> None:
    w = open_connect4()
    for column in (0, 1, 0, 1, 0, 1, 0):  # Red completes column a
        drop(w, column)
    assert w.session.is_over and w.session.state.result.winner == 0
    w.save_screenshot(tmp_path / "won.png")
    image = w.render()
    x, y = w.board.cell_center(0, 3)
    edge = w.board.cell * 0.4 + 2
    ring = pixel(image, x + edge, y)  # dimmed by the game-over dialog, but still green
    assert ring[1] > ring[0] + 30 and ring[1] > ring[2] + 20, f"the winning line is outlined, found {ring}"
    bx, by = w.board.cell_center(1, 0)
    plain = pixel(image, bx + edge, by)
    assert not plain[1] > plain[0] + 30, "Yellow's discs are not outlined"
    assert close(pixel(image, *w.board.cell_center(1, 3)), pixel(image, *w.board.cell_center(2, 0))), "b4 is empty like c1"
