"""Issue 27, item 4: Review in the window, headless, driven by synthetic clicks and keys.

The end screen and an import open a review; the evaluation graph fills one position per frame
(inline workers: a frame costs one position's work budget) or in a forked process while the
frame loop goes on; ←/→/Home/End and clicks or drags on the graph move the ply shown; History
marks the marked moves; Node War and Starfall draw the better move, Connect Four (no code of
its own) draws nothing and still reviews; an unfinished game under fog is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pyglet import shapes
from pyglet.window import key

from pegboard.analysis.winchance import MARK_GLYPHS
from pegboard.plugins.manager import Plugins
from pegboard.ui import theme
from pegboard.ui.settings import MemorySettings

pytestmark = pytest.mark.gui

BUDGET = 40  # analysis nodes per position: a whole review in well under a second
CONNECT4 = Path(__file__).resolve().parents[2] / "plugins" / "examples" / "connect4" / "pegboard_connect4"


@pytest.fixture(scope="module")
def plugins() -> Plugins:
    return Plugins()


def window_for(opened: list[Any], plugins: Any, game: str, ruleset: str, seats: list[str], *, seed: int = 1,
               workers: str = "inline") -> Any:
    from pegboard.ui import make_session, open_window

    session = make_session(game, ruleset, seats, plugins, seed=seed, workers=workers)
    settings = MemorySettings()
    settings.set_setting("starfall", "welcomed", True)  # no first-launch welcome over the board
    settings.set_setting("starfall", "rules", ruleset)  # the rules Starfall's view starts the session with
    window = open_window(session, plugins, schedule=False, settings_store=settings)
    window.review_budget = BUDGET
    opened.append(window)
    return window


def finished(opened: list[Any], plugins: Any, game: str = "nodewar", ruleset: str = "skirmish", seed: int = 1) -> Any:
    """A window whose bots have just finished a game: the end screen is up."""
    w = window_for(opened, plugins, game, ruleset, ["random", "random"], seed=seed)
    w.session.run_bots()
    assert w.session.is_over and w.dialog is not None and w.dialog.title
    return w


def review_from_end_screen(w: Any) -> None:
    end = w.dialog
    button = next(b for b in end.buttons if b.text == "Review")
    w.click_widget(button)
    assert w.dialog is None and w.reviewing is not None and w.graph.visible


def run_review(w: Any, limit: int = 2000) -> int:
    """Frames until the analysis is done; returns how many."""
    frames = 0
    while w.reviewing.runner.running:
        w.tick(1 / 60)
        frames += 1
        assert frames <= limit, "the review never finished"
    return frames


def changed_pixels(a: Any, b: Any, rect: Any) -> int:
    """How many pixels inside ``rect`` (layout pixels, scale 1) differ between two frames."""
    da, db = a.get_data("RGBA", a.width * 4), b.get_data("RGBA", b.width * 4)
    count = 0
    for y in range(max(0, int(rect.y)), min(a.height, int(rect.top))):
        row = y * a.width * 4
        for x in range(max(0, int(rect.x)), min(a.width, int(rect.right))):
            i = row + x * 4
            if da[i : i + 3] != db[i : i + 3]:
                count += 1
    return count


def marked_ply(w: Any) -> int:
    """A marked move whose better move the board can draw."""
    marks = w.reviewing.marks()
    plies = [n for n in sorted(marks) if w.reviewing.better_move(n) is not None]
    assert plies, f"the game has marked moves with a better one: {marks}"
    return plies[0]


# -- the end screen, the graph, the keys --------------------------------------------------------------------


def test_review_opens_from_the_end_screen_and_fills_the_graph_one_position_per_frame(opened, plugins):
    w = finished(opened, plugins)
    s = w.session
    moves, normal_area = len(s.history), w.board_area
    review_from_end_screen(w)
    assert w.board_area.height < normal_area.height, "the graph takes room under the board"
    assert w.graph.rect.top <= w.board_area.y and w.graph.rect.y >= w.status.rect.top
    names = [name for name, _rect, _w in w.layout_rects()]
    assert "evaluation graph" in names
    assert w.graph.header == f"Analysing 0/{moves + 1}"
    known = []
    for _ in range(5):  # each frame judges one position (its work budget) and returns
        w.tick(1 / 60)
        known.append(sum(c is not None for c in w.graph.curve))
        w.render()  # the window keeps drawing mid-analysis
    assert known == [1, 2, 3, 4, 5]
    assert w.graph.header == f"Analysing 5/{moves + 1}"
    assert w.reviewing.runner.running
    frames = run_review(w)
    assert frames == moves + 1 - 5
    assert all(c is not None for c in w.graph.curve) and len(w.graph.curve) == moves + 1
    assert w.graph.header.startswith("Accuracy: Blue ") and "Red " in w.graph.header
    assert s.cursor == moves and w.status.text.text.startswith(f"Move {moves} of {moves}")
    w.render()
    plot, checked = w.graph.plot_rect(), 0
    for _look, items in w.graph.plot._plies.values():  # every ply's bar stays inside the plot
        for item in items:
            if isinstance(item, shapes.Rectangle):
                assert plot.x - 0.01 <= item.x and item.x + item.width <= plot.right + 0.01, (item.x, item.width, plot)
                checked += 1
    assert checked >= moves // 2


def test_arrow_keys_home_end_and_the_graph_move_the_shown_ply(opened, plugins):
    w = finished(opened, plugins)
    s = w.session
    end = len(s.history)
    review_from_end_screen(w)
    run_review(w)
    w.press(key.LEFT)
    assert s.cursor == end - 1 and w.graph.cursor == end - 1
    w.press(key.RIGHT)
    w.press(key.RIGHT)  # already at the end: stays
    assert s.cursor == end
    w.press(key.HOME)
    assert s.cursor == 0 and w.status.text.text.startswith("Review: the start position")
    w.press(key.RIGHT)
    assert s.cursor == 1 and w.status.text.text.startswith("Move 1 of")
    w.press(key.END)
    assert s.cursor == end
    plot = w.graph.plot_rect()
    w.click(w.graph.x_of(30), plot.y + plot.height / 2)
    assert s.cursor == 30 and w.graph.cursor == 30
    x0, x1, y = w.graph.x_of(10), w.graph.x_of(55), plot.y + 5
    w.send("on_mouse_press", x0, y, 1, 0)
    assert s.cursor == 10
    w.send("on_mouse_drag", (x0 + x1) / 2, y, 1, 0, 1, 0)
    w.send("on_mouse_drag", x1, y, 1, 0, 1, 0)
    assert s.cursor == 55, "a drag along the graph follows the pointer"
    w.send("on_mouse_release", x1, y, 1, 0)
    assert not w.graph.dragging
    before = len(s.history)
    w.click(*w.board.point_xy(s.state.order[0]))  # the board shows a past position: a click plays nothing
    assert len(s.history) == before and s.cursor == 55 and w.dialog is None
    w.click_widget(w.graph.close_button)
    assert w.reviewing is None and s.cursor == end, "Close review leaves, back at the end"


def test_history_marks_the_marked_moves_and_leaving_returns_to_the_finished_game(opened, plugins):
    w = finished(opened, plugins)
    s = w.session
    normal_area = w.board_area
    review_from_end_screen(w)
    run_review(w)
    marks = w.reviewing.marks()
    assert marks, "this game has marked moves"
    rows = {e.number: e for e in w.history.list.entries if e.number}
    checked = 0
    for number, mark in marks.items():
        assert rows[str(number)].mark == mark
        assert MARK_GLYPHS[mark] in w.history.list.rows[[i for i, e in enumerate(w.history.list.entries)
                                                        if e.number == str(number)][0]]
        checked += 1
    assert checked == len(marks) >= 1
    assert sum(1 for e in rows.values() if e.mark) == len(marks), "only marked moves carry a mark"
    number = next(iter(marks))
    w.press(key.HOME)  # off the marked move: its row is not the highlighted one
    index = next(i for i, e in enumerate(w.history.list.entries) if e.number == str(number))
    w.history.list.ensure_visible(index)
    w.history.list.invalidate()
    image = w.render()
    assert count_colour(image, w.history.list.row_rect(index), theme.MARK_COLORS[marks[number]]) >= 3, \
        "the glyph is drawn in its mark's colour"
    w.press(key.HOME)
    w.press(key.ESCAPE)
    assert w.reviewing is None and not w.graph.visible
    assert s.cursor == len(s.history) and s.is_over, "back at the end of the finished game"
    assert w.board_area == normal_area and w.history.marks == {}
    assert all(not e.mark for e in w.history.list.entries)
    assert w.board.better is None and w.board.better_items == []
    assert w.status.text.text == s.result.sentence(s.game.seats)
    w.open_end_dialog()
    review_from_end_screen(w)
    assert w.reviewing.review.complete, "the same game again: the analysis is kept"


def count_colour(image: Any, rect: Any, colour: tuple[int, int, int], tol: int = 30) -> int:
    """Pixels inside ``rect`` within ``tol`` of ``colour`` in every channel."""
    data = image.get_data("RGBA", image.width * 4)
    count = 0
    for y in range(int(rect.y), int(rect.top)):
        for x in range(int(rect.x), int(rect.right)):
            i = (y * image.width + x) * 4
            if all(abs(data[i + c] - colour[c]) <= tol for c in range(3)):
                count += 1
    return count


# -- the better move on the board ------------------------------------------------------------------------------


def test_node_war_draws_the_better_move_at_the_shown_ply(opened, plugins):
    w = finished(opened, plugins)
    review_from_end_screen(w)
    run_review(w)
    ply = marked_ply(w)
    w.graph.on_jump(ply)
    row = w.reviewing.review.row(ply)
    better = w.board.better
    assert better is not None and better == w.session.game.decode_move(row.best)
    assert len(w.board.better_items) == 2, "a shaft and a head"
    assert "better was" in w.status.text.text and MARK_GLYPHS[row.mark] in w.status.text.text
    shown = w.render()
    w.board.show_better_move(None)
    assert w.board.better_items == []
    plain = w.render()
    assert changed_pixels(shown, plain, w.board.board_rect()) >= 150, "the arrow is drawn on the board"
    w.press(key.RIGHT)
    assert w.board.better == w.reviewing.better_move(ply + 1), "each ply shows its own better move"


def test_starfall_reviews_and_draws_the_better_move(opened, plugins):
    w = finished(opened, plugins, "starfall", "quick", seed=2)
    review_from_end_screen(w)
    run_review(w)
    ply = marked_ply(w)
    w.graph.on_jump(ply)
    better = w.board.better
    assert better is not None and better == w.reviewing.better_move(ply)
    assert w.board.better_items, "an arrow or a ring"
    shown = w.render()
    w.board.show_better_move(None)
    plain = w.render()
    assert changed_pixels(shown, plain, w.board.board_rect()) >= 100
    assert any(e.mark for e in w.history.list.entries)


def test_connect_four_reviews_with_no_code_of_its_own_and_its_board_draws_nothing(opened):
    from pegboard.ui import make_session, open_window
    from pegboard.ui.board import BoardViewBase

    c4 = Plugins(load_entry_points=False, plugin_files=[CONNECT4])
    session = make_session("connect4", None, ["human", "human"], c4, threaded=False)
    w = open_window(session, c4, width=1100, height=760, schedule=False, settings_store=MemorySettings())
    w.review_budget = BUDGET
    opened.append(w)
    assert "show_better_move" not in type(w.board).__dict__, "the view inherits the default"
    for column in (0, 1, 0, 1, 0, 1, 0):  # Red stacks four in column a; Yellow never blocks
        session.play(column)  # a Connect Four move is its column
    assert session.is_over and w.dialog is not None
    review_from_end_screen(w)
    run_review(w)
    marks = w.reviewing.marks()
    assert marks, "letting four in a row through is marked"
    ply = next(n for n in sorted(marks) if w.reviewing.better_move(n) is not None)
    w.graph.on_jump(ply)
    assert isinstance(w.board, BoardViewBase)
    shown = w.render()
    w.board.show_better_move(None)
    plain = w.render()
    assert changed_pixels(shown, plain, w.board.board_rect()) == 0, "the default draws nothing"
    assert w.status.text.text.startswith(f"Move {ply} of 7") and "better was" in w.status.text.text


# -- imports -------------------------------------------------------------------------------------------------


def test_an_imported_finished_game_offers_review_on_its_end_screen(opened, plugins, tmp_path):
    source = finished(opened, plugins)
    path = tmp_path / "finished.json"
    source.session.export(path)
    w = window_for(opened, plugins, "nodewar", "skirmish", ["human", "easy"], seed=5)
    assert w._import(path) is None
    assert w.session.is_over and [b.text for b in w.dialog.buttons][-2:] == ["Review", "Close"]
    review_from_end_screen(w)
    run_review(w)
    assert w.reviewing.review.complete and len(w.graph.curve) == len(w.session.history) + 1


def test_an_unfinished_import_offers_review_and_reviews_a_game_without_hidden_parts(opened, plugins, tmp_path):
    from pegboard.ui import make_session

    played = make_session("nodewar", "skirmish", ["random", "random"], plugins, threaded=False, seed=3)
    played.run_bots(max_moves=12)
    path = tmp_path / "half.json"
    played.export(path)
    w = window_for(opened, plugins, "nodewar", "skirmish", ["human", "human"])
    w._import(path)
    offer = w.dialog
    assert offer is not None and offer.title == "Game imported"
    assert offer.yes_button.text == "Review" and offer.no_button.text == "Play on"
    w.click_widget(offer.yes_button)
    assert w.reviewing is not None
    assert w.session.clocks_held, "a past position is shown: nobody's clock runs"
    run_review(w)
    assert len(w.graph.curve) == 13 and w.reviewing.review.complete
    w.press(key.HOME)
    w.press(key.ESCAPE)
    assert w.session.cursor == 12 and not w.session.clocks_held and not w.session.is_over
    assert len(w.session.history) == 12, "the line is as imported"


def test_an_unfinished_game_under_fog_refuses_review_in_a_plain_sentence(opened, plugins, tmp_path):
    from pegboard.ui import make_session

    played = make_session("starfall", "fog_seam", ["random", "random"], plugins, threaded=False, seed=3)
    played.run_bots(max_moves=6)
    assert played.game.hidden_information and not played.is_over
    path = tmp_path / "fogged.json"
    played.export(path)
    w = window_for(opened, plugins, "starfall", "fog_seam", ["human", "human"])
    w._import(path)
    w.click_widget(w.dialog.yes_button)
    refusal = w.dialog
    assert w.reviewing is None and refusal is not None and refusal.title == "Review waits for the end"
    text = refusal.message.text
    assert text == ("This Starfall game is still running, and a review sees everything, the hidden part "
                    "included: finish the game, then review it.")
    assert text.count(".") == 1 and "\n" not in text and "<record>" not in text
    w.click_widget(refusal.ok)
    assert w.dialog is None and not w.graph.visible and w.session.cursor == 6


# -- a forked analysis --------------------------------------------------------------------------------------


def test_the_frame_loop_returns_at_once_while_a_forked_process_judges(opened, plugins, tmp_path):
    source = finished(opened, plugins)
    path = tmp_path / "finished.json"
    source.session.export(path)
    w = window_for(opened, plugins, "nodewar", "skirmish", ["human", "human"], workers="process")
    w.review_budget = 50_000_000  # one position would keep a process busy for minutes
    w._import(path)
    review_from_end_screen(w)
    runner = w.reviewing.runner
    assert runner.workers == "process"
    for frame in range(4):
        w.tick(1 / 60)  # returns: the position is judged in the child, never in the frame
        w.render()
        assert runner.done == 0 and runner.running, frame
    assert runner._worker.busy, "the first position is being judged in a child process"
    w.press(key.END)
    w.press(key.LEFT)
    assert w.session.cursor == len(w.session.history) - 1, "keys work while it judges"
    w.press(key.ESCAPE)
    assert w.reviewing is None and runner.closed and not runner._worker.busy, "leaving kills the child"


def test_new_game_ends_the_review_and_undo_waits_while_reviewing(opened, plugins):
    w = finished(opened, plugins)
    review_from_end_screen(w)
    w.tick(1 / 60)
    assert not w.bar_buttons["undo"].enabled and not w.bar_buttons["redo"].enabled
    end = len(w.session.history)
    w.press(key.Z, key.MOD_CTRL)  # Undo's key does nothing either
    assert w.session.cursor == end and w.reviewing is not None
    w.press(key.HOME)
    w.press(key.Y, key.MOD_CTRL)
    assert w.session.cursor == 0 and len(w.session.history) == end
    runner = w.reviewing.runner
    w.click_widget(w.buttons["new"])
    assert w.reviewing is None and runner.closed and not w.graph.visible
    assert w.session.cursor == 0 and not w.session.is_over and w.board.better is None
