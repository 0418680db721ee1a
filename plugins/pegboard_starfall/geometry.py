"""Board geometry, computed once per board size: squares are ``r * width + c``.

South's back row is r = 0, North's is r = height - 1, the seam is the middle row.
"""

from __future__ import annotations

import sys
from functools import cache
from typing import Any

from pegboard.diskcache import cached_by_code

from . import shapes
from .shapes import MATCH_WINDOWS

#: The eight directions (dc, dr): orthogonal first, then diagonal.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))
#: The four orthogonal directions (east, west, north, south): the first four of DIRECTIONS.
ORTHOGONAL: tuple[tuple[int, int], ...] = DIRECTIONS[:4]
#: Each direction as a person reads it: rows grow toward North's back row, columns toward k.
COMPASS: tuple[str, ...] = ("east", "west", "north", "south", "north-east", "north-west", "south-east", "south-west")

RED, WHITE = 0, 1  # checker colours under the stars


class Geometry:
    """Neighbour tables, rays, checker colours and halves for one board size."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.size = n = width * height
        self.seam = height // 2
        self.col = tuple(sq % width for sq in range(n))
        self.row = tuple(sq // width for sq in range(n))
        self.checker = tuple(RED if (self.col[sq] + self.row[sq]) % 2 == 0 else WHITE for sq in range(n))
        self.nbr8: tuple[tuple[int, ...], ...] = tuple(self._around(sq, 1, False) for sq in range(n))
        #: rays[sq][d]: the squares from sq (exclusive) in direction d up to the edge.
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(self._ray(sq, dc, dr) for dc, dr in DIRECTIONS) for sq in range(n)
        )
        #: toward[a * size + b]: the direction index d with b on rays[a][d], or -1.
        toward = [-1] * (n * n)
        for a in range(n):
            for d, ray in enumerate(self.rays[a]):
                for b in ray:
                    toward[a * n + b] = d
        self.toward: tuple[int, ...] = tuple(toward)
        #: half[sq]: 0 for South's half, 1 for North's, -1 for the seam row.
        self.half = tuple(0 if self.row[sq] < self.seam else 1 if self.row[sq] > self.seam else -1 for sq in range(n))
        #: spawn_keys[side][sq]: where a drone a shape pays appears first (effects.spawn_order):
        #: nearest the side's back row, then nearest the centre column, then lowest column.
        self.spawn_keys = tuple(
            tuple((self.back_distance(sq, side), abs(self.col[sq] - width // 2), self.col[sq]) for sq in range(n))
            for side in (0, 1)
        )
        #: columns[side][c]: the squares of column c ordered from side's back row outward.
        south_cols = tuple(tuple(r * width + c for r in range(height)) for c in range(width))
        self.columns = (south_cols, tuple(tuple(reversed(col)) for col in south_cols))
        self._discs: dict[int, tuple[tuple[int, ...], ...]] = {}
        #: derived[name]: a table another module builds from this geometry on first use and
        #: keeps here (movegen's line tables, sampling's slot sizes, ...). Kept on the object,
        #: not in a module dict keyed by ``id(geo)``: an id is reused once its object is freed.
        self.derived: dict[object, Any] = {}
        #: match_trie[sq]: the match patterns through sq (see _anchored) grouped by a neighbour
        #: of sq they all contain, as (neighbour, (rest, ...)) -- a swap test looks at a
        #: neighbour once, not per pattern.
        self.match_trie = tuple(self._trie(sq) for sq in range(n))
        #: swap_pairs: every (a, b) of orthogonal neighbours, a < b, with the match tries of a
        #: without b and of b without a (a swap puts b's colour on a, and a's on b).
        trie = self.match_trie
        self.swap_pairs = tuple(
            (a, b, _without(trie[a], b), _without(trie[b], a))
            for a in range(n) for b in (a + 1, a + width)
            if b < n and (b == a + width or self.col[b] != 0)
        )

    @classmethod
    def from_tables(cls, tables: dict[str, Any]) -> Geometry:
        """The geometry whose attributes ``vars()`` of another gave (see :func:`geometry`)."""
        geo = cls.__new__(cls)
        geo.__dict__.update(tables)
        return geo

    def sq(self, c: int, r: int) -> int:
        return r * self.width + c

    def name(self, sq: int) -> str:
        """The square as a person reads it: column letter, then row from 1 ("e1" is column 4,
        row 0, the middle of South's back row). One notation for the History, the explain
        line and every event text."""
        return f"{chr(ord('a') + self.col[sq])}{self.row[sq] + 1}"

    def on_board(self, c: int, r: int) -> bool:
        return 0 <= c < self.width and 0 <= r < self.height

    def back_distance(self, sq: int, side: int) -> int:
        """Rows between sq and side's back row."""
        return self.row[sq] if side == 0 else self.height - 1 - self.row[sq]

    def chebyshev(self, a: int, b: int) -> int:
        return max(abs(self.col[a] - self.col[b]), abs(self.row[a] - self.row[b]))

    def disc(self, sq: int, radius: int) -> tuple[int, ...]:
        """Every square within Chebyshev ``radius`` of sq, sq included (cached)."""
        table = self._discs.get(radius)
        if table is None:
            table = self._discs[radius] = self._disc_table(radius)
        return table[sq]

    def _disc_table(self, radius: int) -> tuple[tuple[int, ...], ...]:
        """``_around(s, radius, True)`` for every square s, a row's run of squares at a time.

        Fast path of ``_around``, held equal by
        tests/starfall/test_table_cache.py::test_disc_tables_hold_every_square_within_the_radius.
        """
        w, h = self.width, self.height
        table = []
        for sq in range(self.size):
            c0, r0 = sq % w, sq // w
            lo, hi = max(c0 - radius, 0), min(c0 + radius, w - 1) + 1
            rows = range(max(r0 - radius, 0) * w, (min(r0 + radius, h - 1) + 1) * w, w)
            table.append(tuple([s for start in rows for s in range(start + lo, start + hi)]))
        return tuple(table)

    def _around(self, sq: int, radius: int, include_centre: bool) -> tuple[int, ...]:
        c0, r0 = sq % self.width, sq // self.width
        out = []
        for r in range(r0 - radius, r0 + radius + 1):
            for c in range(c0 - radius, c0 + radius + 1):
                if self.on_board(c, r) and (include_centre or (c, r) != (c0, r0)):
                    out.append(r * self.width + c)
        return tuple(out)

    def _ray(self, sq: int, dc: int, dr: int) -> tuple[int, ...]:
        c, r = sq % self.width, sq // self.width
        far = self.size  # no limit along an axis the direction does not move on
        room = min(self.width - 1 - c if dc > 0 else c if dc < 0 else far, self.height - 1 - r if dr > 0 else r if dr < 0 else far)
        step = dr * self.width + dc
        return tuple(range(sq + step, sq + step * (room + 1), step)) if room else ()

    def _trie(self, sq: int) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
        """The patterns through sq that fit on the board, each under its first cell (see
        _anchored), the groups in square order, each group's patterns shortest first."""
        w, h = self.width, self.height
        c0, r0 = sq % w, sq // w
        move = sq.__add__
        groups: dict[int, list[tuple[int, ...]]] = {}
        for lo_c, hi_c, lo_r, hi_r, first, rest in _anchored(w):
            if c0 + lo_c >= 0 and c0 + hi_c < w and r0 + lo_r >= 0 and r0 + hi_r < h:
                groups.setdefault(sq + first, []).append(tuple(map(move, rest)))
        return tuple([(first, tuple(rests)) for first, rests in sorted(groups.items())])


@cache
def _anchored(width: int) -> tuple[tuple[int, int, int, int, int, tuple[int, ...]], ...]:
    """Each match window anchored at each of its cells, shortest first (else in window order).

    A swap makes a match exactly when one of the swapped squares completes one of these:
    an orthogonal 3-run, a diagonal 4-run, a 2x2 block, a V (two diagonal arms of two
    meeting at a corner) or an X (a centre and its four diagonal neighbours). The richer
    shapes (hooks, Ls, Ts, ...) all contain an orthogonal 3-run.

    Each is (least dc, greatest dc, least dr, greatest dr) of its cells from the anchor,
    then ``first``, the anchor's neighbour in it lowest in square order, and ``rest``, its
    other cells in window order, as offsets ``dr * width + dc`` from the anchor. (Among
    neighbours on the board, square order is (dr, dc) order whatever the width.)
    """
    out = []
    for shape in MATCH_WINDOWS:
        for ac, ar in shape:
            cells = [(dc - ac, dr - ar) for dc, dr in shape if (dc, dr) != (ac, ar)]
            fc, fr = min([(dc, dr) for dc, dr in cells if abs(dc) <= 1 and abs(dr) <= 1], key=lambda cell: (cell[1], cell[0]))
            cols, rows = [dc for dc, _ in cells], [dr for _, dr in cells]
            rest = tuple([dr * width + dc for dc, dr in cells if (dc, dr) != (fc, fr)])
            out.append((min(cols), max(cols), min(rows), max(rows), fr * width + fc, rest))
    out.sort(key=lambda item: len(item[5]))
    return tuple(out)


def _without(trie: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...], sq: int) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    """``trie`` less every pattern that holds sq (the same as building it without them:
    a pattern's group and its order among the group's patterns do not depend on the others)."""
    out = []
    for first, rests in trie:
        if first != sq:
            kept = tuple([rest for rest in rests if sq not in rest])
            if kept:
                out.append((first, kept))
    return tuple(out)


@cache
def geometry(width: int, height: int) -> Geometry:
    """The shared geometry for a board size (one per process)."""
    return cached_geometry(width, height)


def cached_geometry(width: int, height: int) -> Geometry:
    """A geometry whose tables come from the disk cache (:mod:`pegboard.diskcache`) when an
    earlier process built them with this code (the build costs a fresh process ~40 M instructions)."""
    # the tables depend on the code of this module and shapes (MATCH_WINDOWS)
    tables = cached_by_code([sys.modules[__name__], shapes], "starfall-geometry", (width, height), lambda: vars(Geometry(width, height)))
    return Geometry.from_tables(tables)
