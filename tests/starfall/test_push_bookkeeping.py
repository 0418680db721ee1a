"""The shortcuts ``push`` takes, checked against a from-scratch answer over random play.

* a flow inside a cascade looks only at the columns the cascade just cleared
  (``effects.flow(..., holed)``): the full flow on a copy gives the same board and draws;
* a start-of-turn flow replays a board it already flowed (``st.memo.flips``): flowing a copy
  that remembers nothing gives the same board, draws, settled board and quiet flag;
* ``effects.surround`` skips a layout of drones it already found calm (``st.memo.calm``):
  after every move no siege has four enemy drones beside it.
"""

from __future__ import annotations

import random

import pytest

from pegboard_starfall import effects
from pegboard_starfall.pieces import SIEGE, TURRET
from support.starfall_helpers import make_game


def _random_play(game, seed: int, plies: int = 160):
    """The position after each ply of one seeded game of random moves (``random_move``, then ``push``)."""
    st = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if st.result is not None:
            return
        st.push(st.random_move(rng))
        yield st


GAMES = {
    "standard": make_game(),
    "salvage_small_cap": make_game(salvage={"enabled": True}, drones={"cap": 4},
                                   asteroids={"base": 6, "drift_threshold": 4}),
}


def surrounded_sieges(st):
    out = []
    for sq in range(st.geo.size):
        if st.kind[sq] == SIEGE:
            enemies = sum(1 for t in st.geo.nbr8[sq]
                          if st.kind[t] and st.kind[t] != TURRET and st.side[t] != st.side[sq])
            if enemies >= 4:
                out.append(sq)
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_narrowed_flows_and_calm_layouts_match_a_recount(name, monkeypatch):
    full_flow = effects.flow
    narrowed = []

    def checked_flow(st, side, holed=None):
        if holed is None:
            return full_flow(st, side)
        other = st.clone()
        expected = full_flow(other, side)
        got = full_flow(st, side, holed)
        assert st.star == other.star and st.draws == other.draws
        assert sorted(got) == sorted(expected)
        narrowed.append(len(holed))
        return got

    monkeypatch.setattr(effects, "flow", checked_flow)
    game = GAMES[name]
    sieges_seen = 0
    for seed in (1, 2):
        for st in _random_play(game, seed):
            assert surrounded_sieges(st) == []
            sieges_seen += SIEGE in st.kind
    assert narrowed, "no cascade flowed twice: the test saw nothing"
    assert sieges_seen, "no siege on the board: the surround check saw nothing"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_flows_from_a_settled_board_match_flows_that_scan_it(name):
    # st.memo.settled names a side a flow toward which would move nothing on the board it saw;
    # while the board is unchanged, flows read their holes from it instead of scanning
    game = GAMES[name]
    trusted = 0
    for seed in (3, 4):
        for st in _random_play(game, seed):
            fact = st.memo.settled
            if fact is None or fact[1] != st.star or fact[2] != st.ast:
                continue
            trusted += 1
            for side in (0, 1):
                scanned, read = st.clone(), st.clone()
                scanned.memo.settled = None
                expected = effects.flow(scanned, side)
                assert sorted(effects.flow(read, side)) == sorted(expected)
                assert read.star == scanned.star and read.draws == scanned.draws
                assert side != fact[0] or not expected  # toward the settled side nothing moves
    assert trusted > 100


@pytest.mark.parametrize("name", sorted(GAMES))
def test_remembered_flows_match_flows_worked_out_again(name, monkeypatch):
    # st.memo.flips[side] holds a board whose flow toward side formed no line (so drew nothing),
    # and the board it became: meeting that board again, flow_and_cascade copies the result
    real = effects.flow_and_cascade
    replayed, remembered = [], 0

    def checked(st, cause="cascade", holes=None):
        nonlocal remembered
        side = st.current
        known = st.memo.flips[side]
        hit = known is not None and known[0] == st.star and known[1] == st.ast
        fresh = st.clone()
        fresh.memo.flips = [None, None]
        before = fresh.to_json()
        real(fresh, cause)  # it looks at every square
        real(st, cause, holes)
        assert st.to_json() == fresh.to_json()  # the board, the drones, what was cleared, the draws
        assert (st.quiet, st.memo.settled, st.cleared_now) == (fresh.quiet, fresh.memo.settled, fresh.cleared_now)
        if st.memo.flips[side] is not known:  # a new memory: only the stars may have changed
            remembered += 1
            after = fresh.to_json()
            assert {k: v for k, v in after.items() if k != "stars"} == {k: v for k, v in before.items() if k != "stars"}
        replayed.append(hit)

    monkeypatch.setattr(effects, "flow_and_cascade", checked)
    for seed in (9, 11, 12):  # salvage_small_cap meets a line that leaves only trapped holes in each
        for _st in _random_play(GAMES[name], seed):
            pass
    assert sum(replayed) > 20, "no board met twice: the test saw nothing"
    assert remembered > 20 and not all(replayed)
