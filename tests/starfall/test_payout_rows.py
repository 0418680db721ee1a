"""Every row of the payout table through the engine: what each shape pays under the cap, in
the at-9 column, and when it is made under one of the mover's drones at the cap.

Each shape is painted (colour 4) on South's half but for one square, and a swap brings that
star in (``apply``), so the spawn square is the swapped one. A 6-line cannot be completed
by one swap from a quiet board (one of its two parts would already be a line), so that row
and the 7-line are resolved as a standing cascade instead.
"""

from __future__ import annotations

import pytest

from pegboard_starfall import effects
from pegboard_starfall import moves as mv
from pegboard_starfall.pieces import ALL_STARS, RED_SQUARES, WHITE_SQUARES, payout_kind
from pegboard_starfall.rules import DEFAULT_PAYOUT
from pegboard_starfall.shapes import find_shapes
from support.starfall_helpers import LINE, blank, make_game, own, put

PICTURES = {
    "line4": ["####"],
    "line4-diagonal": ["#...", ".#..", "..#.", "...#"],
    "block2x2": ["##", "##"],
    "line5": ["#####"],
    "hook4": ["###", "#.."],
    "line6": ["######"],
    "L33": ["###", "#..", "#.."],
    "T33": ["###", ".#.", ".#."],
    "plus_or_X": [".#.", "###", ".#."],
    "plus_or_X-X": ["#.#", ".#.", "#.#"],
    "V": ["#...#", ".#.#.", "..#.."],
    "L43": ["####", "#...", "#..."],
    "cross44_53_or_line7": [".#..", "####", ".#..", ".#.."],
    "cross44_53_or_line7-line7": ["#######"],
    "cross44_53_or_line7-5x3": ["..#..", "#####", "..#.."],
    "cross54_or_block2x3": ["..#..", "#####", "..#..", "..#.."],
    "cross54_or_block2x3-2x3": ["##", "##", "##"],
    "block3x3": ["###", "###", "###"],
}
RIDES = {"raider_white": WHITE_SQUARES, "raider_red": RED_SQUARES, "hunter": ALL_STARS,
         "shield": 0, "siege": 0, "scout": 1 << LINE, "warp": 1 << LINE, "bomb": 1 << LINE}


def cells(pic, at=(0, 1)):
    return [(at[0] + c, at[1] + r) for r, line in enumerate(pic) for c, ch in enumerate(line) if ch == "#"]


def setup(game, pic):
    """A quiet position and the swap that completes the shape (None: the shape stands, resolve it)."""
    shape = cells(pic)
    for gap in shape:
        st = blank(game)
        for c, r in shape:
            if (c, r) != gap:
                st.star[st.geo.sq(c, r)] = LINE
        g = st.geo.sq(*gap)
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            src = (gap[0] + dc, gap[1] + dr)
            if src in shape or not st.geo.on_board(*src):
                continue
            s = st.geo.sq(*src)
            saved = st.star[s]
            st.star[s] = LINE
            if not find_shapes(st.star, 11, 11):
                after = st.star[:]
                after[g], after[s] = after[s], after[g]
                found = find_shapes(after, 11, 11)
                if len(found) == 1 and found[0].squares == {st.geo.sq(c, r) for c, r in shape}:
                    return st, mv.swap(g, s), g
            st.star[s] = saved
    st = blank(game)
    for c, r in shape:
        st.star[st.geo.sq(c, r)] = LINE
    return st, None, None


def play(st, move):
    if move is None:
        effects.resolve(st, (), "cascade")
        return [p[0] for p in st._pending]
    return [e.kind for e in st.apply(move)]


def new_drones(st, before):
    return {s: (st.kind[s], st.ride[s], st.power[s]) for s in range(st.geo.size)
            if st.kind[s] and st.side[s] == 0 and s not in before}


@pytest.mark.parametrize("name", list(PICTURES))
def test_each_row_pays_its_drones_on_the_movers_half(name):
    row = name.split("-")[0]
    game = make_game()
    st, move, gap = setup(game, PICTURES[name])
    shape = {st.geo.sq(c, r) for c, r in cells(PICTURES[name])}
    assert [s.row for s in find_shapes(st.star, 11, 11)] == ([row] if move is None else [])
    before = {s for s in range(st.geo.size) if st.kind[s]}
    play(st, move)
    got = new_drones(st, before)
    want = sorted(payout_kind(d, LINE) for d in DEFAULT_PAYOUT[row]["drones"])
    assert sorted((k, ride) for k, ride, _ in got.values()) == want
    assert set(got) <= shape  # every drone appears on the shape's squares
    first = payout_kind(DEFAULT_PAYOUT[row]["drones"][0], LINE)
    if gap is not None:
        assert got[gap][:2] == first  # the first drone on the swapped square
    else:  # a cascade: the square nearest South's back row, then the centre column, then the lowest column
        best = min(shape, key=lambda s: (st.geo.row[s], abs(st.geo.col[s] - 5), st.geo.col[s]))
        assert got[best][:2] == first
    for d in DEFAULT_PAYOUT[row]["drones"]:
        assert RIDES[d] in {ride for _, ride, _ in got.values()}


@pytest.mark.parametrize("name", list(PICTURES))
def test_each_row_at_the_cap_pays_its_right_column(name):
    row = name.split("-")[0]
    game = make_game(drones={"cap": 1})  # the Command alone fills the cap
    st, move, _ = setup(game, PICTURES[name])
    own(st, [(c, 9) for c in range(11)] + [(5, 10)], 1)
    stock = st.miss[st.cmd[0]]
    rocks = sum(st.ast)
    before = {s for s in range(st.geo.size) if st.kind[s]}
    play(st, move)
    got = new_drones(st, before)
    at_nine = DEFAULT_PAYOUT[row]["at_nine"]
    if at_nine == "bomb":
        assert [k for k, _, _ in got.values()] == [payout_kind("bomb", LINE)[0]]
    else:
        assert got == {}
    assert st.miss[st.cmd[0]] == stock + (at_nine == "missile")
    dropped = sum(st.ast) - rocks
    assert dropped == (at_nine == "asteroid")
    if dropped:
        (t,) = [s for s in range(st.geo.size) if st.ast[s]]
        assert st.owner[t] == 1  # on North's land


@pytest.mark.parametrize("name", ["line4", "line5", "V", "block3x3", "line6"])
def test_at_the_cap_a_shape_under_a_drone_stacks_into_it(name):
    row = name.split("-")[0]
    game = make_game(drones={"cap": 2})
    st, move, gap = setup(game, PICTURES[name])
    shape = cells(PICTURES[name])
    host_at = next(cr for cr in shape if gap is None or st.geo.sq(*cr) != gap)
    host = put(st, *host_at, "S", 0)  # Command + this scout = the cap
    stock = st.miss[st.cmd[0]]
    rocks = sum(st.ast)
    play(st, move)
    n = len(DEFAULT_PAYOUT[row]["drones"])
    assert n >= 1, "the row pays drones"
    assert st.kind[host] and st.power[host] == min(3, 1 + n)
    for d in DEFAULT_PAYOUT[row]["drones"]:
        assert st.ride[host] & RIDES[d] == RIDES[d]
    assert st.drone_count(0) == 2 and st.miss[st.cmd[0]] == stock and sum(st.ast) == rocks  # no right column


def test_turrets_do_not_count_toward_the_cap_and_a_stack_counts_once():
    game = make_game(drones={"cap": 3})
    st, move, gap = setup(game, PICTURES["line4"])
    put(st, 8, 1, "T", 0)
    put(st, 9, 1, "S", 0, power=3)
    put(st, 10, 1, "T", 0)
    assert st.drone_count(0) == 2
    play(st, move)
    assert st.kind[gap] and st.drone_count(0) == 3


def test_a_three_line_across_the_seam_on_north_land_pays_nothing_to_south():
    """A 4-line lying on the seam and North's half: no square on South's half, so nothing is paid."""
    st = blank(make_game())
    for c in range(4):
        st.star[st.geo.sq(c, 5)] = LINE
    before = {s for s in range(st.geo.size) if st.kind[s]}
    effects.resolve(st, (), "cascade")
    assert new_drones(st, before) == {}
    assert any(p[0] == "cleared" for p in st._pending)
