"""Issue 25, item 3: every game a person starts in the window deals from a fresh seed, the
record keeps that seed so the game replays exactly, and a chosen seed still reproduces a game."""

from __future__ import annotations

import random

import pytest

from pegboard.plugins.manager import Plugins
from pegboard.records.replay import replay
from pegboard.ui.settings import MemorySettings

pytestmark = pytest.mark.gui


@pytest.fixture
def plugins():
    return Plugins()


def welcomed() -> MemorySettings:
    store = MemorySettings()
    store.set_setting("starfall", "welcomed", True)
    return store


def sky(session) -> str:
    """The deal a person sees first: the whole start position as JSON text."""
    return repr(session.game.new_state(session.seed).to_json())


def test_two_launches_deal_two_different_skies(plugins):
    from pegboard.ui import make_session

    # seed=None is what `pegboard play` (ui.launch) passes when no --seed is given
    sessions = [make_session("starfall", "standard", ["human", "human"], plugins, seed=None, threaded=False)
                for _ in range(3)]
    assert len({s.seed for s in sessions}) == 3
    assert len({sky(s) for s in sessions}) == 3


def test_new_game_in_the_window_deals_a_fresh_seed_and_its_record_replays_exactly(plugins):
    from pegboard.ui import make_session, open_window

    session = make_session("nodewar", "standard", ["human", "human"], plugins, seed=None, threaded=False)
    window = open_window(session, plugins, schedule=False, settings_store=welcomed())
    try:
        first = session.seed
        window.click_widget(window.buttons["new"])
        seeds = [first, session.seed]
        window.click_widget(window.buttons["new"])
        seeds.append(session.seed)
        assert len(set(seeds)) == 3 and seeds[1] != first + 1 and seeds[2] != seeds[1] + 1
        rng = random.Random(4)
        played = 0
        while played < 12 and not session.is_over:
            session.play(rng.choice(list(session.state.legal_moves())))
            played += 1
        assert played == 12
        record = session.to_record()
        assert record["seed"] == seeds[2]
        replayed, _events = replay(record, plugins)
        assert replayed.to_json() == session.state.to_json()
    finally:
        window.close()


def test_a_chosen_seed_reproduces_the_game_and_new_goes_on_from_it(plugins):
    from pegboard.ui import make_session

    a = make_session("starfall", "standard", ["human", "human"], plugins, seed=41, threaded=False)
    b = make_session("starfall", "standard", ["human", "human"], plugins, seed=41, threaded=False)
    assert a.seed == b.seed == 41 and sky(a) == sky(b)
    a.restart()
    assert a.seed == 42  # New after a --seed game: the next seed, so the whole sitting replays


def test_play_passes_seed_to_the_window(cli, monkeypatch):
    import sys
    import types

    import pegboard

    calls = []
    fake = types.ModuleType("pegboard.ui")
    fake.DisplayUnavailable = RuntimeError
    fake.launch = lambda game_id, ruleset, seats, seed=None: calls.append((game_id, seed)) or 0
    monkeypatch.setitem(sys.modules, "pegboard.ui", fake)
    monkeypatch.setattr(pegboard, "ui", fake, raising=False)
    assert cli("play", "toy", "--seed", "7").code == 0
    assert cli("play", "toy").code == 0
    bad = cli("play", "toy", "--seed", "-1")
    assert bad.code == 2 and len(bad.err_lines) == 1
    assert calls == [("toy", 7), ("toy", None)]
