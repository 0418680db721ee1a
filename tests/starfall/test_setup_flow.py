"""The starting position, determinism, and the flow of stars."""

from __future__ import annotations

from pegboard_starfall import effects
from pegboard_starfall.pieces import COMMAND, SCOUT, SHIELD, SIEGE
from pegboard_starfall.shapes import find_shapes
from support.starfall_helpers import blank, rock, sq


def test_start_blocks_and_drones(game):
    st = game.new_state(5)
    g = game.geo
    south = {g.sq(c, r) for c in range(4, 7) for r in range(3)}
    north = {g.sq(c, r) for c in range(4, 7) for r in range(8, 11)}
    assert {s for s in range(g.size) if st.owner[s] == 0} == south
    assert {s for s in range(g.size) if st.owner[s] == 1} == north
    expect = {(5, 0): (COMMAND, 0, 1), (4, 0): (SCOUT, 0, 1), (6, 0): (SIEGE, 0, 1), (5, 2): (SHIELD, 0, 2),
              (5, 10): (COMMAND, 1, 1), (6, 10): (SCOUT, 1, 1), (4, 10): (SIEGE, 1, 1), (5, 8): (SHIELD, 1, 2)}
    placed = {(g.col[s], g.row[s]): (st.kind[s], st.side[s], st.power[s]) for s in range(g.size) if st.kind[s]}
    assert placed == expect
    # the single starting missile is already on the scout; the scout rides the star under it
    assert st.miss[sq(st, 5, 0)] == 0 and st.miss[sq(st, 4, 0)] == 1
    assert st.miss[sq(st, 5, 10)] == 0 and st.miss[sq(st, 6, 10)] == 1
    scout = sq(st, 4, 0)
    assert st.ride[scout] == 1 << st.star[scout]
    assert st.to_move == 0 and st.turn == 0


def test_asteroids_in_own_half_outside_block(game):
    for seed in range(10):
        st = game.new_state(seed)
        g = game.geo
        rocks = [s for s in range(g.size) if st.ast[s]]
        assert sum(g.half[s] == 0 for s in rocks) == 3
        assert sum(g.half[s] == 1 for s in rocks) == 3
        assert all(st.owner[s] == -1 and st.star[s] == -1 for s in rocks)


def test_deal_has_no_line_and_depends_on_seed(game):
    boards = set()
    for seed in range(20):
        st = game.new_state(seed)
        assert find_shapes(st.star, 11, 11) == []
        assert all(st.star[s] >= 0 for s in range(121) if not st.ast[s])
        boards.add(tuple(st.star))
    assert len(boards) == 20
    assert game.new_state(3).to_json() == game.new_state(3).to_json()


def test_asteroid_counts_follow_ruleset_and_handicap():
    from support.starfall_helpers import make_game

    g = make_game(asteroids={"base": 3, "south": 5, "north": 1})
    st = g.new_state(1)
    assert sum(st.ast[s] for s in range(121) if g.geo.half[s] == 0) == 5
    assert sum(st.ast[s] for s in range(121) if g.geo.half[s] == 1) == 1
    h = make_game(handicap={"enabled": True, "south_rating": 1400, "north_rating": 1200})
    assert h.rules.asteroids == (5, 1)  # gap 200 -> 4 rocks: 2 added to the stronger, 2 off the weaker


def test_flow_toward_south_refills_from_the_top(game):
    st = blank(game)
    col = [sq(st, 2, r) for r in range(11)]
    before = [st.star[s] for s in col]
    st.star[col[3]] = -1
    st.star[col[4]] = -1
    effects.flow(st, 0)
    after = [st.star[s] for s in col]
    assert after[:3] == before[:3]
    assert after[3:9] == before[5:11]  # everything above the holes fell two rows
    assert all(0 <= v < 5 for v in after[9:])  # two new stars at the top
    assert st.draws == 2


def test_flow_toward_north_falls_upward(game):
    st = blank(game, to_move=1)
    col = [sq(st, 7, r) for r in range(11)]
    before = [st.star[s] for s in col]
    st.star[col[8]] = -1
    effects.flow(st, 1)
    after = [st.star[s] for s in col]
    assert after[9:] == before[9:]
    assert after[1:9] == before[0:8]
    assert 0 <= after[0] < 5


def test_asteroid_splits_a_column(game):
    st = blank(game)
    col = [sq(st, 3, r) for r in range(11)]
    rock(st, 3, 6)
    before = [st.star[s] for s in col]
    st.star[col[2]] = -1  # below the asteroid: cut off from the entry edge
    st.star[col[8]] = -1  # above it: refilled
    effects.flow(st, 0)
    after = [st.star[s] for s in col]
    assert after[:5] == before[:2] + before[3:6] and after[5] == -1  # the hole rises to just under the rock
    assert after[6] == -1 and st.ast[col[6]]
    assert after[7:10] == [before[7], before[9], before[10]] and after[10] >= 0
    assert st.draws == 1


def test_hole_cut_off_by_an_asteroid_waits_for_the_other_flow(game):
    st = blank(game)
    rock(st, 0, 5)
    hole = sq(st, 0, 1)
    st.star[hole] = -1
    effects.flow(st, 0)
    assert st.star[sq(st, 0, 4)] == -1  # South's flow cannot reach it: the hole rises under the rock
    effects.flow(st, 1)
    assert all(st.star[sq(st, 0, r)] >= 0 for r in range(5))  # North's flow enters at row 0


def test_a_batch_of_draws_is_the_draws_one_by_one():
    from pegboard_starfall.rng import draw, draws, seed_key

    for seed in (0, 7, 2**40 + 3):
        key = seed_key(seed)
        for first, bound in ((0, 5), (37, 3), (5000, 121)):
            assert draws(key, first, 12, bound) == [draw(key, first + i, bound) for i in range(12)]
    assert draws(seed_key(1), 9, 0, 5) == []
