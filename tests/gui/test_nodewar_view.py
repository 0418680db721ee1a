"""The Node War board view inside the real (headless) window."""

from __future__ import annotations

import random

import pytest

from pegboard import hookimpl
from pegboard.plugins.manager import Plugins
from pegboard.specs import RendererSpec
from support.windows import close, pixel

pytestmark = pytest.mark.gui

BLUE, RED = (59, 130, 246), (239, 68, 68)
DARK = ((0x1D, 0x4E, 0xD8), (0xB9, 0x1C, 0x1C))
GREEN, PURPLE = (34, 197, 94), (168, 85, 247)


class ViewPlugin:
    @hookimpl
    def pegboard_renderers(self, game: str):
        from pegboard_nodewar.view import make_view

        return [RendererSpec("test-board", "Node War board", "nodewar", make_view)] if game == "nodewar" else []


@pytest.fixture
def window():
    from pegboard.ui import make_session, open_window
    from pegboard_nodewar.view import NodeWarView

    plugins = Plugins()
    if not plugins.renderers("nodewar"):
        plugins.register(ViewPlugin(), name="nodewar-view-test")
    session = make_session("nodewar", "standard", ["human", "human"], plugins, threaded=False)
    win = open_window(session, plugins, schedule=False)
    assert isinstance(win.board, NodeWarView)
    yield win
    win.close()


def test_selecting_the_base_shows_its_moves_and_a_hint_click_plays(window, tmp_path):
    view, session = window.board, window.session
    base = session.state.base[0]
    window.click(*view.point_xy(base))
    assert view.selected == base
    assert "Base at 6,2" in window.status.text.text
    moves = {m.dst: m for m in session.state.legal_moves() if m.src == base}
    assert set(view._hints) == set(moves) and moves
    grow_target = next(q for q, m in moves.items() if m.kind == "grow")
    img = window.render()
    window.save_screenshot(tmp_path / "nodewar-selected.png")
    assert close(pixel(img, *view.point_xy(grow_target)), GREEN), "green dot on a new-node hint"
    window.click(*view.point_xy(grow_target))
    assert session.cursor == 1 and session.moves[0] == moves[grow_target]
    assert view.selected is None
    img = window.render()
    assert close(pixel(img, *view.point_xy(grow_target)), BLUE), "the new node is drawn in Blue"


def test_clicks_that_cannot_be_played_say_why(window):
    view, session = window.board, window.session
    window.click(*view.point_xy(session.game.point(0, 10)))
    assert window.status.text.text.startswith("Select one of your alive nodes first")
    window.click(*view.point_xy(session.state.base[1]))
    assert window.status.text.text == "That is a Red node; select one of your own."
    window.click(*view.point_xy(session.state.base[0]))
    window.click(*view.point_xy(session.game.point(6, 12)))  # far out of the Base's reach
    assert session.cursor == 0
    assert window.status.text.text and window.status.text.text != "Blue to move (move 1)."


def play_until(window, predicate, seed=3, limit=600):
    """Random moves on a window-less copy until ``predicate(state)``; then import them (one redraw)."""
    from pegboard.match.session import Session

    shadow = Session(window.session.game, ["human", "human"], plugins=window.session.plugins, threaded=False)
    rng = random.Random(seed)
    for _ in range(limit):
        if predicate(shadow.state) or shadow.is_over:
            break
        shadow.play(rng.choice(shadow.state.legal_moves()))
    window.session.import_record(shadow.to_record())
    return predicate(window.session.state)


def test_dead_nodes_full_nodes_and_split_hints_are_drawn(window, tmp_path):
    view, session = window.board, window.session

    def has_dead_own_node(st):
        return any(not st.alive[p] and st.owner[p] == st.to_move for p in st.order)

    assert play_until(window, has_dead_own_node)
    session.resume_bots()
    state = session.state
    window.tick(0.03)
    img = window.render()
    dead = next(p for p in state.order if not state.alive[p] and state.owner[p] == state.to_move)
    full = [p for p in state.order if state.branches[p] >= session.game.limit_of[state.kind[p]]]
    x, y = view.point_xy(dead)
    assert dead not in full, "the seeded game gives a dead node with a free branch (no X over its colour)"
    assert close(pixel(img, x + view.cell * 0.12, y), DARK[state.owner[dead]]), "dead nodes in the dark team colour"
    assert full and close(pixel(img, *view.point_xy(full[0])), (255, 255, 255), 40), "a white X on a full node"
    window.click(x, y)
    assert view.selected == dead and view._hints == {}
    assert window.status.text.text.startswith("Dead ")
    window.save_screenshot(tmp_path / "nodewar-dead.png")
    splits = [m for m in state.legal_moves() if m.kind == "split"]
    assert splits
    window.click(x, y)  # deselect
    window.click(*view.point_xy(splits[0].src))
    img = window.render()
    assert close(pixel(img, *view.point_xy(splits[0].dst)), PURPLE), "purple dot on a split hint"


def test_the_eval_bar_uses_blue_and_red(window):
    img = window.render()
    r = window.evalbar.rect
    assert close(pixel(img, r.x + 6, r.y + 3), BLUE)
    assert close(pixel(img, r.right - 6, r.y + 3), RED)
