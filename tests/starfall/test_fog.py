"""Fog of war: visibility, observations without leaks, and fogged move restrictions."""

from __future__ import annotations

import json
import random

from pegboard_starfall import fog
from pegboard_starfall import moves as mv
from support.starfall_helpers import blank, own, paint, put, quiet, sq


def seen(st, player):
    vis = fog.visible(st, player)
    return {(st.geo.col[s], st.geo.row[s]) for s in range(st.geo.size) if vis[s]}


def test_seam_fog_sees_own_half_seam_drones_and_lit_claims(seam_game):
    st = blank(seam_game)
    put(st, 2, 7, "S", 0)
    put(st, 8, 8, "G", 0)  # shields see nothing (but their own square is known)
    st.lit[0] |= 1 << sq(st, 10, 10)
    got = seen(st, 0)
    assert {(c, r) for c in range(11) for r in range(6)} <= got
    assert {(c, r) for c in (1, 2, 3) for r in (6, 7, 8)} <= got
    assert (8, 8) in got and (9, 9) not in got and (7, 7) not in got
    assert (10, 10) in got
    assert (5, 9) not in got  # North's Command area
    assert (5, 10) not in got


def test_dark_fog_starts_dark(dark_game):
    st = dark_game.new_state(1)
    got = seen(st, 0)
    assert (0, 0) not in got and (5, 4) not in got
    assert {(4, 0), (5, 1), (6, 1), (7, 1), (3, 1)} <= got  # around Command, scout and siege
    assert (5, 2) in got and (5, 3) not in got  # the shield knows only its own square


def test_observation_holds_only_what_is_seen(seam_game):
    st = seam_game.new_state(4)
    obs = st.observation(0)
    assert "seed" not in obs and "draws" not in obs and obs["viewer"] == 0
    vis = fog.visible(st, 0)
    for r in range(11):
        for c in range(11):
            s = sq(st, c, r)
            assert (obs["stars"][r][c] is None) == (not vis[s])
    assert all(d["side"] == 0 for d in obs["drones"])  # North's drones are all out of sight at the start
    assert obs["lit"][1] is None and obs["cleared"][1] is None
    assert obs["owners"][10][5] is None  # North's block is out of sight
    assert obs["owners"][0][5] == 0
    # nothing about unseen squares anywhere in the document
    text = json.dumps(obs)
    assert '"kind": "M", "side": 1' not in text


def test_player_view_plays_the_same_moves(seam_game):
    rng = random.Random(3)
    st = seam_game.new_state(9)
    for _ in range(60):
        if st.result is not None:
            break
        for p in (0, 1):
            view = st.player_view(p)
            if p == st.to_move:
                assert set(view.legal_moves()) == set(st.legal_moves())
        st.apply(rng.choice(st.legal_moves()))


def test_no_swap_or_missile_at_unseen_squares(dark_game):
    st = blank(dark_game)
    s = put(st, 2, 3, "S", 0, missiles=1)
    vis = fog.visible(st, 0)
    kinds = [m.kind for m in st.legal_moves()]
    assert kinds.count("fire") >= 3  # shots to check (no swap makes a line on this board: the swaps are tested below)
    for m in st.legal_moves():
        if m.kind == "swap":
            assert vis[m.a] and vis[m.b]
        if m.kind == "fire":
            assert vis[m.b]
    assert st.check(mv.fire(s, sq(st, 6, 3))) is not None  # in range 5 but unseen
    # a line that needs an unseen star does not make a swap legal: (0,3) is dark
    paint(st, [(0, 3), (1, 3), (2, 4)])
    assert quiet(st)
    m = mv.swap(sq(st, 2, 3), sq(st, 2, 4))
    assert vis[m.a] and vis[m.b] and not vis[sq(st, 0, 3)]
    assert "snaps back" in st.check(m)
    clear_sky = blank(dark_game.__class__({"game": "starfall", "id": "t"}))
    put(clear_sky, 2, 3, "S", 0)
    paint(clear_sky, [(0, 3), (1, 3), (2, 4)])
    assert clear_sky.check(m) is None  # the same swap with the fog off


def test_drones_cannot_move_through_unseen_squares(dark_game):
    st = blank(dark_game)
    h = put(st, 0, 3, "H", 0, ride="all")
    steps = [m for m in st.legal_moves() if m.kind == "move" and m.a == h]
    assert steps  # the hunter can move: there is something to check
    for m in steps:
        assert st.geo.chebyshev(m.a, m.b) <= 2  # sees one square around, so at most a step beyond


def test_shields_stand_only_on_owned_or_cleared_squares(seam_game):
    st = blank(seam_game)
    g = put(st, 2, 3, "G", 0)
    assert st.check(mv.move(g, sq(st, 3, 3))) is not None
    own(st, [(3, 3)], 0)
    assert st.check(mv.move(g, sq(st, 3, 3))) is None
    st.cleared[0] |= 1 << sq(st, 1, 3)
    assert st.check(mv.move(g, sq(st, 1, 3))) is None


def test_events_name_who_may_see_them(seam_game):
    st = blank(seam_game)
    put(st, 2, 8, "S", 1, missiles=1)
    n = put(st, 8, 9, "S", 1)
    st.current = 1
    events = st.apply(mv.move(n, sq(st, 8, 8)))
    moved = [e for e in events if e.kind == "move"][0]
    assert moved.seen_by == frozenset({1})
    st.current = 1  # (test shortcut) North again: a move South can see
    st.memo.forget()
    s = put(st, 2, 6, "S", 1)
    st.shots = [0] * 121
    events = st.apply(mv.move(s, sq(st, 2, 5)))
    full, arrival = [e for e in events if e.kind == "move"]
    assert full.seen_by == frozenset({1}) and full.data == {"frm": s, "to": sq(st, 2, 5)}
    # South sees (2,5) but never saw (2,6): it hears only that a scout came into sight
    assert arrival.seen_by == frozenset({0}) and arrival.data == {"to": sq(st, 2, 5)}
    assert "c7" not in arrival.text and "comes into sight at c6" in arrival.text


def test_fog_off_events_are_public(game):
    st = game.new_state(1)
    events = st.apply(st.legal_moves()[-1])
    assert all(e.seen_by is None for e in events)


def test_start_of_turn_events_belong_to_the_side_whose_turn_begins(seam_game):
    st = blank(seam_game)
    st.miss[st.cmd[1]] = 2
    put(st, 4, 9, "S", 1)  # North's scout beside its Command loads when North's turn begins
    s = put(st, 8, 2, "S", 0)
    events = st.apply(mv.claim(s))
    loaded = [e for e in events if e.kind == "loaded"]
    assert loaded and loaded[0].seen_by == frozenset({1})  # South cannot see (4,9)


def test_private_notices_under_fog(seam_game):
    from pegboard_starfall import effects

    st = blank(seam_game)
    effects.pay_at_nine(st, "missile", "South's swap made a 5-line of blue")
    events = st._flush_events()
    assert events[0].seen_by == frozenset({0})


def test_strike_ram_warp_and_build_need_sight(dark_game):
    from pegboard_starfall.geometry import DIRECTIONS

    st = blank(dark_game)
    x = put(st, 1, 1, "X", 0)  # sees (0..2, 0..2); the column above row 2 is dark
    ends = {m.b for m in st.legal_moves() if m.kind == "strike" and m.a == x}
    assert not any(st.geo.col[e] == 1 and st.geo.row[e] > 1 for e in ends)  # north runs into the dark
    assert sq(st, 0, 1) in ends  # west: (0,1) is in sight and the edge stops it
    b = put(st, 8, 1, "B", 0)
    north = DIRECTIONS.index((0, 1))
    assert st.check(mv.ram(b, north)) is not None
    put(st, 9, 1, "S", 1)  # a blocker in sight: the ram east is fine
    assert st.check(mv.ram(b, DIRECTIONS.index((1, 0)))) is None
    w = put(st, 2, 4, "W", 0)
    targets = {m.b for m in st.legal_moves() if m.kind == "warp" and m.a == w}
    vis = fog.visible(st, 0)
    assert targets and all(vis[t] for t in targets) and sq(st, 8, 8) not in targets
    st.miss[st.cmd[0]] = 10
    own(st, [(0, 9), (2, 2)], 0)
    builds = {m.a for m in st.legal_moves() if m.kind == "build"}
    assert sq(st, 2, 2) in builds and sq(st, 0, 9) not in builds


def test_a_side_hears_about_its_own_drone_dying_in_the_dark(dark_game):
    st = blank(dark_game)
    victim = put(st, 8, 6, "S", 1)  # North's lone scout: North sees (7..9, 5..7) only through it
    shooter = put(st, 8, 3, "H", 0, ride="all", missiles=1)  # South sees (7..9, 2..4) around it
    st.lit[0] |= 1 << victim  # ... and (8,6), which one of its scouts once claimed
    st.memo.forget()
    events = st.apply(mv.fire(shooter, victim))
    full, blind = [e for e in events if e.kind == "missile"]
    assert full.seen_by == frozenset({0})
    # North saw (8,6) before the shot (not after), never the hunter's square: it learns of
    # the hit, not where the missile came from
    assert blind.seen_by == frozenset({1}) and "i4" not in blind.text and "i7" in blind.text
    assert blind.data == {"to": victim, "hit": "drone", "destroyed": True}
