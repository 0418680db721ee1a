"""Issue 25, item 7: every button a person can meet names itself in a tooltip that floats up
after a short hover: the top bar's, Starfall's side panel's, and the dialogs' (Settings,
Customize, Play a friend); and no two top-bar buttons share an icon."""

from __future__ import annotations

from typing import Any

import pytest

from pegboard.plugins.manager import Plugins
from pegboard.ui import theme
from pegboard.ui.widgets import Button
from support.starfall_window import center, store

pytestmark = pytest.mark.gui


@pytest.fixture
def open_game(opened):
    from pegboard.ui import make_session, open_window

    def make(game: str, width: int = 1280, height: int = 800):
        plugins = Plugins()
        session = make_session(game, None, ["human", "human"], plugins, seed=3, threaded=False)
        window = open_window(session, plugins, width=width, height=height, schedule=False, settings_store=store())
        opened.append(window)
        return window

    return make


def hover_shows_tip(w: Any, button: Button) -> None:
    """Rest the pointer on ``button``: its tooltip floats up after theme.TOOLTIP_DELAY, not before."""
    x, y = button.rect.center
    w.send("on_mouse_motion", x * w.ui_scale, y * w.ui_scale, 0, 0)
    w.tick(theme.TOOLTIP_DELAY / 3)
    assert not w.tooltip.visible, f"{button.text!r}: the tooltip waits for a short rest"
    w.tick(theme.TOOLTIP_DELAY)
    assert w.tooltip.visible, f"{button.text!r}: no tooltip floated up"
    assert w.tooltip.text == button.tooltip
    w.render()  # it draws, over a dialog too


def visible_buttons(w: Any) -> list[Button]:
    """Every button the window shows now: the bar's, the panels' and the board view's own."""
    found = [b for root in w.roots if root.visible for b in root.walk() if isinstance(b, Button) and b.visible]
    if w.board is not None:
        found += [b for b in w.board.panel_widgets() if isinstance(b, Button) and b.visible]
    return found


def test_starfalls_panel_buttons_float_their_tooltips_on_hover(open_game):
    from pegboard_starfall.pieces import SCOUT

    w = open_game("starfall")
    view = w.board
    every = [*view.mode_buttons.values(), view.pass_button, view.fall_button, view.cancel_button]
    tips = [b.tooltip for b in every]
    assert all(tip.endswith(".") and ": " in tip for tip in tips), tips
    assert len(set(tips)) == len(every) == 10, "each panel button explains itself in its own words"
    st = w.session.state
    scout = next(sq for sq in range(st.geo.size) if st.kind[sq] == SCOUT and st.side[sq] == 0)
    hovered: set[str] = set()
    for drone in (scout, st.cmd[0]):
        w.click(*center(w, drone))
        shown = [b for b in view.panel_widgets() if isinstance(b, Button)]
        assert view.cancel_button in shown and len(shown) >= 2, "a picked drone offers its actions and Cancel"
        for button in shown:
            hover_shows_tip(w, button)
            hovered.add(button.tooltip)
        w.click(*center(w, drone))  # put it down again
    assert len(hovered) >= 4, hovered  # Move, Fire, Claim, Build and Cancel at the start
    w.send("on_mouse_motion", *center(w, scout), 0, 0)
    w.tick(theme.TOOLTIP_DELAY * 2)
    assert not w.tooltip.visible, "a square of the board has no tooltip"


@pytest.mark.parametrize("game", ["starfall", "nodewar"])
def test_every_visible_button_has_a_tooltip_and_the_bar_icons_are_distinct(open_game, game):
    w = open_game(game)
    if game == "starfall":
        from pegboard_starfall.pieces import SCOUT

        st = w.session.state
        w.click(*center(w, next(sq for sq in range(st.geo.size) if st.kind[sq] == SCOUT and st.side[sq] == 0)))
    checked = 0
    for button in visible_buttons(w):
        assert button.tooltip.strip(), f"{button.text!r} has no tooltip"
        checked += 1
    assert checked >= (12 if game == "starfall" else 8)
    bar = [*w.bar_buttons.values(), w.settings_button]  # Resign too, shown only online
    icons = [b.icon for b in bar]
    assert all(icons) and len(set(icons)) == len(bar) >= 11, f"icons repeat: {icons}"


@pytest.mark.parametrize("opener", ["open_settings", "open_customize", "play_friend"])
def test_dialog_buttons_have_tooltips_that_float_up_over_the_dialog(open_game, opener):
    w = open_game("starfall")
    dialog = getattr(w, opener)()
    assert dialog is not None and w.dialog is dialog
    w.render()
    buttons = [b for b in dialog.walk() if isinstance(b, Button) and b.visible and b.rect.width > 0]
    checked = 0
    for button in buttons:
        assert button.tooltip.strip(), f"{opener}: {button.text!r} has no tooltip"
        hover_shows_tip(w, button)
        checked += 1
    assert checked >= 2
    w.send("on_mouse_motion", dialog.rect.x + 4, dialog.rect.top - 4, 0, 0)
    w.tick(theme.TOOLTIP_DELAY * 2)
    assert not w.tooltip.visible, "nothing to explain on the dialog's frame"
    hover_shows_tip(w, buttons[-1])
    dialog.close()
    w.tick(theme.TOOLTIP_DELAY * 2)
    assert not w.tooltip.visible, "a closed dialog's tooltip goes with it"


def test_the_end_screen_and_questions_name_every_button_in_a_tooltip(open_game, tmp_path):
    w = open_game("nodewar")
    s = w.session
    s.resign(0)
    end = w.open_end_dialog()
    assert end is not None and w.dialog is end
    w.render()
    labels = []
    for button in end.buttons:
        assert button.tooltip.strip(), f"the end screen's {button.text!r} has no tooltip"
        hover_shows_tip(w, button)
        labels.append(button.text)
    assert labels == ["New game", "Review", "Close"]
    end.close()
    question = w.confirm("Resign?", "You leave the match and it counts as a loss.", lambda: None, yes_label="Resign")
    w.render()
    checked = 0
    for button in (question.yes_button, question.no_button):
        assert button.tooltip.strip()
        hover_shows_tip(w, button)
        checked += 1
    assert checked == 2 and "Esc" in question.no_button.tooltip
