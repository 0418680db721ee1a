"""The OpenSpiel adapter: pyspiel's own random-simulation check, chance, fog, and the MCTS bot."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed (tools/dev.py test installs it)")
np = pytest.importorskip("numpy", reason="the openspiel extra brings numpy")

from pegboard.interop import SEED_OUTCOMES  # noqa: E402
from pegboard.interop.mcts import OpenSpielMCTS  # noqa: E402
from pegboard.interop.openspiel import register, short_name, spiel_game  # noqa: E402
from pegboard.plugins.manager import Plugins  # noqa: E402


def test_every_installed_ruleset_loads_as_a_pyspiel_game(installed: Plugins) -> None:
    names = register()
    assert "pegboard_nodewar_standard" in names and "pegboard_starfall_fog_dark" in names
    for name in names:
        game = pyspiel.load_game(name)  # found through pyspiel's own registry
        state = game.new_initial_state()
        if state.is_chance_node():
            state.apply_action(11)
        assert state.legal_actions() == sorted(state.legal_actions())
        assert game.num_distinct_actions() > max(state.legal_actions())


@pytest.mark.parametrize("name", ["nodewar/skirmish", "starfall/quick"])
def test_random_sim_test_passes(installed: Plugins, name: str) -> None:
    pyspiel.random_sim_test(spiel_game(name), num_sims=2, serialize=False, verbose=False)


def test_random_sim_test_passes_under_fog_and_chance(installed: Plugins, short_starfall: str) -> None:
    game = spiel_game(short_starfall)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_node_war_is_deterministic_perfect_information(installed: Plugins) -> None:
    game = spiel_game("nodewar/standard")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game.max_game_length() == 300


def test_chance_picks_the_engine_seed(installed: Plugins) -> None:
    game = spiel_game("starfall/standard")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == SEED_OUTCOMES and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    a, b = state.child(3), state.child(3)
    assert str(a) == str(b)  # the same seed deals the same sky
    assert str(state.child(4)) != str(a)
    # the seed is never in what a player observes
    assert '"seed"' not in a.observation_string(0)


def test_fog_hides_the_other_side_from_observations(installed: Plugins) -> None:
    game = spiel_game("starfall/fog_dark")
    state = game.new_initial_state().child(5)
    seen = [state.observation_string(p) for p in (0, 1)]
    assert seen[0] != seen[1]
    assert "null" in seen[0]
    inner = state.inner
    visible = inner.observation(0)["visible"]
    hidden = next((r, c) for r, row in enumerate(visible) for c, v in enumerate(row) if not v)
    before = np.array(state.observation_tensor(0))
    square = hidden[0] * inner.geo.width + hidden[1]
    inner.star[square] = (inner.star[square] + 1) % 5 if inner.star[square] >= 0 else 0
    inner.memo.forget()
    assert np.array_equal(before, np.array(state.observation_tensor(0)))


def test_information_state_has_perfect_recall(installed: Plugins, short_starfall: str) -> None:
    game = spiel_game(short_starfall)
    state = game.new_initial_state().child(1)
    rng = np.random.RandomState(0)
    strings = {state.information_state_string(0)}
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
        strings.add(state.information_state_string(0))
    assert len(strings) == 7  # every step adds to seat 0's record


def test_short_names_are_stable() -> None:
    from pegboard.interop.loading import load

    assert short_name(load("nodewar/wide")) == "pegboard_nodewar_wide"


def test_openspiel_mcts_plays_legal_moves_in_a_pegboard_match(installed: Plugins) -> None:
    from pegboard.batch.runner import MatchPlan, run_match

    plan = MatchPlan(game="nodewar", bots=("openspiel-mcts", "random"), ruleset="skirmish", games=2, seed=4, budget=0.02)
    report = run_match(plan, jobs=1, plugins=installed)
    assert all(o.plies > 0 for o in report.outcomes)
    assert report.stats[0].wins + report.stats[0].draws + report.stats[0].losses == 2


def test_mcts_moves_legally_from_a_starfall_view(installed: Plugins) -> None:
    # the bot searches a view (no seed in it: a determinization), and its move is legal in the real game
    from pegboard.interop.loading import load

    game = load("starfall/quick", installed).game
    state = game.new_state(2)
    bot = OpenSpielMCTS(game, seed=1)
    move = bot.choose(state.player_view(state.to_move), 0.05)
    assert state.check(move) is None


def test_openspiel_mcts_on_a_game_without_encoding_is_one_line(cli: Any) -> None:
    result = cli("match", "toy", "--left", "openspiel-mcts")
    assert result.code == 1
    assert result.err_lines == [line for line in result.err_lines if line.startswith("error: ")] and len(result.err_lines) == 1
    assert "no fixed action encoding" in result.err


def test_native_rollouts_score_a_short_playout_with_the_game_evaluator(installed: Plugins) -> None:
    from pegboard.interop.mcts import ROLLOUT_PLIES, NativeRolloutEvaluator
    from pegboard.interop.spiel import wrap_game
    from pegboard.rules.rulesets import load_game as load_pegboard_game

    game = load_pegboard_game("nodewar", "standard", installed)
    evaluator = installed.evaluator("nodewar").factory(game)
    bot = installed.bot("nodewar", "openspiel-mcts").factory(game, 3)
    assert isinstance(bot, OpenSpielMCTS) and isinstance(bot.spiel_bot.evaluator, NativeRolloutEvaluator)
    assert bot.spiel_bot.evaluator.evaluator is not None  # the bot was handed Node War's evaluator
    state = game.new_state()
    spiel_state = wrap_game(game).state_of(state)
    before = state.to_json()
    random_state = np.random.RandomState(5)
    values = NativeRolloutEvaluator(bot.spiel_bot, random_state, evaluator).evaluate(spiel_state)
    assert state.to_json() == before  # the rollout is pushed and undone on the state itself
    # the same rollout by hand: ROLLOUT_PLIES random moves from the same generator, then the evaluator
    rng = random.Random(int(np.random.RandomState(5).randint(2**31)))
    for _ in range(ROLLOUT_PLIES):
        state.push(state.random_move(rng))
    expected = math.tanh(evaluator.score(state) / evaluator.scale)
    assert values[0] == pytest.approx(expected) and values[1] == pytest.approx(-expected)
