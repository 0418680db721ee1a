"""Issue 25, item 14: ``pegboard play`` without a game opens on a game chooser: every installed
game with its picture and one line, the last game played selected (kept in the profile)."""

from __future__ import annotations

import subprocess
import sys
import types

import pytest
from pyglet.window import key

from pegboard.plugins.manager import Plugins
from pegboard.ui.catalog import game_choices
from pegboard.ui.settings import MemorySettings

pytestmark = pytest.mark.gui


@pytest.fixture
def chooser_factory(opened):
    from pegboard.ui.chooser import ChooserWindow

    def make(store=None, width=1280, height=800, scale=None):
        picked: list[str] = []
        window = ChooserWindow(game_choices(Plugins()), store or MemorySettings(), picked.append, width=width,
                               height=height, ui_scale=scale)
        window.picked = picked
        opened.append(window)
        return window

    return make


def test_every_installed_game_has_a_card_with_its_picture_and_one_line(chooser_factory):
    plugins = Plugins()
    w = chooser_factory()
    cards = w.chooser.cards
    assert [c.choice.id for c in cards] == list(plugins.games()) and {"nodewar", "starfall"} <= {c.choice.id for c in cards}
    for card in cards:
        spec = plugins.game(card.choice.id)
        assert card.choice.name == spec.name and card.choice.description == spec.description != ""
        if card.choice.id in ("nodewar", "starfall"):
            assert card.choice.picture is not None and card.choice.picture.is_file()
            assert card._image is not None, "the picture is drawn on the card"
    w.render()


def test_the_last_game_played_is_selected_and_kept(chooser_factory):
    from pegboard.ui.chooser import last_game, remember_game

    store = MemorySettings()
    first = chooser_factory(store)
    assert first.chooser.selected == 0, "nothing played yet: the first game"
    remember_game(store, "starfall")
    w = chooser_factory(store)
    assert w.chooser.choice.id == "starfall" and w.chooser.play_button.text == "Play Starfall"
    remember_game(store, "no-such-game")  # an uninstalled game falls back to the first
    assert last_game(store, game_choices(Plugins())) == 0


def test_a_click_picks_a_card_and_a_double_click_enter_or_play_starts_it(chooser_factory):
    w = chooser_factory()
    cards = {c.choice.id: c for c in w.chooser.cards}
    w.click_widget(cards["nodewar"])
    assert w.chooser.choice.id == "nodewar" and w.picked == []
    assert w.chooser.play_button.text == "Play Node War"
    w.click_widget(cards["nodewar"])  # the second click of a double click
    assert w.picked == ["nodewar"]
    w.press(key.RIGHT)
    w.press(key.ENTER)
    assert len(w.picked) == 2 and w.picked[1] != "nodewar" or len(cards) == 1
    w.click_widget(w.chooser.play_button)
    assert w.picked[-1] == w.chooser.choice.id
    w.press(key.ESCAPE)
    assert not w.has_exit, "Escape does not close the chooser"


@pytest.mark.parametrize("width,height,scale", [(640, 480, 1), (800, 600, 1), (2560, 1440, 1), (1280, 960, 2)])
def test_the_chooser_holds_its_layout(chooser_factory, width, height, scale):
    w = chooser_factory(width=width, height=height, scale=scale)
    lw, lh = w.layout_size
    found = w.layout_rects()
    assert len(found) >= 5
    for i, (name, r, _widget) in enumerate(found):
        assert r.x >= 0 and r.y >= 0 and r.right <= lw and r.top <= lh, f"{name} leaves the window"
        for other, q, _ in found[i + 1 :]:
            w_ = min(r.right, q.right) - max(r.x, q.x)
            h_ = min(r.top, q.top) - max(r.y, q.y)
            assert not (w_ > 0.5 and h_ > 0.5), f"{name} overlaps {other}"
    assert all(card.picture_rect().height > 80 for card in w.chooser.cards), "the pictures stay visible"


def test_play_without_a_game_opens_the_chooser_and_a_pick_opens_that_game(tmp_path):
    code = (
        "import os\n"
        "os.environ['PYGLET_HEADLESS'] = '1'\n"
        "import pyglet\n"
        "from pyglet.window import key\n"
        "from pegboard.ui import launch\n"
        "from pegboard.ui.chooser import ChooserWindow\n"
        "seen = []\n"
        "def step(dt):\n"
        "    windows = list(pyglet.app.windows)\n"
        "    seen.append(sorted(type(w).__name__ for w in windows))\n"
        "    for w in windows:\n"
        "        if isinstance(w, ChooserWindow):\n"
        "            cards = [c.choice.id for c in w.chooser.cards]\n"
        "            w.chooser.select(cards.index('nodewar'))\n"
        "            w.dispatch_event('on_key_press', key.ENTER, 0)\n"
        "        elif len(seen) > 3:\n"
        "            print('GAME', w.session.game.id, [c.id for c in w.session.seats])\n"
        "            w.close()\n"
        "pyglet.clock.schedule_interval(step, 0.05)\n"
        "print('EXIT', launch(None))\n"
        "print('SEEN', seen[0], seen[-1])\n"
        "from pegboard.ratings.profile import open_profile\n"
        "with open_profile() as p:\n"
        "    print('LAST', p.get_setting('pegboard', 'last_game'))\n"
    )
    env = {**__import__("os").environ, "PEGBOARD_HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert "GAME nodewar ['human', 'expert']" in lines and "EXIT 0" in lines, "a person against the strongest bot"
    assert "SEEN ['ChooserWindow'] ['MatchWindow']" in lines, "the match window took the chooser's place"
    assert lines[-1] == "LAST nodewar", "the profile keeps the game played last"


def test_the_cli_opens_the_chooser_without_a_game(cli, monkeypatch):
    import pegboard

    calls = []
    fake = types.ModuleType("pegboard.ui")
    fake.DisplayUnavailable = RuntimeError
    fake.launch = lambda game_id, ruleset, seats, seed=None: calls.append((game_id, ruleset, list(seats), seed)) or 0
    monkeypatch.setitem(sys.modules, "pegboard.ui", fake)
    monkeypatch.setattr(pegboard, "ui", fake, raising=False)
    assert cli("play").code == 0 and calls == [(None, None, [], None)]
    bad = cli("play", "--skill", "3")
    assert bad.code == 2 and len(bad.err_lines) == 1 and "need the game" in bad.err
    assert cli("play", "--left", "random").code == 2, "an option where the game should be: one error line"
    assert cli("play", "--online", "Ann").code == 2
