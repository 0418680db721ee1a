"""Issue 25, items 7 and 13: every top-bar button has its own icon and a real tooltip, and
every button shows whether it is at rest, under the pointer, pressed or disabled."""

from __future__ import annotations

import pytest

from pegboard.plugins.manager import Plugins
from pegboard.ui import theme
from pegboard.ui.settings import MemorySettings
from support.windows import close, pixel

pytestmark = pytest.mark.gui


@pytest.fixture
def open_game(opened):
    from pegboard.ui import make_session, open_window

    def make(game: str, width: int = 1280, height: int = 800):
        plugins = Plugins()
        store = MemorySettings()
        store.set_setting("starfall", "welcomed", True)
        session = make_session(game, None, ["human", "human"], plugins, seed=3, threaded=False)
        window = open_window(session, plugins, width=width, height=height, schedule=False, settings_store=store)
        opened.append(window)
        return window

    return make


@pytest.mark.parametrize("game,width,height", [("starfall", 1280, 800), ("starfall", 800, 600), ("nodewar", 640, 480)])
def test_each_bar_button_has_its_own_icon_and_a_tooltip_that_floats_up_after_a_short_hover(open_game, game, width, height):
    w = open_game(game, width, height)
    buttons = list(w.buttons.values())
    assert "settings" in w.buttons or game != "starfall"
    icons = [b.icon for b in buttons]
    assert all(icons) and len(set(icons)) == len(buttons), f"icons repeat: {icons}"
    shown = [(b.icon, b.shown_text()) for b in buttons]
    assert len(set(shown)) == len(buttons), "two buttons look the same"
    tips = [b.tooltip for b in buttons]
    assert all(tips) and len(set(tips)) == len(tips)
    checked = 0
    for button in buttons:
        x, y = button.rect.center
        w.send("on_mouse_motion", x, y, 0, 0)
        w.tick(theme.TOOLTIP_DELAY / 3)
        assert not w.tooltip.visible, "the tooltip waits for a short rest"
        w.tick(theme.TOOLTIP_DELAY)
        assert w.tooltip.visible and w.tooltip.text == button.tooltip
        r = w.tooltip.rect
        assert 0 <= r.x and r.right <= width and 0 <= r.y and r.top <= height, "the tooltip stays in the window"
        assert r.x <= x + 12 <= r.right and 0 < y - r.top < 40, "it floats just below the pointer"
        w.render()  # it draws
        checked += 1
    assert checked == len(buttons) >= 8
    w.send("on_mouse_press", *buttons[0].rect.center, 1, 0)
    w.tick(0.01)
    assert not w.tooltip.visible, "a click puts the tooltip away"
    w.send("on_mouse_motion", width / 2, height / 2, 0, 0)
    w.tick(theme.TOOLTIP_DELAY * 2)
    assert not w.tooltip.visible, "nothing to explain over the board"


def test_a_button_looks_different_at_rest_hovered_pressed_and_disabled(open_game):
    w = open_game("nodewar")
    new, undo = w.buttons["new"], w.buttons["undo"]
    at = (new.rect.x + 3, new.rect.y + new.rect.height / 2)
    rest = pixel(w.render(), *at)
    w.send("on_mouse_motion", *new.rect.center, 0, 0)
    hovered = pixel(w.render(), *at)
    w.send("on_mouse_press", *new.rect.center, 1, 0)
    pressed = pixel(w.render(), *at)
    w.send("on_mouse_release", *new.rect.center, 1, 0)
    released = pixel(w.render(), *at)
    assert not undo.enabled
    disabled = pixel(w.render(), undo.rect.x + 3, undo.rect.y + undo.rect.height / 2)
    assert close(rest, theme.BUTTON) and close(disabled, theme.BUTTON_DISABLED)
    assert close(pressed, theme.BUTTON_PRESSED) and close(released, hovered)
    looks = [rest, hovered, pressed, disabled]
    assert all(not close(a, b) for i, a in enumerate(looks) for b in looks[i + 1 :]), looks
