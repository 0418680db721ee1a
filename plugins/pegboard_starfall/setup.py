"""The starting position: the deal, asteroids, starting blocks and drones."""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

from . import effects
from .pieces import COMMAND, SCOUT, SHIELD, SIEGE
from .rng import draw, draws

if TYPE_CHECKING:
    from .geometry import Geometry
    from .state import StarfallState

_DEAL_ATTEMPTS = 100


def start_block(st: StarfallState, side: int) -> list[int]:
    """The 3x3 block at the middle of ``side``'s back row."""
    geo = st.geo
    mid = geo.width // 2
    rows = range(3) if side == 0 else range(geo.height - 3, geo.height)
    return [geo.sq(c, r) for r in rows for c in range(mid - 1, mid + 2)]


def place_asteroids(st: StarfallState) -> None:
    geo = st.geo
    for side in (0, 1):
        block = set(start_block(st, side))
        cands = [sq for sq in range(geo.size) if geo.half[sq] == side and sq not in block]
        for _ in range(min(st.rules.asteroids[side], len(cands))):
            sq = cands.pop(draw(st.key, st.draws, len(cands)))
            st.draws += 1
            st.ast[sq] = 1


def deal(st: StarfallState) -> None:
    """Random stars, square by square, never completing a match.

    Each star avoids finishing (with the stars already dealt below and left of it) an
    orthogonal 3-run, a 2x2 block or any diagonal 3-run, which rules out every match
    (the V and X both contain a diagonal 3-run). A dead end (no colour left) redeals.
    """
    geo = st.geo
    n_colors = st.rules.colors
    allowed_by_ban = _allowed_by_ban(n_colors)
    # Draws in 0 .. lcm - 1, taken modulo each square's count of allowed colours (a divisor
    # of lcm), are the draws with that bound: one call draws for a whole deal.
    lcm = math.lcm(*range(1, n_colors + 1))
    patterns = _deal_patterns(geo)
    star, ast = st.star, st.ast
    for _attempt in range(_DEAL_ATTEMPTS):
        picks = draws(st.key, st.draws, geo.size, lcm)  # at most one per square
        used = 0
        for sq in range(geo.size):
            if ast[sq]:
                star[sq] = -1
                continue
            banned = 0
            for a, b, c in patterns[sq]:
                v = star[a]
                if v >= 0 and star[b] == v and star[c] == v:
                    banned |= 1 << v
            allowed = allowed_by_ban[banned]
            if not allowed:
                break
            star[sq] = allowed[picks[used] % len(allowed)]
            used += 1
        else:
            st.draws += used
            return
        st.draws += used
    raise RuntimeError("could not deal a board without a line")  # pragma: no cover - needs < 3 colours


@cache
def _allowed_by_ban(n_colors: int) -> tuple[tuple[int, ...], ...]:
    """The colours left, per bit set of banned colours."""
    return tuple(tuple(k for k in range(n_colors) if not ban >> k & 1) for ban in range(1 << n_colors))


def _deal_patterns(geo: Geometry) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per square, the dealt cells (below and left) that a star there would complete a
    run with, as three cells (a pair's last cell repeated), for the runs that fit on the board
    (kept in ``geo.derived``).

    Held to the runs worked out square by square by
    tests/starfall/test_table_cache.py::test_deal_patterns_are_the_runs_a_dealt_star_could_complete.
    """
    table: tuple[tuple[tuple[int, int, int], ...], ...] | None = geo.derived.get("deal patterns")
    if table is None:
        w = geo.width
        out = []
        for sq in range(geo.size):
            c, r = geo.col[sq], geo.row[sq]
            # in this order: two left, two below, the 2x2 below-left, the two diagonals down
            runs = [
                (a, b, last)
                for fits, a, b, last in (
                    (c >= 2, sq - 1, sq - 2, sq - 2),
                    (r >= 2, sq - w, sq - 2 * w, sq - 2 * w),
                    (c >= 1 and r >= 1, sq - 1, sq - w, sq - w - 1),
                    (c >= 2 and r >= 2, sq - w - 1, sq - 2 * w - 2, sq - 2 * w - 2),
                    (c + 2 < w and r >= 2, sq - w + 1, sq - 2 * w + 2, sq - 2 * w + 2),
                )
                if fits
            ]
            out.append(tuple(runs))
        table = geo.derived["deal patterns"] = tuple(out)
    return table


def new_game(st: StarfallState) -> None:
    """Fill an empty state with the starting position and run South's start of turn."""
    geo = st.geo
    place_asteroids(st)
    deal(st)
    mid = geo.width // 2
    top = geo.height - 1
    for side in (0, 1):
        for sq in start_block(st, side):
            st.owner[sq] = side

    def put(c: int, r: int, side: int, kind: int, power: int = 1) -> int:
        sq = geo.sq(c, r)
        st.kind[sq], st.side[sq], st.power[sq] = kind, side, power
        return sq

    # South; North is the mirror image through the centre.
    def south(c: int, r: int) -> tuple[int, int]:
        return c, r

    def north(c: int, r: int) -> tuple[int, int]:  # the mirror image through the centre
        return geo.width - 1 - c, top - r

    for side, flip in ((0, south), (1, north)):
        st.cmd[side] = put(*flip(mid, 0), side, COMMAND)
        scout = put(*flip(mid - 1, 0), side, SCOUT)
        put(*flip(mid + 1, 0), side, SIEGE)
        put(*flip(mid, 2), side, SHIELD, 2)
        st.ride[scout] = 1 << st.star[scout] if st.star[scout] >= 0 else 0
        st.miss[st.cmd[side]] = st.rules.start_missiles
        st.current = side
        effects.load(st, scout)
    st.current = 0
    st.turn = 0
    st.start_turn()
    st._pending = []
