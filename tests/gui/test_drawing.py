"""The shell's drawing helpers that keep frames cheap: text measuring, list rows kept
across rebuilds, and the Transform group that moves drawables without rebuilding them."""

from __future__ import annotations

import pyglet
import pytest
from pyglet import shapes

from pegboard.ui import theme
from pegboard.ui.rect import Rect
from pegboard.ui.transform import Transform
from pegboard.ui.widgets import ListView, Ui, text_width


@pytest.mark.parametrize("text", ["History", "↶ Undo", "South's swap made a hooked 4 of blue: it clears.", ""])
@pytest.mark.parametrize("size,bold", [(theme.FONT_SIZE, False), (theme.SMALL_FONT_SIZE, True)])
def test_text_width_is_what_a_label_lays_out(text, size, bold):
    label = pyglet.text.Label(text, font_name=theme.FONT_NAME, font_size=size, weight="bold" if bold else "normal")
    try:
        assert text_width(text, size, bold) == float(label.content_width)
    finally:
        label.delete()


def _row_labels(view: ListView) -> dict[str, list[object]]:
    return {key[0][0]: items for key, (_y, items) in view._row_items.items()}


def test_list_rows_keep_their_labels_when_the_list_scrolls_and_identical_rows_each_have_their_own():
    ui = Ui()
    view = ListView(["a", "b", "same", "same", "e"], row_height=20)
    view.set_rect(Rect(0, 0, 200, 60))  # three rows visible
    view.sync(ui)
    first = _row_labels(view)["b"]
    y_before = first[0].y
    view.ensure_visible(3)  # scroll down one row: "b" is now the top row
    view.sync(ui)
    rows = _row_labels(view)
    assert rows["b"] is first and first[0].y == y_before + 20  # moved, not rebuilt
    assert "a" not in rows and len(view._row_items) == 3  # the row that left the view was deleted
    identical = [items for key, (_y, items) in view._row_items.items() if key[0][0] == "same"]
    assert len(identical) == 2 and identical[0][0] is not identical[1][0]
    view.set_rows(["a", "b", "other", "same", "e"])
    view.sync(ui)
    assert sum(1 for key in view._row_items if key[0][0] == "same") == 1
    view.clear()
    assert view._row_items == {}


def test_a_transform_moves_and_scales_what_it_draws_without_rebuilding_it():
    window = pyglet.window.Window(200, 200, visible=False)
    try:
        batch = pyglet.graphics.Batch()
        transform = Transform(50, 50)
        square = shapes.Rectangle(40, 40, 20, 20, color=(255, 0, 0), batch=batch, group=pyglet.graphics.Group(parent=transform))

        def red_at(x: int, y: int) -> bool:
            window.switch_to()
            window.clear()
            batch.draw()
            data = pyglet.image.get_buffer_manager().get_color_buffer().get_region(x, y, 1, 1).get_image_data()
            r, g, b, _a = data.get_data("RGBA", 4)
            return (r, g, b) == (255, 0, 0)

        assert red_at(50, 50) and not red_at(150, 50)
        transform.set(100, 0)
        assert red_at(150, 50) and not red_at(50, 50)
        transform.set(0, 0, 3.0)  # 20 px wide about (50, 50): now 60 px, from 20 to 80
        assert red_at(25, 50) and red_at(75, 75) and not red_at(15, 50)
        assert window.view == pyglet.math.Mat4()  # the view is restored after the group draws
        square.delete()
    finally:
        window.close()
