"""Node War's board in the real (headless) window: every hint kind, outlines, colours, read back as pixels.

The position is ``nodewar_positions.HINTS`` (see there for what it contains).
"""

from __future__ import annotations

import math

import pytest

from pegboard.plugins.manager import Plugins
from support import nodewar_positions as pos

pytestmark = pytest.mark.gui

BLUE, RED = (59, 130, 246), (239, 68, 68)
DARK_BLUE, DARK_RED = (0x1D, 0x4E, 0xD8), (0xB9, 0x1C, 0x1C)
GREEN, PURPLE, ORANGE, GOLD = (34, 197, 94), (168, 85, 247), (249, 115, 22), (253, 230, 138)
WHITE = (255, 255, 255)


@pytest.fixture(scope="module")
def plugins():
    return Plugins()


@pytest.fixture
def window(plugins):
    from pegboard.ui import make_session, open_window
    from pegboard_nodewar.view import NodeWarView

    session = make_session("nodewar", "standard", ["human", "human"], plugins, threaded=False)
    win = open_window(session, plugins, schedule=False)
    assert isinstance(win.board, NodeWarView)
    pos.load(session)
    win.tick(0.03)
    yield win
    win.close()


def pixel(image, x: float, y: float) -> tuple[int, int, int]:
    data = image.get_data("RGBA", image.width * 4)
    i = (int(round(y)) * image.width + int(round(x))) * 4
    return tuple(data[i : i + 3])


def near(a, b, tol=6) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


def at(window, xy: tuple[int, int]) -> tuple[float, float]:
    """Window coordinates of lattice point ``xy``."""
    return window.board.point_xy(window.session.game.point(*xy))


def around(window, xy: tuple[int, int], radius: float, degrees: float) -> tuple[float, float]:
    x, y = at(window, xy)
    return x + radius * math.cos(math.radians(degrees)), y + radius * math.sin(math.radians(degrees))


def click(window, xy: tuple[int, int]) -> None:
    window.click(*at(window, xy))


def test_a_selected_node_shows_every_hint_kind_and_its_links(window, tmp_path):
    view, game = window.board, window.session.game
    click(window, pos.SELECT)
    assert view.selected == game.point(*pos.SELECT)
    assert window.status.text.text.startswith("Node at 6,5: 2 of 4 branches used")
    kinds = {game.xy(q): m.kind for q, m in view._hints.items()}
    assert {kinds[p] for p in pos.LOOPS} == {"loop"} and kinds[pos.DEAD] == "revive"
    assert {kinds[p] for p in pos.SPLITS} == {"split"} and kinds[pos.GROW] == "grow"
    img = window.render()
    window.save_screenshot(tmp_path / "hints.png")
    cell = view.cell

    # dots sit on free points; rings around nodes (sampled where no line runs)
    assert near(pixel(img, *at(window, pos.GROW)), GREEN), "green dot: new node"
    for p in pos.SPLITS:
        assert near(pixel(img, *at(window, p)), PURPLE), f"purple dot: split at {p}"
    hint_ring = view.node_radius(game.point(4, 5)) + cell * 0.17
    assert near(pixel(img, *around(window, (4, 5), hint_ring, 0)), GREEN), "green ring: loop"
    assert near(pixel(img, *around(window, pos.DEAD, hint_ring, 0)), ORANGE), "orange ring: revive"
    select_ring = view.node_radius(game.point(*pos.SELECT)) + cell * 0.12
    assert near(pixel(img, *around(window, pos.SELECT, select_ring, 0)), GOLD), "pale gold selection ring"

    # linked nodes: the Base (live line) outlined all round, 6,8 (cut line only) dashed
    width = max(2.0, cell * 0.07)
    base = game.point(6, 2)
    base_outline = view.node_radius(base) + cell * 0.09 + width / 2
    for degrees in (-30, -55, -100, 200):  # dash and gap angles alike are orange on a solid outline
        assert near(pixel(img, *around(window, (6, 2), base_outline, degrees)), ORANGE), degrees
    dead_outline = view.node_radius(game.point(*pos.DEAD)) + width / 2
    assert near(pixel(img, *around(window, pos.DEAD, dead_outline, 12.5)), ORANGE), "a dash"
    assert not near(pixel(img, *around(window, pos.DEAD, dead_outline, 35)), ORANGE, 40), "a gap between dashes"
    assert view._linked(game.point(*pos.SELECT)) == {base: False, game.point(*pos.DEAD): True}

    # colours of the position itself
    assert near(pixel(img, *at(window, pos.DEAD)), DARK_BLUE, 0), "dead Blue node: #1d4ed8"
    assert near(pixel(img, *at(window, pos.FULL)), WHITE, 30), "white X on Red's full node"
    assert near(pixel(img, *at(window, (4, 5))), BLUE, 2), "alive Blue node"


def test_clicking_the_revive_ring_revives_and_cuts_and_a_dead_node_can_be_inspected(window, tmp_path):
    view, session, game = window.board, window.session, window.session.game
    click(window, pos.SELECT)
    click(window, pos.DEAD)
    assert session.cursor == 13 and session.history[-1].text == "revive 6,5 -> 6,8"
    img = window.render()
    assert near(pixel(img, *at(window, pos.DEAD)), BLUE, 2), "revived: alive Blue again"
    victim = game.point(*pos.RED_VICTIM)
    assert not session.state.alive[victim]
    assert near(pixel(img, *at(window, pos.RED_VICTIM)), DARK_RED, 0), "dead Red node: #b91c1c"

    # Red inspects its dead node: dull ring and dull dashed outline (its one line is cut), no hints
    from pegboard_nodewar.view import LINKED, SELECT, dull

    click(window, pos.RED_VICTIM)
    assert view.selected == victim and view._hints == {}
    assert window.status.text.text.startswith("Dead node at 5,6")
    img = window.render()
    window.save_screenshot(tmp_path / "inspect.png")
    ring = view.node_radius(victim) + view.cell * 0.12
    assert near(pixel(img, *around(window, pos.RED_VICTIM, ring, 180)), dull(SELECT)), "dull selection ring"
    width = max(2.0, view.cell * 0.07)
    outline = view.node_radius(game.point(7, 8)) + width / 2
    assert near(pixel(img, *around(window, (7, 8), outline, 12.5 + 90)), dull(LINKED)), "dull dashed outline"
    click(window, (6, 6))  # an empty point while inspecting: nothing is played, the status says why
    assert session.cursor == 13 and window.status.text.text.startswith("Dead nodes cannot act")


def test_clicks_that_cannot_be_played_change_nothing_and_say_why(window):
    session = window.session
    before = list(session.moves)
    click(window, pos.SELECT)
    click(window, (11, 5))  # beyond the node's reach
    assert "beyond the radius 3 of 6,5" in window.status.text.text
    click(window, (7, 8))  # Red's node
    assert window.status.text.text == "That is a Red node; select one of your own."
    click(window, pos.DEAD)  # a dead node of one's own is inspected, never played from
    click(window, (5, 10))
    assert window.status.text.text.startswith("Dead nodes cannot act")
    assert session.moves == before


def test_the_eval_bar_fills_from_the_left_for_blue_and_from_the_right_for_red(window, tmp_path):
    session = window.session

    def check(expect_blue_ahead: bool) -> None:
        img = window.render()
        bar, score = window.evalbar.rect, window.evalbar.evaluation.score
        assert (score > 0) == expect_blue_ahead
        split = bar.x + bar.width * window.evalbar.fraction
        assert (split > bar.x + bar.width / 2) == expect_blue_ahead
        for f in (0.03, 0.2, 0.4, 0.6, 0.8, 0.97):
            x = bar.x + bar.width * f
            if abs(x - split) > 3:
                want = BLUE if x < split else RED
                assert near(pixel(img, x, bar.y + 2), want), (f, score)

    assert window.evalbar.scale == 60.0, "the bar is scaled by the Node War evaluator's own scale"
    check(expect_blue_ahead=False)  # Red just cut Blue's line
    assert 0.05 < window.evalbar.fraction < 0.5, "a lost line leaves Red ahead, not the bar pinned to one end"
    window.jump(3)  # Blue has grown twice, Red once
    check(expect_blue_ahead=True)
    window.save_screenshot(tmp_path / "ahead.png")
    assert session.cursor == 3


def test_right_click_clears_the_selection(window):
    from pyglet.window import mouse

    click(window, pos.SELECT)
    assert window.board.selected is not None and window.board._hints
    window.click(*at(window, pos.GROW), button=mouse.RIGHT)
    assert window.board.selected is None and window.session.cursor == 12, "a right click never plays a hint"


def test_the_eval_bar_opens_the_fourteen_term_breakdown(window, tmp_path):
    from pegboard.ui import theme

    window.click_widget(window.evalbar)
    panel = window.breakdown
    assert panel.visible
    names = [t.name.replace("_", " ") for t in panel.evaluation.terms]
    assert names == ["alive nodes", "dead nodes", "base siege", "mobility", "loop redundancy", "free base slots",
                     "front line advance", "centre line", "wide network", "flank watch", "weak points",
                     "siege presence", "opening rush", "base room"]
    assert "heuristic" in panel.note.text and "not a search" in panel.note.text
    img = window.render()
    window.save_screenshot(tmp_path / "breakdown.png")
    r = panel.rect
    assert r.height >= panel.wanted_height() and r.top <= window.height - theme.TOP_BAR_HEIGHT
    assert near(pixel(img, r.x + 6, r.y + r.height / 2), theme.PANEL)
    window.click(*at(window, (0, 0)))  # a click elsewhere closes it (and does nothing else)
    assert not panel.visible and window.board.selected is None and window.session.cursor == 12


def test_live_lines_glow_and_lines_of_a_dead_network_do_not(window):
    from pegboard.ui import theme

    img = window.render()
    view = window.board
    glow_at = max(2.0, view.cell * 0.09) / 2 + 2  # beside the line, inside its glow band
    (ax, ay), (bx, by) = at(window, (6, 2)), at(window, (6, 5))
    mid = ((ax + bx) / 2, (ay + by) / 2)
    assert near(pixel(img, *mid), BLUE, 0), "a live line in the team colour"
    beside = pixel(img, mid[0] + glow_at, mid[1])
    assert not near(beside, theme.BOARD_BACKGROUND, 6), "with a glow"
    assert all(b <= c for b, c in zip(beside, BLUE, strict=True)) and beside[2] > beside[0] + 30, "a faint blue band"

    (ax, ay), (bx, by) = (at(window, p) for p in pos.DEAD_LINE)
    mid = ((ax + bx) / 2, (ay + by) / 2)
    length = math.hypot(bx - ax, by - ay)
    nx, ny = -(by - ay) / length, (bx - ax) / length  # unit normal
    assert near(pixel(img, *mid), DARK_BLUE, 0), "a line between dead nodes in the dark team colour"
    assert near(pixel(img, mid[0] + nx * glow_at, mid[1] + ny * glow_at), theme.BOARD_BACKGROUND, 6), "no glow"
