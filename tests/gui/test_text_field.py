"""Issue 25, item 8: text fields edit like every other program's (pyglet's IncrementalTextLayout
and Caret underneath): caret placement by click, selection by drag, Shift and double click,
Ctrl+A/C/X/V through the window's clipboard, and Ctrl+A then typing replaces the text."""

from __future__ import annotations

import pytest
from pyglet.window import key, mouse

from pegboard.ui.widgets import text_width
from support import gridtoy

pytestmark = pytest.mark.gui


@pytest.fixture
def window():
    from pegboard.ui import make_session, open_window
    from pegboard.ui.settings import MemorySettings

    plugins = gridtoy.make_plugins()
    session = make_session("gridtoy", None, ["human", "human"], plugins, threaded=False)
    win = open_window(session, plugins, schedule=False, settings_store=MemorySettings())
    copied: list[str] = []
    # the window's clipboard (the system's); headless pyglet windows have none, so stand in for it
    win.set_clipboard_text = copied.append
    win.get_clipboard_text = lambda: copied[-1] if copied else ""
    win.copied = copied
    yield win
    if not win.has_exit:
        win.close()


def field_with(window, text: str):
    """The Import dialog's path field holding ``text`` (focused, drawn once)."""
    window.click_widget(window.buttons["import"])
    field = window.dialog.input
    field.set_text(text)
    window.render()
    return field


def x_of(field, index: int) -> float:
    """Window x of the gap before character ``index`` of a field that is not scrolled."""
    return field.rect.x + 8 + text_width(field.text[:index])


def click_at(window, field, index: int, modifiers: int = 0) -> None:
    y = field.rect.y + field.rect.height / 2
    window.send("on_mouse_press", x_of(field, index) + 1, y, mouse.LEFT, modifiers)
    window.send("on_mouse_release", x_of(field, index) + 1, y, mouse.LEFT, modifiers)


def test_a_click_places_the_caret_and_typing_goes_there(window):
    field = field_with(window, "abcdefgh")
    checked = 0
    for index in (0, 3, 8):
        click_at(window, field, index)
        assert field.selection == (index, index)
        checked += 1
    assert checked == 3
    click_at(window, field, 3)
    window.type_text("XY")
    assert field.text == "abcXYdefgh" and field.selection == (5, 5)
    window.press(key.BACKSPACE)
    window.press(key.LEFT)
    window.press(key.DELETE)
    assert field.text == "abcdefgh" and field.selection == (3, 3)


def test_ctrl_a_then_typing_replaces_the_whole_text(window):
    field = field_with(window, "/some/old/path.txt")
    window.press(key.A, key.MOD_CTRL)
    assert field.selection == (0, len("/some/old/path.txt"))
    window.type_text("n")
    window.type_text("ew.txt")
    assert field.text == "new.txt"


def test_shift_selects_and_copy_cut_paste_use_the_window_clipboard(window):
    field = field_with(window, "hello world")
    window.press(key.END)
    for _ in range(5):
        window.press(key.LEFT, key.MOD_SHIFT)
    assert field.selection == (6, 11)
    window.press(key.C, key.MOD_CTRL)
    assert window.copied == ["world"] and field.text == "hello world"
    window.press(key.X, key.MOD_CTRL)
    assert window.copied == ["world", "world"] and field.text == "hello "
    window.press(key.HOME)
    window.press(key.V, key.MOD_CTRL)
    assert field.text == "worldhello " and field.selection == (5, 5)
    window.copied.append("two\nlines")
    window.press(key.V, key.MOD_CTRL)
    assert field.text == "worldtwo lineshello ", "a pasted line break becomes a space"


def test_a_drag_and_a_double_click_select(window):
    field = field_with(window, "alpha beta gamma")
    y = field.rect.y + field.rect.height / 2
    window.send("on_mouse_press", x_of(field, 2) + 1, y, mouse.LEFT, 0)
    window.send("on_mouse_drag", x_of(field, 9) + 1, y, 0, 0, mouse.LEFT, 0)
    window.send("on_mouse_release", x_of(field, 9) + 1, y, mouse.LEFT, 0)
    assert field.selection == (2, 9)
    click_at(window, field, 12, modifiers=key.MOD_SHIFT)
    assert field.selection == (2, 12), "Shift+click extends the selection"
    click_at(window, field, 13)
    click_at(window, field, 13)  # a double click selects the word under the pointer
    start, end = field.selection
    assert field.text[start:end].strip() == "gamma"


def test_enter_submits_and_typing_edits_only_the_focused_field(window):
    field = field_with(window, "")
    window.type_text("nowhere.txt")
    window.press(key.ENTER)
    assert window.dialog is not None and "No such file" in window.dialog.note.text
    field.focus(False)
    window.type_text("zzz")
    assert field.text.endswith("nowhere.txt"), "an unfocused field takes no text"
