"""The built-in ``mcts`` bot on Node War: a forced win, its work budget, its seed."""

from __future__ import annotations

from pegboard.plugins.manager import get_plugins
from pegboard.search.mcts import MCTSBot
from pegboard_nodewar import NodeWarGame
from support.nodewar_helpers import random_position, smother_position


def mcts(game: NodeWarGame, seed: int = 1) -> MCTSBot:
    bot = get_plugins().bot("nodewar", "mcts").factory(game, seed)
    assert isinstance(bot, MCTSBot) and bot.evaluator is not None  # Node War's evaluator scores playouts
    return bot


def test_finds_the_cut_that_smothers_the_enemy_base(game: NodeWarGame) -> None:
    state = smother_position(game, to_move=1)
    found = mcts(game).search(state.player_view(1), work=5_000)
    state.apply(found.move)
    assert state.result is not None and state.result.winner == 1
    assert found.win_chance == 1.0


def test_spends_exactly_its_work_and_depends_only_on_seed_view_and_work(game: NodeWarGame) -> None:
    state = random_position(game, 24, 6)
    bot = mcts(game, 3)
    first = bot.search(state.clone(), work=400)
    assert first.work == 400 and bot.simulations == 400
    bot.choose(random_position(game, 10, 2), 0.0)
    assert bot.search(state.clone(), work=400) == first
    view = state.clone()
    mcts(game, 3).search(view, work=50)
    assert view.to_json() == state.to_json()  # push/undo leave the view as it was
