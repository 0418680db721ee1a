"""A slow, independent Node War rules oracle working on position JSON only.

It recomputes everything by brute force from the rules text (no tables, no
indexes, no incremental state), so the engine's fast paths can be compared
against it on random positions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

Point = tuple[int, int]


def strictly_inside(p: Point, a: Point, b: Point) -> bool:
    """p lies strictly between a and b on the segment a-b."""
    cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    if cross != 0 or p == a or p == b:
        return False
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def touch(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Closed segments share a point: solved with exact fractions, collinear case by projection."""
    r = (b[0] - a[0], b[1] - a[1])
    s = (d[0] - c[0], d[1] - c[1])
    denom = r[0] * s[1] - r[1] * s[0]
    qp = (c[0] - a[0], c[1] - a[1])
    if denom == 0:
        if qp[0] * r[1] - qp[1] * r[0] != 0:
            return False  # parallel, not collinear
        rr = r[0] * r[0] + r[1] * r[1]
        t0 = Fraction(qp[0] * r[0] + qp[1] * r[1], rr)
        t1 = t0 + Fraction(s[0] * r[0] + s[1] * r[1], rr)
        lo, hi = min(t0, t1), max(t0, t1)
        return hi >= 0 and lo <= 1
    t = Fraction(qp[0] * s[1] - qp[1] * s[0], denom)
    u = Fraction(qp[0] * r[1] - qp[1] * r[0], denom)
    return 0 <= t <= 1 and 0 <= u <= 1


class Oracle:
    """Rules recomputed from a position document and the game's parameters."""

    def __init__(self, doc: dict[str, Any], params: Any) -> None:
        self.params = params
        self.doc = doc
        self.nodes = {(n["x"], n["y"]): n for n in doc["nodes"]}
        self.lines = [(tuple(l["ends"][0]), tuple(l["ends"][1]), l["owner"], l["state"]) for l in doc["lines"]]
        self.seat = doc["to_move"]

    def limit(self, p: Point) -> int:
        return self.params.base_branches if self.nodes[p]["kind"] == "base" else self.params.node_branches

    def radius(self, p: Point) -> int:
        return self.params.base_radius if self.nodes[p]["kind"] == "base" else self.params.node_radius

    def branches(self, p: Point) -> int:
        return sum((a == p) + (b == p) for a, b, _, _ in self.lines)

    def alive(self) -> set[Point]:
        out = set()
        for seat in (0, 1):
            base = next(p for p, n in self.nodes.items() if n["owner"] == seat and n["kind"] == "base")
            seen, todo = {base}, [base]
            while todo:
                p = todo.pop()
                for a, b, _owner, st in self.lines:
                    if st == "live" and p in (a, b):
                        q = b if a == p else a
                        if q not in seen:
                            seen.add(q)
                            todo.append(q)
            out |= seen
        return out

    def clear(self, s: Point, t: Point) -> bool:
        return not any(strictly_inside(p, s, t) for p in self.nodes)

    def legal(self) -> set[tuple[str, Point, Point]]:
        seat, params = self.seat, self.params
        alive = self.alive()
        moves = set()
        for s, node in self.nodes.items():
            if node["owner"] != seat or s not in alive:
                continue
            r = self.radius(s)
            free = self.branches(s) < self.limit(s)
            for x in range(params.width):
                for y in range(params.height):
                    t = (x, y)
                    if t == s or (x - s[0]) ** 2 + (y - s[1]) ** 2 > r * r:
                        continue
                    target = self.nodes.get(t)
                    if target is not None:
                        if target["owner"] != seat or not free or self.branches(t) >= self.limit(t):
                            continue
                        if any(st == "live" and {a, b} == {s, t} for a, b, _, st in self.lines):
                            continue
                        if self.clear(s, t):
                            moves.add(("loop" if t in alive else "revive", s, t))
                        continue
                    own = [(a, b) for a, b, o, st in self.lines if o == seat and st == "live" and strictly_inside(t, a, b)]
                    if own:
                        insert = any(s in (a, b) for a, b in own)
                        if not insert and (not free or not self.clear(s, t)):
                            continue
                        if 2 * len(own) + (0 if insert else 1) <= params.node_branches:
                            moves.add(("split", s, t))
                    elif free and self.clear(s, t):
                        moves.add(("grow", s, t))
        return moves

    def cut_by(self, s: Point, t: Point) -> set[tuple[Point, Point]]:
        """Enemy live lines a new segment s-t touches."""
        return {
            (a, b) for a, b, o, st in self.lines if o != self.seat and st == "live" and touch(s, t, a, b)
        }
