"""Drive the real match window headless: synthetic input, rendered frames, pixels read back."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pegboard.ui import theme
from support import gridtoy
from support.gridtoy import GateBot, ToyPlugin
from support.windows import close, pixel

pytestmark = pytest.mark.gui


@pytest.fixture
def plugins():
    return gridtoy.make_plugins()


@pytest.fixture
def window_factory(plugins):
    """``window_factory(seats, ruleset=None, width=1280, height=800, threaded=False)`` -> MatchWindow."""
    from pegboard.ui import make_session, open_window

    made = []

    def make(seats=("human", "human"), ruleset=None, width=1280, height=800, threaded=False, plugins=plugins):
        session = make_session("gridtoy", ruleset, list(seats), plugins, threaded=threaded)
        window = open_window(session, plugins, width=width, height=height, schedule=False)
        made.append(window)
        return window

    yield make
    for window in made:
        if not window.has_exit:
            window.close()


def click_cell(window, x: int, y: int) -> None:
    cx, cy = window.board.cell_center(window.session.game.cell(x, y))
    window.click(cx, cy)
    window.tick(0.03)


def snap(window, tmp_path: Path, name: str):
    window.save_screenshot(tmp_path / f"{name}.png")
    return window.render()


# -- drawing and the evaluation bar ---------------------------------------------------------------


def test_the_window_draws_the_board_bars_and_stones(window_factory, tmp_path):
    w = window_factory()
    click_cell(w, 2, 2)
    img = snap(w, tmp_path, "main")
    assert (tmp_path / "main.png").stat().st_size > 1000
    cx, cy = w.board.cell_center(w.session.game.cell(2, 2))
    assert close(pixel(img, cx, cy), (30, 30, 30)), "Black's stone is drawn where it was played"
    assert close(pixel(img, 4, w.height - 40), theme.BAR), "top bar"
    assert close(pixel(img, w.width - 4, 4), theme.BAR), "status line"


def bar_pixels(w, img):
    r = w.evalbar.rect
    y = r.y + 3  # under the centred score label
    return pixel(img, r.x + r.width * 0.04, y), pixel(img, r.x + r.width * 0.3, y), pixel(img, r.right - r.width * 0.04, y)


def test_eval_bar_fills_from_the_left_for_seat_0_and_from_the_right_for_seat_1(window_factory, tmp_path):
    black, white = (20, 20, 20), (235, 235, 235)
    w = window_factory()
    for x, y in ((2, 2), (0, 0), (3, 2), (5, 0)):  # Black holds the centre: good for seat 0
        click_cell(w, x, y)
    assert w.evalbar.evaluation.score > 0
    left, mid_left, right = bar_pixels(w, snap(w, tmp_path, "eval_black"))
    assert close(left, black) and close(mid_left, black) and close(right, white)
    w.session.restart()
    for x, y in ((0, 0), (2, 2), (5, 4), (3, 2)):  # now White holds it
        click_cell(w, x, y)
    assert w.evalbar.evaluation.score < 0
    left, mid_left, right = bar_pixels(w, snap(w, tmp_path, "eval_white"))
    assert close(left, black) and close(mid_left, white) and close(right, white)


def test_clicking_the_eval_bar_opens_the_breakdown_of_every_term(window_factory, tmp_path):
    w = window_factory()
    click_cell(w, 2, 2)
    w.click_widget(w.evalbar)
    assert w.breakdown.visible
    names = [t.name for t in w.breakdown.evaluation.terms]  # every term is listed
    assert names == ["stones", "centre"]
    img = snap(w, tmp_path, "breakdown")
    r = w.breakdown.rect
    assert close(pixel(img, r.x + 6, r.y + r.height / 2), theme.PANEL)
    assert "heuristic" in w.breakdown.note.text
    w.click_widget(w.evalbar)
    assert not w.breakdown.visible


def test_hovering_a_button_highlights_it(window_factory, tmp_path):
    w = window_factory()
    button = w.buttons["customize"]
    x, y = button.rect.x + 6, button.rect.y + button.rect.height / 2
    assert close(pixel(w.render(), x, y), theme.BUTTON)
    w.send("on_mouse_motion", button.rect.center[0], button.rect.center[1], 0, 0)
    assert close(pixel(snap(w, tmp_path, "hover"), x, y), theme.BUTTON_HOVER)
    assert w.tip.startswith("Customize: who plays"), "the hovered button's tooltip is up next"
    assert close(pixel(w.render(), w.buttons["undo"].rect.x + 6, y), theme.BUTTON_DISABLED), "nothing to undo yet"


# -- moves, undo, redo, history ------------------------------------------------------------------------


def test_undo_and_redo_keyboard_shortcuts_against_a_bot(window_factory):
    from pyglet.window import key

    w = window_factory(("human", "first"))
    click_cell(w, 3, 3)
    w.tick(0.03)
    assert w.session.cursor == 2
    w.press(key.Z, key.MOD_CTRL)
    assert w.session.cursor == 0 and w.session.bots_paused
    assert "paused" in w.status.text.text
    w.press(key.Y, key.MOD_CTRL)
    assert w.session.cursor == 2
    w.press(key.Z, key.MOD_CTRL)
    w.press(key.Z, key.MOD_CTRL | key.MOD_SHIFT)
    assert w.session.cursor == 2
    w.press(key.ESCAPE)
    assert not w.has_exit, "Escape never closes the window"


def test_a_click_that_cannot_be_played_says_why(window_factory):
    w = window_factory()
    click_cell(w, 1, 1)
    click_cell(w, 1, 1)
    assert w.session.cursor == 1
    assert w.status.text.text == "b2 is taken (rule occupied).", "a sentence naming the rule; the square keeps its notation"


def test_history_lists_every_move_and_a_click_jumps(window_factory, tmp_path):
    w = window_factory()
    for x in range(3):
        click_cell(w, x, 4)
    rows = w.history.list.rows
    assert rows == ["Start", "1 Black a5", "2 White b5", "3 Black c5"]
    cx, cy = w.history.list.row_rect(1).center
    w.click(cx, cy)
    assert w.session.cursor == 1 and len(w.session.history) == 3
    img = snap(w, tmp_path, "history")
    assert close(pixel(img, w.history.list.row_rect(1).x + 3, cy), theme.ROW_CURRENT)
    w.click_widget(w.buttons["history"])
    assert not w.history.visible and w.board_area.width > 1100


def test_resume_bot_after_undo(window_factory):
    w = window_factory(("human", "first"))
    click_cell(w, 0, 0)
    w.tick(0.03)
    w.session.jump(1)
    w.tick(0.03)
    assert w.session.cursor == 1 and w.buttons["resume"].enabled
    w.click_widget(w.buttons["resume"])
    w.tick(0.03)
    assert w.session.cursor == 2 and not w.buttons["resume"].enabled


# -- dialogs --------------------------------------------------------------------------------------------


def test_customize_apply_keeps_the_game_and_start_new_game_switches_ruleset(window_factory, tmp_path):
    w = window_factory()
    click_cell(w, 0, 0)
    before = pixel(w.render(), w.board_area.x + 5, w.board_area.y + 5)
    w.click_widget(w.buttons["customize"])
    dialog = w.dialog
    assert dialog is not None and dialog.title == "Customize"
    after = pixel(snap(w, tmp_path, "customize"), w.board_area.x + 5, w.board_area.y + 5)
    assert sum(after) < sum(before), "the window is dimmed under the dialog"
    white = dialog.choices[1]
    ids = [o[0] for o in dialog.options]
    assert ids[0] == "human" and {"dice", "first", "random"} <= set(ids), "Player and every bot of the game"
    w.click_widget(white.next)  # Player -> the first bot
    assert dialog.seat_ids()[1] == ids[1] and white.value.text == dialog.options[1][1]
    while dialog.seat_ids()[1] != "dice":
        w.click_widget(white.next)
    w.click_widget(dialog.apply_button)
    assert w.dialog is None
    assert w.session.seats[1].id == "dice" and w.session.cursor >= 1
    assert w.session.moves[0] == 0, "Apply kept the game"

    w.click_widget(w.buttons["customize"])
    dialog = w.dialog
    w.click_widget(dialog.choices[1].prev)  # another bot: a change
    other = dialog.seat_ids()[1]
    assert other != "dice"
    tiny_row = [r.id for r in dialog.rulesets].index("tiny")
    w.click(*dialog.ruleset_list.row_rect(tiny_row).center)
    assert not dialog.apply_button.enabled and "new game" in dialog.note.text
    w.click_widget(dialog.new_button)
    assert w.session.game.width == 3 and w.session.cursor == 0
    assert w.board.toy is w.session.game, "a new board view for the new ruleset"
    assert w.session.seats[1].id == other


def test_end_of_game_dialog_offers_the_extension(window_factory, tmp_path):
    w = window_factory(ruleset="tiny")
    for x, y in ((0, 0), (1, 0), (2, 1), (0, 1)):
        click_cell(w, x, y)
    dialog = w.dialog
    assert dialog is not None and dialog.title == "Draw"
    assert dialog.extend_button.text == "Play 2 more turns"
    snap(w, tmp_path, "end")
    w.click_widget(dialog.extend_button)
    assert w.dialog is None and not w.session.is_over
    click_cell(w, 2, 2)
    click_cell(w, 1, 1)
    assert w.dialog is not None
    w.click_widget(w.dialog.new_button)
    assert w.session.cursor == 0 and not w.session.is_over


def test_export_then_import_through_the_file_dialog(window_factory, tmp_path):
    from pyglet.window import key

    w = window_factory()
    for x, y in ((0, 0), (1, 1), (2, 2)):
        click_cell(w, x, y)
    w.click_widget(w.buttons["export"])
    dialog = w.dialog
    dialog.input.set_text(str(tmp_path) + os.sep)
    dialog.show_folder(tmp_path)
    dialog.input.set_text(str(tmp_path) + os.sep)
    w.type_text("match.txt")  # typed into the focused path field
    snap(w, tmp_path, "export")
    w.press(key.ENTER)
    assert w.dialog is None
    saved = tmp_path / "match.txt"
    assert saved.read_text().splitlines()[2:] == ["1 Black a1", "2 White b2", "3 Black c3"]

    w.session.restart()
    w.tick(0.03)
    w.click_widget(w.buttons["import"])
    dialog = w.dialog
    dialog.show_folder(tmp_path)
    row = [p.name for p in dialog.entries].index("match.txt")
    w.click(*dialog.list.row_rect(row).center)
    assert dialog.input.text == str(saved)
    w.click_widget(dialog.ok_button)
    offer = w.dialog  # an unfinished game: play on, or review it (tests/gui/test_review.py)
    assert offer is not None and offer.title == "Game imported" and offer.no_button.text == "Play on"
    w.click_widget(offer.no_button)
    assert w.dialog is None and w.reviewing is None
    assert [r.text for r in w.session.history] == ["a1", "b2", "c3"]
    assert w.session.bots_paused and "Imported 3 moves" in w.status.text.text


def test_export_asks_before_replacing_an_existing_file(window_factory, tmp_path):
    w = window_factory()
    click_cell(w, 0, 0)
    target = tmp_path / "keep.txt"
    target.write_text("my notes\n")
    w.open_export(folder=tmp_path)
    w.dialog.input.set_text(str(target))
    w.click_widget(w.dialog.ok_button)
    assert w.dialog is not None and "already exists" in w.dialog.note.text
    assert target.read_text() == "my notes\n", "the first Save never touches an existing file"
    w.click_widget(w.dialog.ok_button)
    assert w.dialog is None
    assert target.read_text().splitlines()[-1] == "1 Black a1"


def test_a_bad_import_shows_the_line_and_reason_and_keeps_the_game(window_factory, tmp_path):
    w = window_factory()
    click_cell(w, 4, 4)
    bad = tmp_path / "bad.txt"
    bad.write_text("# ruleset: standard\n1 Black a1\n2 White a1\n")
    w.open_import(folder=tmp_path)
    w.dialog.input.set_text(str(bad))
    w.click_widget(w.dialog.ok_button)
    dialog = w.dialog
    assert dialog is not None and dialog.title == "Import failed"
    assert "line 3" in dialog.message.text and "a1 is taken" in dialog.message.text
    img = snap(w, tmp_path, "import_error")
    assert close(pixel(img, dialog.rect.x + 4, dialog.rect.y + dialog.rect.height / 2), theme.PANEL)
    assert w.session.cursor == 1 and w.session.moves == [w.session.game.cell(4, 4)]
    w.click_widget(dialog.ok)
    assert w.dialog is None


def test_file_dialog_lists_folders_and_navigates(window_factory, tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "inner.txt").write_text("")
    (tmp_path / "other.png").write_text("")
    (tmp_path / "game.txt").write_text("")
    w = window_factory()
    dialog = w.open_import(folder=tmp_path)
    assert dialog.list.rows == ["↑  ..", "›  sub/", "   game.txt"], "filtered by suffix, folders first"
    w.click(*dialog.list.row_rect(1).center)
    assert dialog.folder == tmp_path / "sub" and dialog.list.rows[-1].strip() == "inner.txt"
    w.click(*dialog.list.row_rect(0).center)
    assert dialog.folder == tmp_path
    dialog.input.set_text(str(tmp_path / "missing.txt"))
    dialog.accept()
    assert "No such file" in dialog.note.text and w.dialog is dialog


# -- bots in the background -------------------------------------------------------------------------------


def test_a_bot_thinks_in_the_background_while_the_window_keeps_drawing(window_factory, tmp_path):
    GateBot.gate.clear()
    w = window_factory(("human", "gate"), threaded=True)
    try:
        click_cell(w, 2, 2)
        for _ in range(5):
            w.tick(0.05)
            img = w.render()  # frames keep coming while the bot is blocked
        assert w.session.thinking == 1
        assert "thinking" in w.status.text.text
        snap(w, tmp_path, "thinking")
        dots = [pixel(img, w.status.rect.x + 14 + i * 10, w.status.rect.y + w.status.rect.height / 2) for i in range(3)]
        assert any(close(d, theme.TEXT_WARN, 20) for d in dots), "the thinking indicator is drawn"
        GateBot.gate.set()
        assert w.session.wait_for_bot(10)
        w.tick(0.05)
        assert w.session.cursor == 2 and w.session.thinking is None
        img = w.render()
        dots = [pixel(img, w.status.rect.x + 14 + i * 10, w.status.rect.y + w.status.rect.height / 2) for i in range(3)]
        assert not any(close(d, theme.TEXT_WARN, 40) for d in dots)
    finally:
        GateBot.gate.set()


# -- sizes, fallbacks, launching --------------------------------------------------------------------------


def test_the_window_stays_usable_at_800x600(window_factory, tmp_path):
    w = window_factory(width=800, height=600)
    snap(w, tmp_path, "small")
    buttons = list(w.buttons.values())
    assert all(b.compact for b in buttons) and len(buttons) >= 8
    for a, b in itertools.pairwise(buttons):
        assert a.rect.right <= b.rect.x
    assert buttons[-1].rect.right < w.evalbar.rect.x and w.evalbar.rect.right <= 800
    assert w.board_area.width > 500 and w.board_area.height > 450
    click_cell(w, 0, 0)
    assert w.session.cursor == 1


def test_a_game_without_a_renderer_gets_a_move_list(tmp_path):
    from pegboard.plugins.manager import Plugins
    from pegboard.ui import make_session, open_window
    from pegboard.ui.board import MoveListView

    plugins = Plugins(load_entry_points=False)
    plugin = ToyPlugin()
    plugin.pegboard_renderers = lambda game: []  # type: ignore[method-assign]
    plugins.register(plugin, name="toy-bare")
    session = make_session("gridtoy", None, ["human", "human"], plugins, threaded=False)
    w = open_window(session, plugins, schedule=False)
    try:
        assert isinstance(w.board, MoveListView)
        first = w.board.list.row_rect(0)
        w.click(*first.center)
        assert session.cursor == 1
        w.save_screenshot(tmp_path / "movelist.png")
    finally:
        w.close()


def test_launch_without_a_display_is_one_clear_error():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "PYGLET_HEADLESS")}
    code = (
        "from pegboard.ui import DisplayUnavailable, launch\n"
        "try:\n"
        "    launch('nodewar', 'standard', ['human', 'human'])\n"
        "except DisplayUnavailable as exc:\n"
        "    print('UNAVAILABLE', exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.stdout.startswith("UNAVAILABLE cannot open a window"), out.stdout + out.stderr
    assert "display" in out.stdout.lower()


def test_clocks_show_in_the_status_line(plugins):
    from pegboard.match.session import ClockSettings, Session
    from pegboard.ui import open_window
    from support.gridtoy import ToyGame, load_ruleset

    now = [0.0]
    session = Session(ToyGame(load_ruleset("tiny")), ["human", "human"], plugins=plugins, threaded=False,
                      clock=ClockSettings(total=90, per_move=30), time_source=lambda: now[0])
    w = open_window(session, plugins, schedule=False)
    try:
        now[0] = 12.2
        w.tick(0.03)
        assert w.status.clocks.text == "Black 1:18 · White 1:30 · move 0:18"
        now[0] = 31
        w.tick(0.03)  # Black's move timer ran out: the toy passes
        assert session.history[-1].by == "timeout"
        assert w.status.clocks.text == "Black 1:00 · White 1:29 · move 0:29"  # White started at t=30
    finally:
        w.close()


def test_h_toggles_move_hints(window_factory):
    from pyglet.window import key

    w = window_factory()
    cx, cy = w.board.cell_center(0)
    green = (34, 197, 94)
    assert close(pixel(w.render(), cx, cy), green)
    w.press(key.H)
    assert not w.board.hints and not close(pixel(w.render(), cx, cy), green)


def test_a_failing_bot_is_reported_in_the_status_line(window_factory):
    w = window_factory(("human", "crash"))
    click_cell(w, 0, 0)
    w.tick(0.03)
    assert "White (Crash) failed: RuntimeError: boom" in w.status.text.text
    assert w.buttons["resume"].enabled


def test_launch_runs_the_event_loop_until_the_window_closes():
    code = (
        "import os\n"
        "os.environ['PYGLET_HEADLESS'] = '1'\n"
        "import time, pyglet\n"
        "from pegboard.ui import launch\n"
        "start = time.monotonic()\n"
        "seen = []\n"
        "def check(dt):\n"
        "    for w in list(pyglet.app.windows):\n"
        "        if w.session.cursor >= 2 or time.monotonic() - start > 60:\n"
        "            seen.append(w.session.cursor)\n"
        "            w.close()\n"
        "pyglet.clock.schedule_interval(check, 0.05)\n"
        "print('EXIT', launch('nodewar', 'standard', ['random', 'random']), seen)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    exit_line = out.stdout.strip().splitlines()[-1]
    assert exit_line.startswith("EXIT 0 [") and int(exit_line.split("[")[1].rstrip("]")) >= 2, out.stdout


def test_a_resize_lays_everything_out_again(window_factory):
    w = window_factory()
    w.send("on_resize", 900, 640)
    assert w.top.rect.top == 640 and w.status.rect.width == 900
    assert w.board.area == w.board_area and w.board_area.right <= 900
    assert w.buttons["new"].rect.right < w.evalbar.rect.x
    w.send("on_resize", 1280, 800)
    assert w.board.area.height > 600
