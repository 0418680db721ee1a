"""Sound in the real (headless) window: which cue each move, result, clock and turn makes, the
silent fallback without an audio device, and the volume and mute kept in the profile.

Every test plays into pyglet's silent driver (tests/conftest.py sets PYGLET_AUDIO=silent), so
nothing depends on hearing anything: what was played is read from ``window.sound.played``.
"""

from __future__ import annotations

import logging
import os
import random
import subprocess
import sys

import pytest
from pyglet.window import key

from pegboard.game import Event, events_for
from pegboard.match.clock import ClockSettings
from pegboard.match.history import Change
from pegboard.match.session import Session
from pegboard.plugins.manager import Plugins
from pegboard.ui import cues, sound
from pegboard.ui.settings import MemorySettings
from support import gridtoy

pytestmark = pytest.mark.gui



def flush(window, frames: int = 8) -> None:
    """Frames enough for every queued cue to come due (the cues of a move play 0.12 s apart)."""
    for _ in range(frames):
        window.tick(0.1)


def ready(window):
    assert window.sound.player.wait(), "the sounds load"
    return window


@pytest.fixture
def toy_window():
    """``toy_window(seats, store=None, clock=None, time_source=None)``: a gridtoy window."""
    from pegboard.ui import open_window

    made = []

    def make(seats=("human", "human"), store=None, clock=None, time_source=None):
        plugins = gridtoy.make_plugins()
        game = gridtoy.ToyGame(gridtoy.load_ruleset())
        extra = {"time_source": time_source} if time_source is not None else {}
        session = Session(game, list(seats), plugins=plugins, threaded=False, clock=clock, **extra)
        window = open_window(session, plugins, schedule=False,
                             **({"settings_store": store} if store is not None else {}))
        made.append(window)
        return ready(window)

    yield make
    for window in made:
        if not window.has_exit:
            window.close()


# -- which cue a move makes ------------------------------------------------------------------------


def test_a_game_without_its_own_mapping_clicks_for_every_move(toy_window):
    w = toy_window(store=MemorySettings())
    w.session.play(w.session.state.legal_moves()[0])
    flush(w)
    assert list(w.sound.played) == [cues.MOVE]
    assert w.sound.player.state == "ready" and w.sound.player.driver == "silent"


def test_node_war_cues_from_hand_built_events():
    from pegboard.ui import make_session
    from pegboard_nodewar.view import make_view

    placed = Event("node_placed", {"owner": 0, "at": [3, 4]})
    drawn = Event("line_added", {"owner": 0, "ends": [[3, 3], [3, 4]]})
    cut = Event("lines_cut", {"owner": 1, "count": 1, "lines": []})
    died = Event("nodes_died", {"owner": 1, "count": 2, "points": []})
    revived = Event("nodes_revived", {"owner": 0, "count": 1, "points": []})
    session = make_session("nodewar", None, ["human", "human"], Plugins(), threaded=False)
    view = make_view(session.game, session)
    try:
        assert view.sound_cues([placed, drawn]) == [cues.MOVE]
        assert view.sound_cues([placed, drawn, cut]) == [cues.CUT]
        assert view.sound_cues([placed, cut, died, revived]) == [cues.CUT, cues.TAKE]
    finally:
        view.delete()


def test_a_node_war_cut_is_heard_in_the_window():
    from pegboard.ui import make_session, open_window

    plugins = Plugins()
    session = make_session("nodewar", None, ["human", "human"], plugins, threaded=False)
    w = ready(open_window(session, plugins, schedule=False, settings_store=MemorySettings()))
    try:
        rng = random.Random(5)
        for _ in range(400):  # random moves until one cuts a line (a few dozen in practice)
            w.sound.played.clear()
            events = session.play(rng.choice(session.state.legal_moves()))
            flush(w)
            heard = list(w.sound.played)
            if any(e.kind == "lines_cut" for e in events):
                assert heard[0] == cues.CUT
                break
            assert heard == [cues.MOVE] or session.is_over
            if session.is_over:
                session.restart()
        else:
            pytest.fail("no cut in 400 random moves")
    finally:
        w.close()


def test_under_fog_the_window_plays_only_what_your_side_may_know():
    """A fogged game against a bot: each move sounds as the events South may know make it, never
    as its hidden events would (and some bot moves did make sounds South could not know of)."""
    from pegboard.ui import make_session, open_window
    from pegboard_starfall.ui.sounds import move_cues

    plugins = Plugins()
    session = make_session("starfall", "standard", ["human", "skill-0"], plugins, seed=11, threaded=False)
    store = MemorySettings()
    store.set_setting("starfall", "welcomed", True)  # no Welcome dialog
    store.set_setting("starfall", "fog", "seam")
    w = ready(open_window(session, plugins, schedule=False, settings_store=store))
    try:
        session = w.session
        assert session.state.rules.fogged
        moves: list[Change] = []
        session.add_listener(lambda c: moves.append(c) if c.kind == "move" else None)
        rng = random.Random(2)
        hidden = bot_moves = 0
        for _ in range(150):  # steps: a random move of the person's, or a frame in which the bot answers
            if session.is_over:
                break
            w.sound.played.clear()
            seen = len(moves)
            if session.to_move == 0:
                session.play(rng.choice(session.state.legal_moves()))
            w.tick(0.1)  # the bot moves in the session's poll
            flush(w)
            if session.is_over:
                break  # the last step also plays the result
            new = moves[seen:]
            expected = [c for change in new for c in move_cues(events_for(change.events, 0))[:3]]
            assert list(w.sound.played) == expected
            for change in new:
                if change.seat == 1:
                    bot_moves += 1
                    hidden += move_cues(events_for(change.events, 0)) != move_cues(change.events)
        assert bot_moves >= 20
        assert hidden > 0, "some bot moves made sounds South could not know of"
    finally:
        w.close()


# -- what the window adds: the result, the clock, your turn ---------------------------------------


@pytest.mark.parametrize(("loser", "heard"), [(1, cues.WIN), (0, cues.LOSS)])
def test_the_end_of_a_game_plays_win_or_loss_for_the_person(toy_window, loser, heard):
    w = toy_window(seats=("human", "first"), store=MemorySettings())
    w.session.play(w.session.state.legal_moves()[0])
    flush(w)
    w.sound.played.clear()
    w.session.resign(loser)
    flush(w)
    assert list(w.sound.played) == [heard]


def test_the_clock_under_30_seconds_is_heard_once(toy_window):
    now = [1000.0]
    w = toy_window(store=MemorySettings(), clock=ClockSettings(total=60.0), time_source=lambda: now[0])
    s = w.session
    s.play(s.state.legal_moves()[0])  # the clocks start with the first move: White's runs now
    flush(w)
    w.sound.played.clear()
    now[0] += 20.0
    flush(w)
    assert list(w.sound.played) == [], "40 s left: nothing yet"
    now[0] += 15.0
    flush(w)
    assert list(w.sound.played) == [cues.CLOCK_LOW]
    now[0] += 5.0
    flush(w)
    assert list(w.sound.played) == [cues.CLOCK_LOW], "once, not every frame"
    w.session.restart()  # a new game: the clocks are full again, so the warning is due again
    s = w.session
    s.play(s.state.legal_moves()[0])
    flush(w)
    w.sound.played.clear()
    now[0] += 35.0
    flush(w)
    assert list(w.sound.played) == [cues.CLOCK_LOW]


# -- no audio device: silent, no error ------------------------------------------------------------


@pytest.fixture
def fresh_player(monkeypatch):
    """The next window loads the sounds anew (the process's shared player is put aside)."""
    monkeypatch.setattr(sound, "_SHARED", None)


def play_a_game_silently(toy_window, caplog) -> None:
    """Moves, the M key twice and a result, all without sound and without an error."""
    with caplog.at_level(logging.INFO, logger="pegboard.ui.sound"):
        w = toy_window(store=MemorySettings())
        assert w.sound.player.state == "silent"
        for move in w.session.state.legal_moves()[:3]:
            w.session.play(move)
            flush(w)
        w.press(key.M)
        w.press(key.M)
        w.session.resign(0)
        flush(w)
    assert list(w.sound.played) == [] and w.sound.player.voices() == []
    assert w.session.cursor == 3 and w.session.result is not None
    said = [r for r in caplog.records if r.name == "pegboard.ui.sound"]
    assert len(said) == 1 and said[0].message.startswith("sound is off: ") and said[0].exc_info is None


def test_with_no_audio_driver_the_game_runs_silently(toy_window, fresh_player, monkeypatch, caplog):
    import pyglet.media.drivers

    monkeypatch.setattr(pyglet.media.drivers, "_audio_driver", None)  # what get_audio_driver() gives without one
    play_a_game_silently(toy_window, caplog)


def test_without_pyglet_media_at_all_the_game_runs_silently(toy_window, fresh_player, monkeypatch, caplog):
    monkeypatch.setitem(sys.modules, "pyglet.media", None)  # importing it fails, as with broken audio libraries
    play_a_game_silently(toy_window, caplog)


def test_an_audio_device_that_fails_mid_game_turns_sound_off_quietly(toy_window, fresh_player, monkeypatch, caplog):
    import pyglet.media
    from pyglet.media.exceptions import MediaException

    w = toy_window(store=MemorySettings())
    w.session.play(w.session.state.legal_moves()[0])
    flush(w)
    assert list(w.sound.played) == [cues.MOVE]

    def unplugged(player):
        raise MediaException("the audio device is gone")

    monkeypatch.setattr(pyglet.media.Player, "play", unplugged)
    with caplog.at_level(logging.INFO, logger="pegboard.ui.sound"):
        for move in w.session.state.legal_moves()[:2]:
            w.session.play(move)
            flush(w)
    assert list(w.sound.played) == [cues.MOVE] and w.sound.player.state == "silent"
    assert w.session.cursor == 3
    said = [r for r in caplog.records if r.name == "pegboard.ui.sound"]
    assert len(said) == 1 and "the audio device is gone" in said[0].message and said[0].exc_info is None


def test_headless_without_a_usable_driver_a_game_plays_with_no_error(tmp_path):
    """A separate headless process whose only audio driver is one pyglet does not have: it falls back
    to silence, and a game with moves and the M key runs with nothing on stderr."""
    script = """
import sys
from pegboard.ui import make_session, open_window
from pegboard.ui.settings import MemorySettings
from pyglet.window import key
session = make_session("nodewar", None, ["human", "human"], threaded=False)
window = open_window(session, schedule=False, settings_store=MemorySettings())
assert window.sound.player.wait()
for move in session.state.legal_moves()[:1]:
    session.play(move)
for _ in range(5):
    window.tick(0.1)
window.press(key.M)
print(window.sound.player.state, window.sound.player.driver, list(window.sound.played), window.status_line()[0])
window.close()
"""
    env = dict(os.environ, PYGLET_HEADLESS="1", PYGLET_AUDIO="no-such-driver", PEGBOARD_HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stderr == "", done.stderr[-3000:]
    assert done.stdout.split() == ["ready", "silent", "['move']", "Sound", "off."]


def test_through_openal_the_cues_reach_the_device_at_their_volume(tmp_path):
    """With OpenAL Soft installed, its wave-file backend stands in for a sound card: the file it
    writes holds the two "move" cues played, the second at half the volume of the first."""
    import array
    import ctypes.util
    import struct

    if ctypes.util.find_library("openal") is None:
        pytest.skip("OpenAL Soft is not installed (Debian: libopenal1)")
    out = tmp_path / "device.wav"
    conf = tmp_path / "alsoft.conf"
    conf.write_text(f"[general]\ndrivers = wave\n[wave]\nfile = {out}\n")
    script = """
import time
from pegboard.ui.sound import SoundPlayer
player = SoundPlayer(background=False)
player.load()
print(player.state, player.driver)
for volume in (1.0, 0.5):
    player.play("move", volume)
    time.sleep(0.6)  # let the device render it, then a gap of silence
player.close()
"""
    env = dict(os.environ, PYGLET_HEADLESS="1", PYGLET_AUDIO="openal", ALSOFT_CONF=str(conf))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.split() == ["ready", "openal"], done.stdout + done.stderr[-2000:]
    data = out.read_bytes()
    at = data.index(b"data") + 8  # OpenAL Soft writes 32-bit float samples
    samples = array.array("f")
    samples.frombytes(data[at : at + (len(data) - at) // 4 * 4])
    assert struct.unpack("<H", data[20:22])[0] in (3, 0xFFFE)  # IEEE float, or the extensible form of it
    bursts: list[float] = []  # the peak of each stretch of sound
    quiet = 0
    for value in samples:
        if abs(value) > 1e-4:
            if quiet > 2000 or not bursts:
                bursts.append(0.0)
            bursts[-1] = max(bursts[-1], abs(value))
            quiet = 0
        else:
            quiet += 1
    assert len(bursts) == 2, bursts
    assert bursts[1] / bursts[0] == pytest.approx(0.5, abs=0.05)


# -- volume and mute, kept in the profile -----------------------------------------------------------


def test_the_m_key_turns_sound_off_and_on_and_says_so(toy_window):
    w = toy_window(store=MemorySettings())
    w.press(key.M)
    w.tick(0.016)
    assert w.status.text.text == "Sound off." and not w.sound.enabled
    w.session.play(w.session.state.legal_moves()[0])
    flush(w)
    assert list(w.sound.played) == [], "muted: nothing plays"
    w.press(key.M)
    w.tick(0.016)
    assert w.status.text.text == "Sound on." and w.sound.enabled
    w.session.play(w.session.state.legal_moves()[0])
    flush(w)
    assert list(w.sound.played) == [cues.MOVE]


def test_mute_and_volume_are_kept_in_the_profile_across_a_restart(toy_window):
    from pegboard.ratings.profile import open_profile

    first = toy_window()  # no store given: the profile, as `pegboard play` opens it
    dialog = first.open_settings()
    row = dialog.widget_for("sound")
    assert dialog.chosen()["sound"] == 70, "70 % until changed"
    for _ in range(3):
        first.click_widget(row.prev)
    first.click_widget(dialog.save_button)
    assert first.sound.volume == 40
    first.session.play(first.session.state.legal_moves()[0])
    flush(first)
    assert first.sound.player.voices()[-1].volume == pytest.approx(0.4), "played at the chosen volume"
    first.press(key.M)
    first.close()
    with open_profile() as profile:
        assert profile.settings("sound") == {"sound_on": False, "sound_volume": 40}
    second = toy_window()
    assert not second.sound.enabled and second.sound.volume == 40
    assert second.open_settings().chosen()["sound"] == 0, "the Settings row shows Off"
    second.close_dialog(second.dialog)
    second.press(key.M)
    second.session.play(second.session.state.legal_moves()[0])
    flush(second)
    assert list(second.sound.played) == [cues.MOVE] and second.sound.player.voices()[-1].volume == pytest.approx(0.4)


def test_every_game_has_a_settings_panel_with_the_sound_row():
    from pegboard.ui import make_session, open_window

    plugins = Plugins()
    session = make_session("nodewar", None, ["human", "human"], plugins, threaded=False)
    w = open_window(session, plugins, schedule=False, settings_store=MemorySettings())
    try:
        assert "settings" in w.buttons and w.buttons["settings"].visible
        w.click_widget(w.buttons["settings"])
        dialog = w.dialog
        assert [s.key for s in dialog.settings] == ["sound"] and dialog.note.text == ""
        w.click_widget(dialog.widget_for("sound").next)
        w.click_widget(dialog.save_button)
        assert w.sound.volume == 80 and w.settings_store.get_setting("sound", "sound_volume") == 80
        dialog = w.open_settings()
        for _ in range(8):  # 80 % down to Off
            w.click_widget(dialog.widget_for("sound").prev)
        assert dialog.chosen()["sound"] == 0
        w.click_widget(dialog.save_button)
        assert not w.sound.enabled and w.sound.volume == 80, "Off keeps the volume for M to come back to"
    finally:
        w.close()


def test_a_burst_of_moves_plays_only_the_newest_cues(toy_window):
    w = toy_window(store=MemorySettings())
    for _ in range(12):  # twelve moves before the next frame (bots answering each other at once)
        w.session.play(w.session.state.legal_moves()[0])
    w.session.resign(0)  # two people at the window: a win is a win for one of them
    flush(w, frames=30)
    assert list(w.sound.played) == [cues.MOVE] * 3 + [cues.WIN]


def test_the_m_key_is_answered_over_the_boards_own_status_line():
    from pegboard.ui import make_session, open_window

    plugins = Plugins()
    session = make_session("nodewar", None, ["human", "human"], plugins, threaded=False)
    w = open_window(session, plugins, schedule=False, settings_store=MemorySettings())
    try:
        empty = next(p for p in range(len(session.state.owner)) if session.state.owner[p] < 0)
        w.click(*w.board.point_xy(empty))  # an empty point first: the board says why nothing happened
        w.tick(0.016)
        said = w.status.text.text
        assert said.startswith("Select one of your alive nodes"), said
        w.press(key.M)
        w.tick(0.016)
        assert w.status.text.text == "Sound off."
        w.press(key.M)
        w.tick(0.016)
        assert w.status.text.text == "Sound on."
        w.session.play(w.session.state.legal_moves()[0])
        w.tick(0.016)
        assert w.status.text.text != "Sound on.", "a move takes the answer away"
    finally:
        w.close()
