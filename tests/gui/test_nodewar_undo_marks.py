"""Issue 25, item 10: what the Node War window shows after Undo and Redo against a bot.

A person plays with the mouse (the pointer rests on the point just played), the bot answers,
and the person takes the moves back with Ctrl+Z: no ring may stay on the now-empty point, and
Resume bot is offered only while a paused bot is to move.
"""

from __future__ import annotations

import random

import pytest
from pyglet import shapes
from pyglet.window import key

from pegboard.plugins.manager import Plugins
from pegboard.ui.settings import MemorySettings

pytestmark = pytest.mark.gui


@pytest.fixture
def window():
    from pegboard.ui import make_session, open_window

    plugins = Plugins()
    session = make_session("nodewar", "standard", ["human", "easy"], plugins, seed=2, threaded=False)
    win = open_window(session, plugins, schedule=False, settings_store=MemorySettings())
    yield win
    if not win.has_exit:
        win.close()


def play_by_mouse(window, move) -> None:
    """Click the move's node, then its hint; the pointer stays on the hint, as a hand's would."""
    window.click(*window.board.point_xy(move.src))
    window.click(*window.board.point_xy(move.dst))
    window.tick(0.03)  # the bot (inline) answers


def rings_at(view, point: int) -> list:
    """Every ring (arc) the view draws centred on ``point``."""
    x, y = view.point_xy(point)
    return [item for item in (*view._items, *view._overlay_items)
            if isinstance(item, shapes.Arc) and abs(item.x - x) < 1 and abs(item.y - y) < 1]


def test_after_undo_no_ring_stays_on_the_undone_point(window):
    session, view = window.session, window.board
    rng = random.Random(5)
    checked = 0
    for _round in range(4):
        move = rng.choice([m for m in session.state.legal_moves() if view.state.owner[m.dst] < 0])
        play_by_mouse(window, move)
        assert session.cursor % 2 == 0 and session.history[-2].move == move
        window.press(key.Z, key.MOD_CTRL)  # the pointer has not moved: it rests on move.dst
        assert session.state.owner[move.dst] < 0, "the undone node's point is empty again"
        assert rings_at(view, move.dst) == [], "a ring is left on the empty point"
        if session.cursor:
            last = session.history[session.cursor - 1].move
            assert rings_at(view, last.dst), "the last-move ring marks the move before"
        window.press(key.Y, key.MOD_CTRL)
        assert session.history[session.cursor - 2].move == move
        checked += 1
    assert checked == 4


def test_resume_bot_is_offered_only_while_a_paused_bot_is_to_move(window):
    session = window.session
    rng = random.Random(9)
    for _ in range(2):
        play_by_mouse(window, rng.choice(list(session.state.legal_moves())))
    assert session.cursor == 4
    window.click_widget(window.buttons["undo"])
    assert session.cursor == 2 and session.to_move == 0
    assert not window.buttons["resume"].enabled, "after Undo it is the person's turn"
    window.click_widget(window.buttons["redo"])
    assert session.cursor == 4 and session.to_move == 0 and session.bots_paused
    assert not window.buttons["resume"].enabled, "after Redo it is the person's turn"
    window.session.jump(3)  # the bot's turn, paused: now Resume bot has work to do
    window.tick(0.03)
    assert session.cursor == 3 and window.buttons["resume"].enabled
    window.click_widget(window.buttons["resume"])
    window.tick(0.03)
    assert session.cursor == 4 and not window.buttons["resume"].enabled
