"""Legal move generation and move checking.

Everything reads the flat arrays directly through local variables; ``vis`` is None when
the fog is off, otherwise a per-square 0/1 sequence of what the mover sees.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from operator import getitem, mul
from typing import TYPE_CHECKING, Any

from pegboard.diskcache import cached_by_code

from . import fog, geometry
from .effects import claim_open, drop_targets
from .geometry import DIRECTIONS
from .moves import (
    AIM,
    BUILD,
    CLAIM,
    CONCEDE,
    CONCEDE_REASONS,
    FIRE,
    MOVE,
    PASS,
    PASS_MOVE,
    RAM,
    STRIKE,
    SWAP,
    TIMEOUT,
    WARP,
    SfMove,
    move_table,
)
from .pieces import (
    BOMB,
    CHECKER_BITS,
    COMMAND,
    HUNTER,
    RAIDER,
    SCOUT,
    SHIELD,
    SIDE_NAMES,
    SIEGE,
    STAR_BITS,
    STEPPERS,
    TURRET,
)
from .pieces import WARP as WARP_KIND
from .rams import ram_centre
from .swapgen import swap_pairs

if TYPE_CHECKING:
    from .geometry import Geometry
    from .state import StarfallState



def _vis(st: StarfallState) -> bytearray | None:
    return fog.visible(st, st.current) if st.fogged else None


# -- the whole list -------------------------------------------------------------------------


def legal_moves(st: StarfallState) -> list[SfMove]:
    vis = _vis(st)
    if st.aims:
        return aim_moves(st, vis)
    out = fire_moves(st, vis)
    actions = action_moves(st, vis)
    out.extend(actions if actions else (PASS_MOVE,))
    return out


def action_moves(st: StarfallState, vis: bytearray | None) -> list[SfMove]:
    out = swap_moves(st, vis)
    me = st.current
    kind, side = st.kind, st.side
    n = st.geo.size
    moves = move_table(MOVE, n)
    rb = None
    for sq in range(n):
        k = kind[sq]
        if not k or side[sq] != me or k == COMMAND or k == TURRET:
            continue
        base = sq * n
        if rb is None:
            rb = ride_bits(st, vis)
        for to in drone_destinations(st, sq, vis, rb):
            out.append(moves[base + to])
        if k == SCOUT:
            if claimable(st, sq, st.rules.claim_radius, vis):
                out.append(SfMove(CLAIM, sq))
        elif k == WARP_KIND:
            warps = move_table(WARP, n)
            out.extend(warps[base + to] for to in warp_targets(st, sq, vis))
        elif k == SIEGE:
            strikes = move_table(STRIKE, n)
            out.extend(strikes[base + to] for to in strike_ends(st, sq, vis))
        elif k == BOMB:
            out.extend(SfMove(RAM, sq, d) for d in range(8) if ram_centre(st, sq, d, vis) is not None)
    out.extend(SfMove(BUILD, sq) for sq in build_squares(st, vis))
    return out


# -- missiles -------------------------------------------------------------------------------


def shots_allowed(st: StarfallState, k: int) -> int:
    return st.rules.scout_shots if k == SCOUT else st.rules.hunter_shots if k == HUNTER else 0


def fire_moves(st: StarfallState, vis: bytearray | None) -> list[SfMove]:
    out: list[SfMove] = []
    me = st.current
    kind, side, miss, shots = st.kind, st.side, st.miss, st.shots
    n = st.geo.size
    for sq in range(n):
        k = kind[sq]
        if (k == SCOUT or k == HUNTER) and side[sq] == me and miss[sq] > 0 and shots[sq] < shots_allowed(st, k):
            fires = move_table(FIRE, n)
            base = sq * n
            out.extend(fires[base + t] for t in fire_targets(st, sq, vis))
    return out


def fire_targets(st: StarfallState, sq: int, vis: bytearray | None) -> list[int]:
    """Squares a missile from sq may hit (see :func:`fire_hits`), in its range."""
    return [t for t in st.geo.disc(sq, st.rules.range) if fire_hits(st, sq, t, vis)]


def fire_hits(st: StarfallState, sq: int, t: int, vis: bytearray | None) -> bool:
    """Whether a missile from the shooter on sq may hit t, a square in its range: t is not sq,
    is seen, and holds an enemy drone (not a Command or turret), a star or an asteroid."""
    if t == sq or (vis is not None and not vis[t]):
        return False
    k = st.kind[t]
    if k:
        return st.side[t] != st.side[sq] and k != COMMAND and k != TURRET
    return bool(st.ast[t]) or st.star[t] >= 0


def _fire_legal(st: StarfallState, a: int, b: int) -> bool:
    """True only if ``fire a -> b`` is legal for the mover (not while aims are owed)."""
    n = st.geo.size
    if not (0 <= a < n and 0 <= b < n) or st.side[a] != st.current:
        return False
    k = st.kind[a]
    if (k != SCOUT and k != HUNTER) or st.miss[a] <= 0 or st.shots[a] >= shots_allowed(st, k):
        return False
    return st.geo.chebyshev(a, b) <= st.rules.range and fire_hits(st, a, b, _vis(st))


# -- swaps ----------------------------------------------------------------------------------


def _completes(colors: list[int], sq: int, trie: tuple[Any, ...]) -> bool:
    """True if the star on sq is part of a match (see Geometry.match_trie)."""
    c = colors[sq]
    for first, rests in trie:
        if colors[first] == c:
            for rest in rests:
                for o in rest:
                    if colors[o] != c:
                        break
                else:
                    return True
    return False


def swap_moves(st: StarfallState, vis: bytearray | None) -> list[SfMove]:
    """Every legal swap (bitboards, see swapgen), in square order.

    Its slow twin is ``find_shapes`` after each swap, held equal by
    tests/starfall/test_swap_consistency.py::test_swap_legality_is_find_shapes and
    tests/starfall/test_swaps_payouts.py::test_swap_legality_agrees_with_the_shape_finder.
    """
    colors = st.star if vis is None else [c if v else -1 for c, v in zip(st.star, vis, strict=False)]
    geo = st.geo
    n = geo.size
    table = move_table(SWAP, n)
    return [table[a * n + b] for a, b in swap_pairs(colors, st.owner, st.current ^ 1, geo)]


def swap_refusal(st: StarfallState, a: int, b: int, vis: bytearray | None) -> str | None:
    geo = st.geo
    if a == b or geo.chebyshev(a, b) != 1 or (geo.col[a] != geo.col[b] and geo.row[a] != geo.row[b]):
        return "a swap exchanges two stars side by side (not diagonally)"
    if vis is not None and not (vis[a] and vis[b]):
        return "you cannot swap a star you cannot see"
    if st.star[a] < 0 or st.star[b] < 0:
        return "both squares of a swap must hold a star"
    enemy = st.current ^ 1
    if st.owner[a] == enemy or st.owner[b] == enemy:
        return f"you cannot swap on land {SIDE_NAMES[enemy]} owns"
    colors = st.star[:] if vis is None else [c if v else -1 for c, v in zip(st.star, vis, strict=False)]
    colors[a], colors[b] = colors[b], colors[a]
    if not (_completes(colors, a, geo.match_trie[a]) or _completes(colors, b, geo.match_trie[b])):
        return "that swap makes no line, so it snaps back"
    return None


# -- drone moves ------------------------------------------------------------------------------


def ride_bits(st: StarfallState, vis: bytearray | None) -> list[int]:
    """Per square, the ride-mask bits that make a step onto it free (its star colour and its
    checker colour); 0 where no drone may step at all (an asteroid, or an unseen square)."""
    rb = list(map(getitem, _ride_choices(st.geo), st.star))
    ast = st.ast
    t = -1
    try:
        while True:
            t = ast.index(1, t + 1)
            rb[t] = 0
    except ValueError:
        pass
    return rb if vis is None else list(map(mul, rb, vis))


def _ride_choices(geo: Geometry) -> tuple[tuple[int, ...], ...]:
    """Per square, its ride bits for each star colour (index -1: no star): its checker
    colour's bit with the colour's bit (kept in ``geo.derived["ride choices"]``)."""
    table: tuple[tuple[int, ...], ...] | None = geo.derived.get("ride choices")
    if table is None:
        table = geo.derived["ride choices"] = tuple(
            tuple(CHECKER_BITS[geo.checker[t]] | bit for bit in STAR_BITS) for t in range(geo.size)
        )
    return table


def may_land_on(k: int, tk: int, own: bool) -> bool:
    """Whether a drone of kind ``k`` may end a move on a square holding a drone of kind ``tk``:
    ``own`` (the same side's) stacks on anything but a Command or a turret; an enemy is taken
    by a raider (not a siege, Command or turret) and by a siege only when it is a turret."""
    if own:
        return tk != COMMAND and tk != TURRET
    if k == RAIDER:
        return tk != SIEGE and tk != COMMAND and tk != TURRET
    return k == SIEGE and tk == TURRET


def _lander(st: StarfallState, sq: int, rb: list[int], vis: bytearray | None) -> Callable[[int], bool]:
    """Whether the drone on sq may end a move on square t (an empty, own-stack or take square)."""
    kind, side = st.kind, st.side
    k = kind[sq]
    me = side[sq]
    shield_rule = vis is not None and k == SHIELD
    owner = st.owner
    cleared = st.cleared[me]

    def can_land(t: int) -> bool:
        if not rb[t]:  # an asteroid, or unseen
            return False
        tk = kind[t]
        if tk and not may_land_on(k, tk, side[t] == me):
            return False
        if shield_rule and owner[t] != me and not (cleared >> t & 1):
            return False
        return True

    return can_land


class Reach:
    """Whether the drone on sq can end a ``move`` on one square: ``t in Reach(st, sq, vis)`` is
    ``t in drone_destinations(st, sq, vis)`` (for 0 <= t < size), answered for that square
    alone. ``check`` and the random move sampler ask about one square or two, so nothing is
    worked out ahead; the free run from sq in a direction is found once, when first needed.
    """

    __slots__ = ("st", "sq", "vis", "runs")

    def __init__(self, st: StarfallState, sq: int, vis: bytearray | None) -> None:
        self.st = st
        self.sq = sq
        self.vis = vis
        #: runs[d]: how many open, empty squares the straight ride from sq crosses in direction d (-1: not yet known)
        self.runs = [-1] * 8

    def __contains__(self, t: int) -> bool:
        return reaches(self.st, self.sq, t, self.vis, self.runs)


def _free(st: StarfallState, sq: int, d: int, need: int, vis: bytearray | None, mask: int,
          choices: tuple[tuple[int, ...], ...], runs: list[int]) -> bool:
    """Whether the straight ride from sq in direction d crosses at least ``need`` open, empty
    squares (``choices``: :func:`_ride_choices`). A walk that meets a blocked square records
    the exact run in ``runs[d]``."""
    run = runs[d]
    if run >= 0:
        return need <= run
    kind, ast, star = st.kind, st.ast, st.star
    count = 0
    for u in st.geo.rays[sq][d]:
        if count == need:
            return True
        if kind[u] or ast[u] or not mask & choices[u][star[u]] or (vis is not None and not vis[u]):
            break
        count += 1
    runs[d] = count
    return need <= count


def reaches(st: StarfallState, sq: int, t: int, vis: bytearray | None, runs: list[int]) -> bool:
    """``t in drone_destinations(st, sq, vis)`` for one square t of the drone on sq (False for
    a t off the board, or when sq holds no drone that moves); ``runs`` caches free runs between
    calls about the same drone (start with ``[-1] * 8``).

    Fast path of :func:`drone_destinations` (its slow twin, the list it answers membership of), held
    equal by tests/starfall/test_fast_checks.py::test_reach_is_the_destination_list_for_every_drone
    and tests/starfall/test_sampling.py::test_reach_agrees_with_the_destination_list.
    """
    kind = st.kind
    k = kind[sq]
    if not k or k == COMMAND or k == TURRET or not 0 <= t < len(kind) or t == sq or st.ast[t] or (
        vis is not None and not vis[t]
    ):
        return False  # no mover, off the board, the start, an asteroid, or unseen
    me = st.side[sq]
    tk = kind[t]
    # every way onto an occupied square ends with a landing on it
    if tk and not may_land_on(k, tk, st.side[t] == me):
        return False
    # a paid step may end only where the drone may land (the shield rule under fog)
    land = vis is None or k != SHIELD or st.owner[t] == me or bool(st.cleared[me] >> t & 1)
    if tk and not land:
        return False
    geo = st.geo
    derived = geo.derived
    keys, offsets = derived.get("lines") or _line_tables(geo)  # the cache without a call
    dist, d, approaches = offsets[keys[t] - keys[sq]]
    if dist == 1 and land:
        return True  # one paid step
    if k in STEPPERS:
        return False
    mask = st.ride[sq]
    star = st.star
    choices = derived.get("ride choices") or _ride_choices(geo)
    rideable = mask & choices[t][star[t]]
    # a straight ride of free steps from sq ends on t (free itself, or a landing)
    if rideable and d < 8 and _free(st, sq, d, dist - 1, vis, mask, choices, runs):
        return True
    # one paid step onto t from a square the straight ride from sq crosses (nearest first)
    if land:
        for need, d in approaches:
            if _free(st, sq, d, need, vis, mask, choices, runs):
                return True
    if not rideable:
        return False
    # a paid step to an open, empty p beside sq, then a straight ride from p to t
    ast = st.ast
    rays = geo.rays
    for p in geo.nbr8[sq]:
        d = offsets[keys[t] - keys[p]][1]
        if d > 7 or kind[p] or ast[p] or (vis is not None and not vis[p]):
            continue
        for u in rays[p][d]:
            if u == t:
                return True  # t itself is rideable, and empty or a landing
            if u == sq or kind[u] or ast[u] or not mask & choices[u][star[u]] or (vis is not None and not vis[u]):
                break
    return False


_Offset = tuple[int, int, tuple[tuple[int, int], ...]]


def _line_tables(geo: Geometry) -> tuple[tuple[int, ...], list[_Offset]]:
    """``keys`` and ``offsets`` for :func:`reaches`: ``offsets[keys[b] - keys[a]]`` describes where
    b lies from a (it depends on the column and row differences only, so one entry serves every
    pair so placed; negative indices wrap): (king-move distance, direction index of the line
    from a through b or 8, and ``(steps, direction)`` pairs, fewest steps first, of the nearest
    square of each line from a that touches b). Kept in ``geo.derived["lines"]``.

    Held to their definition (distance, line, nearest touching squares worked out square by square)
    by
    tests/starfall/test_tables.py::test_line_offsets_give_the_distance_the_line_and_the_nearest_touching_squares.
    """
    tables: tuple[tuple[int, ...], list[_Offset]] | None = geo.derived.get("lines")
    if tables is None:  # built in a fresh process only when the disk cache does not have them yet
        build = partial(_build_line_tables, geo)
        key = (geo.width, geo.height)
        tables = geo.derived["lines"] = cached_by_code([sys.modules[__name__], geometry], "starfall-lines", key, build)
    return tables


def _build_line_tables(geo: Geometry) -> tuple[tuple[int, ...], list[_Offset]]:
    w, h = geo.width, geo.height
    span = 2 * h - 1
    keys = tuple(c * span + r for c, r in zip(geo.col, geo.row, strict=False))
    lines = {(dc, dr): _line(dc, dr) for dc in range(-w, w + 1) for dr in range(-h, h + 1)}
    offsets: list[_Offset] = [(0, 8, ())] * ((2 * w - 1) * span)
    for dc in range(1 - w, w):
        for dr in range(1 - h, h):
            nearest: dict[int, int] = {}
            for x, y in DIRECTIONS:
                d = lines[dc + x, dr + y]
                if d < 8:
                    steps = max(abs(dc + x), abs(dr + y))
                    if steps < nearest.get(d, 99):
                        nearest[d] = steps
            offsets[dc * span + dr] = (
                max(abs(dc), abs(dr)), lines[dc, dr], tuple(sorted((s, d) for d, s in nearest.items()))
            )
    return keys, offsets


def _line(dc: int, dr: int) -> int:
    """The index in DIRECTIONS of the line from a square to one (dc, dr) away, or 8 if none."""
    if (dc or dr) and (not dc or not dr or abs(dc) == abs(dr)):
        return DIRECTIONS.index(((dc > 0) - (dc < 0), (dr > 0) - (dr < 0)))
    return 8


def drone_destinations(st: StarfallState, sq: int, vis: bytearray | None, rb: list[int] | None = None) -> list[int]:
    """Every square the drone on sq can end a ``move`` on (empty, own drone to stack, or a take).

    A move is a straight ride of free steps with at most one paid step before or after it,
    or a single paid step. ``rb`` is :func:`ride_bits` of the position (computed when absent).

    Its slow twin is ``reference_destinations`` in tests/starfall/test_drones.py (every straight
    ride with a paid step before, after or none, tried one by one), held equal by
    test_drones.py::test_destinations_match_a_slow_reference.
    """
    kind = st.kind
    k = kind[sq]
    geo = st.geo
    nbr8 = geo.nbr8
    if not k or k == COMMAND or k == TURRET:
        return []
    if rb is None:
        rb = ride_bits(st, vis)
    can_land = _lander(st, sq, rb, vis)

    if k in STEPPERS:
        return [t for t in nbr8[sq] if can_land(t)]

    mask = st.ride[sq]
    rays = geo.rays
    dests: set[int] = set()
    ends = [sq]
    # a straight ride of free steps from the start square
    for ray in rays[sq]:
        for t in ray:
            if not mask & rb[t]:
                break
            if kind[t]:
                if can_land(t):
                    dests.add(t)
                break
            dests.add(t)
            ends.append(t)
    # one paid step after the ride (or alone)
    near = set(nbr8[sq])
    for e in ends[1:]:
        near.update(nbr8[e])
    near.discard(sq)
    near -= dests
    dests.update([t for t in near if can_land(t)])
    # one paid step, then a straight ride
    for p in nbr8[sq]:
        if kind[p] or not rb[p]:
            continue
        for ray in rays[p]:
            for t in ray:
                if t == sq or not mask & rb[t]:
                    break
                if kind[t]:
                    if t not in dests and can_land(t):
                        dests.add(t)
                    break
                dests.add(t)  # open (no asteroid, seen) and empty: a rider may always end here
    return sorted(dests)


def aim_moves(st: StarfallState, vis: bytearray | None) -> list[SfMove]:
    """While the mover owes an aimed asteroid: one ``aim`` per target it sees, or a random fall."""
    targets = drop_targets(st, st.current ^ 1, vis)
    return [SfMove(AIM, t) for t in targets] if targets else [SfMove(AIM)]


def claimable(st: StarfallState, sq: int, radius: int, vis: bytearray | None = None, me: int | None = None) -> list[int]:
    """Squares a claim by ``me`` (default: the mover) centred on sq would take (see
    :func:`effects.claim_open`; under fog: the seen ones).

    Legality asks for at least one of them, judged on what the mover sees so that the legal
    moves never depend on hidden squares; the claim itself takes unseen squares too.
    """
    me = st.current if me is None else me
    if vis is None:
        return [t for t in st.geo.disc(sq, radius) if claim_open(st, t, me)]
    return [t for t in st.geo.disc(sq, radius) if vis[t] and claim_open(st, t, me)]


def warp_targets(st: StarfallState, sq: int, vis: bytearray | None) -> list[int]:
    enemy = st.side[sq] ^ 1
    kind, ast, owner = st.kind, st.ast, st.owner
    radius = st.rules.warp_radius
    out = []
    for t in range(st.geo.size):
        if kind[t] or ast[t] or owner[t] == enemy or (vis is not None and not vis[t]):
            continue
        if claimable(st, t, radius, vis, enemy ^ 1):
            out.append(t)
    return out


def strike_ends(st: StarfallState, sq: int, vis: bytearray | None) -> list[int]:
    """Where a siege's strike stops in each direction (it must move at least one square)."""
    return [t for t in (strike_end(st, sq, d, vis) for d in range(8)) if t >= 0]


def strike_end(st: StarfallState, sq: int, d: int, vis: bytearray | None) -> int:
    """Where a strike from sq in direction d stops: the last open, empty square before the first
    asteroid or drone (or the edge); -1 if there is none, or if an unseen square comes first."""
    kind, ast = st.kind, st.ast
    last = -1
    for t in st.geo.rays[sq][d]:
        if vis is not None and not vis[t]:
            return -1
        if ast[t] or kind[t]:
            break
        last = t
    return last


def _strike_legal(st: StarfallState, a: int, b: int) -> bool:
    """True only if ``strike a -> b`` is legal for the mover (not while aims are owed)."""
    n = st.geo.size
    if not (0 <= a < n and 0 <= b < n) or st.kind[a] != SIEGE or st.side[a] != st.current:
        return False
    keys, offsets = _line_tables(st.geo)
    d = offsets[keys[b] - keys[a]][1]
    return d < 8 and strike_end(st, a, d, _vis(st)) == b


def build_squares(st: StarfallState, vis: bytearray | None) -> list[int]:
    me = st.current
    if st.cmd[me] < 0 or st.miss[st.cmd[me]] < st.rules.turret_cost:
        return []
    kind, ast, owner = st.kind, st.ast, st.owner
    return [
        t for t in range(st.geo.size)
        if owner[t] == me and not kind[t] and not ast[t] and (vis is None or vis[t])
    ]


# -- checking one move -------------------------------------------------------------------------


def _own(st: StarfallState, sq: int, want: int | None, name: str) -> str | None:
    if not 0 <= sq < st.geo.size:
        return "that square is off the board"
    if not st.kind[sq] or st.side[sq] != st.current:
        return f"there is no {SIDE_NAMES[st.current]} drone there"
    if want is not None and st.kind[sq] != want:
        return f"only a {name} can do that"
    return None


def _well_formed(m: SfMove) -> bool:
    """The fields a move kind does not use hold their defaults (so equal moves compare equal)."""
    kind = m.kind
    if kind == CONCEDE:
        return m.b == -1
    if m.tag != "":
        return False
    if kind in (PASS, TIMEOUT):
        return m.a == -1 and m.b == -1
    if kind in (CLAIM, BUILD, AIM):
        return m.b == -1
    if kind == SWAP:
        return m.a < m.b
    return True


def refusal(st: StarfallState, m: SfMove) -> tuple[str, str] | None:
    """None if m is legal for the mover, else (rule id, reason).

    Drone moves, swaps, shots and strikes, most of any game, are first tried on a short test
    that only ever accepts legal moves; anything it does not accept goes through the full rules
    below, which give the refusal its rule id and reason.

    The short test is the fast path; its slow twin is :func:`_refusal` (the full rules), held equal
    by tests/starfall/test_fast_checks.py::test_the_quick_accept_agrees_with_the_full_rules and
    ::test_the_quick_accept_of_a_shot_or_a_strike_agrees_with_the_full_rules.
    """
    kind = m.kind
    if not st.aims and m.tag == "":
        if kind == MOVE:
            a, b = m.a, m.b
            if 0 <= a < st.geo.size and st.side[a] == st.current and reaches(
                st, a, b, fog.visible(st, st.current) if st.fogged else None, [-1] * 8
            ):
                return None
        elif kind == SWAP:
            if _swap_legal(st, m.a, m.b):
                return None
        elif kind == FIRE:
            if _fire_legal(st, m.a, m.b):
                return None
        elif kind == STRIKE:
            if _strike_legal(st, m.a, m.b):
                return None
    return _refusal(st, m)


def _swap_legal(st: StarfallState, a: int, b: int) -> bool:
    """True only if ``swap a <-> b`` (a < b) is legal for the mover (not while aims are owed).

    Two stars of one colour never get here: the full rules decide those.

    Fast path of the full rules' :func:`swap_refusal` (with :func:`swap_makes_line` in place of a
    shape search after the swap); its slow twin is ``find_shapes`` on the swapped board, held equal
    by tests/starfall/test_swap_consistency.py::test_swap_legality_is_find_shapes and
    ::test_fogged_swap_legality_is_find_shapes_on_what_the_mover_sees.
    """
    pair = _swap_tries(st.geo).get((a, b))
    if pair is None:  # not two orthogonal neighbours
        return False
    star, owner = st.star, st.owner
    ca, cb = star[a], star[b]
    enemy = st.current ^ 1
    if ca < 0 or cb < 0 or ca == cb or owner[a] == enemy or owner[b] == enemy:
        return False
    vis = _vis(st)
    if vis is not None and not (vis[a] and vis[b]):
        return False
    return swap_makes_line(st, a, b, pair[0], pair[1], vis)


def swap_makes_line(st: StarfallState, a: int, b: int, trie_a: Any, trie_b: Any, vis: bytearray | None) -> bool:
    """Whether swapping the (different-coloured, seen) stars on a and b completes a match.

    ``trie_a`` holds a's match patterns that leave b out, ``trie_b`` the other way round (see
    Geometry.swap_pairs): with two colours, a pattern through both squares cannot match. An
    unseen square never counts as a star.
    """
    star = st.star
    ca, cb = star[a], star[b]
    for c, trie in ((cb, trie_a), (ca, trie_b)):
        for first, rests in trie:
            if star[first] == c and (vis is None or vis[first]):
                for rest in rests:
                    for o in rest:
                        if star[o] != c or (vis is not None and not vis[o]):
                            break
                    else:
                        return True
    return False


def _swap_tries(geo: Geometry) -> dict[tuple[int, int], tuple[Any, Any]]:
    """``(a, b) -> (trie_a, trie_b)`` for every pair of Geometry.swap_pairs (kept in ``geo.derived``)."""
    table: dict[tuple[int, int], tuple[Any, Any]] | None = geo.derived.get("swap tries")
    if table is None:
        table = geo.derived["swap tries"] = {(a, b): (ta, tb) for a, b, ta, tb in geo.swap_pairs}
    return table


def _refusal(st: StarfallState, m: SfMove) -> tuple[str, str] | None:
    """The full rules for one move: None if legal, else (rule id, reason)."""
    kind = m.kind
    n = st.geo.size
    if not _well_formed(m):
        return ("malformed", f"not a well-formed {kind} move")
    if kind == CONCEDE:
        return None if m.a in (0, 1) and m.tag in CONCEDE_REASONS else ("concede", "concede needs a seat and a reason")
    if kind == TIMEOUT:
        return None
    if st.aims or kind == AIM:
        if not st.aims:
            return ("aim_none", "there is no asteroid to aim")
        if kind != AIM:
            return ("aim_first", "aim the asteroid the six-line earned first")
        if m not in aim_moves(st, _vis(st)):
            return ("aim_target", "an aimed asteroid lands on a square the other side owns that you see, "
                    "not on its Command or another asteroid")
        return None
    squares = [x for x in (m.a, m.b) if x != -1] if kind != RAM else [m.a]
    if any(not 0 <= x < n for x in squares):
        return ("off_board", "that square is off the board")
    vis = _vis(st)
    if kind == FIRE:
        why = _own(st, m.a, None, "scout or hunter")
        if why:
            return ("fire", why)
        k = st.kind[m.a]
        if k not in (SCOUT, HUNTER):
            return ("fire", "only scouts and hunters fire missiles")
        if st.miss[m.a] <= 0:
            return ("fire_unloaded", "that drone carries no missile; load it beside your Command first")
        if st.shots[m.a] >= shots_allowed(st, k):
            return ("fire_spent", "that drone has fired all its missiles this turn")
        if m.b not in fire_targets(st, m.a, vis):
            return ("fire_target", "that square is out of range, unseen, or holds nothing a missile can hit")
        return None
    if kind == SWAP:
        why = swap_refusal(st, m.a, m.b, vis)
        return None if why is None else ("swap", why)
    if kind == MOVE:
        why = _own(st, m.a, None, "drone")
        if why:
            return ("move", why)
        if st.kind[m.a] in (COMMAND, TURRET):
            return ("move_fixed", "the Command and turrets never move")
        if not 0 <= m.b < n or m.b not in Reach(st, m.a, vis):
            return ("move_path", "that drone cannot reach or land on that square")
        return None
    if kind == CLAIM:
        why = _own(st, m.a, SCOUT, "scout")
        if why:
            return ("claim", why)
        if not claimable(st, m.a, st.rules.claim_radius, vis):
            return ("claim_nothing", "every square around that scout is already owned or an asteroid")
        return None
    if kind == WARP:
        why = _own(st, m.a, WARP_KIND, "warp drone")
        if why:
            return ("warp", why)
        if m.b not in warp_targets(st, m.a, vis):
            return ("warp_target", "a warp needs a seen, empty square not owned by the other side, with something to claim")
        return None
    if kind == STRIKE:
        why = _own(st, m.a, SIEGE, "siege")
        if why:
            return ("strike", why)
        if m.b not in strike_ends(st, m.a, vis):
            return ("strike_path", "a strike slides straight until something blocks it, and must stop there")
        return None
    if kind == RAM:
        why = _own(st, m.a, BOMB, "bomb")
        if why:
            return ("ram", why)
        if not 0 <= m.b < 8 or ram_centre(st, m.a, m.b, vis) is None:
            return ("ram_path", "a ram needs room to slide or something to hit in that direction")
        return None
    if kind == BUILD:
        me = st.current
        if st.cmd[me] < 0 or st.miss[st.cmd[me]] < st.rules.turret_cost:
            return ("build_stock", f"a turret costs {st.rules.turret_cost} missiles from the Command's stock")
        if m.a not in build_squares(st, vis):
            return ("build_square", "a turret goes on an empty square you own")
        return None
    if kind == PASS:
        if action_moves(st, vis):
            return ("pass", "you may only pass when no action is legal")
        return None
    return ("unknown", f"unknown move kind {kind!r}")
