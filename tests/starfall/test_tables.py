"""The per-board tables a fresh process builds: the cheap builds equal the plain definitions."""

from __future__ import annotations

import pytest

from pegboard_starfall import movegen
from pegboard_starfall.geometry import Geometry
from pegboard_starfall.moves import SWAP, SfMove, move_table
from pegboard_starfall.shapes import MATCH_WINDOWS


def _plain_trie(geo: Geometry, sq: int, without: int) -> tuple[object, ...]:
    """A square's match patterns (every placement of a window on sq, less the ones holding
    ``without``) grouped by their lowest square next to sq, the other squares of each pattern
    in window order, the groups by square and each group's patterns shortest first."""
    c0, r0 = geo.col[sq], geo.row[sq]
    patterns = []
    for shape in MATCH_WINDOWS:
        for ac, ar in shape:
            cells = [(c0 + dc - ac, r0 + dr - ar) for dc, dr in shape]
            if all(geo.on_board(c, r) for c, r in cells):
                patterns.append(tuple(geo.sq(c, r) for c, r in cells if (c, r) != (c0, r0)))
    patterns.sort(key=len)
    near = set(geo.nbr8[sq])
    groups: dict[int, list[tuple[int, ...]]] = {}
    for pat in patterns:
        if without in pat:
            continue
        first = min(o for o in pat if o in near)
        groups.setdefault(first, []).append(tuple(o for o in pat if o != first))
    return tuple((first, tuple(sorted(rests, key=len))) for first, rests in sorted(groups.items()))


@pytest.mark.parametrize("size", [(11, 11), (9, 13), (4, 3)])
def test_match_tries_and_swap_pair_tries_equal_the_plain_definition(size):
    geo = Geometry(*size)
    for sq in range(geo.size):
        assert geo.match_trie[sq] == _plain_trie(geo, sq, -1)
    for a, b, trie_a, trie_b in geo.swap_pairs:
        assert trie_a == _plain_trie(geo, a, b)
        assert trie_b == _plain_trie(geo, b, a)


@pytest.mark.parametrize("size", [(11, 11), (7, 5), (1, 4)])
def test_line_offsets_give_the_distance_the_line_and_the_nearest_touching_squares(size):
    geo = Geometry(*size)
    keys, offsets = movegen._line_tables(geo)
    for a in range(geo.size):
        for b in range(geo.size):
            dist, d, approaches = offsets[keys[b] - keys[a]]
            assert dist == geo.chebyshev(a, b)
            assert d == (geo.toward[a * geo.size + b] if geo.toward[a * geo.size + b] >= 0 else 8)
            # every ray square beside b, at its distance from a: the table keeps each ray's nearest,
            # and rays reaching no such square on this board just run out before it
            lines = [(e, geo.toward[a * geo.size + e]) for e in geo.nbr8[b]]
            touching = {(geo.chebyshev(a, e), ray) for e, ray in lines if ray >= 0}
            nearest = {ray: min(s for s, r in touching if r == ray) for _, ray in touching}
            on_board = [(s, ray) for s, ray in approaches if s <= len(geo.rays[a][ray])]
            assert on_board == sorted((s, ray) for ray, s in nearest.items())


def test_move_table_makes_each_move_once_on_demand():
    table = move_table(SWAP, 30)
    first = table[3 * 30 + 17]
    assert first == SfMove(SWAP, 3, 17) and type(first) is SfMove
    assert table[3 * 30 + 17] is first and move_table(SWAP, 30) is table
