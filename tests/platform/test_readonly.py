"""Bots that only read get the live state behind a read-only view, and cannot change it."""

from __future__ import annotations

from typing import Any

import pytest

from pegboard import hookimpl
from pegboard.batch.readonly import ReadOnlyState
from pegboard.batch.runner import MatchPlan, play_game
from pegboard.errors import BotError, ReadOnlyError
from pegboard.plugins.manager import Plugins
from pegboard.rules.rulesets import build_game, load_ruleset
from pegboard.specs import BotSpec


class Meddler:
    """Claims to only read, then tries to play a move on the position it was shown."""

    def __init__(self, how: str) -> None:
        self.how = how

    def choose(self, view: Any, budget: float) -> Any:
        move = view.legal_moves()[0]
        if self.how == "push":
            view.push(move)
        elif self.how == "apply":
            view.apply(move)
        else:
            view.undo()
        return move


class Searcher:
    """Reads only through a private clone, which it may change freely."""

    def choose(self, view: Any, budget: float) -> Any:
        copy = view.clone()
        move = copy.legal_moves()[-1]
        copy.push(move)
        copy.undo()
        return move


class _Bots:
    @hookimpl
    def pegboard_bots(self, game: str) -> list[BotSpec]:
        specs = [BotSpec(f"meddle-{how}", how, lambda g, s, how=how: Meddler(how), reads_only=True) for how in ("push", "apply", "undo")]
        return [*specs, BotSpec("searcher", "Searcher", lambda g, s: Searcher(), reads_only=True)]


@pytest.fixture()
def plugins(toy_plugins: Plugins) -> Plugins:
    toy_plugins.register(_Bots(), name="readonly-test-bots")
    return toy_plugins


def test_the_view_reads_the_live_state_and_refuses_every_change(plugins: Plugins) -> None:
    game = build_game(load_ruleset("toy/standard", plugins=plugins), plugins)
    state = game.new_state(1)
    view = ReadOnlyState(state)
    move = state.legal_moves()[0]
    assert view.legal_moves() == state.legal_moves() and view.to_move == state.to_move
    snapshot = state.to_json()
    for change in (lambda: view.push(move), lambda: view.apply(move), view.undo, view.extend):
        with pytest.raises(ReadOnlyError):
            change()
    assert state.to_json() == snapshot and state.ply == 0
    state.push(move)  # the view follows the live state
    assert view.ply == 1 and view.to_json() == state.to_json()
    copy = view.clone()
    copy.undo()
    assert state.ply == 1, "a clone is the bot's own"


@pytest.mark.parametrize("how", ["push", "apply", "undo"])
def test_a_bot_that_writes_to_its_view_is_stopped(plugins: Plugins, how: str) -> None:
    plan = MatchPlan("toy", (f"meddle-{how}", "random"), ruleset="toy/standard", seed=2)
    with pytest.raises(BotError, match="may only read"):
        play_game(plan, 0, plugins)


def test_random_and_cloning_bots_play_whole_games_through_the_view(plugins: Plugins) -> None:
    from pegboard.records.validate import validate_record

    outcome = play_game(MatchPlan("toy", ("random", "searcher"), ruleset="toy/standard", seed=5), 0, plugins)
    assert outcome.finished
    assert validate_record(outcome.record, "mem", plugins).ok
