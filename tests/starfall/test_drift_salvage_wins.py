"""Asteroid drift, salvage wrecks, the win conditions and the turn cap."""

from __future__ import annotations

from pegboard_starfall import effects
from pegboard_starfall import moves as mv
from support.starfall_helpers import blank, make_game, own, put, rock, sq


def claim_after_clearing(st, cleared=8, scout_at=(8, 2)):
    """South clears ``cleared`` stars this turn (as if by cascades) then claims."""
    s = put(st, *scout_at, "S", 0)
    st.cleared_now = cleared
    st.apply(mv.claim(s))


def test_no_drift_below_the_threshold(game):
    st = blank(game)
    a = rock(st, 2, 5)
    claim_after_clearing(st, 7)
    assert st.ast[a] == 1


def test_drift_moves_every_asteroid_toward_the_mover(game):
    st = blank(game)
    a = rock(st, 2, 5)
    rock(st, 3, 6)
    c = rock(st, 3, 7)  # behind (3,6): moves after it, into its old square
    star_below = st.star[sq(st, 2, 4)]
    claim_after_clearing(st)
    assert st.ast[sq(st, 2, 4)] and not st.ast[a]
    assert st.star[a] == star_below  # the star the rock moved onto went to the square it left
    assert st.ast[sq(st, 3, 5)] and st.ast[sq(st, 3, 6)] and not st.ast[c]


def test_drift_crushes_a_lone_drone_and_pays_nobody(game):
    st = blank(game)
    rock(st, 2, 5)
    put(st, 2, 4, "S", 1)
    stock = (st.miss[st.cmd[0]], st.miss[st.cmd[1]])
    claim_after_clearing(st)
    assert st.ast[sq(st, 2, 4)] and st.kind[sq(st, 2, 4)] == 0
    assert (st.miss[st.cmd[0]], st.miss[st.cmd[1]]) == stock


def test_drift_into_a_stack_knocks_power_and_jumps(game):
    st = blank(game)
    rock(st, 2, 5)
    s = put(st, 2, 4, "G", 0, power=2)
    v = put(st, 2, 3, "S", 1)
    claim_after_clearing(st)
    assert st.power[s] == 1 and st.kind[s] != 0
    assert st.ast[v] and st.kind[v] == 0
    assert not st.ast[sq(st, 2, 5)]


def test_jump_blocked_stays_put(game):
    st = blank(game)
    a = rock(st, 2, 5)
    s = put(st, 2, 4, "G", 0, power=3)
    put(st, 2, 3, "M", 0)  # a Command on the landing square (a second one, only as a blocker)
    st.cmd[0] = sq(st, 5, 0)
    claim_after_clearing(st)
    assert st.ast[a] and st.power[s] == 2


def test_drift_stops_at_a_command_and_the_edge(game):
    st = blank(game)
    a = rock(st, 5, 1)
    e = rock(st, 0, 0)
    claim_after_clearing(st)
    assert st.ast[a] and st.ast[e] and st.kind[st.cmd[0]]


def test_drift_crushes_a_turret(game):
    st = blank(game)
    rock(st, 7, 5)
    t = put(st, 7, 4, "T", 1)
    claim_after_clearing(st)
    assert st.ast[t] and st.kind[t] == 0


def test_north_drift_goes_up(game):
    st = blank(game, to_move=1)
    rock(st, 2, 5)
    s = put(st, 8, 8, "S", 1)
    st.cleared_now = 8
    st.apply(mv.claim(s))
    assert st.ast[sq(st, 2, 6)]


# -- salvage -----------------------------------------------------------------------------------


def test_missile_kill_leaves_a_wreck_anyone_can_salvage(salvage_game):
    st = blank(salvage_game)
    s = put(st, 2, 3, "S", 0, missiles=1)
    t = put(st, 4, 5, "S", 1)
    stock0 = st.miss[st.cmd[0]]
    st.apply(mv.fire(s, t))
    assert st.kind[t] == 0 and st.wreck[t] == 1 and st.miss[st.cmd[0]] == stock0
    n = put(st, 5, 6, "G", 1)
    st.apply(mv.claim(s))  # South's action; now North
    stock1 = st.miss[st.cmd[1]]
    st.apply(mv.move(n, t))  # North's shield walks onto South's kill
    assert st.wreck[t] == 0 and st.miss[st.cmd[1]] == stock1 + 1


def test_landing_take_pays_at_once_with_salvage(salvage_game):
    st = blank(salvage_game)
    r = put(st, 2, 3, "R", 0, ride="white")
    t = put(st, 3, 4, "S", 1)
    stock = st.miss[st.cmd[0]]
    st.apply(mv.move(r, t))
    assert st.miss[st.cmd[0]] == stock + 1 and st.wreck[t] == 0


def test_crushed_drone_leaves_no_wreck(salvage_game):
    st = blank(salvage_game)
    rock(st, 2, 5)
    put(st, 2, 4, "S", 1)
    claim_after_clearing(st)
    assert not any(st.wreck)


def test_wrecks_fade_after_five_rounds(salvage_game):
    st = blank(salvage_game)
    w = sq(st, 3, 3)
    st.wreck[w], st.wround[w] = 1, 0
    st.turn = 11  # round 5
    effects.fade_wrecks(st)
    assert st.wreck[w] == 1
    st.turn = 12  # round 6: gone at its start
    effects.fade_wrecks(st)
    assert st.wreck[w] == 0


# -- winning -------------------------------------------------------------------------------------


def test_territory_win():
    game = make_game(win={"target": 12})
    st = blank(game)
    own(st, [(c, 0) for c in range(4)], 0)
    s = put(st, 8, 3, "S", 0)
    st.apply(mv.claim(s))
    assert st.result.winner == 0 and st.result.reason == "territory" and st.result.scores == (13, 0)
    assert st.legal_moves() == []


def test_siege_beside_the_command_wins_at_the_start_of_the_next_turn(game):
    st = blank(game)
    x = put(st, 3, 9, "X", 0)
    other = put(st, 9, 1, "S", 0)
    st.apply(mv.move(x, sq(st, 4, 9)))
    assert st.result is None  # not at once: North gets to answer
    n = put(st, 9, 9, "S", 1)
    st.apply(mv.move(n, sq(st, 9, 8)))
    assert st.result is not None and st.result.winner == 0 and st.result.reason == "siege"
    del other


def test_a_shield_beside_the_siege_stops_the_siege_win(game):
    st = blank(game)
    x = put(st, 3, 9, "X", 0)
    put(st, 3, 8, "G", 1)
    st.apply(mv.move(x, sq(st, 4, 9)))
    n = put(st, 9, 9, "S", 1)
    st.apply(mv.move(n, sq(st, 9, 8)))
    assert st.result is None


def test_surrounded_siege_is_destroyed_and_pays(game):
    st = blank(game)
    x = put(st, 3, 3, "X", 1)
    put(st, 2, 2, "S", 0)
    put(st, 4, 4, "S", 0)
    put(st, 2, 4, "G", 0)
    put(st, 4, 2, "T", 0)  # turrets do not count
    mover = put(st, 5, 3, "S", 0)
    stock = st.miss[st.cmd[0]]
    st.apply(mv.move(mover, sq(st, 4, 3)))
    assert st.kind[x] == 0 and st.miss[st.cmd[0]] == stock + 1


def test_flag_fall_and_resign_are_recorded_moves(game):
    st = game.new_state(1)
    events = st.concede(0, "flag")
    assert st.result.winner == 1 and st.result.reason == "flag"
    assert events[-1].kind == "game_over"
    assert game.encode_move(st.undo()) == {"type": "concede", "seat": 0, "reason": "flag"}
    assert st.result is None


def test_timeout_passes_the_turn(game):
    st = game.new_state(1)
    assert mv.TIMEOUT_MOVE not in st.legal_moves()
    st.apply(mv.TIMEOUT_MOVE)
    assert st.to_move == 1 and st.turn == 1


def test_pass_only_when_nothing_else(game):
    st = blank(game)
    for s in range(121):
        st.star[s] = -1  # no stars: no swaps; only the Command: no drone moves
    assert st.legal_moves() == [mv.PASS_MOVE]
    st2 = game.new_state(1)
    assert "only pass" in st2.check(mv.PASS_MOVE)


def test_turn_cap_more_squares_wins():
    game = make_game(win={"max_turns": 2})
    st = game.new_state(2)
    own(st, [(0, 4)], 0)
    st.apply(mv.TIMEOUT_MOVE)
    assert st.result is None
    st.apply(mv.TIMEOUT_MOVE)
    assert st.result.reason == "turn_limit" and st.result.winner == 0 and st.result.scores == (10, 9)


def test_turn_cap_equal_squares_draw():
    game = make_game(win={"max_turns": 1})
    st = game.new_state(2)
    st.apply(mv.TIMEOUT_MOVE)
    assert st.result.reason == "turn_limit" and st.result.winner is None


def test_acting_side_wins_when_both_reach_the_target():
    game = make_game(win={"target": 10})
    st = blank(game, to_move=1)
    own(st, [(c, 0) for c in range(10)], 0)
    own(st, [(c, 10) for c in range(9)], 1)
    s = put(st, 8, 7, "S", 1)
    st.apply(mv.claim(s))
    assert st.result.winner == 1


def _five_line_turn(game, missile: bool):
    """South fires (or not) at a star on its half, then swaps in a 5-line: 5 or 6 stars cleared."""
    st = blank(game)
    a = rock(st, 8, 7)
    st.star[sq(st, 9, 3)] = 0  # the missile's target: a lone star of South's half
    for c in (0, 1, 3, 4):
        st.star[sq(st, c, 2)] = 4
    st.star[sq(st, 2, 3)] = 4
    h = put(st, 9, 1, "H", 0, ride="all", missiles=1)
    kinds = []
    if missile:
        kinds += [e.kind for e in st.apply(mv.fire(h, sq(st, 9, 3)))]
    kinds += [e.kind for e in st.apply(mv.swap(sq(st, 2, 2), sq(st, 2, 3)))]
    return st, a, kinds


def test_drift_counts_missile_clears_and_the_swap_over_the_whole_turn():
    game = make_game(asteroids={"drift_threshold": 6})
    st, a, kinds = _five_line_turn(game, missile=False)
    assert "drift" not in kinds and st.ast[a]  # 5 cleared: below 6
    st, a, kinds = _five_line_turn(game, missile=True)
    assert "drift" in kinds and not st.ast[a] and st.ast[sq(st, 8, 6)]  # 1 + 5: the rock moves toward South


def test_the_command_counts_toward_a_surround(game):
    st = blank(game)
    x = put(st, 4, 1, "X", 1)  # North's siege beside South's Command (5,0)
    put(st, 3, 0, "S", 0)
    put(st, 3, 2, "S", 0)
    mover = put(st, 6, 3, "G", 0)
    own(st, [(5, 2)], 0)
    st.apply(mv.move(mover, sq(st, 5, 2)))  # the fourth: scout, scout, shield and the Command
    assert st.kind[x] == 0
