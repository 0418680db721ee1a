"""What a person reads in the Starfall window: the whole explanation within reach (the explain
line opens, a History entry opens), long moves summarised, a resignation as a sentence, and one
clock drawn the same everywhere, held while a dialog is open."""

from __future__ import annotations

import re

import pytest

from pegboard.game import Event
from pegboard.match.history import PlyRecord
from pegboard.match.session import Session
from pegboard.plugins.manager import Plugins
from pegboard.ui.catalog import load_game
from support.starfall_window import FakeTime, drag, settle, store

pytestmark = pytest.mark.gui


def open_window(seats=("human", "human"), seed=3, settings=None, time_source=None):
    from pegboard.ui import open_window as open_

    plugins = Plugins()
    game, ref = load_game(plugins, "starfall", "standard")
    kwargs = {"time_source": time_source} if time_source is not None else {}
    session = Session(game, list(seats), seed=seed, ruleset=ref, plugins=plugins, threaded=False, **kwargs)
    return open_(session, plugins, schedule=False, settings_store=settings if settings is not None else store())


def long_swap(st):
    """A swap whose story is long: it makes three shapes or more (a cascade)."""
    for m in sorted((m for m in st.legal_moves() if m.kind == "swap"), key=lambda m: (m.a, m.b)):
        probe = st.clone()
        shapes = {tuple(e.data["cells"]) for e in probe.apply(m) if "cells" in e.data}
        if len(shapes) >= 3:
            return m
    return None


def window_with_a_long_move():
    for seed in range(1, 60):
        window = open_window(seed=seed)
        move = long_swap(window.session.state)
        if move is not None:
            return window, move
        window.close()
    raise AssertionError("no deal with a cascading swap")


def pixel(image, x: float, y: float) -> tuple[int, int, int]:
    data = image.get_data("RGBA", image.width * 4)
    i = (int(round(y)) * image.width + int(round(x))) * 4
    return tuple(data[i : i + 3])


def test_the_explain_line_opens_to_the_whole_story_on_hover_and_on_click():
    from pegboard.ui import theme

    window, move = window_with_a_long_move()
    try:
        drag(window, move.a, move.b)
        settle(window)
        line = window.board.explain
        assert line.line.text.endswith("more ▾"), line.line.text
        assert "cascade:" in line.line.text, "a cascade is summarised by what made its shapes"
        assert not line.box.visible
        full = line.full.split("\n")
        assert len(full) >= 4 and all(sentence.endswith(".") for sentence in full)
        r = line.line.rect
        window.send("on_mouse_motion", r.x + 10, r.y + r.height / 2, 0, 0)
        assert line.box.visible and line.box_text.text == line.full, "pointing opens it"
        box = line.box.rect
        img = window.render()
        inside = pixel(img, box.right - 4, box.y + 4)
        assert max(abs(a - b) for a, b in zip(inside, theme.PANEL, strict=True)) <= 6, "the box is drawn over the board"
        away = window.board.painter.center(60)
        window.send("on_mouse_motion", *away, 0, 0)
        assert not line.box.visible, "it closes when the pointer leaves"
        window.click(r.x + 10, r.y + r.height / 2)
        window.send("on_mouse_motion", *away, 0, 0)
        assert line.box.visible, "a click keeps it open"
        before = window.session.cursor
        window.click(*away)
        assert not line.box.visible and window.session.cursor == before, "the next click closes it and plays nothing"
    finally:
        window.close()


def test_a_history_entry_opens_in_full_when_selected():
    window, move = window_with_a_long_move()
    try:
        drag(window, move.a, move.b)
        settle(window)
        panel = window.history

        def note_lines(ply):
            return [e.text for e, p, note in zip(panel.list.entries, panel.row_ply, panel.note_row, strict=True)
                    if note and p == ply]

        opened = note_lines(1)
        assert len(opened) > panel.NOTE_LINES, "the move shown reads in full"
        assert not any(text.endswith("(click for all)") for text in opened)
        s = window.session
        s.play(next(m for m in s.state.legal_moves() if m.kind == "swap"))  # the other side answers
        settle(window)
        closed = note_lines(1)
        assert len(closed) <= panel.NOTE_LINES and closed[-1].endswith("(click for all)")
        assert "cascade:" in " ".join(closed), "summarised: cascade: N lines"
        window.click(*panel.list.row_rect(panel.note_row.index(True)).center)
        assert note_lines(1) == opened and s.cursor == 2, "opened again, without moving"
    finally:
        window.close()


def test_long_cascades_read_at_a_glance_with_their_drones_and_where():
    from pegboard_starfall.ui import explaining

    def shape(kind, cause, cells, **data):
        return Event(kind, {"cause": cause, "cells": cells, "row": "line4", **data}, f"a {kind} {cells}.")

    events = (
        Event("swap", {"a": 24, "b": 25}, "South swaps c3 and d3."),
        shape("drone_spawned", "swap", [1, 2, 3, 4], drone="scout", at=2),
        shape("cleared", "cascade", [30, 31, 32]),
        shape("drone_spawned", "cascade", [40, 41, 42, 43], drone="raider_white", at=41),
        shape("drone_stacked", "cascade", [40, 41, 42, 43], at=41),
        Event("drift", {}, "South cleared 8 or more stars on its half this turn: the asteroids drift toward it."),
    )
    record = PlyRecord(1, 0, None, "swap c3-d3", events, "human")
    name = {2: "c1", 41: "h4"}.get
    short = explaining.summary(record, 0, "South", lambda sq: name(sq) or "?")
    assert short == ("South swaps c3 and d3 — swap: 1 line, 1 scout (c1); cascade: 2 lines, 1 white raider (h4), "
                     "1 stack (h4). South cleared 8 or more stars on its half this turn: the asteroids drift toward it.")
    assert explaining.detail(record, 0, "South") == [e.text for e in events]


def test_a_resignation_reads_as_a_sentence_in_the_history():
    window = open_window()
    try:
        s = window.session
        s.resign(1)  # North gives up while South is to move
        entries = [e for e in window.history.list.entries if e.number]
        assert (entries[-1].seat, entries[-1].text) == ("North", "resigns")
        assert window.board.explain.short == "North resigns: South wins."
    finally:
        window.close()


CLOCK = re.compile(r"(\d+):(\d\d)")


def seconds(text: str) -> list[int]:
    return [int(m) * 60 + int(s) for m, s in CLOCK.findall(text)]


def test_one_clock_drawn_the_same_everywhere_every_frame_and_held_while_a_dialog_is_open():
    t = FakeTime()
    window = open_window(seats=("human", "skill-10"), settings=store(timers=True), time_source=t)
    try:
        s, view = window.session, window.board
        assert s.clock is not None
        frames = 0
        for _ in range(40):  # the person thinks: South's clock runs
            t.now += 0.37
            window.tick(1 / 60)
            window.render()
            panel, bar = seconds(view.clocks.text), seconds(window.status.clocks.text)
            assert panel == bar[:2], f"side panel {view.clocks.text!r}, status bar {window.status.clocks.text!r}"
            frames += 1
        assert frames == 40 and seconds(view.clocks.text)[0] < 1200
        shown = seconds(view.clocks.text)
        dialog = window.open_settings()
        t.now += 300  # five minutes in the Settings
        window.tick(1 / 60)
        assert s.clocks_held and seconds(view.clocks.text) == shown, "the clocks wait"
        assert not s.is_over and s.cursor == 0, "no move timer ran out meanwhile"
        window.close_dialog(dialog)
        t.now += 10
        window.tick(1 / 60)
        assert seconds(view.clocks.text)[0] == shown[0] - 10, "and go on where they stood"
        for opener in (window.open_customize, window.play_friend):
            opened = opener()
            t.now += 100
            window.tick(1 / 60)
            assert s.clocks_held and seconds(view.clocks.text)[0] == shown[0] - 10, opener.__name__
            window.close_dialog(opened)
    finally:
        window.close()


@pytest.mark.parametrize(("settings", "seats", "why"), [
    ({"fog": "dark"}, ("human", "skill-10"), "under fog"),
    ({"skill": 10}, ("human", "skill-10"), "rated game"),
])
def test_export_waits_for_the_end_of_a_game_whose_file_would_tell_too_much(settings, seats, why, tmp_path):
    window = open_window(seats=seats, settings=store(**settings))
    try:
        s = window.session
        assert s.state.rules.fog == settings.get("fog", "off")
        window.click_widget(window.buttons["export"])
        assert window.dialog is not None and window.dialog.title == "Export waits for the end"
        assert why in window.export_refusal() and "over" in window.export_refusal()
        window.close_dialog(window.dialog)
        s.resign(0)
        window.close_dialog(window.dialog)  # the end of the game
        assert window.export_refusal() is None, "a finished game saves as usual"
        dialog = window.open_export(folder=tmp_path)
        assert dialog.title.startswith("Export")
        assert window._export(tmp_path / "game.json") is None and (tmp_path / "game.json").exists()
    finally:
        window.close()


def test_export_saves_a_game_under_way_that_hides_nothing(tmp_path):
    window = open_window(seats=("human", "human"))
    try:
        assert window.export_refusal() is None
        assert window._export(tmp_path / "game.json") is None
    finally:
        window.close()
