"""Issue 25, item 12: one shipped UI font (Inter, with its licence beside it) draws every text
the window shows, in a small type scale, so the window looks the same on every machine."""

from __future__ import annotations

import pytest

from pegboard.plugins.manager import Plugins
from pegboard.ui import theme, typeface
from pegboard.ui.settings import MemorySettings
from pegboard.ui.widgets import Button, Label

pytestmark = pytest.mark.gui


def test_the_font_ships_with_its_licence_and_is_the_one_labels_use():
    for name in typeface.FONT_FILES:
        assert (typeface.FONT_DIR / name).is_file()
    licence = (typeface.FONT_DIR / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL Open Font License" in licence and "Inter Project Authors" in licence
    assert typeface.register() and theme.FONT_NAME == "Inter"
    import pyglet

    assert pyglet.font.have_font("Inter")
    assert theme.SMALL_FONT_SIZE < theme.FONT_SIZE < theme.TITLE_FONT_SIZE, "title, body, small"


def texts_shown(window) -> list[str]:
    """The text of every label and button the window shows now, the board view's own included."""
    widgets = [w for root in (*window.roots, window.dialog) if root is not None for w in root.walk()]
    out = [entry.text for entry in window.history.list.entries]
    widgets += list(window.board.panel_widgets())
    for w in widgets:
        if isinstance(w, Label) and w.visible:
            out.append(w.text)
        elif isinstance(w, Button) and w.visible:
            out += [w.text, w.short_text, w.tooltip]
        title = getattr(w, "title", "")
        if isinstance(title, str):
            out.append(title)
    return [t for t in out if t]


@pytest.mark.parametrize("game", ["nodewar", "starfall"])
def test_every_character_the_window_shows_is_in_the_shipped_font(game):
    from pegboard.ui import make_session, open_window

    store = MemorySettings()
    store.set_setting("starfall", "welcomed", True)
    plugins = Plugins()
    session = make_session(game, None, ["human", "human"], plugins, seed=2, threaded=False)
    window = open_window(session, plugins, schedule=False, settings_store=store)
    try:
        import random

        rng = random.Random(3)
        for _ in range(12):  # a game under way: the History and the explanations have words
            session.play(rng.choice(list(session.state.legal_moves())))
            for _ in range(60):
                window.tick(1 / 30)
        seen: set[str] = set()
        screens = [lambda: None, window.open_customize, window.open_export, window.open_settings]
        for open_screen in screens:
            if window.dialog is not None:
                window.close_dialog(window.dialog)
            open_screen()
            window.render()
            for text in texts_shown(window):
                seen.update(ch for ch in text if not ch.isspace())
        assert len(seen) > 40
        missing = sorted(ch for ch in seen if not typeface.has_glyph(ch))
        assert missing == [], f"drawn as boxes: {missing}"
    finally:
        window.close()
