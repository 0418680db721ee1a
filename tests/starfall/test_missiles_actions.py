"""Missiles, claims, warps, strikes, rams and turrets."""

from __future__ import annotations

from pegboard_starfall import moves as mv
from pegboard_starfall.pieces import SCOUT, SIEGE, TURRET
from support.starfall_helpers import blank, make_game, own, paint, put, rock, sq


def test_fire_hits_a_drone_and_the_turn_goes_on(game):
    st = blank(game)
    s = put(st, 2, 3, "S", 0, missiles=2)
    t = put(st, 4, 5, "G", 1, power=2)
    m = mv.fire(s, t)
    assert m in st.legal_moves()
    st.apply(m)
    assert st.power[t] == 1 and st.miss[s] == 1 and st.to_move == 0
    # a scout fires once a turn
    assert "fired all" in st.check(mv.fire(s, t))


def test_hunter_fires_twice_and_kill_pays_a_missile(game):
    st = blank(game)
    h = put(st, 2, 3, "H", 0, ride="all", missiles=3)
    t = put(st, 5, 6, "S", 1, power=2)
    stock = st.miss[st.cmd[0]]
    st.apply(mv.fire(h, t))
    st.apply(mv.fire(h, t))
    assert st.kind[t] == 0 and st.miss[st.cmd[0]] == stock + 1
    assert not [m for m in st.legal_moves() if m.kind == "fire"]


def test_missile_range_and_immune_targets(game):
    st = blank(game)
    s = put(st, 2, 3, "S", 0, missiles=1)
    put(st, 6, 3, "S", 1)  # 4 away: out of range
    put(st, 3, 3, "T", 1)  # turrets: missiles bounce off
    put(st, 2, 4, "S", 0)  # own drones are not targets
    targets = {m.b for m in st.legal_moves() if m.kind == "fire"}
    assert sq(st, 6, 3) not in targets and sq(st, 3, 3) not in targets and sq(st, 2, 4) not in targets
    assert sq(st, 5, 6) in targets and sq(st, 5, 0) not in targets  # a star 3 away; never a Command
    assert "unloaded" not in (st.check(mv.fire(s, sq(st, 6, 3))) or "")
    assert st.check(mv.fire(s, sq(st, 6, 3))) is not None
    fog = make_game(fog={"mode": "seam"})
    st2 = blank(fog)
    put(st2, 2, 3, "S", 0, missiles=1)
    targets = {m.b for m in st2.legal_moves() if m.kind == "fire"}
    assert sq(st2, 7, 3) in targets  # 5 under the fog


def test_unloaded_drones_cannot_fire(game):
    st = blank(game)
    s = put(st, 2, 3, "S", 0)
    assert "no missile" in st.check(mv.fire(s, sq(st, 3, 3)))
    g = put(st, 7, 3, "G", 0, missiles=1)
    assert "only scouts and hunters" in st.check(mv.fire(g, sq(st, 7, 4)))


def test_missile_at_a_star_or_asteroid_clears_and_flows(game):
    st = blank(game)
    s = put(st, 2, 3, "S", 0, missiles=2)
    col_above = [st.star[sq(st, 3, r)] for r in range(5, 11)]
    st.apply(mv.fire(s, sq(st, 3, 4)))
    # the column fell one square toward South; lines that formed were paid (none here)
    assert [st.star[sq(st, 3, r)] for r in range(4, 10)] == col_above
    a = rock(st, 4, 6)
    st.shots[s] = 0
    st.apply(mv.fire(s, a))
    assert st.ast[a] == 0 and st.star[a] >= 0


def test_missile_cascade_pays_the_shooter(game):
    st = blank(game)
    s = put(st, 5, 2, "S", 0, missiles=1)
    paint(st, [(0, 1), (1, 1), (3, 1), (2, 2)])
    st.apply(mv.fire(s, sq(st, 2, 1)))  # the 4 above falls into the gap: a 4-line, paid to South
    # no swapped square: the scout appears nearest South's back row, then nearest the centre column
    assert st.kind[sq(st, 3, 1)] == SCOUT and st.side[sq(st, 3, 1)] == 0
    assert st.cleared_now >= 5  # the missile's star and the four of the line, all on South's half


def test_claim_takes_the_unowned_three_by_three(game):
    st = blank(game)
    s = put(st, 2, 3, "S", 0)
    own(st, [(1, 2)], 1)
    rock(st, 3, 4)
    st.apply(mv.claim(s))
    got = {(st.geo.col[t], st.geo.row[t]) for t in range(121) if st.owner[t] == 0}
    assert got == {(c, r) for c in (1, 2, 3) for r in (2, 3, 4)} - {(1, 2), (3, 4)}
    assert st.owner[sq(st, 1, 2)] == 1
    assert st.lit[0] != 0


def test_claim_needs_something_new(game):
    st = blank(game)
    s = put(st, 2, 3, "S", 0)
    own(st, [(c, r) for c in (1, 2, 3) for r in (2, 3, 4)], 0)
    assert "already owned" in st.check(mv.claim(s))
    assert mv.claim(s) not in st.legal_moves()


def test_warp_jumps_claims_and_is_spent(game):
    st = blank(game)
    w = put(st, 2, 3, "W", 0)
    target = sq(st, 8, 7)
    own(st, [(9, 8)], 1)
    assert mv.warp(w, target) in st.legal_moves()
    st.apply(mv.warp(w, target))
    assert st.kind[w] == 0 and st.kind[target] == 0
    assert sum(1 for t in range(121) if st.owner[t] == 0) == 8
    st2 = blank(game)
    w2 = put(st2, 2, 3, "W", 0)
    own(st2, [(8, 7)], 1)
    assert st2.check(mv.warp(w2, sq(st2, 8, 7))) is not None  # not onto enemy land
    put(st2, 8, 5, "S", 1)
    assert st2.check(mv.warp(w2, sq(st2, 8, 5))) is not None  # not onto a drone


def test_strike_slides_until_blocked(game):
    st = blank(game)
    x = put(st, 2, 1, "X", 0)
    put(st, 2, 7, "S", 1)
    rock(st, 6, 1)
    ends = {m.b for m in st.legal_moves() if m.kind == "strike" and m.a == x}
    assert sq(st, 2, 6) in ends  # stops before the drone
    assert sq(st, 5, 1) in ends  # before the asteroid
    assert sq(st, 0, 1) in ends  # at the edge
    assert sq(st, 2, 5) not in ends  # it cannot stop early
    st.apply(mv.strike(x, sq(st, 2, 6)))
    assert st.kind[sq(st, 2, 6)] == SIEGE


def test_siege_step_ends_a_turret_but_a_strike_cannot(game):
    st = blank(game)
    x = put(st, 3, 3, "X", 0)
    t = put(st, 4, 4, "T", 1)
    assert mv.move(x, t) in st.legal_moves()
    st.apply(mv.move(x, t))
    assert st.kind[t] == SIEGE and st.side[t] == 0
    st2 = blank(game)
    x2 = put(st2, 1, 1, "X", 0)
    put(st2, 4, 4, "T", 1)
    assert sq(st2, 3, 3) in {m.b for m in st2.legal_moves() if m.kind == "strike" and m.a == x2}


def test_ram_blast_destroys_both_sides_but_not_commands_or_sieges(game):
    st = blank(game)
    b = put(st, 5, 4, "B", 0)
    put(st, 5, 7, "S", 1)  # the blocker: blast centred here
    put(st, 4, 8, "G", 1, power=3)
    put(st, 6, 8, "X", 1)
    put(st, 4, 6, "S", 0)  # own drone in the blast goes too
    put(st, 6, 6, "T", 1)
    rock(st, 4, 7)
    stock = st.miss[st.cmd[0]]
    d = (0, 1)
    from pegboard_starfall.geometry import DIRECTIONS

    st.apply(mv.ram(b, DIRECTIONS.index(d)))
    assert st.kind[b] == 0
    for c, r in ((5, 7), (4, 8), (4, 6), (6, 6)):
        assert st.kind[sq(st, c, r)] == 0
    assert st.kind[sq(st, 6, 8)] == SIEGE
    assert st.ast[sq(st, 4, 7)] == 0
    assert st.miss[st.cmd[0]] == stock + 2  # two enemy drones; the turret and own scout pay nothing


def test_ram_at_the_edge_needs_movement(game):
    st = blank(game)
    b = put(st, 0, 3, "B", 0)
    from pegboard_starfall.geometry import DIRECTIONS

    west = DIRECTIONS.index((-1, 0))
    east = DIRECTIONS.index((1, 0))
    assert st.check(mv.ram(b, west)) is not None
    assert st.check(mv.ram(b, east)) is None
    st.apply(mv.ram(b, east))
    assert st.kind[b] == 0 and st.to_move == 1


def test_build_a_turret(game):
    st = blank(game)
    st.miss[st.cmd[0]] = 10
    own(st, [(3, 1), (4, 1)], 0)
    put(st, 4, 1, "S", 0)
    builds = {m.a for m in st.legal_moves() if m.kind == "build"}
    assert builds == {sq(st, 3, 1)}
    st.apply(mv.build(sq(st, 3, 1)))
    assert st.kind[sq(st, 3, 1)] == TURRET and st.miss[st.cmd[0]] == 0
    assert st.drone_count(0) == 2  # the Command and the scout; turrets do not count
    st2 = blank(game)
    st2.miss[st2.cmd[0]] = 9
    own(st2, [(3, 1)], 0)
    assert "costs 10" in st2.check(mv.build(sq(st2, 3, 1)))


def test_turret_fires_at_a_siege_first_then_the_weakest(game):
    st = blank(game)
    put(st, 5, 5, "T", 0)
    put(st, 4, 6, "S", 1, power=1)
    x = put(st, 6, 6, "X", 1, power=2)
    other = put(st, 9, 9, "S", 1)
    st.current = 1
    st.apply(mv.move(other, sq(st, 9, 8)))
    # South's turn began: the turret shot the siege although the scout is weaker
    assert st.to_move == 0 and st.power[x] == 1 and st.power[sq(st, 4, 6)] == 1


def test_turret_weakest_then_back_row_then_column(game):
    from pegboard_starfall.effects import turret_target

    st = blank(game)
    t = put(st, 5, 5, "T", 0)
    put(st, 4, 6, "G", 1, power=2)
    put(st, 6, 4, "S", 1, power=1)
    put(st, 4, 4, "S", 1, power=1)
    assert turret_target(st, t) == sq(st, 4, 4)  # power 1, row 4 (nearest South's back row), column 4
    put(st, 5, 4, "R", 1, power=1)
    assert turret_target(st, t) == sq(st, 4, 4)
    put(st, 5, 6, "X", 1, power=3)
    assert turret_target(st, t) == sq(st, 5, 6)


def test_turret_kill_pays_and_missiles_bounce(game):
    st = blank(game)
    put(st, 5, 5, "T", 0)
    put(st, 4, 6, "S", 1, power=1)
    h = put(st, 2, 7, "H", 1, ride="all", missiles=1)
    st.current = 1
    assert sq(st, 5, 5) not in {m.b for m in st.legal_moves() if m.kind == "fire" and m.a == h}
    stock = st.miss[st.cmd[0]]
    st.apply(mv.move(h, sq(st, 1, 7)))
    assert st.kind[sq(st, 4, 6)] == 0 and st.miss[st.cmd[0]] == stock + 1
