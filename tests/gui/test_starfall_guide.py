"""The guided first game as a new player meets it: offered once on a plain first launch,
never at a wrong moment, lit steps that say what is lit, a Guide bot that does what the docs
say, and a normal game after it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pegboard.match.session import Session
from pegboard.plugins.manager import Plugins
from pegboard.ui.settings import MemorySettings
from support.starfall_window import center, drag, settle

pytestmark = pytest.mark.gui

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules" / "starfall.md"


@pytest.fixture
def launched(monkeypatch):
    """``pegboard play starfall`` run for real, up to the window (no event loop): the windows it opened."""
    from pegboard import ui

    opened = []

    def launch(game_id, ruleset=None, seats=(), *, plugins=None):
        session = ui.make_session(game_id, ruleset, seats, plugins, workers="inline")
        opened.append(ui.open_window(session, plugins, schedule=False))
        return 0

    monkeypatch.setattr(ui, "launch", launch)
    yield opened
    for window in opened:
        if not window.has_exit:
            window.close()


def play_starfall() -> None:
    from pegboard.cli.app import run

    assert run(["play", "starfall"]) == 0


def welcomed() -> bool:
    from pegboard.ratings.profile import open_profile

    with open_profile() as profile:
        return bool(profile.get_setting("starfall", "welcomed", False))


def test_a_plain_first_launch_offers_the_welcome_once_and_the_profile_remembers(launched):
    assert not welcomed(), "a fresh profile"
    play_starfall()
    window = launched[0]
    assert window.dialog is not None and window.dialog.title == "Welcome to Starfall"
    assert welcomed(), "the profile records that the player was welcomed"
    window.click_widget(window.dialog.no_button)  # Just play
    assert window.dialog is None and window.board.guide is None
    window.close()
    play_starfall()
    assert launched[1].dialog is None, "never asked again"


def test_the_welcome_never_pops_up_after_an_online_match(launched):
    play_starfall()
    window = launched[0]
    assert window.dialog is not None and "Welcome" in window.dialog.title
    window.click_widget(window.dialog.no_button)
    own = window.session

    class Online(Session):  # a match over the network, as the window sees one
        online = True

    away = Online(own.game, ["human", "human"], seed=5, plugins=own.plugins, threaded=False)
    window.switch_session(away)
    assert window.dialog is None
    window.switch_session(own)  # Back to your game
    assert window.dialog is None, "no Welcome on Back to your game"


def test_no_welcome_on_a_first_view_that_is_an_online_match(monkeypatch):
    from pegboard.ui import make_session, open_window

    class Online(Session):
        online = True

    plugins = Plugins()
    local = make_session("starfall", "standard", ["human", "skill-10"], plugins, threaded=False)
    away = Online(local.game, ["human", "human"], seed=5, plugins=plugins, threaded=False)
    window = open_window(away, plugins, schedule=False, settings_store=MemorySettings())
    try:
        assert window.dialog is None, "an online match is the host's: no tour offered over it"
        window.switch_session(local)
        assert window.dialog is None, "coming back is not a first launch"
    finally:
        window.close()


def start_tour(store: MemorySettings):
    from pegboard.ui import make_session, open_window

    plugins = Plugins()
    session = make_session("starfall", "standard", ["human", "skill-10"], plugins, threaded=False)
    window = open_window(session, plugins, schedule=False, settings_store=store)
    assert window.dialog is not None and "Welcome" in window.dialog.title
    window.click_widget(window.dialog.yes_button)
    assert window.board.guide is not None
    return window


def take_the_tour(window) -> None:
    """The three lit steps, clicked the way the status line says; checks what each step lights."""
    view, s = window.board, window.session
    scout = view.guide_squares[0]
    window.click(*center(window, scout))
    window.click(*center(window, view.guide_squares[0]))
    settle(window)
    assert view.guide.step == "claim"
    # step 2: the words name the button that is lit, and only that one is lit
    scout = view.guide_squares[0]
    window.click(*center(window, scout))
    lit = [name for name, b in view.mode_buttons.items() if b.visible and b.toggled]
    assert lit == ["claim"], f"the lit button is Claim, not {lit}"
    assert "Claim" in window.status.text.text and "lit" in window.status.text.text
    window.click_widget(view.mode_buttons["claim"])
    settle(window)
    assert view.guide.step == "match"
    # step 3: both lit stars are bare: no star hidden under a drone is lit as a partner
    a, b = view.guide_squares
    st = s.state
    assert not st.kind[a] and not st.kind[b], "a star under a drone cannot be seen"
    drag(window, a, b)
    settle(window)
    assert view.guide.step == "done"


def test_the_tour_lights_what_it_names_and_new_afterwards_plays_the_stored_settings():
    store = MemorySettings()
    store.set_setting("starfall", "skill", 30)
    store.set_setting("starfall", "target", 72)
    window = start_tour(store)
    try:
        take_the_tour(window)
        window.click_widget(window.buttons["new"])
        s, view = window.session, window.board
        assert view.guide is None, "not another guided game"
        assert s.state.rules.fog == "off" and s.state.rules.target == 72, "the profile's settings"
        assert [c.id for c in s.seats] == ["human", "skill-30"], "the profile's bot skill"
        assert s.clock is None and s.cursor == 0
        window.click_widget(window.buttons["new"])
        assert [c.id for c in window.session.seats] == ["human", "skill-30"] and window.board.guide is None
    finally:
        window.close()


def test_the_guide_bot_plays_quiet_moves_as_the_docs_say():
    from pegboard_starfall.ui import guided

    docs = " ".join(DOCS.read_text(encoding="utf-8").split())
    assert "a quiet move every turn" in docs and "never fires" in docs
    game, _ref = guided.guided_game(Plugins())
    bot = guided.ScriptedBot()
    checked = 0
    for seed in (0, 3, 8):
        st = game.new_state(seed)
        rng = random.Random(0)
        for _ply in range(60):
            if st.result is not None:
                break
            if st.to_move == 1:
                view = st.player_view(1)
                move = bot.choose(view.clone(), 0.0)
                assert move.kind in ("swap", "move", "pass"), move
                if move.kind == "swap":  # quiet as far as the Guide can see (the dark may still hide a cascade)
                    drones = view.drone_count(1)
                    view.apply(move)
                    assert view.drone_count(1) == drones, f"{move} pays the Guide a drone in its own view"
                else:
                    assert not st.kind[move.b] and st.geo.half[move.b] == 1, f"{move}: a step onto an empty square"
                events = st.apply(move)
                assert not any(e.kind in ("take", "missile", "claim") or "taking" in e.text for e in events)
                checked += 1
            else:
                st.apply(st.random_move(rng))
    assert checked >= 60
