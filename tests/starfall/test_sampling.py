"""Starfall's random move sampler and single-square reach test agree with the full move list.

``State.random_move`` draws candidate slots and keeps the legal ones (pegboard_starfall.sampling);
it is uniform exactly when the slots a position accepts are its legal moves, each once.
The conformance suite (tests/conformance/test_random_move.py) tests the draws themselves.
"""

from __future__ import annotations

import random

import pytest

from pegboard_starfall import moves as mv
from pegboard_starfall.movegen import Reach, _vis, drone_destinations
from pegboard_starfall.pieces import COMMAND, TURRET
from pegboard_starfall.sampling import Slots
from support.starfall_helpers import blank, make_game, put, random_positions, sq

VARIANTS = {
    "standard": {},
    "fog_seam": {"fog": {"mode": "seam"}},
    "fog_dark": {"fog": {"mode": "dark"}},
    "aimed_cheap_turrets": {"asteroids": {"drop_target": "aimed"}, "claims": {"take_enemy": True},
                            "drones": {"turret_cost": 2}},
    "small_long_range": {"board": {"width": 7, "height": 9}, "win": {"target": 40}, "missiles": {"range": 5}},
}


def _positions(variant: str, seed: int, every: int = 7):
    return random_positions(make_game(**VARIANTS[variant]), seed, every, max_ply=400)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_slots_a_position_accepts_are_its_legal_moves(variant):
    seen = 0
    for st in _positions(variant, seed=len(variant)):
        if st.aims:
            continue
        accepted = Slots(st).accepted()
        assert len(accepted) == len(set(accepted)), "a legal move sits in two slots"
        assert sorted(accepted) == sorted(st.legal_moves()), st.ply
        seen += 1
    assert seen >= 10


@pytest.mark.parametrize("variant", ["standard", "fog_seam"])
def test_reach_agrees_with_the_destination_list(variant):
    drones = 0
    for st in _positions(variant, seed=3, every=11):
        vis = _vis(st)
        for s in range(st.geo.size):
            if st.kind[s] and st.kind[s] not in (COMMAND, TURRET):
                reach = Reach(st, s, vis)
                assert {t for t in range(st.geo.size) if t in reach} == set(drone_destinations(st, s, vis)), (st.ply, s)
                drones += 1
    assert drones >= 10


def test_random_move_passes_when_nothing_else_is_legal():
    st = blank(make_game())
    assert st.legal_moves() == [mv.PASS_MOVE]
    assert {st.random_move(random.Random(seed)) for seed in range(5)} == {mv.PASS_MOVE}


def test_random_move_never_passes_while_an_action_is_legal():
    st = blank(make_game())
    put(st, 2, 2, "R", 0, ride="white")
    legal = set(st.legal_moves())
    assert mv.PASS_MOVE not in legal
    rng = random.Random(4)
    drawn = {st.random_move(rng) for _ in range(400)}
    assert drawn == legal


def test_random_move_places_an_owed_asteroid_first():
    game = make_game(asteroids={"drop_target": "aimed"})
    st = blank(game)
    for c in range(11):
        st.owner[sq(st, c, 9)] = 1
    st.aims = 1
    m = st.random_move(random.Random(1))
    assert m.kind == mv.AIM and m in st.legal_moves()


def test_random_move_is_none_once_the_game_is_over(game):
    st = game.new_state(2)
    st.apply(st.concede_move(0))
    assert st.random_move(random.Random(0)) is None


def test_a_drawn_move_is_checked_again_once_the_position_changes(game):
    st = game.new_state(9)
    rng = random.Random(2)
    while True:
        m = st.random_move(rng)
        if m.kind == mv.MOVE:
            break
        st.push(m)
    assert st.check(m) is None
    assert st.check(tuple(m)) == "not a Starfall move"  # an equal plain tuple is still no move
    st.push(m)  # the drone has left m.a: the same move is now refused
    assert st.check(m) is not None
    st.undo()
    assert st.check(m) is None  # by the full test: the position is the one it was drawn in
