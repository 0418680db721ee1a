"""Issue 25, item 9: the layout holds at every size by itself (no window manager enforces a
minimum): at 640x480 up to 2560x1440, and at a HiDPI pixel ratio of 2, nothing the window
shows overlaps anything else or leaves the window, every text fits its box, and the board is
centred in the space left for it. Both built-in games, with their panels in several states."""

from __future__ import annotations

import pytest

from pegboard.plugins.manager import Plugins
from pegboard.ui import theme
from pegboard.ui.rect import Rect
from pegboard.ui.settings import MemorySettings
from pegboard.ui.widgets import Button, Label, text_width

pytestmark = pytest.mark.gui

SIZES = [(640, 480, 1), (800, 600, 1), (1280, 800, 1), (1920, 1080, 1), (2560, 1440, 1), (1280, 960, 2), (2560, 1600, 2)]
LONG_NOTICE = ("Showing the position after move 3. North (Skill 100) is paused: press Resume bot or play its "
               "move yourself.")


def overlap(a: Rect, b: Rect) -> float:
    w = min(a.right, b.right) - max(a.x, b.x)
    h = min(a.top, b.top) - max(a.y, b.y)
    return w * h if w > 0.5 and h > 0.5 else 0.0


def check_layout(window, what: str) -> int:
    """Assert the layout rules for what the window shows now; returns how many things it checked."""
    width, height = window.layout_size
    window.render()  # the labels as pyglet laid them out
    found = window.layout_rects()
    for name, r, widget in found:
        assert r.width >= 0 and r.height >= 0, f"{what}: {name} has a negative size"
        assert r.x >= -0.5 and r.y >= -0.5 and r.right <= width + 0.5 and r.top <= height + 0.5, \
            f"{what}: {name} {r} leaves the {width}x{height} window"
        if isinstance(widget, Label) and widget.text:
            if widget.wrap:
                drawn = widget._items[0].content_height  # what pyglet's multiline label takes
                assert drawn <= r.height + 1, f"{what}: {name}'s text needs {drawn:.0f} px, has {r.height:.0f}"
        if isinstance(widget, Button):
            content = text_width(widget.shown_text()) + (theme.ICON_SIZE if widget.icon else 0)
            assert content <= r.width, f"{what}: {name}'s label is cut off"
    for i, (name_a, a, _wa) in enumerate(found):
        for name_b, b, _wb in found[i + 1 :]:
            assert not overlap(a, b), f"{what}: {name_a} {a} overlaps {name_b} {b}"
    return len(found)


def centred(window, what: str) -> None:
    board, area = window.board.board_rect(), window.board_area
    panel = getattr(window.board, "panel_rect", None)
    right = panel.x if panel is not None else area.right
    space = Rect(area.x, area.y, right - area.x, area.height)
    assert abs(board.center[0] - space.center[0]) <= 6, f"{what}: the board is off centre sideways"
    above, below = space.top - board.top, board.y - space.y
    assert board.width >= 0.9 * space.width - 12 or board.height >= 0.75 * space.height, \
        f"{what}: the board does not fill its space"
    assert abs(above - below) <= 60, f"{what}: the board is off centre, {above:.0f} px above, {below:.0f} below"


@pytest.fixture
def open_game(opened):
    from pegboard.ui import make_session, open_window

    def make(game: str, ruleset: str | None, width: int, height: int, scale: float):
        plugins = Plugins()
        store = MemorySettings()
        store.set_setting("starfall", "welcomed", True)
        store.set_setting("starfall", "timers", True)  # Starfall's clock line in the panel
        session = make_session(game, ruleset, ["human", "human"], plugins, seed=5, threaded=False)
        window = open_window(session, plugins, width=width, height=height, schedule=False, settings_store=store,
                             ui_scale=scale)
        opened.append(window)
        return window

    return make


@pytest.mark.parametrize("width,height,scale", SIZES)
def test_node_war_holds_its_layout(open_game, width, height, scale):
    w = open_game("nodewar", None, width, height, scale)
    assert w.layout_size == (round(width / scale), round(height / scale))
    checked = 0
    for history in (False, True):
        if w.show_history != history:
            w.toggle_history()
        w.say(LONG_NOTICE)
        what = f"Node War {width}x{height}@{scale} history={history}"
        checked += check_layout(w, what)
        centred(w, what)
        w.render()
    assert checked >= 2 * 10


@pytest.mark.parametrize("width,height,scale", SIZES)
def test_starfall_holds_its_layout_with_its_panel_in_every_state(open_game, width, height, scale):
    w = open_game("starfall", None, width, height, scale)
    view, st = w.board, w.session.state
    assert w.session.clock is not None, "the clock line is on"
    checked = 0
    drones = [sq for sq in range(st.geo.size) if st.kind[sq] and st.side[sq] == view.me]
    assert len(drones) >= 3
    most = 0
    for history in (False, True):
        if w.show_history != history:
            w.toggle_history()
        what = f"Starfall {width}x{height}@{scale} history={history}"
        checked += check_layout(w, what + " nothing selected")
        centred(w, what)
        for sq in drones:  # each of your drones: its description and action buttons in the panel
            w.click(*view.painter.center(sq))
            most = max(most, sum(1 for x in view.panel_widgets() if isinstance(x, Button)))
            checked += check_layout(w, f"{what} drone on {sq}")
            w.press(pyglet_escape())
        w.render()
    assert most >= 3, "some drone offers at least two actions and Cancel"
    assert checked >= 2 * (len(drones) + 1) * 12


def test_the_starfall_title_is_whole_at_800x600(open_game):
    w = open_game("starfall", None, 800, 600, 1)
    title = w.board.title
    assert title.text.startswith("Starfall")
    shown = title.text if title.wrap else None
    assert shown == title.text or text_width(title.text, title.size, bold=True) <= title.rect.width


def pyglet_escape() -> int:
    from pyglet.window import key

    return key.ESCAPE


def test_the_history_folds_away_when_the_window_narrows_until_the_person_chooses(open_game):
    w = open_game("nodewar", None, 1280, 800, 1)
    assert w.show_history and w.history.visible
    w.send("on_resize", 800, 600)
    assert not w.history.visible, "folded away at 800x600"
    w.send("on_resize", 1280, 800)
    assert w.history.visible, "back in a wide window"
    w.send("on_resize", 800, 600)
    w.click_widget(w.buttons["history"])
    assert w.history.visible, "the History button brings it back"
    w.send("on_resize", 640, 480)
    assert w.history.visible, "and the person's choice holds"
    assert check_layout(w, "Node War 640x480 with the History asked for") >= 5
