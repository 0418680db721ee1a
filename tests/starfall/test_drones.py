"""Drone moves, rides, stacks and takes."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as hs

from pegboard_starfall import moves as mv
from pegboard_starfall.geometry import DIRECTIONS
from pegboard_starfall.movegen import drone_destinations
from pegboard_starfall.pieces import COMMAND, RAIDER, SCOUT, SHIELD, SIEGE, TURRET
from support.starfall_helpers import blank, make_game, own, paint, put, rock, sq


def dests(st, c, r):
    return {(st.geo.col[t], st.geo.row[t]) for t in drone_destinations(st, sq(st, c, r), None)}


def test_ride_a_lane_then_one_paid_step(game):
    st = blank(game)
    put(st, 1, 3, "S", 0, ride=1 << 4)
    paint(st, [(2, 3), (3, 3)])
    got = dests(st, 1, 3)
    assert {(2, 3), (3, 3)} <= got  # the free ride
    assert {(4, 2), (4, 3), (4, 4)} <= got  # the paid step after it
    assert (5, 3) not in got  # two paid steps
    # paid steps from the start alone
    assert {(0, 2), (0, 3), (0, 4), (1, 2), (1, 4), (2, 2), (2, 4)} <= got


def test_paid_step_first_then_a_ride(game):
    st = blank(game)
    put(st, 1, 3, "S", 0, ride=1 << 4)
    paint(st, [(2, 5), (3, 6)])  # diagonal lane starting one step away at (1,4)->(2,5)->(3,6)
    got = dests(st, 1, 3)
    assert (2, 5) in got and (3, 6) in got
    assert (4, 7) not in got


def test_no_passing_over_drones_or_asteroids(game):
    st = blank(game)
    put(st, 1, 3, "S", 0, ride=1 << 4)
    paint(st, [(2, 3), (3, 3), (4, 3)])
    put(st, 3, 3, "S", 1)
    got = dests(st, 1, 3)
    assert (3, 3) not in got  # a scout cannot take
    assert (4, 3) not in got  # nor ride through it
    rock(st, 2, 3)
    got = dests(st, 1, 3)
    assert (2, 3) not in got


def test_steppers_and_fixed(game):
    st = blank(game)
    put(st, 3, 3, "G", 0, ride=1 << 4)
    put(st, 7, 3, "X", 0, ride=1 << 4)
    paint(st, [(4, 3), (5, 3)])
    assert dests(st, 3, 3) == {(c, r) for c in (2, 3, 4) for r in (2, 3, 4)} - {(3, 3)}
    assert len(dests(st, 7, 3)) == 8
    assert dests(st, 5, 0) == set()  # the Command never moves
    put(st, 8, 8, "T", 0)
    assert dests(st, 8, 8) == set()
    assert "never move" in st.check(mv.move(sq(st, 5, 0), sq(st, 5, 1)))


def test_hunter_rides_every_star_and_raider_its_checker(game):
    st = blank(game)
    put(st, 0, 4, "H", 0, ride="all")
    got = dests(st, 0, 4)
    assert (10, 4) in got and (0, 0) in got  # whole row and column are free rides
    st2 = blank(game)
    put(st2, 0, 3, "R", 0, ride="white")  # (0,3) is white; white squares run diagonally
    got = dests(st2, 0, 3)
    assert (3, 6) in got and (3, 0) in got
    assert (10, 3) not in got


def test_raider_takes_a_stack_and_earns_a_missile(game):
    st = blank(game)
    r = put(st, 2, 3, "R", 0, ride="white")
    put(st, 3, 4, "S", 1, power=3, missiles=2)
    stock = st.miss[st.cmd[0]]
    st.apply(mv.move(r, sq(st, 3, 4)))
    t = sq(st, 3, 4)
    assert st.kind[t] == RAIDER and st.side[t] == 0 and st.kind[r] == 0
    assert st.miss[st.cmd[0]] == stock + 1


def test_raider_cannot_take_siege_command_or_turret(game):
    st = blank(game)
    r = put(st, 4, 8, "R", 0, ride="white")
    for c, letter in ((3, "X"), (5, "T")):
        put(st, c, 9, letter, 1)
    got = dests(st, 4, 8)
    assert (3, 9) not in got and (5, 9) not in got and (5, 10) not in got
    assert st.check(mv.move(r, sq(st, 3, 9))) is not None


def test_stacking_keeps_the_kind_adds_power_rides_and_missiles(game):
    st = blank(game)
    s = put(st, 2, 3, "S", 0, ride=1 << 4, missiles=1)
    g = put(st, 3, 3, "G", 0, power=2)
    st.apply(mv.move(s, g))
    assert st.kind[g] == SHIELD and st.power[g] == 3 and st.ride[g] == 1 << 4 and st.miss[g] == 1
    assert st.kind[s] == 0
    st2 = blank(game)
    a = put(st2, 2, 3, "S", 0, power=2)
    b = put(st2, 3, 3, "S", 0, power=2)
    st2.apply(mv.move(a, b))
    assert st2.power[b] == 3  # capped


def test_no_stacking_onto_command_or_turret(game):
    st = blank(game)
    put(st, 4, 1, "S", 0)
    put(st, 3, 1, "T", 0)
    got = dests(st, 4, 1)
    assert (5, 0) not in got and (3, 1) not in got


def test_shield_sweep_on_own_land(game):
    st = blank(game)
    own(st, [(c, r) for c in range(2, 6) for r in range(2, 5)], 0)
    g = put(st, 2, 3, "G", 0)
    put(st, 4, 4, "S", 1)
    put(st, 4, 2, "H", 1, ride="all")
    put(st, 4, 3, "R", 1, ride="white")  # raiders are not swept
    put(st, 6, 3, "W", 1)  # not beside the shield's landing square
    stock = st.miss[st.cmd[0]]
    st.apply(mv.move(g, sq(st, 3, 3)))
    assert st.kind[sq(st, 4, 4)] == 0 and st.kind[sq(st, 4, 2)] == 0
    assert st.kind[sq(st, 4, 3)] == RAIDER and st.kind[sq(st, 6, 3)] != 0
    assert st.miss[st.cmd[0]] == stock + 2


def test_no_sweep_off_own_land(game):
    st = blank(game)
    g = put(st, 2, 3, "G", 0)
    put(st, 4, 4, "S", 1)
    own(st, [(4, 4)], 0)
    st.apply(mv.move(g, sq(st, 3, 3)))  # (3,3) is nobody's land
    assert st.kind[sq(st, 4, 4)] == SCOUT


def test_scout_loads_when_it_ends_beside_the_command(game):
    st = blank(game)
    st.miss[st.cmd[0]] = 3
    s = put(st, 3, 2, "S", 0)
    h = put(st, 7, 2, "H", 0, ride="all")
    st.apply(mv.move(s, sq(st, 4, 1)))
    assert st.miss[sq(st, 4, 1)] == 1 and st.miss[st.cmd[0]] == 2
    st.apply(mv.PASS_MOVE if mv.PASS_MOVE in st.legal_moves() else st.legal_moves()[-1])  # North's turn
    # back to South: the scout beside the Command loads again at the start of the turn
    assert st.to_move == 0 and st.miss[sq(st, 4, 1)] == 2 and st.miss[st.cmd[0]] == 1
    st.apply(mv.move(h, sq(st, 6, 1)))
    assert st.miss[sq(st, 6, 1)] == 1 and st.miss[st.cmd[0]] == 0  # a hunter takes two, while stock lasts


def reference_destinations(st, s):
    """Slow reference: try every straight ride with a paid step before, after, or none."""
    geo = st.geo
    k, me, mask = st.kind[s], st.side[s], st.ride[s]

    def free(t):
        c = st.star[t]
        return (c >= 0 and mask >> c & 1) or mask >> (5 + geo.checker[t]) & 1

    def landable(t):
        if st.ast[t]:
            return False
        if not st.kind[t]:
            return True
        if st.side[t] == me:
            return st.kind[t] not in (COMMAND, TURRET)
        return k == RAIDER and st.kind[t] not in (SIEGE, COMMAND, TURRET)

    def step(t, dc, dr):
        c, r = geo.col[t] + dc, geo.row[t] + dr
        return geo.sq(c, r) if geo.on_board(c, r) else None

    out = set()
    if k in (SHIELD, SIEGE):
        return {t for t in geo.nbr8[s] if landable(t)}
    for dc, dr in DIRECTIONS:
        for paid_first in (None, *DIRECTIONS):
            for paid_after in (None, *DIRECTIONS):
                if paid_first and paid_after:
                    continue
                for length in range(0, 12):
                    path = []
                    t = s
                    if paid_first:
                        t = step(t, *paid_first)
                        if t is None:
                            break
                        path.append((t, False))
                    ok = True
                    for _ in range(length):
                        t = step(t, dc, dr)
                        if t is None:
                            ok = False
                            break
                        path.append((t, True))
                    if not ok:
                        break
                    if paid_after:
                        t = step(t, *paid_after)
                        if t is None:
                            continue
                        path.append((t, False))
                    if not path:
                        continue
                    valid = True
                    for i, (u, is_free) in enumerate(path):
                        last = i == len(path) - 1
                        if st.ast[u] or u == s or (is_free and not free(u)) or (not last and st.kind[u]):
                            valid = False
                            break
                    if valid and landable(path[-1][0]):
                        out.add(path[-1][0])
    return out


@settings(max_examples=40, deadline=None)
@given(hs.integers(0, 10**6))
def test_destinations_match_a_slow_reference(seed):
    rng = random.Random(seed)
    game = make_game()
    st = blank(game)
    for s in range(121):
        st.star[s] = rng.randrange(5) if rng.random() > 0.05 else -1
    for _ in range(8):
        s = rng.randrange(121)
        if not st.kind[s]:
            st.ast[s], st.star[s] = 1, -1
    for _ in range(10):
        s = rng.randrange(121)
        if not st.kind[s] and not st.ast[s]:
            ride = rng.choice([1, 3, 16, "white", "red", "all"])
            put(st, s % 11, s // 11, rng.choice("SGRHWXB"), rng.randrange(2), ride=ride)
    for s in range(121):
        if st.kind[s] and st.kind[s] not in (COMMAND, TURRET):
            assert set(drone_destinations(st, s, None)) == reference_destinations(st, s), (s, st.kind[s])


def test_reach_shows_any_drones_moves_and_takes(game):
    st = blank(game)
    r = put(st, 2, 7, "R", 1, ride="white")  # North's raider, looked at on South's turn
    put(st, 3, 6, "S", 0)
    got = st.reach(r)
    assert sq(st, 3, 6) in got["takes"] and set(got["takes"]) <= set(got["moves"])
    own(st, [(c, r) for c in range(1, 5) for r in range(2, 5)], 0)
    g = put(st, 2, 3, "G", 0)
    put(st, 4, 4, "S", 1)
    assert sq(st, 4, 4) in st.reach(g)["sweeps"]
    x = put(st, 8, 1, "X", 0)
    assert st.reach(x)["strikes"] and st.reach(sq(st, 0, 0))["moves"] == []
