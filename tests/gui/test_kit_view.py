"""The board view of a game written by ``pegboard new game``, in the real window (headless)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("PYGLET_HEADLESS", "1")  # before anything imports pyglet

import pytest

from pegboard.kit.writer import new_game
from pegboard.plugins.manager import Plugins
from support.windows import close, pixel

pytestmark = pytest.mark.gui

STONE = (148, 163, 184)


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Written once: a package is imported once per process, from one folder."""
    folder = tmp_path_factory.mktemp("kit") / "kitview"
    new_game("kitview", folder)
    return folder / "pegboard_kitview"


@pytest.fixture
def open_kit_game(package: Path, opened: list[Any]) -> Callable[..., Any]:
    from pegboard.ui import make_session, open_window

    plugins = Plugins(load_entry_points=False, plugin_files=[package])

    def make(seats: tuple[str, str] = ("human", "human")) -> Any:
        session = make_session("kitview", None, list(seats), plugins, threaded=False)
        window = open_window(session, plugins, width=1100, height=760, schedule=False)
        opened.append(window)  # closed after the test (conftest's opened)
        return window

    return make


def test_a_click_on_a_stone_takes_it_and_the_stones_after_it(open_kit_game: Callable[..., Any]) -> None:
    w = open_kit_game()
    assert type(w.board).__name__ == "KitviewView"
    last = w.board.stone_center(20)
    w.click(*w.board.stone_center(19))  # the second stone from the end: take 2
    w.tick(0.03)
    assert (w.session.state.stones, w.session.state.to_move) == (19, 1)
    image = w.render()
    assert close(pixel(image, *w.board.stone_center(0)), STONE), "the pile is drawn"
    assert not close(pixel(image, *last), STONE), "the stones taken are gone"


def test_too_many_stones_explain_themselves_in_the_status_line(open_kit_game: Callable[..., Any]) -> None:
    w = open_kit_game()
    w.click(*w.board.stone_center(0))  # all 21 stones
    w.tick(0.03)
    assert w.session.state.ply == 0
    assert w.board.status_text() == "Take 1 to 3 stones, not 21 (rule take_range)."


def test_the_perfect_bot_answers_a_click(open_kit_game: Callable[..., Any]) -> None:
    w = open_kit_game(("human", "perfect"))
    w.click(*w.board.stone_center(20))  # take 1: 20 left, a lost pile for the bot
    for _ in range(20):
        w.tick(0.03)
        if w.session.state.ply == 2:
            break
    assert w.session.state.ply == 2 and w.session.state.to_move == 0
    assert w.session.state.stones in (17, 18, 19)
