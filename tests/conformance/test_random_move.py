"""``State.random_move`` draws every legal move equally often, for every installed game.

Engines may sample a move without listing them all (Node War does); whatever
they do, the draws must be legal, cover every legal move and pass a
chi-square test of uniformity. Seeded, so the verdict never changes between
runs; the threshold is the 1-in-a-million tail, so a fair sampler passes and a
skewed one (a move twice as likely as another) fails by a wide margin.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from pegboard.game import State
from pegboard.plugins.manager import Plugins, get_plugins
from pegboard.rules.rulesets import build_game, load_ruleset
from support import toygame

DRAWS_PER_MOVE = 24
PLIES = (0, 8, 60, 150)


def _cases() -> list[object]:
    cases = []
    for plugins in (get_plugins(), toygame.make_plugins()):
        for game_id, spec in sorted(plugins.games().items()):
            for plies in PLIES:
                cases.append(pytest.param(plugins, game_id, f"{game_id}/{spec.default_ruleset}", plies, id=f"{game_id}-ply{plies}"))
    return cases


def chi_square_limit(df: int, z: float = 4.753) -> float:
    """The chi-square value exceeded with probability about 1e-6 (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def position(plugins: Plugins, ref: str, plies: int) -> State | None:
    game = build_game(load_ruleset(ref, plugins=plugins), plugins)
    state = game.new_state(5)
    rng = random.Random(plies)
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            return None
        state.push(moves[rng.randrange(len(moves))])
    return state if state.result is None else None


def assert_uniform(state: State, seed: int = 1) -> None:
    legal = state.legal_moves()
    before = (state.ply, state.to_json())
    rng = random.Random(seed)
    draws = DRAWS_PER_MOVE * len(legal)
    counts = Counter(state.random_move(rng) for _ in range(draws))
    assert (state.ply, state.to_json()) == before, "random_move changed the position"
    assert set(counts) <= set(legal), f"drew illegal moves: {sorted(map(repr, set(counts) - set(legal)))[:3]}"
    assert set(counts) == set(legal), f"{len(set(legal) - set(counts))} of {len(legal)} legal moves never drawn"
    if len(legal) > 1:
        expected = draws / len(legal)
        chi2 = sum((counts[move] - expected) ** 2 / expected for move in legal)
        assert chi2 < chi_square_limit(len(legal) - 1), f"not uniform: chi-square {chi2:.0f} over {len(legal)} moves"


@pytest.mark.parametrize(("plugins", "game_id", "ref", "plies"), _cases())
def test_random_move_is_uniform_over_the_legal_moves(plugins: Plugins, game_id: str, ref: str, plies: int) -> None:
    state = position(plugins, ref, plies)
    if state is None:
        pytest.skip(f"the seeded game of {game_id} is over before ply {plies}")
    assert_uniform(state)


def test_the_check_catches_a_skewed_sampler() -> None:
    state = position(get_plugins(), "nodewar/standard", 60)
    assert state is not None
    legal = state.legal_moves()

    class Skewed(type(state)):  # type: ignore[misc]
        def random_move(self, rng: random.Random) -> object:
            move = legal[rng.randrange(len(legal))]
            return legal[0] if rng.random() < 0.01 else move  # the first move about 5x too often

    state.__class__ = Skewed
    with pytest.raises(AssertionError, match="not uniform"):
        assert_uniform(state)


def test_random_move_is_none_once_the_game_is_over() -> None:
    plugins = toygame.make_plugins()
    game_id = sorted(plugins.games())[0]
    game = build_game(load_ruleset(f"{game_id}/{plugins.game(game_id).default_ruleset}", plugins=plugins), plugins)
    state = game.new_state(1)
    rng = random.Random(3)
    while state.result is None:
        state.push(state.random_move(rng))
    assert state.random_move(rng) is None
