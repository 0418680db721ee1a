"""Issue 25, item 13: the finished look: the end-of-game screen (result, reason in words, score,
rating note, the extension, New game and Close), the window's title and icon, rounded panels."""

from __future__ import annotations

import pytest

from pegboard.game import Result
from pegboard.ui import theme
from pegboard.ui.endwords import end_words
from pegboard.ui.settings import MemorySettings
from support import gridtoy
from support.windows import close, pixel

pytestmark = pytest.mark.gui


@pytest.fixture
def toy_window(opened):
    from pegboard.ui import make_session, open_window

    def make(seats=("human", "first"), ruleset="tiny"):
        plugins = gridtoy.make_plugins()
        session = make_session("gridtoy", ruleset, list(seats), plugins, threaded=False)
        window = open_window(session, plugins, schedule=False, settings_store=MemorySettings())
        opened.append(window)
        return window

    return make


def play_to_the_turn_limit(w) -> None:
    s = w.session
    for x, y in ((0, 0), (2, 1), (1, 2)):
        if s.seats[s.to_move].is_human and not s.is_over:
            w.click(*w.board.cell_center(s.game.cell(x, y)))
        w.tick(0.03)
    assert s.is_over and s.result.reason == "turn_limit"


def test_the_end_screen_shows_the_result_in_words_with_its_buttons(toy_window):
    w = toy_window()
    play_to_the_turn_limit(w)
    end = w.dialog
    assert end is not None and end.title == "Draw" and end.outcome == "draw"
    assert end.reason.text == "Draw: turn limit 4.", "the reason is a sentence"
    assert [b.text for b in end.buttons] == ["Play 2 more turns", "New game", "Review", "Close"]
    assert all(b.on_click is not None for b in end.buttons), "no button that does nothing"
    band = pixel(w.render(), end.rect.x + 6, end.rect.top - 10)
    assert close(band, theme.BUTTON_ACTIVE), "a draw's band is blue"
    w.click_widget(end.close_button)
    assert w.dialog is None and w.session.is_over
    w.click(*w.board.cell_center(w.session.game.cell(2, 2)))  # a click on the finished board: the result again
    assert w.dialog is not None and w.dialog.title == "Draw"
    w.click_widget(w.dialog.new_button)
    assert w.dialog is None and w.session.cursor == 0 and not w.session.is_over


def test_the_end_screen_takes_extra_actions_for_later_steps(toy_window):
    from pegboard.ui.dialogs import EndGameDialog

    picked = []
    end = EndGameDialog("You win", "Blue wins: no moves.", extend_label=None, on_extend=lambda: None,
                        on_new_game=lambda: picked.append("new"), score="Score: Blue 3 – Red 1", outcome="win",
                        note="Your rating: 1000 → 1012 (+12.0).", actions=[("Review", lambda: picked.append("review"), "Review: the moves, marked.")])
    w = toy_window()
    w.open_dialog(end)
    assert [b.text for b in end.buttons] == ["New game", "Review", "Close"]
    image = w.render()
    assert close(pixel(image, end.rect.x + 6, end.rect.top - 10), theme.WIN), "a win's band is green"
    parts = [end.reason, end.score, end.note]
    assert all(p.text for p in parts)
    for upper, lower in zip(parts, parts[1:], strict=False):
        assert lower.rect.top <= upper.rect.y, "reason, score and note stack without overlapping"
    assert end.note.rect.y > end.close_button.rect.top
    w.click_widget(end.buttons[1])
    assert picked == ["review"] and w.dialog is None


def test_end_words_name_the_person_and_spell_out_the_reason():
    seats = ("Blue", "Red")
    won = end_words(Result(winner=0, reason="no_moves", scores=(12, 3)), seats, [True, False])
    assert (won.headline, won.outcome, won.reason, won.score) == ("You win", "win", "Blue wins: no moves.",
                                                                  "Score: Blue 12 – Red 3")
    lost = end_words(Result(winner=0, reason="territory", text="Blue claims 69 squares"), seats, [False, True])
    assert (lost.headline, lost.outcome, lost.reason, lost.score) == ("You lose", "loss", "Blue claims 69 squares.", "")
    watched = end_words(Result(winner=1, reason="flag"), seats, [False, False])
    assert (watched.headline, watched.outcome, watched.reason) == ("Red wins", "", "Red wins: flag.")
    shared = end_words(Result(winner=None, reason="turn_limit"), seats, [True, True])
    assert (shared.headline, shared.outcome, shared.reason) == ("Draw", "", "Draw: turn limit.")


def test_the_window_has_its_title_and_icon_and_rounded_panels(toy_window):
    w = toy_window(ruleset=None)
    assert w.caption == f"Pegboard — {w.session.game.name}"
    sizes = [(image.width, image.height) for image in w.icon_images]
    assert sizes == [(16, 16), (32, 32), (64, 64)]
    data = w.icon_images[-1].get_data("RGBA", 64 * 4)
    corner, middle = data[0:4], data[(32 * 64 + 32) * 4 : (32 * 64 + 32) * 4 + 4]
    assert corner[3] == 0 and middle[3] == 255, "a rounded tile: transparent corners"
    assert w.history.visible
    r = w.history.rect
    image = w.render()
    assert close(pixel(image, r.x, r.top - 1), theme.BACKGROUND), "the History panel's corner is rounded"
    assert close(pixel(image, r.x + r.width / 2, r.y), theme.PANEL_BORDER), "with its border"
