"""Node War bots: registration, legality over seeded playouts, determinism, budgets, CLI."""

from __future__ import annotations

from typing import Any

import pytest

from pegboard.plugins.manager import get_plugins
from pegboard_nodewar import NodeWarGame, load_shipped
from pegboard_nodewar.bots import WORK_PER_SECOND, EasyBot, ExpertBot, HardBot, MediumBot, guard
from support.nodewar_helpers import random_position, smother_position

LEVELS = ("easy", "medium", "hard", "expert")
#: Small budgets: these tests check behaviour, never speed.
BUDGET = {"easy": 0.02, "medium": 0.1, "hard": 0.5, "expert": 0.05}


def make(game: NodeWarGame, level: str, seed: int) -> Any:
    return get_plugins().bot("nodewar", level).factory(game, seed)


def test_four_levels_registered_weakest_first() -> None:
    bots = get_plugins().bots("nodewar")
    own = [spec for spec in bots.values() if spec.game == "nodewar"]
    assert [spec.id for spec in own] == list(LEVELS)
    assert [spec.name for spec in own] == ["Easy", "Medium", "Hard", "Expert"]
    assert [spec.budget for spec in own] == sorted(spec.budget for spec in own)
    assert all(spec.description for spec in own)


def test_no_bots_offered_for_other_games() -> None:
    """Node War's hooks return its own specs; the manager offers them for Node War only."""
    plugins = get_plugins()
    nodewar_bots = {spec.id for spec in plugins.bots("nodewar").values() if spec.game == "nodewar"}
    assert len(nodewar_bots) == 4 and not nodewar_bots & set(plugins.bots("starfall"))
    assert all(spec.game == "starfall" for spec in plugins.evaluators("starfall").values())


@pytest.mark.parametrize("level", LEVELS)
def test_bot_plays_legal_moves_and_leaves_its_view_alone(game: NodeWarGame, level: str) -> None:
    for seed in (1, 2):
        state = random_position(game, 6 + 10 * seed, seed)
        bot = make(game, level, seed)
        for _ in range(6):
            if state.result is not None:
                break
            view = state.player_view(state.to_move)
            before = view.to_json()
            move = bot.choose(view, BUDGET[level])
            assert view.to_json() == before
            assert move in state.legal_moves()
            state.apply(move)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_moves(game: NodeWarGame, level: str) -> None:
    def line(seed: int) -> list[Any]:
        state = random_position(game, 12, 4)
        bots = (make(game, level, seed), make(game, "easy", seed + 1))
        moves = []
        while len(moves) < 8 and state.result is None:
            move = bots[state.to_move].choose(state.clone(), BUDGET[level])
            moves.append(move)
            state.apply(move)
        return moves

    assert line(7) == line(7)


def test_easy_differs_with_the_seed(game: NodeWarGame) -> None:
    state = random_position(game, 10, 2)
    picks = {EasyBot(game, seed).choose(state.clone(), 0.02) for seed in range(8)}
    assert len(picks) > 1


@pytest.mark.parametrize("ruleset", ["skirmish", "wide"])
def test_bots_play_other_rulesets(ruleset: str) -> None:
    game = NodeWarGame(load_shipped(ruleset))
    state = random_position(game, 8, 1)
    for bot in (EasyBot(game, 1), MediumBot(game, 1), HardBot(game, 1), ExpertBot(game, 1)):
        for _ in range(2):
            if state.result is None:
                state.apply(bot.choose(state.clone(), 0.05))


def test_a_won_game_is_taken_at_once(game: NodeWarGame) -> None:
    """Red has one alive node with one reachable line left; every bot above Easy cuts it and wins."""
    state = smother_position(game, to_move=1)
    for bot in (MediumBot(game, 1), HardBot(game, 1), ExpertBot(game, 1)):
        view = state.clone()
        view.apply(bot.choose(view, 0.2))
        assert view.result is not None and view.result.winner == 1 and view.result.reason == "no_moves"


def test_expert_budget_buys_more_search(game: NodeWarGame) -> None:
    state = random_position(game, 30, 3)
    small, large = ExpertBot(game, 1), ExpertBot(game, 1)
    small.choose(state.clone(), 0.0)
    large.choose(state.clone(), 0.6)
    assert small.iterations == 0 < large.iterations
    assert small.work_limit < large.work_limit == 0.6 * WORK_PER_SECOND


def test_wall_clock_guard() -> None:
    assert guard(0.0) == 0.5
    assert guard(1.0) == pytest.approx(3.5)
    assert guard(2.0) == pytest.approx(4.5)  # never past budget + 2.5 s: no move reaches 5 s
    assert guard(-1.0) == 0.5


def test_match_command_plays_the_levels(cli: Any) -> None:
    result = cli("match", "nodewar", "--blue", "medium", "--red", "easy", "--games", "2", "-j", "1", entry_points=True)
    assert result.code == 0, result.err
    assert "medium" in result.out and "easy" in result.out


def test_tutorial_cutter_bot_plays_legal_moves(game: NodeWarGame) -> None:
    """plugins/examples/nodewar_cutter_bot.py (docs/plugins.md tutorial) loads as a plugin file and plays."""
    from pathlib import Path

    from pegboard.plugins.manager import Plugins

    path = Path(__file__).resolve().parents[2] / "plugins" / "examples" / "nodewar_cutter_bot.py"
    plugins = Plugins(load_entry_points=True, plugin_files=[path])
    spec = plugins.bot("nodewar", "cutter")
    bot = spec.factory(game, 5)
    state = random_position(game, 10, 5)
    for _ in range(4):
        if state.result is None:
            view = state.clone()
            move = bot.choose(view, spec.budget)
            assert view.to_json() == state.to_json()
            state.apply(move)


def test_bots_benchmark_runs_quick() -> None:
    spec = get_plugins().benchmarks("nodewar")["nodewar-bots"]
    figures = spec.run(True)
    assert figures[0].unit == "evaluations/s" and figures[0].value > 0
    assert [f.name.split()[0] for f in figures[1:]] == ["Easy", "Medium"]
