"""One definition of a match: swap legality (movegen's precomputed pattern tries) agrees with
the shape finder the effects use (shapes.find_shapes), on many random quiet boards.

For every orthogonal pair of squares, fog off: the swap is listed by ``legal_moves`` and
accepted by ``check`` exactly when both squares hold stars, neither is on the other side's
land, and after the exchange ``find_shapes`` finds a shape holding one of the two squares.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as hs

from pegboard_starfall import moves as mv
from pegboard_starfall.shapes import find_shapes
from pegboard_starfall.state import StarfallState
from support.starfall_helpers import make_game

GAMES = {c: make_game(board={"colors": c}) for c in (3, 4, 5)}


def _quiet_board(game, rng: random.Random, holes: float, rocks: int) -> StarfallState:
    st = StarfallState(game, seed=rng.randrange(1 << 30))
    geo = game.geo
    w, h = geo.width, geo.height
    colors = game.rules.colors
    st.star = [rng.randrange(colors) if rng.random() >= holes else -1 for _ in range(geo.size)]
    for s in rng.sample(range(geo.size), rocks):
        st.ast[s], st.star[s] = 1, -1
    for _ in range(200):  # re-roll matched stars (or punch holes) until no match stands
        shapes = find_shapes(st.star, w, h)
        if not shapes:
            break
        for shape in shapes:
            s = rng.choice(sorted(shape.squares))
            st.star[s] = rng.randrange(colors) if rng.random() < 0.8 else -1
    else:
        raise AssertionError("could not build a quiet board")
    st.owner = [rng.choice((-1, -1, 0, 1)) for _ in range(geo.size)]
    st.current = rng.randrange(2)
    return st


def _makes_shape(st: StarfallState, a: int, b: int) -> bool:
    colors = st.star[:]
    colors[a], colors[b] = colors[b], colors[a]
    return any(a in s.squares or b in s.squares for s in find_shapes(colors, st.geo.width, st.geo.height))


@settings(max_examples=40, deadline=None)
@given(seed=hs.integers(0, 2**31), colors=hs.sampled_from((3, 4, 5)), holes=hs.sampled_from((0.0, 0.05, 0.2)),
       rocks=hs.integers(0, 8))
def test_swap_legality_is_find_shapes(seed, colors, holes, rocks):
    rng = random.Random(seed)
    st = _quiet_board(GAMES[colors], rng, holes, rocks)
    geo = st.geo
    enemy = st.current ^ 1
    listed = {m for m in st.legal_moves() if m.kind == mv.SWAP}
    expected = set()
    for a, b, *_ in geo.swap_pairs:
        ok = (
            st.star[a] >= 0 and st.star[b] >= 0
            and st.owner[a] != enemy and st.owner[b] != enemy
            and _makes_shape(st, a, b)
        )
        move = mv.swap(a, b)
        assert (st.check(move) is None) == ok, f"check disagrees with find_shapes on {st.move_text(move)}"
        if ok:
            expected.add(move)
    assert listed == expected


def test_every_swap_pair_is_orthogonal_and_each_pair_listed_once():
    geo = GAMES[5].geo
    pairs = [(a, b) for a, b, *_ in geo.swap_pairs]
    assert len(pairs) == len(set(pairs)) == 2 * geo.width * geo.height - geo.width - geo.height
    assert all(geo.chebyshev(a, b) == 1 and (geo.col[a] == geo.col[b] or geo.row[a] == geo.row[b]) for a, b in pairs)


@settings(max_examples=15, deadline=None)
@given(seed=hs.integers(0, 2**31), mode=hs.sampled_from(("seam", "dark")))
def test_fogged_swap_legality_is_find_shapes_on_what_the_mover_sees(seed, mode):
    from pegboard_starfall import fog
    from support.starfall_helpers import put

    rng = random.Random(seed)
    game = make_game(fog={"mode": mode})
    st = _quiet_board(game, rng, 0.05, 4)
    for _ in range(rng.randrange(1, 6)):
        s = rng.randrange(st.geo.size)
        if not st.ast[s] and not st.kind[s]:
            put(st, st.geo.col[s], st.geo.row[s], rng.choice("SRHX"), st.current)
    vis = fog.visible(st, st.current)
    seen = StarfallState(game)
    seen.star = [c if vis[s] else -1 for s, c in enumerate(st.star)]
    enemy = st.current ^ 1
    expected = {
        mv.swap(a, b) for a, b, *_ in st.geo.swap_pairs
        if vis[a] and vis[b] and seen.star[a] >= 0 and seen.star[b] >= 0
        and st.owner[a] != enemy and st.owner[b] != enemy and _makes_shape(seen, a, b)
    }
    listed = {m for m in st.legal_moves() if m.kind == mv.SWAP}
    assert listed == expected
    for m in rng.sample(sorted(expected), min(10, len(expected))):
        assert st.check(m) is None
