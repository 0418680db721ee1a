"""Board geometry for Node War, precomputed once per board shape.

Points are flat integers ``p = y * width + x``. Everything here is exact
integer arithmetic: distances compare ``dx*dx + dy*dy`` with ``r*r``, lattice
points on a segment come from the gcd of its deltas, and segment contact is
decided with cross products. Tables are built once per (width, height,
metric, radii) and shared by every game with that shape.
"""

from __future__ import annotations

from functools import cache
from math import gcd

METRICS = ("euclidean", "chebyshev", "manhattan")


def within(dx: int, dy: int, radius: int, metric: str) -> bool:
    """True when a point (dx, dy) away is within ``radius`` under ``metric``."""
    if metric == "euclidean":
        return dx * dx + dy * dy <= radius * radius
    if metric == "chebyshev":
        return max(abs(dx), abs(dy)) <= radius
    if metric == "manhattan":
        return abs(dx) + abs(dy) <= radius
    raise ValueError(f"unknown distance metric {metric!r}")


def _cross(ax: int, ay: int, bx: int, by: int, cx: int, cy: int) -> int:
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


def segments_touch(ax: int, ay: int, bx: int, by: int, cx: int, cy: int, dx: int, dy: int) -> bool:
    """True when closed segments a-b and c-d share at least one point.

    Covers proper crossings, an end touching the other segment, and
    collinear overlap.
    """
    if max(ax, bx) < min(cx, dx) or max(cx, dx) < min(ax, bx):
        return False
    if max(ay, by) < min(cy, dy) or max(cy, dy) < min(ay, by):
        return False
    d1 = _cross(ax, ay, bx, by, cx, cy)
    d2 = _cross(ax, ay, bx, by, dx, dy)
    if (d1 > 0 and d2 > 0) or (d1 < 0 and d2 < 0):
        return False
    d3 = _cross(cx, cy, dx, dy, ax, ay)
    d4 = _cross(cx, cy, dx, dy, bx, by)
    if (d3 > 0 and d4 > 0) or (d3 < 0 and d4 < 0):
        return False
    # Both pairs straddle or touch. If everything is collinear the bounding-box
    # test above already proved the projections overlap.
    return True


class Geometry:
    """Precomputed tables for one board shape.

    ``rings[r][p]`` lists ``(q, inner)`` for every point q != p within radius
    r of p, where ``inner`` is the tuple of lattice points strictly inside
    segment p-q. ``inside(a, b)`` gives that tuple for any pair; ``cells(a,
    b)`` the unit cells the closed segment meets (a spatial index for
    contact tests); ``touch(a, b, c, d)`` the cached exact contact test.
    """

    def __init__(self, width: int, height: int, metric: str, radii: tuple[int, ...]) -> None:
        if width < 2 or height < 2:
            raise ValueError("the board must be at least 2 x 2")
        self.width = width
        self.height = height
        self.size = width * height
        self.metric = metric
        self.xs = tuple(p % width for p in range(self.size))
        self.ys = tuple(p // width for p in range(self.size))
        self.labels = tuple(f"{x},{y}" for x, y in zip(self.xs, self.ys, strict=False))
        self._inside: dict[int, tuple[int, ...]] = {}
        self._cells: dict[int, tuple[int, ...]] = {}
        #: ``segment(a, b)`` by ``a * size + b`` (read directly by the engine's line index).
        self.segments: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        #: A point's ``(x, y)`` as one integer, ``y * (2 * width - 1) + x``: the difference of two of
        #: them names the offset between the points unambiguously, so a contact question can be
        #: asked of the segments' shapes and relative position, wherever they are on the board.
        stride = 2 * width - 1
        self.rel = tuple(y * stride + x for x, y in zip(self.xs, self.ys, strict=False))
        #: ``rel`` differences lie in ``-rel_half .. rel_half``; ``rel_span`` numbers them all.
        self.rel_half = (height - 1) * stride + width - 1
        self.rel_span = 2 * self.rel_half + 1
        #: ``touch`` answers by shape key (see :meth:`touch_key`; read directly by the engine's cut search).
        self.touch_cache: dict[int, bool] = {}
        self.rings: dict[int, tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]] = {}
        self.reach: dict[int, tuple[frozenset[int], ...]] = {}
        for radius in sorted(set(radii)):
            self.rings[radius] = self._rings_of(radius)
            self.reach[radius] = tuple(frozenset(q for q, _ in ring) for ring in self.rings[radius])

    # -- points -------------------------------------------------------------------

    def point(self, x: int, y: int) -> int:
        return y * self.width + x

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def xy(self, p: int) -> tuple[int, int]:
        return self.xs[p], self.ys[p]

    def label(self, p: int) -> str:
        return self.labels[p]

    def _ring(self, p: int, radius: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """``rings[radius][p]``: every point within ``radius`` of p with the lattice points between."""
        return self._rings_of(radius)[p]

    def _rings_of(self, radius: int) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
        # The disc's offsets (in row-major order) and the offsets strictly between the centre
        # and each, computed once; every point's ring is then the offsets that stay on the board.
        w, h = self.width, self.height
        # No offset longer than the board reaches a point on it (a ruleset may ask for radius 10**6).
        rx, ry = min(radius, w - 1), min(radius, h - 1)
        offsets = []
        for dy in range(-ry, ry + 1):
            for dx in range(-rx, rx + 1):
                if (dx or dy) and within(dx, dy, radius, self.metric):
                    g = gcd(dx, dy)
                    step = (dy // g) * w + dx // g
                    offsets.append((dx, dy, dy * w + dx, tuple(k * step for k in range(1, g))))
        rings = []
        for p in range(self.size):
            px, py = self.xs[p], self.ys[p]
            rings.append(tuple(
                (p + d, tuple(p + i for i in inner) if inner else ())
                for dx, dy, d, inner in offsets
                if 0 <= px + dx < w and 0 <= py + dy < h
            ))
        return tuple(rings)

    # -- segments -----------------------------------------------------------------

    def inside(self, a: int, b: int) -> tuple[int, ...]:
        """Lattice points strictly between a and b, in order from a."""
        key = a * self.size + b
        found = self._inside.get(key)
        if found is None:
            ax, ay, bx, by = self.xs[a], self.ys[a], self.xs[b], self.ys[b]
            dx, dy = bx - ax, by - ay
            g = gcd(dx, dy)
            if g <= 1:
                found = ()
            else:
                sx, sy = dx // g, dy // g
                found = tuple((ay + k * sy) * self.width + ax + k * sx for k in range(1, g))
            self._inside[key] = found
        return found

    def segment(self, a: int, b: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``(inside(a, b), cells(a, b))`` with one cache lookup (the line index needs both)."""
        key = a * self.size + b
        found = self.segments.get(key)
        if found is None:
            found = self.segments[key] = (self.inside(a, b), self.cells(a, b))
        return found

    def cells(self, a: int, b: int) -> tuple[int, ...]:
        """Indices ``cy * (width-1) + cx`` of the closed unit cells segment a-b meets.

        Two segments that share a point share a cell, so a per-cell list of
        lines narrows every contact search to a handful of candidates.
        """
        key = a * self.size + b if a < b else b * self.size + a
        found = self._cells.get(key)
        if found is None:
            found = self._cells[key] = self._cells_of(a, b)
        return found

    def _cells_of(self, a: int, b: int) -> tuple[int, ...]:
        # A segment's cells are its offset's pattern moved to its lower end, minus those off the board.
        xs, ys = self.xs, self.ys
        ax, ay, bx, by = xs[a], ys[a], xs[b], ys[b]
        if (bx, by) < (ax, ay):
            ax, ay, bx, by = bx, by, ax, ay
        cw, ch = self.width - 1, self.height - 1
        return tuple(
            (ay + oy) * cw + ax + ox
            for oy, ox in _cell_pattern(bx - ax, by - ay)
            if 0 <= ax + ox < cw and 0 <= ay + oy < ch
        )

    def touch_key(self, a: int, b: int, c: int, d: int) -> int:
        """The cache key of a contact question: the two segments' offsets and the offset between them.

        Contact does not change when both segments move together, so the key leaves out
        where they are: a fresh process meets a few thousand shapes, not tens of thousands
        of placed pairs. Each segment is taken from its lower ``rel`` end.
        """
        rel, span = self.rel, self.rel_span
        pa, pb, pc, pd = rel[a], rel[b], rel[c], rel[d]
        if pa > pb:
            pa, pb = pb, pa
        if pc > pd:
            pc, pd = pd, pc
        return ((pb - pa) * span + pc - pa + self.rel_half) * span + pd - pc

    def touch(self, a: int, b: int, c: int, d: int) -> bool:
        """Cached :func:`segments_touch` for point indices."""
        key = self.touch_key(a, b, c, d)
        found = self.touch_cache.get(key)
        if found is None:
            found = self.contact(key, a, b, c, d)
        return found

    def contact(self, key: int, a: int, b: int, c: int, d: int) -> bool:
        """:func:`segments_touch` for point indices, remembered under ``key`` (:meth:`touch_key`)."""
        xs, ys = self.xs, self.ys
        found = segments_touch(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c], xs[d], ys[d])
        if len(self.touch_cache) > 250_000:  # bounded memory (a few tens of MB at most)
            self.touch_cache.clear()
        self.touch_cache[key] = found
        return found


@cache
def _cell_pattern(dx: int, dy: int) -> tuple[tuple[int, int], ...]:
    """``(cy, cx)`` of the closed unit cells that the segment (0, 0)-(dx, dy) meets, sorted.

    ``(dx, dy)`` is the upper end (dx > 0, or dx == 0 and dy > 0). Column by column:
    over the slice ``cx <= x <= cx + 1`` the segment's y runs between ``lo`` and ``hi``,
    and the closed cells it meets there are ``cy = ceil(lo) - 1 .. floor(hi)``; exact
    integer arithmetic with ``y = num / dx``.
    """
    out: list[tuple[int, int]] = []
    for cx in range(-1, dx + 1):
        x0, x1 = max(cx, 0), min(cx + 1, dx)
        if x0 > x1:
            continue
        if dx == 0:
            lo_num, hi_num, den = 0, dy, 1
        else:
            n0, n1 = x0 * dy, x1 * dy
            lo_num, hi_num, den = min(n0, n1), max(n0, n1), dx
        out.extend((cy, cx) for cy in range(-((-lo_num) // den) - 1, hi_num // den + 1))
    out.sort()
    return tuple(out)


@cache
def geometry(width: int, height: int, metric: str, radii: tuple[int, ...]) -> Geometry:
    """The shared :class:`Geometry` for one board shape."""
    return Geometry(width, height, metric, radii)
