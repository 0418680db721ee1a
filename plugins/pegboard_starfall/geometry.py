"""Board geometry, computed once per board size: squares are ``r * width + c``.

South's back row is r = 0, North's is r = height - 1, the seam is the middle row.
"""

from __future__ import annotations

from functools import cache

from .shapes import MATCH_WINDOWS

#: The eight directions (dc, dr): orthogonal first, then diagonal.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))

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
        self.match_patterns = tuple(self._patterns(sq) for sq in range(n))
        #: match_trie[sq]: the patterns grouped by a neighbour of sq they all contain, as
        #: (neighbour, (rest, ...)) -- a swap test looks at a neighbour once, not per pattern.
        self.match_trie = tuple(self._trie(sq) for sq in range(n))
        #: swap_pairs: every (a, b) of orthogonal neighbours, a < b, with the match tries of a
        #: without b and of b without a (a swap puts b's colour on a, and a's on b).
        trie = self.match_trie
        self.swap_pairs = tuple(
            (a, b, _without(trie[a], b), _without(trie[b], a))
            for a in range(n) for b in (a + 1, a + width)
            if b < n and (b == a + width or self.col[b] != 0)
        )

    def sq(self, c: int, r: int) -> int:
        return r * self.width + c

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
            table = self._discs[radius] = tuple(self._around(s, radius, True) for s in range(self.size))
        return table[sq]

    def _around(self, sq: int, radius: int, include_centre: bool) -> tuple[int, ...]:
        c0, r0 = sq % self.width, sq // self.width
        out = []
        for r in range(r0 - radius, r0 + radius + 1):
            for c in range(c0 - radius, c0 + radius + 1):
                if self.on_board(c, r) and (include_centre or (c, r) != (c0, r0)):
                    out.append(r * self.width + c)
        return tuple(out)

    def _ray(self, sq: int, dc: int, dr: int) -> tuple[int, ...]:
        c, r = sq % self.width + dc, sq // self.width + dr
        out = []
        while self.on_board(c, r):
            out.append(r * self.width + c)
            c += dc
            r += dr
        return tuple(out)

    def _trie(self, sq: int) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
        near = set(self.nbr8[sq])
        groups: dict[int, list[tuple[int, ...]]] = {}
        for pat in self.match_patterns[sq]:
            first = min([o for o in pat if o in near])
            groups.setdefault(first, []).append(tuple([o for o in pat if o != first]))
        return tuple((first, tuple(sorted(rests, key=len))) for first, rests in sorted(groups.items()))

    def _patterns(self, sq: int) -> tuple[tuple[int, ...], ...]:
        """Every smallest match containing sq, as the tuple of its other squares.

        A swap makes a match exactly when one of the swapped squares completes one of
        these: an orthogonal 3-run, a diagonal 4-run, a 2x2 block, a V (two diagonal arms
        of two meeting at a corner) or an X (a centre and its four diagonal neighbours).
        The richer shapes (hooks, Ls, Ts, ...) all contain an orthogonal 3-run.
        """
        w, h = self.width, self.height
        c0, r0 = sq % w, sq // w
        found: list[tuple[int, ...]] = []
        for shape, lo_c, hi_c, lo_r, hi_r in _WINDOW_SPANS:
            for ac, ar in shape:  # place the shape so that cell (ac, ar) lands on sq
                oc, orow = c0 - ac, r0 - ar
                if oc + lo_c >= 0 and oc + hi_c < w and orow + lo_r >= 0 and orow + hi_r < h:
                    base = orow * w + oc
                    found.append(tuple([base + dr * w + dc for dc, dr in shape if dc != ac or dr != ar]))
        found.sort(key=len)
        return tuple(found)


#: Each match window with the least and greatest column and row offsets of its cells.
_WINDOW_SPANS = tuple(
    (shape, min(c for c, _ in shape), max(c for c, _ in shape), min(r for _, r in shape), max(r for _, r in shape))
    for shape in MATCH_WINDOWS
)


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
    """The shared geometry for a board size."""
    return Geometry(width, height)
