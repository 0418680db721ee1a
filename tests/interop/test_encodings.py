"""The game contract's fixed-size encodings, checked on every installed game and ruleset."""

from __future__ import annotations

import random

import pytest

from pegboard.errors import AdapterError
from pegboard.game import PegboardError
from pegboard.interop import checked
from pegboard.interop.loading import installed_names, load
from pegboard.plugins.manager import Plugins


def test_every_installed_ruleset_has_an_encoding(installed: Plugins) -> None:
    names = installed_names(installed)
    assert {"nodewar/standard", "starfall/standard", "starfall/fog_dark"} <= set(names)
    for name in names:
        loaded = load(name, installed)
        assert loaded.game.action_count() > 0
        assert loaded.game.observation_shape()


@pytest.mark.parametrize("name", ["nodewar/standard", "nodewar/wide", "starfall/standard", "starfall/salvage"])
def test_legal_moves_round_trip_through_action_indices(installed: Plugins, name: str) -> None:
    game = load(name, installed).game
    rng = random.Random(5)
    count = game.action_count()
    state = game.new_state(3)
    seen: set[int] = set()
    while state.result is None and state.ply < 120:
        moves = state.legal_moves()
        indices = [game.action_index(move) for move in moves]
        assert len(set(indices)) == len(moves), "two legal moves share an action index"
        for move, index in zip(moves, indices, strict=True):
            assert 0 <= index < count
            assert game.action_move(index) == move
        seen.update(indices)
        state.apply(rng.choice(moves))
    assert len(seen) > 50


def test_indices_no_move_has_are_refused(installed: Plugins) -> None:
    game = load("nodewar/standard", installed).game
    with pytest.raises(ValueError):
        game.action_move(game.action_count())
    with pytest.raises(ValueError):
        game.action_move(-1)
    # source at the bottom-left corner, target one to the left: off the board
    assert any(_refused(game, i) for i in range(0, 200))


def _refused(game: object, index: int) -> bool:
    try:
        game.action_move(index)  # type: ignore[attr-defined]
    except ValueError:
        return True
    return False


def test_observation_tensor_has_the_declared_size(installed: Plugins) -> None:
    for name in ("nodewar/standard", "starfall/fog_seam"):
        game = load(name, installed).game
        state = game.new_state(1)
        for seat in range(len(game.seats)):
            tensor = game.observation_tensor(state.observation(seat), seat)
            size = 1
            for dim in game.observation_shape():
                size *= dim
            assert len(tensor) == size
            assert any(tensor)


def test_a_game_without_encodings_is_refused_clearly(toy_plugins: Plugins) -> None:
    from pegboard.rules.rulesets import load_game

    game = load_game("toy", plugins=toy_plugins)
    assert game.action_count() == 0
    with pytest.raises(AdapterError, match="no fixed action encoding"):
        checked(game)
    with pytest.raises(PegboardError):
        game.action_index(None)
