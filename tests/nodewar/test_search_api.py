"""The engine's read-only helpers for search: moves_for, trial, quiet_test, last_effect."""

from __future__ import annotations

import pytest

from pegboard_nodewar import NodeWarGame
from support.nodewar_helpers import random_position, smother_position


def test_moves_for_lists_the_other_side_without_changing_the_mover(game: NodeWarGame) -> None:
    blue_to_move = smother_position(game, to_move=0)
    red_to_move = smother_position(game, to_move=1)
    assert blue_to_move.moves_for(1) == red_to_move.legal_moves()
    assert blue_to_move.moves_for(0) == blue_to_move.legal_moves()
    assert blue_to_move.to_move == 0


def test_trial_plays_for_the_given_seat_and_leaves_the_position(game: NodeWarGame) -> None:
    state = smother_position(game, to_move=0)
    before = state.to_json()
    wins = []
    for move in state.moves_for(1):
        rec, result = state.trial(move, 1)
        assert rec.player == 1 and rec.move == move
        if result is not None and result.winner == 1:
            wins.append((move, rec))
    assert state.to_json() == before and state.to_move == 0
    # Red's cut of 6,2-6,5 smothers Blue's Base: Blue is left without a legal move.
    assert wins
    move, rec = wins[0]
    assert rec.cut and len(rec.died) == 2  # 6,5 and 6,8
    # The same move played in turn does the same.
    red = smother_position(game, to_move=1)
    red.apply(move)
    assert red.last_effect() == rec and red.result is not None and red.result.winner == 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_quiet_moves_cut_and_revive_nothing(game: NodeWarGame, seed: int) -> None:
    state = random_position(game, 30 + 20 * seed, seed)
    for seat in (0, 1):
        quiet = state.quiet_test(seat)
        loud = 0
        for move in state.moves_for(seat):
            rec, _ = state.trial(move, seat)
            if quiet(move):
                assert not rec.cut and not rec.died and not rec.revived, move
            else:
                loud += 1
        assert loud < len(state.moves_for(seat))  # the test skips most moves, or it is no help


def test_last_effect_is_the_record_of_the_last_push(game: NodeWarGame) -> None:
    state = random_position(game, 20, 4)
    move = state.legal_moves()[0]
    rec, result = state.trial(move, state.to_move)
    state.push(move)
    assert state.last_effect() == rec and state.result == result
    state.undo()
    with pytest.raises(IndexError):
        game.new_state().last_effect()
