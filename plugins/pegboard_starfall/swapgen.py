"""Every legal swap at once, with one bitboard per star colour.

Squares map to bits of a padded board (stride = width + 4): the four always-empty guard
columns on the right of each row absorb every shift of up to 4 columns, so a pattern never
wraps from one row into the next. For each match pattern (geometry._anchored: an
orthogonal 3-run, a diagonal 4-run, a 2x2 block, a V, an X) and each of its squares taken as
the anchor, ``AND`` of the colour's bitboard shifted by the other squares' offsets gives every
square where a star of that colour would complete that pattern. A swap a<->b is legal when
b's colour completes a pattern at a that does not use b (b then holds a's colour), or the
other way round; patterns are therefore grouped by which of the four orthogonal neighbours
they use. The result is the same list, in the same order, as testing each pair with
Geometry.swap_pairs (tests/starfall/test_swap_consistency.py checks both against find_shapes).
"""

from __future__ import annotations

from .geometry import ORTHOGONAL, Geometry
from .shapes import MATCH_WINDOWS

_PAD = 4


class SwapTables:
    """Shift tables for one board size."""

    def __init__(self, geo: Geometry) -> None:
        w, h = geo.width, geo.height
        self.stride = stride = w + _PAD
        self.bit_of = tuple(geo.row[s] * stride + geo.col[s] for s in range(geo.size))
        self.sq_of = {b: s for s, b in enumerate(self.bit_of)}
        self.valid = sum(1 << b for b in self.bit_of)
        # (others' shifts, which partner sides it uses) for every (pattern, anchor)
        combos: dict[tuple[int, ...], int] = {}
        for shape in MATCH_WINDOWS:
            for ac, ar in shape:
                others = [(dc - ac, dr - ar) for dc, dr in shape if (dc, dr) != (ac, ar)]
                if any(abs(dc) > _PAD for dc, _ in others):
                    raise ValueError("a match pattern is wider than the guard columns")
                uses = sum(1 << i for i, side in enumerate(ORTHOGONAL) if side in others)
                combos[tuple(sorted(dr * stride + dc for dc, dr in others))] = uses
        #: every distinct shift any pattern needs; combos refer to them by index
        self.offsets = offsets = tuple(sorted({off for shifts in combos for off in shifts}))
        index = {off: i for i, off in enumerate(offsets)}
        groups: dict[int, list[tuple[int, ...]]] = {}
        for shifts, uses in combos.items():
            groups.setdefault(uses, []).append(tuple(index[off] for off in shifts))
        #: (uses-mask, pairs, triples, quads of shift indices) -- patterns grouped by the partner
        #: sides they use, then by how many other squares they have.
        self.groups = tuple(
            (uses, tuple(x for x in sets if len(x) == 2), tuple(x for x in sets if len(x) == 3),
             tuple(x for x in sets if len(x) == 4))
            for uses, sets in sorted(groups.items())
        )
        self.h = h


def tables(geo: Geometry) -> SwapTables:
    """The shift tables for ``geo``'s board (built once, kept in ``geo.derived``)."""
    t: SwapTables | None = geo.derived.get("swap shifts")
    if t is None:
        t = geo.derived["swap shifts"] = SwapTables(geo)
    return t


def _completions(board: int, t: SwapTables) -> list[int]:
    """For each partner side: the squares where this colour would complete a pattern not using it."""
    sh = [board >> off if off > 0 else board << -off for off in t.offsets]
    by_side = [0, 0, 0, 0]
    for uses, pairs, triples, quads in t.groups:
        got = 0
        for i, j in pairs:
            got |= sh[i] & sh[j]
        for i, j, k in triples:
            got |= sh[i] & sh[j] & sh[k]
        for i, j, k, m in quads:
            got |= sh[i] & sh[j] & sh[k] & sh[m]
        if got:
            for side in range(4):
                if not uses >> side & 1:
                    by_side[side] |= got
    return by_side


def swap_pairs(colors: list[int], owner: list[int], enemy: int, geo: Geometry) -> list[tuple[int, int]]:
    """Every (a, b), a < b, orthogonal neighbours, whose swap makes a match; neither enemy-owned.

    ``colors`` is the board as the mover sees it (-1: no star, or unseen).

    Fast path (bitboards) of testing each pair with ``find_shapes``, held equal by
    tests/starfall/test_swap_consistency.py::test_swap_legality_is_find_shapes.
    """
    t = tables(geo)
    bit_of = t.bit_of
    boards: dict[int, int] = {}
    stars = 0  # every star (patterns may run over enemy land)
    ok = 0  # stars a swap may move: not on enemy land
    for s, c in enumerate(colors):
        if c >= 0:
            b = 1 << bit_of[s]
            boards[c] = boards.get(c, 0) | b
            stars |= b
            if owner[s] != enemy:
                ok |= b
    stride = t.stride
    across = 0  # bits a with a swap a <-> a + 1
    up = 0  # bits a with a swap a <-> a + stride
    for board in boards.values():
        east, west, north, south = _completions(board, t)
        others = stars & ~board  # squares with a star of another colour
        across |= east & (board >> 1) & others  # c comes from the east neighbour
        across |= (west & (board << 1) & others) >> 1  # c goes to b from its west neighbour
        up |= north & (board >> stride) & others
        up |= (south & (board << stride) & others) >> stride
    across &= ok & (ok >> 1)
    up &= ok & (ok >> stride)
    sq_of = t.sq_of
    w = geo.width
    out = []
    for mask, step in ((across, 1), (up, w)):
        while mask:
            low = mask & -mask
            a = sq_of[low.bit_length() - 1]
            out.append((a, a + step))
            mask ^= low
    out.sort()
    return out
