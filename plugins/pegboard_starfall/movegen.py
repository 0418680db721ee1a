"""Legal move generation and move checking.

Everything reads the flat arrays directly through local variables; ``vis`` is None when
the fog is off, otherwise a per-square 0/1 sequence of what the mover sees.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import getitem, mul
from typing import TYPE_CHECKING, Any

from . import fog
from .effects import claim_open, drop_targets
from .rams import ram_centre
from .swapgen import swap_pairs
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
)
from .pieces import (
    BOMB,
    COMMAND,
    HUNTER,
    RAIDER,
    SCOUT,
    SHIELD,
    SIEGE,
    STEPPERS,
    TURRET,
)
from .pieces import WARP as WARP_KIND

if TYPE_CHECKING:
    from .geometry import Geometry
    from .state import StarfallState

_SIDE = ("South", "North")
_TABLES: dict[tuple[str, int], list[SfMove]] = {}


def move_table(kind: str, size: int) -> list[SfMove]:
    """Prebuilt moves ``table[a * size + b]`` of one kind, so generation allocates nothing."""
    table = _TABLES.get((kind, size))
    if table is None:
        table = _TABLES[(kind, size)] = [SfMove(kind, a, b) for a in range(size) for b in range(size)]
    return table


def _vis(st: StarfallState) -> bytearray | None:
    return fog.visible(st, st.current) if st.rules.fogged else None


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
    """Squares a missile from sq may hit: an enemy drone (not a Command or turret), a star or an asteroid."""
    me = st.side[sq]
    kind, side, star, ast = st.kind, st.side, st.star, st.ast
    out = []
    for t in st.geo.disc(sq, st.rules.range):
        if t == sq or (vis is not None and not vis[t]):
            continue
        k = kind[t]
        if k:
            if side[t] != me and k != COMMAND and k != TURRET:
                out.append(t)
        elif ast[t] or star[t] >= 0:
            out.append(t)
    return out


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
    """Every legal swap (bitboards, see swapgen), in square order."""
    colors = st.star if vis is None else [c if v else -1 for c, v in zip(st.star, vis)]
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
        return f"you cannot swap on land {_SIDE[enemy]} owns"
    colors = st.star[:] if vis is None else [c if v else -1 for c, v in zip(st.star, vis)]
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


#: _STAR_BIT[c]: the ride bit of star colour c (index -1, no star: none).
_STAR_BIT = (1, 2, 4, 8, 16, 0)


_RIDE_CHOICES: dict[int, tuple[tuple[int, ...], ...]] = {}


def _ride_choices(geo: Geometry) -> tuple[tuple[int, ...], ...]:
    """Per square, its ride bits for each star colour (index -1: no star): its checker
    colour's bit with the colour's bit."""
    table = _RIDE_CHOICES.get(id(geo))
    if table is None:
        table = _RIDE_CHOICES[id(geo)] = tuple(
            tuple((1 << (5 + geo.checker[t])) | bit for bit in _STAR_BIT) for t in range(geo.size)
        )
    return table


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
        if tk:
            if side[t] == me:
                if tk == COMMAND or tk == TURRET:
                    return False
            elif k == RAIDER:
                if tk == SIEGE or tk == COMMAND or tk == TURRET:
                    return False
            elif not (k == SIEGE and tk == TURRET):
                return False
        if shield_rule and owner[t] != me and not (cleared >> t & 1):
            return False
        return True

    return can_land


class Reach:
    """Where the drone on sq can end a ``move``, one square at a time: ``t in reach`` is
    ``t in drone_destinations(...)`` without working out every destination (``check`` and
    the random move sampler ask about one square). The straight ride from sq is found once."""

    __slots__ = ("st", "sq", "rb", "can_land", "stepper", "mask", "ridden", "ends")

    def __init__(self, st: StarfallState, sq: int, vis: bytearray | None, rb: list[int] | None = None) -> None:
        self.st = st
        self.sq = sq
        self.rb = rb = ride_bits(st, vis) if rb is None else rb
        self.can_land = can_land = _lander(st, sq, rb, vis)
        k = st.kind[sq]
        self.stepper = k in STEPPERS
        self.mask = mask = st.ride[sq]
        ridden: set[int] = set()  # reached by the straight ride (destinations)
        ends = {sq}  # the start and the empty squares the ride passes (a paid step may follow)
        if not self.stepper:
            kind = st.kind
            for ray in st.geo.rays[sq]:
                for t in ray:
                    if not mask & rb[t]:
                        break
                    if kind[t]:
                        if can_land(t):
                            ridden.add(t)
                        break
                    ridden.add(t)
                    ends.add(t)
        self.ridden = ridden
        self.ends = ends

    def __contains__(self, t: int) -> bool:
        sq = self.sq
        if t == sq:
            return False
        st = self.st
        geo = st.geo
        nbr8 = geo.nbr8
        if self.stepper:
            return t in nbr8[sq] and self.can_land(t)
        if t in self.ridden:
            return True
        ends = self.ends
        if any(e in ends for e in nbr8[t]) and self.can_land(t):
            return True  # a paid step after the ride (or alone)
        # a paid step to p beside sq, then a straight ride to t
        kind, rb, mask = st.kind, self.rb, self.mask
        toward = geo.toward
        n = geo.size
        for p in nbr8[sq]:
            d = toward[p * n + t]
            if d < 0 or kind[p] or not rb[p]:
                continue
            for u in geo.rays[p][d]:
                if u == sq or not mask & rb[u]:
                    break
                if kind[u]:
                    if u == t and self.can_land(t):
                        return True
                    break
                if u == t:
                    return True
        return False


def drone_destinations(st: StarfallState, sq: int, vis: bytearray | None, rb: list[int] | None = None) -> list[int]:
    """Every square the drone on sq can end a ``move`` on (empty, own drone to stack, or a take).

    A move is a straight ride of free steps with at most one paid step before or after it,
    or a single paid step. ``rb`` is :func:`ride_bits` of the position (computed when absent).
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
    kind, ast = st.kind, st.ast
    out = []
    for ray in st.geo.rays[sq]:
        last = -1
        blocked_unseen = False
        for t in ray:
            if vis is not None and not vis[t]:
                blocked_unseen = True
                break
            if ast[t] or kind[t]:
                break
            last = t
        if last >= 0 and not blocked_unseen:
            out.append(last)
    return out


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
        return f"there is no {_SIDE[st.current]} drone there"
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
    """None if m is legal for the mover, else (rule id, reason)."""
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
