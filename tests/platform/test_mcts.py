"""The built-in ``mcts`` bot on the Connect Four example: forced wins in three, budgets, seeds."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pegboard.plugins.manager import Plugins
from pegboard.search.mcts import MCTSBot
from pegboard.specs import Bot

PACKAGE = Path(__file__).resolve().parents[2] / "plugins" / "examples" / "connect4" / "pegboard_connect4"


@pytest.fixture(scope="module")
def plugins() -> Plugins:
    return Plugins(load_entry_points=False, plugin_files=[PACKAGE])


@pytest.fixture(scope="module")
def game(plugins: Plugins) -> Any:
    from pegboard.rules.rulesets import load_game

    return load_game("connect4", None, plugins)


def mcts(plugins: Plugins, game: Any, seed: int = 1) -> Bot:
    return plugins.bot("connect4", "mcts").factory(game, seed)


def winning_moves(state: Any) -> list[int]:
    me, out = state.to_move, []
    for move in state.legal_moves():
        state.push(move)
        if state.result is not None and state.result.winner == me:
            out.append(move)
        state.undo()
    return out


def forced_wins_in_three(state: Any) -> list[int]:
    """The mover's moves after which every reply leaves it a winning move."""
    out = []
    for move in state.legal_moves():
        state.push(move)
        forced = state.result is None and bool(state.legal_moves())
        for reply in state.legal_moves() if forced else ():
            state.push(reply)
            forced = state.result is None and bool(winning_moves(state))
            state.undo()
            if not forced:
                break
        state.undo()
        if forced:
            out.append(move)
    return out


def one_ply_choice(state: Any, evaluator: Any) -> int:
    """What a one-ply bot plays: the move after which the evaluator likes the position best."""
    sign = 1 if state.to_move == 0 else -1
    scored = []
    for move in state.legal_moves():
        state.push(move)
        scored.append((sign * evaluator.score(state), move))
        state.undo()
    return max(scored)[1]


def trap_positions(game: Any, evaluator: Any, wanted: int) -> list[Any]:
    """Positions from seeded random games with a forced win in three, no win in one, and a
    one-ply bot that plays something else."""
    found = []
    for seed in range(400):
        state, rng = game.new_state(), random.Random(seed)
        while state.result is None and len(found) < wanted:
            if not winning_moves(state):
                wins = forced_wins_in_three(state)
                if wins and one_ply_choice(state, evaluator) not in wins:
                    found.append((state.clone(), wins))
                    break
            state.push(rng.choice(state.legal_moves()))
        if len(found) >= wanted:
            break
    return found


def test_finds_forced_wins_in_three_that_a_one_ply_bot_misses(plugins: Plugins, game: Any) -> None:
    evaluator = plugins.evaluator("connect4").factory(game)
    traps = trap_positions(game, evaluator, 4)
    assert len(traps) == 4
    for state, wins in traps:
        found = mcts(plugins, game).search(state.clone(), work=4_000)
        assert found.move in wins, (state, wins, found)
        assert found.win_chance == 1.0  # proven by the solver, not guessed
        assert found.work < 4_000  # a proven root ends the search early


def test_work_budget_is_the_number_of_simulations_and_the_answer_depends_only_on_it(
    plugins: Plugins, game: Any
) -> None:
    state = game.new_state()
    for column in (3, 3, 2, 4):
        state.push(column)
    bot = mcts(plugins, game, 5)
    first = bot.search(state.clone(), work=300)
    assert first.work == 300 and bot.simulations == 300
    bot.choose(state.clone(), 0.0)  # uses the running generator: search starts afresh anyway
    again = bot.search(state.clone(), work=300)
    assert again == first and mcts(plugins, game, 5).search(state.clone(), work=300) == first
    assert first.line[0] == first.move and 0.0 <= (first.win_chance or 0.0) <= 1.0
    for move in first.line:
        assert state.check(move) is None
        state.push(move)


def test_a_zero_second_budget_runs_one_simulation_and_leaves_the_view(plugins: Plugins, game: Any) -> None:
    state = game.new_state()
    state.push(3)
    view = state.clone()
    bot = mcts(plugins, game)
    assert isinstance(bot, MCTSBot)
    move = bot.choose(view, 0.0)
    assert bot.simulations == 1 and move in state.legal_moves()
    assert view.to_json() == state.to_json()


def test_the_evaluator_scores_playouts_when_the_game_has_one(plugins: Plugins, game: Any) -> None:
    with_eval = mcts(plugins, game)
    assert isinstance(with_eval, MCTSBot) and with_eval.evaluator is not None
    bare = MCTSBot(game, 1)  # no evaluator: playouts run to the end of the game
    state = game.new_state()
    found = bare.search(state, work=200)
    assert found.work == 200 and found.move in state.legal_moves()


def test_mcts_is_offered_for_every_game(plugins: Plugins) -> None:
    games = list(plugins.games())
    assert games == ["connect4"], "the one game this module's registry loads"
    for game_id in games:
        assert "mcts" in plugins.bots(game_id)


def test_search_wants_exactly_one_budget(plugins: Plugins, game: Any) -> None:
    with pytest.raises(ValueError):
        mcts(plugins, game).search(game.new_state(), seconds=1.0, work=10)
