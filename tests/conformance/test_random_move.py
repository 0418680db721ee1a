"""``State.random_move`` draws every legal move equally often, for every installed game.

Engines may sample a move without listing them all (Node War does); whatever
they do, the draws must be legal, cover every legal move and pass a
chi-square test of uniformity. The check is :func:`pegboard.testing.check_random_move`
(``check_game`` runs it, so third-party games run it too). Seeded, so the verdict
never changes between runs; the threshold is the 1-in-a-million tail, so a fair
sampler passes and a skewed one (a move twice as likely as another) fails by a wide margin.
"""

from __future__ import annotations

import random

import pytest

from pegboard.errors import ConformanceError
from pegboard.plugins.manager import Plugins, get_plugins
from pegboard.rules.rulesets import build_game, load_ruleset
from pegboard.testing import RANDOM_MOVE_PLIES, check_random_move, check_uniform_random_move
from support import toygame


def _cases() -> list[object]:
    cases = []
    for plugins in (get_plugins(), toygame.make_plugins()):
        for game_id, spec in sorted(plugins.games().items()):
            cases.append(pytest.param(plugins, f"{game_id}/{spec.default_ruleset}", id=game_id))
    return cases


@pytest.mark.parametrize(("plugins", "ref"), _cases())
def test_random_move_is_uniform_over_the_legal_moves(plugins: Plugins, ref: str) -> None:
    checked = check_random_move(ref, plugins)
    assert checked >= 1, f"the seeded game of {ref} ended before any of the plies {RANDOM_MOVE_PLIES}"


def test_the_check_catches_a_skewed_sampler() -> None:
    plugins = get_plugins()
    game = build_game(load_ruleset("nodewar/standard", plugins=plugins), plugins)
    state = game.new_state(5)
    rng = random.Random(60)
    for _ in range(60):
        moves = state.legal_moves()
        state.push(moves[rng.randrange(len(moves))])
    assert state.result is None
    legal = state.legal_moves()

    class Skewed(type(state)):  # type: ignore[misc]
        def random_move(self, rng: random.Random) -> object:
            move = legal[rng.randrange(len(legal))]
            return legal[0] if rng.random() < 0.01 else move  # the first move about 5x too often

    state.__class__ = Skewed
    with pytest.raises(ConformanceError, match="not uniform"):
        check_uniform_random_move(state)


def test_random_move_is_none_once_the_game_is_over() -> None:
    plugins = toygame.make_plugins()
    game = build_game(load_ruleset("toy/standard", plugins=plugins), plugins)
    state = game.new_state(1)
    rng = random.Random(3)
    while state.result is None:
        state.push(state.random_move(rng))
    assert state.random_move(rng) is None
