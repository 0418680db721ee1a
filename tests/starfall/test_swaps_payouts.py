"""Swaps, shapes and what they pay: spawns, rides, the drone cap and its column."""

from __future__ import annotations

from pegboard_starfall import moves as mv
from pegboard_starfall.pieces import (
    ALL_STARS,
    BOMB,
    HUNTER,
    RAIDER,
    SCOUT,
    SHIELD,
    WHITE_SQUARES,
)
from support.starfall_helpers import blank, kinds, make_game, own, paint, put, quiet, sq


def line_setup(st, n, row=2):
    """An n-line (4 or 5) of colour 4 on ``row`` from column 0 but for a gap at column 2;
    the missing star sits just above the gap, so the swap (2,row)-(2,row+1) completes it."""
    paint(st, [(c, row) for c in range(n) if c != 2])
    paint(st, [(2, row + 1)])
    assert quiet(st)
    return mv.swap(sq(st, 2, row), sq(st, 2, row + 1))


def six_line(st, row=2):
    """A standing 6-line (no single swap can make one from a quiet board); resolve() pays it."""
    from pegboard_starfall import effects

    paint(st, [(c, row) for c in range(6)])
    effects.resolve(st, (), "cascade")


def test_four_line_gives_a_scout_on_the_swapped_square(game):
    st = blank(game)
    m = line_setup(st, 4)
    assert st.check(m) is None and m in st.legal_moves()
    events = st.apply(m)
    spawn = sq(st, 2, 2)
    assert st.kind[spawn] == SCOUT and st.side[spawn] == 0 and st.ride[spawn] == 1 << 4 and st.power[spawn] == 1
    texts = [e.text for e in events if e.kind == "drone_spawned"]
    assert texts[0] == "South's swap made a 4-line of violet from a3 to d3: a scout appears at c3."
    assert st.to_move == 1


def test_five_line_gives_a_white_raider(game):
    st = blank(game)
    st.apply(line_setup(st, 5))
    spawn = sq(st, 2, 2)
    assert st.kind[spawn] == RAIDER and st.ride[spawn] == WHITE_SQUARES


def test_block_gives_a_shield_and_lone_three_pays_nothing(game):
    st = blank(game)
    paint(st, [(0, 2), (1, 2), (0, 3), (2, 3)])
    assert quiet(st)
    st.apply(mv.swap(sq(st, 1, 3), sq(st, 2, 3)))
    assert st.kind[sq(st, 1, 3)] == SHIELD or st.kind[sq(st, 0, 2)] == SHIELD
    st2 = blank(game)
    paint(st2, [(0, 2), (1, 2), (2, 3)])
    events = st2.apply(mv.swap(sq(st2, 2, 2), sq(st2, 2, 3)))
    assert [e for e in events if e.kind == "cleared" and e.data["row"] is None]
    assert kinds(st2, 0) == ["M"]


def test_swap_must_make_a_line(game):
    st = blank(game)
    assert "snaps back" in st.check(mv.swap(sq(st, 0, 0), sq(st, 1, 0)))
    paint(st, [(0, 2), (1, 2), (3, 3)])
    assert "side by side" in st.check(mv.swap(sq(st, 2, 2), sq(st, 3, 3)))  # diagonal
    assert all(m.kind != "swap" for m in st.legal_moves())


def test_no_swap_on_enemy_land(game):
    st = blank(game)
    m = line_setup(st, 4)
    own(st, [(2, 3)], 1)
    assert "owns" in st.check(m)
    assert m not in st.legal_moves()
    own(st, [(2, 3)], 0)  # own land is fine
    assert st.check(m) is None


def test_shape_on_the_other_half_pays_nothing(game):
    st = blank(game)
    m = line_setup(st, 4, row=7)
    st.apply(m)
    assert kinds(st, 0) == ["M"]


def test_shape_across_the_seam_pays_on_the_movers_part(game):
    st = blank(game)
    # vertical 4-line in column 8, rows 3..6; the swap brings (8,5) in from (9,5)
    paint(st, [(8, 3), (8, 4), (8, 6), (9, 5)])
    assert quiet(st)
    st.apply(mv.swap(sq(st, 8, 5), sq(st, 9, 5)))
    # the swapped square (8,5) is the seam, no one's half, so the drone goes nearest South's back row
    assert st.kind[sq(st, 8, 3)] == SCOUT


def test_shape_all_on_enemy_land_pays_nothing(game):
    st = blank(game)
    paint(st, [(c, 2) for c in range(4)])
    own(st, [(c, 2) for c in range(4)], 1)
    from pegboard_starfall import effects

    events_before = len(st._pending)
    effects.resolve(st, (), "cascade")  # a line that formed by itself on North's land in South's half
    assert kinds(st, 0) == ["M"]
    assert all(st.star[sq(st, c, 2)] >= 0 for c in range(4))  # it cleared (and the flow refilled)
    assert any(p[0] == "cleared" for p in st._pending[events_before:])
    own(st, [(0, 2)], 0)  # one square not theirs: it pays again
    paint(st, [(c, 2) for c in range(4)])
    effects.resolve(st, (), "cascade")
    assert "S" in kinds(st, 0)


def test_occupied_spawn_square_moves_to_next_candidate(game):
    st = blank(game)
    m = line_setup(st, 4)
    put(st, 2, 2, "S", 0)
    st.apply(m)
    # next best: nearest South's back row (all row 2), then nearest the centre column -> (3,2)
    assert st.kind[sq(st, 2, 2)] == SCOUT and st.kind[sq(st, 3, 2)] == SCOUT and st.power[sq(st, 2, 2)] == 1


def test_full_shape_stacks_into_own_drone():
    game = make_game()
    st = blank(game)
    m = line_setup(st, 4)
    for c in range(4):
        put(st, c, 2, "S", 0)
    st.apply(m)
    # no free square: the new scout stacks into the best candidate, the swapped square (2,2)
    assert st.power[sq(st, 2, 2)] == 2 and st.kind[sq(st, 2, 2)] == SCOUT


def test_at_cap_a_five_line_pays_a_missile():
    game = make_game(drones={"cap": 2})
    st = blank(game)
    put(st, 9, 0, "G", 0)
    m = line_setup(st, 5)
    stock = st.miss[st.cmd[0]]
    events = st.apply(m)
    assert st.kind[sq(st, 2, 2)] == 0
    assert st.miss[st.cmd[0]] == stock + 1
    assert any("1 missile" in e.text for e in events)


def test_at_cap_a_shape_made_under_own_drone_stacks_into_it():
    game = make_game(drones={"cap": 2})
    st = blank(game)
    m = line_setup(st, 5)
    put(st, 1, 2, "S", 0)  # Command + scout = 2 = the cap
    stock = st.miss[st.cmd[0]]
    st.apply(m)
    assert st.power[sq(st, 1, 2)] == 2 and st.ride[sq(st, 1, 2)] & WHITE_SQUARES
    assert st.miss[st.cmd[0]] == stock


def test_bomb_comes_past_the_cap():
    game = make_game(drones={"cap": 2})
    st = blank(game)
    put(st, 9, 0, "G", 0)
    # L of two 3-lines: (0,2),(1,2),(2,2) and (2,3),(2,4); the swap brings (2,2) in from (3,2)... build it vertical
    paint(st, [(0, 2), (1, 2), (2, 3), (2, 4), (3, 2)])
    assert quiet(st)
    st.apply(mv.swap(sq(st, 2, 2), sq(st, 3, 2)))
    assert st.kind[sq(st, 2, 2)] == BOMB
    assert st.drone_count(0) == 3


def test_six_line_at_cap_drops_an_asteroid_on_enemy_land():
    game = make_game(drones={"cap": 2})
    st = blank(game)
    put(st, 9, 0, "G", 0)
    own(st, [(0, 9), (1, 9)], 1)
    six_line(st)
    assert st.ast[sq(st, 0, 9)] + st.ast[sq(st, 1, 9)] == 1
    assert any(p[0] == "asteroid_drop" for p in st._pending)
    assert kinds(st, 0) == ["G", "M"]


def test_six_line_asteroid_on_the_command_wins():
    game = make_game(drones={"cap": 2})
    st = blank(game)
    put(st, 9, 0, "G", 0)
    own(st, [(5, 10)], 1)  # North owns only its Command's square
    six_line(st)
    assert st.result is not None and st.result.winner == 0 and st.result.reason == "asteroid"
    assert st.ast[sq(st, 5, 10)] == 1 and st.kind[sq(st, 5, 10)] == 0
    data = st.to_json()  # a finished game without North's Command still round-trips
    assert game.state_from_json(data).to_json() == data


def test_hunter_rides_every_colour_and_payout_table_is_data():
    game = make_game(payout={"line4": {"drones": ["hunter"], "at_nine": "nothing"}})
    st = blank(game)
    st.apply(line_setup(st, 4))
    s = sq(st, 2, 2)
    assert st.kind[s] == HUNTER and st.ride[s] == ALL_STARS


def test_several_shapes_pay_highest_row_first():
    from pegboard_starfall import effects

    game = make_game(drones={"cap": 2})  # room for one more drone beside the Command
    st = blank(game)
    paint(st, [(c, 1) for c in range(4)])  # a 4-line nearer the back row
    paint(st, [(c, 3) for c in range(5)])  # a 5-line further out
    effects.resolve(st, (), "cascade")
    assert kinds(st, 0) == ["M", "R"]  # the 5-line's raider came first; the 4-line found the cap


def test_same_row_shapes_pay_in_spawn_square_order():
    from pegboard_starfall import effects

    game = make_game(drones={"cap": 2})
    st = blank(game)
    paint(st, [(c, 3) for c in range(4)])
    paint(st, [(c, 1) for c in range(7, 11)])
    effects.resolve(st, (), "cascade")
    assert st.kind[sq(st, 7, 1)] == SCOUT  # row 1 is nearer South's back row than row 3
    assert not any(st.kind[sq(st, c, 3)] for c in range(4))


def test_start_of_turn_cascade_pays_the_side_whose_turn_begins(game):
    st = blank(game)
    paint(st, [(0, 10), (0, 9), (0, 7), (0, 6)])
    st.star[sq(st, 0, 8)] = -1  # a hole South's flow cannot close... North's flow lifts (0,7) into it
    st.ast[sq(st, 0, 5)] = 1  # keep South's own flow out of column 0's upper part
    st.star[sq(st, 0, 5)] = -1
    assert quiet(st)
    st.apply(mv.TIMEOUT_MOVE)
    assert st.to_move == 1
    assert st.kind[sq(st, 0, 10)] == SCOUT and st.side[sq(st, 0, 10)] == 1


def test_swap_legality_agrees_with_the_shape_finder():
    import random

    from pegboard_starfall.shapes import matches_through

    game = make_game()
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        st = game.new_state(seed)
        for _ in range(rng.randrange(0, 40)):  # a position from random play: the board is at rest
            st.apply(rng.choice(st.legal_moves()))
        assert quiet(st)
        legal = {(m.a, m.b) for m in st.legal_moves() if m.kind == "swap"}
        checked += len(legal)
        enemy = st.to_move ^ 1
        for a in range(121):
            for b in (a + 1, a + 11):
                if b >= 121 or (b == a + 1 and b % 11 == 0) or st.star[a] < 0 or st.star[b] < 0:
                    continue
                if st.star[a] == st.star[b] or st.owner[a] == enemy or st.owner[b] == enemy:
                    continue
                colors = list(st.star)
                colors[a], colors[b] = colors[b], colors[a]
                assert ((a, b) in legal) == matches_through(colors, 11, 11, [a, b]), (seed, a, b)
    assert checked > 200


def test_illegal_move_raises_with_a_rule_id_and_leaves_the_state_alone(game):
    import pytest

    from pegboard.game import IllegalMove

    st = game.new_state(2)
    before = st.to_json()
    with pytest.raises(IllegalMove) as info:
        st.apply(mv.swap(0, 12))  # diagonal
    assert info.value.rule == "swap" and info.value.reason
    with pytest.raises(IllegalMove) as info:
        st.apply(mv.move(sq(st, 5, 0), sq(st, 5, 1)))
    assert info.value.rule == "move_fixed"
    with pytest.raises(IllegalMove) as info:
        st.apply(("swap", 0, 1))
    assert info.value.rule == "not_a_move"
    assert st.to_json() == before and st.ply == 0


# -- a shape made under the mover's own drone, wherever on the shape it stands --------------


def _standing_line(st, cells):
    """Paint a line that stands on the board; resolve() pays it to the mover."""
    from pegboard_starfall import effects

    paint(st, cells)
    effects.resolve(st, (), "cascade")


def test_at_cap_a_shape_stacks_into_own_drone_on_the_far_half():
    game = make_game(drones={"cap": 2})
    st = blank(game)
    far = put(st, 0, 7, "S", 0)  # South's scout on North's half, on the shape: Command + scout = the cap
    stock = st.miss[st.cmd[0]]
    _standing_line(st, [(0, r) for r in range(3, 8)])  # a 5-line, rows 3-4 South's, 5 the seam, 6-7 North's
    assert st.kind[far] == SCOUT and st.power[far] == 2 and st.ride[far] & WHITE_SQUARES
    assert st.miss[st.cmd[0]] == stock  # stacked, so the at-cap missile is not paid
    assert kinds(st, 0) == ["M", "S"]


def test_at_cap_a_shape_stacks_into_own_drone_on_the_seam():
    game = make_game(drones={"cap": 2})
    st = blank(game)
    seam = put(st, 0, 5, "G", 0, power=2)
    _standing_line(st, [(0, r) for r in range(2, 6)])  # a 4-line ending on the seam
    assert st.kind[seam] == SHIELD and st.power[seam] == 3
    assert kinds(st, 0) == ["G", "M"]


def test_below_cap_with_no_free_square_it_stacks_into_own_drone_across_the_seam():
    game = make_game()
    st = blank(game)
    put(st, 0, 3, "R", 1, ride="red")  # North drones fill both of South's candidate squares
    put(st, 0, 4, "R", 1, ride="white")
    far = put(st, 0, 6, "S", 0)
    _standing_line(st, [(0, r) for r in range(3, 7)])
    assert st.power[far] == 2 and st.kind[far] == SCOUT
    assert kinds(st, 0) == ["M", "S"]


def test_own_drone_beside_the_shape_is_not_under_it():
    game = make_game(drones={"cap": 2})
    st = blank(game)
    beside = put(st, 1, 7, "S", 0)
    stock = st.miss[st.cmd[0]]
    _standing_line(st, [(0, r) for r in range(3, 8)])
    assert st.power[beside] == 1
    assert st.miss[st.cmd[0]] == stock + 1  # the 5-line's at-cap column: 1 missile


def test_enemy_drone_on_the_shape_takes_no_stack():
    game = make_game(drones={"cap": 2})
    st = blank(game)
    put(st, 9, 0, "G", 0)
    theirs = put(st, 0, 7, "S", 1)
    stock = st.miss[st.cmd[0]]
    _standing_line(st, [(0, r) for r in range(3, 8)])
    assert st.power[theirs] == 1 and st.side[theirs] == 1
    assert st.miss[st.cmd[0]] == stock + 1
