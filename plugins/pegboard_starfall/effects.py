"""What moves do to the board: clears and cascades, payouts, takes, missiles, drift.

Every function mutates a :class:`~pegboard_starfall.state.StarfallState` in place (the
state's undo snapshot was taken before) and queues explain-moves events with ``st.note``.
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING

from .geometry import COMPASS
from .pieces import (
    BOMB,
    COLOR_NAMES,
    COMMAND,
    HUNTER,
    KIND_NAMES,
    SCOUT,
    SHIELD,
    SIDE_NAMES,
    SIEGE,
    SWEPT,
    TURRET,
    drone_label,
    payout_kind,
)
from .rams import ram_centre
from .rng import draw, draws
from .shapes import ROW_RANK, find_shapes, find_shapes_through

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from .geometry import Geometry
    from .shapes import Shape
    from .state import StarfallState

ROW_WORDS = {
    "block3x3": "a 3x3 block", "cross54_or_block2x3": "a big crossing or 2x3 block",
    "cross44_53_or_line7": "a 7-line or crossing", "L43": "an L of 4 and 3", "V": "a V",
    "plus_or_X": "a plus or X", "T33": "a T", "L33": "an L", "line6": "a 6-line",
    "hook4": "a hooked 4", "line5": "a 5-line", "block2x2": "a 2x2 block", "line4": "a 4-line",
    None: "a 3-line",
}
_MAX_WAVES = 500


def at(st: StarfallState, sq: int) -> str:
    """A square in event texts: the algebraic name the History uses ("e2")."""
    return st.geo.name(sq)


def where(st: StarfallState, squares: Iterable[int]) -> str:
    """Where a shape lies, in words: "from e5 to e8" for a straight run, else "around f6" (its
    square nearest its middle). Only squares of the shape are named."""
    geo = st.geo
    cells = sorted(squares)
    cols = {geo.col[s] for s in cells}
    rows = {geo.row[s] for s in cells}
    if len(cols) == 1 or len(rows) == 1 or _diagonal(geo, cells):
        return f"from {at(st, cells[0])} to {at(st, cells[-1])}"
    mc = sum(geo.col[s] for s in cells) / len(cells)
    mr = sum(geo.row[s] for s in cells) / len(cells)
    middle = min(cells, key=lambda s: ((geo.col[s] - mc) ** 2 + (geo.row[s] - mr) ** 2, s))
    return f"around {at(st, middle)}"


def _diagonal(geo: Geometry, cells: list[int]) -> bool:
    """True when ``cells`` (sorted) are one diagonal run."""
    steps = {(geo.col[b] - geo.col[a], geo.row[b] - geo.row[a]) for a, b in zip(cells, cells[1:], strict=False)}
    return len(steps) == 1 and next(iter(steps)) in ((1, 1), (-1, 1))


# -- flow and cascades -----------------------------------------------------------------------


_Segment = tuple[slice, tuple[int, ...], bool]
_Plan = tuple[tuple[_Segment, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]


@lru_cache(maxsize=1024)
def _segments(width: int, height: int, side: int, rocks: bytes) -> _Plan:
    """The board's runs of squares between asteroids, per square the index of its run, and
    the squares of each run that does not meet the far edge, far end first.

    Runs come column by column (lowest column first), each column's from ``side``'s back row
    outward; a run is (the slice of the flat board it is, in that order; its squares;
    whether it meets the far edge, where new stars enter). An asteroid square's index is
    -1. ``rocks`` holds one byte per square, 1 on an asteroid (empty: none).
    """
    runs = tuple(seg for c in range(width) for seg in
                 _column_segments(width, height, side, c, rocks[c::width] if rocks else b""))
    where = [-1] * (width * height)
    for i, (slc, squares, _refill) in enumerate(runs):
        where[slc] = [i] * len(squares)
    return runs, tuple(where), tuple([squares[::-1] for _slc, squares, refill in runs if not refill])


@lru_cache(maxsize=4096)
def _column_segments(width: int, height: int, side: int, c: int, rocks: bytes) -> tuple[_Segment, ...]:
    """The runs of column ``c`` (see :func:`_segments`); ``rocks`` holds its rows' asteroid bytes (empty: none)."""
    step = width if side == 0 else -width
    rows = list(range(height))
    if side:
        rows.reverse()
    runs: list[list[int]] = [[]]
    for r in rows:
        if rocks and rocks[r]:
            runs.append([])
        else:
            runs[-1].append(r * width + c)
    segs = []
    far = rows[-1] * width + c
    for run in runs:
        if run:
            stop = run[-1] + step
            segs.append((slice(run[0], stop if stop >= 0 else None, step), tuple(run), run[-1] == far))
    return tuple(segs)


def flow(st: StarfallState, side: int, holes: Iterable[int] | None = None) -> list[int]:
    """Stars fall toward ``side``'s back row; the run touching the far edge refills.

    ``holes``: when given, the squares emptied since this side's last flow (only the runs
    holding them can have a hole this flow moves); None: look at every square. Returns the
    squares that received a star (empty: the flow changed nothing).

    With ``holes`` it is the fast path of the full scan (``holes=None``), held equal by
    tests/starfall/test_push_bookkeeping.py::test_narrowed_flows_and_calm_layouts_match_a_recount.
    """
    star, ast = st.star, st.ast
    if holes is None:
        holes = _settled_holes(st, side)
        if holes is None:
            holes = _holes(star, ast)
        if not holes:
            return []  # nothing falls
    plans = st.memo.flow_plans
    rocks_seen, plan = plans[side]
    if rocks_seen != ast:  # the asteroids moved since this side's last flow (a bytes == bytearray compare)
        rocks_seen = bytes(ast)
        geo = st.geo
        plan = _segments(geo.width, geo.height, side, rocks_seen if 1 in ast else b"")
        plans[side] = (rocks_seen, plan)
    runs, where, _trapping = plan
    changed: list[int] = []
    refills = []  # (run, its stars closed up, how many new stars it takes)
    new = 0
    runs_holed = {where[sq] for sq in holes}
    # in board order: the refills draw as a full sweep does
    for i in sorted(runs_holed) if len(runs_holed) > 1 else runs_holed:
        slc, squares, refill = runs[i]
        vals = star[slc]
        # from the first hole on, the stars beyond it close up toward the back row
        first = vals.index(-1)
        del vals[first]
        while -1 in vals:  # holes are few: removing them one by one beats rebuilding the list
            vals.remove(-1)
        n = len(squares) - len(vals)
        if refill:
            refills.append((slc, vals, n))
            new += n
            changed += squares[first:]
        elif len(vals) > first:  # some star moved
            star[slc] = vals + [-1] * n
            changed += squares[first:len(vals)]
    if new:
        stars = draws(st.key, st.draws, new, st.rules.colors)
        st.draws += new
        if len(refills) == 1:
            slc, vals, _n = refills[0]
            star[slc] = vals + stars
        else:
            k = 0
            for slc, vals, n in refills:
                vals += stars[k:k + n]
                star[slc] = vals
                k += n
    return changed


def _holes(star: list[int], ast: bytearray) -> list[int]:
    """The squares with neither a star nor an asteroid, lowest first.

    Held equal to a square-by-square scan by
    tests/starfall/test_fast_path_twins.py::test_the_holes_are_the_squares_with_neither_a_star_nor_an_asteroid.
    """
    count = star.count(-1) - ast.count(1)  # asteroid squares hold no star either
    out = []
    i = -1
    while count:
        i = star.index(-1, i + 1)
        if not ast[i]:
            out.append(i)
            count -= 1
    return out


def _settled_holes(st: StarfallState, side: int) -> list[int] | None:
    """The holes a flow toward ``side`` has to look at, read from ``st.memo.settled``; None if it cannot tell.

    A flow toward the side ``st.memo.settled`` names would move nothing. Toward the other side,
    the only holes are those at the far end of that side's runs that do not meet its far edge.

    Fast path of :func:`_holes`, held equal (as the flows they give) by
    tests/starfall/test_push_bookkeeping.py::test_flows_from_a_settled_board_match_flows_that_scan_it.
    """
    memo = st.memo
    fact = memo.settled
    if fact is None or fact[1] != st.star or fact[2] != st.ast:
        return None
    if fact[0] == side:
        return []
    rocks, plan = memo.flow_plans[fact[0]]
    if rocks != st.ast:
        return None
    star = st.star
    out = []
    for squares in plan[2]:
        for sq in squares:
            if star[sq] >= 0:
                break
            out.append(sq)
    return out


def _note_settled(st: StarfallState, side: int) -> None:
    """Note that a flow toward ``side`` would move nothing on the board as it is now."""
    st.memo.settled = (side, st.star[:], bytes(st.ast))


def flow_and_cascade(st: StarfallState, cause: str = "cascade", holes: list[int] | None = None) -> None:
    """The mover's flow, then every line that forms, paid to the mover, until none is left.

    ``holes``: as for :func:`flow` (the squares emptied since the mover's last flow; None: look at every square).

    Replaying ``st.memo.flips`` is the fast path of flowing again, held equal by
    tests/starfall/test_push_bookkeeping.py::test_remembered_flows_match_flows_worked_out_again.
    """
    side, star, ast, memo = st.current, st.star, st.ast, st.memo
    known = memo.flips[side]
    if known is not None and known[0] == star and known[1] == ast:
        # this very board flowed this way before, formed no line (so drew no star)
        if known[2] is not known[0]:
            star[:] = known[2]
        memo.settled = (side, known[2], known[1])
        st.quiet = True
        return
    before, draws = star[:], st.draws
    fact: tuple[int, list[int], bytes] | None
    changed = flow(st, side, holes)
    if st.quiet and not changed:  # nothing fell and no line stands: skip the shape search
        memo.settled = fact = (side, before, bytes(ast))
    else:
        formed = resolve(st, (), cause, changed if st.quiet else None, settled=True)
        fact = memo.settled
        # a line that formed was paid and cleared: replaying only the stars would skip that
        if formed or st.draws != draws or fact is None or fact[0] != side or fact[1] != star:
            return
    memo.flips[side] = (before, fact[2], fact[1])


def resolve(st: StarfallState, swapped: tuple[int, ...], cause: str, changed: list[int] | None = None,
            settled: bool = False) -> bool:
    """Match, pay, clear and flow again until the board is quiet (cascades belong to the mover).

    Returns whether any line formed.

    ``changed``: when given, the board had no match before those squares got their stars,
    so a match, if any, passes through one of them: only the windows through them are searched.
    ``settled``: the mover's flow ran last, so a hole it could move is in a run (between
    asteroids) this search clears (an asteroid a payout drops keeps that true).
    """
    geo = st.geo
    w, h = geo.width, geo.height
    mover = st.current
    for wave in range(_MAX_WAVES):
        # through a few changed squares the windows are fewer than a full (bit-parallel) search tests
        if changed is not None and len(changed) <= 16:
            shapes = find_shapes_through(st.star, w, h, changed)
        else:
            shapes = find_shapes(st.star, w, h)
        if not shapes:
            st.quiet = True
            if settled:
                _note_settled(st, mover)
            return wave > 0
        st.quiet = False
        telling = st.telling
        if not telling and len(shapes) == 1 and shapes[0].row is None:
            # the commonest wave in push: one lone 3-run, which pays nothing and only clears
            if st.winner_result is not None:
                return True
            holes = _clear(st, shapes, mover)
            changed = flow(st, mover, holes if settled else None)
            settled = True
            swapped = ()
            cause = "cascade"
            continue
        plans = []
        for shape in shapes:
            # a lone 3-run pays nothing: its candidates only order the events nobody reads in push
            cands = candidates(st, shape, swapped, mover) if shape.row is not None or telling else []
            rank = ROW_RANK[shape.row]
            plans.append((rank, cands[0] if cands else geo.size, shape, cands))
        if len(plans) > 1:
            plans.sort(key=lambda p: (p[0], spawn_order(st, p[1], mover)))
        rocks_fell = False
        for _rank, _first, shape, cands in plans:
            if st.winner_result is not None:
                return True
            if telling or (cands and shape.row is not None):  # else pay_shape would do nothing
                rocks_fell |= pay_shape(st, shape, cands, cause)
        holes = _clear(st, [plan[2] for plan in plans], mover, rocks_fell)
        if st.winner_result is not None:
            return True
        # every match cleared, so any new one runs through a square the flow filled
        changed = flow(st, mover, holes if settled else None)
        settled = True
        swapped = ()
        cause = "cascade"
    return True


def _clear(st: StarfallState, shapes: Iterable[Shape], mover: int, rocks_fell: bool = False) -> list[int]:
    """Empty the shapes' squares, count those on the mover's half and mark them cleared;
    returns the squares that became holes (what the next flow has to look at).

    ``rocks_fell``: a payout dropped an asteroid since the shapes were found, maybe onto one
    of their squares (which then holds no star to clear); otherwise every square holds one.
    """
    star = st.star
    holes: list[int] = []
    mask = 0
    if not rocks_fell:
        for shape in shapes:
            for sq in shape.squares:
                star[sq] = -1
                holes.append(sq)
            mask |= shape.mask
        st.cleared_now += (mask & _halves(st.geo)[mover]).bit_count()
        st.cleared[mover] |= mask
        return holes
    for shape in shapes:
        for sq in shape.squares:
            if star[sq] >= 0:  # not under the asteroid
                star[sq] = -1
                holes.append(sq)
        mask |= shape.mask
    st.cleared_now += list(map(st.geo.half.__getitem__, holes)).count(mover)
    st.cleared[mover] |= mask
    return holes


@lru_cache(maxsize=16)
def _halves(geo: Geometry) -> tuple[int, int]:
    """South's and North's halves as bit masks (bit ``s`` for square ``s``)."""
    return (sum(1 << s for s, h in enumerate(geo.half) if h == 0), sum(1 << s for s, h in enumerate(geo.half) if h == 1))


def spawn_order(st: StarfallState, sq: int, side: int) -> tuple[int, int, int]:
    """Nearest the side's back row, then nearest the centre column, then lowest column."""
    geo = st.geo
    if sq >= geo.size:
        return (geo.size, 0, 0)
    return geo.spawn_keys[side][sq]


def candidates(st: StarfallState, shape: Shape, swapped: tuple[int, ...], mover: int) -> list[int]:
    """Where a shape's drone may appear, best first; empty when the shape pays nothing."""
    half = st.geo.half
    squares = shape.squares
    own = [s for s in squares if half[s] == mover]
    if not own:
        return []
    if list(map(st.owner.__getitem__, squares)).count(mover ^ 1) == len(squares):
        return []  # all the other side's land
    own.sort(key=st.geo.spawn_keys[mover].__getitem__)
    if swapped:
        first = [s for s in own if s in swapped]
        if first:
            return first + [s for s in own if s not in first]
    return own


def pay_shape(st: StarfallState, shape: Shape, cands: list[int], cause: str) -> bool:
    """Pay the mover for one shape (drones on ``cands``, stacks, or the at-cap column).

    Returns whether an asteroid may have fallen (so a square of a shape may hold no star now).
    """
    mover = st.current
    telling = st.telling
    made = (f"{SIDE_NAMES[mover]}'s {cause} made {ROW_WORDS[shape.row]} of {COLOR_NAMES[shape.color]} "
            f"{where(st, shape.squares)}") if telling else ""
    if shape.row is None or not cands:
        if not telling:
            return False
        why = "" if shape.row is None else " but none of it is on their half (or it is all the other side's land)"
        st.note("cleared", f"{made}: it clears{why}.", sorted(shape.squares),
                color=shape.color, row=shape.row, cells=sorted(shape.squares), cause=cause)
        return False
    table = st.rules.payout
    assert table is not None  # Rules fills the standard table when a ruleset gives none
    payout = table[shape.row]
    kind, side, power = st.kind, st.side, st.power
    at_nine_paid = False
    for name in payout.drones:
        dk, mask = payout_kind(name, shape.color)
        exempt = payout.at_nine == "bomb" and dk == BOMB
        capped = not exempt and st.drone_count(mover) >= st.rules.drone_cap
        target = -1 if capped else next((s for s in cands if not kind[s]), -1)
        if target >= 0:
            kind[target], side[target], power[target] = dk, mover, 1
            st.ride[target], st.miss[target], st.shots[target] = mask, 0, 0
            if not telling:
                continue
            seen = (f"A {SIDE_NAMES[mover]} {drone_label(name)} appears at {at(st, target)}.", (target,),
                    {"drone": name, "at": target, "side": mover})
            st.note("drone_spawned", f"{made}: a {drone_label(name)} appears at {at(st, target)}.",
                    (target, *sorted(shape.squares)), (seen,),
                    drone=name, at=target, row=shape.row, color=shape.color, side=mover, cells=sorted(shape.squares),
                    cause=cause)
            continue
        host = stack_host(st, shape.squares, cands)
        if host >= 0:
            power[host] = min(st.rules.max_power, power[host] + 1)
            st.ride[host] |= mask
            if not telling:
                continue
            seen = (f"The {SIDE_NAMES[mover]} {KIND_NAMES[kind[host]]} at {at(st, host)} grows to power {power[host]}.",
                    (host,), {"at": host, "side": mover})
            st.note("drone_stacked", f"{made}: the {drone_label(name)} stacks into the {KIND_NAMES[kind[host]]} at "
                    f"{at(st, host)} (power {power[host]}).", (host, *sorted(shape.squares)), (seen,),
                    drone=name, at=host, row=shape.row, side=mover, cells=sorted(shape.squares), cause=cause)
            continue
        if at_nine_paid:
            continue
        at_nine_paid = True
        pay_at_nine(st, payout.at_nine, made, "at the drone cap" if capped else "with no square free for a drone",
                    tuple(sorted(shape.squares)), cause)
    return at_nine_paid and payout.at_nine == "asteroid"


def stack_host(st: StarfallState, squares: frozenset[int], cands: list[int]) -> int:
    """The mover's drone a shape made under it stacks into, or -1.

    Any square of the shape counts, on either half (the drone candidates first, then the
    rest nearest the mover's back row); the Command and turrets never take a stack.
    """
    mover = st.current
    kind, side = st.kind, st.side

    def takes(s: int) -> bool:
        k = kind[s]
        return bool(k) and side[s] == mover and k != COMMAND and k != TURRET

    for s in cands:
        if takes(s):
            return s
    rest = sorted((s for s in squares if s not in cands and takes(s)), key=st.geo.spawn_keys[mover].__getitem__)
    return rest[0] if rest else -1


def pay_at_nine(st: StarfallState, what: str, made: str, why: str = "at the drone cap",
                cells: tuple[int, ...] = (), cause: str = "swap") -> None:
    """The at-cap column: a missile, an asteroid on the other side's land, or nothing.

    ``cells`` are the shape's squares: under fog a side that did not see them all is told
    only what it may know (the mover: that a shape out of its sight paid this).
    """
    mover = st.current
    if what == "missile" and st.cmd[mover] >= 0:
        st.miss[st.cmd[mover]] += 1
        st.note("at_nine", f"{made}: {why} it pays 1 missile to the Command.", cells,
                (("A shape out of sight pays 1 missile to the Command.", (), {"row_pay": what}),), row_pay=what,
                cause=cause)
    elif what == "asteroid":
        drop_asteroid(st, made, cells)
    else:
        st.note("at_nine", f"{made}: {why} it pays nothing.", cells,
                (("A shape out of sight pays nothing.", (), {"row_pay": what}),), row_pay=what, cause=cause)


def drop_targets(st: StarfallState, enemy: int, vis: bytearray | None = None) -> list[int]:
    """Squares the six-line's at-cap asteroid may land on (``asteroids.drop_target``).

    "random": any square ``enemy`` owns without an asteroid, its Command included;
    "empty": those with no drone or turret, so the Command is never hit; "aimed": any of
    them but the Command's (under fog, ``vis`` keeps the ones the mover sees).
    """
    owner, ast, kind = st.owner, st.ast, st.kind
    cands = [sq for sq in range(st.geo.size) if owner[sq] == enemy and not ast[sq]]
    mode = st.rules.drop_target
    if mode == "empty":
        return [sq for sq in cands if not kind[sq]]
    if mode == "aimed":
        command = st.cmd[enemy]
        return [sq for sq in cands if sq != command and (vis is None or vis[sq])]
    return cands


def drop_asteroid(st: StarfallState, made: str, cells: tuple[int, ...] = ()) -> None:
    """The six-line's at-cap payout: an asteroid onto the other side's land.

    It lands on a random target (:func:`drop_targets`), or with ``drop_target = "aimed"``
    it is owed to the mover, who places it with an ``aim`` move before anything else.
    """
    enemy = st.current ^ 1
    cands = drop_targets(st, enemy)
    if not cands:
        st.note("at_nine", f"{made}: an asteroid would fall, but {SIDE_NAMES[enemy]} owns no open square.", cells,
                ((f"An asteroid would fall, but {SIDE_NAMES[enemy]} owns no open square.", (), {}),))
        return
    if st.rules.drop_target == "aimed":
        st.aims += 1
        text = f"{SIDE_NAMES[st.current]} gets an asteroid to aim at {SIDE_NAMES[enemy]}'s land."
        st.note("at_nine", f"{made}: at the drone cap {text}", cells, ((text, (), {"row_pay": "asteroid"}),),
                row_pay="asteroid")
        return
    t = cands[draw(st.key, st.draws, len(cands))]
    st.draws += 1
    land_asteroid(st, t, made, cells)


def aim(st: StarfallState, t: int) -> None:
    """An ``aim`` move: the owed asteroid lands on ``t`` (-1: at random, when the mover sees no target)."""
    st.aims -= 1
    made = f"{SIDE_NAMES[st.current]} aims"
    if t < 0:
        cands = drop_targets(st, st.current ^ 1)
        if not cands:
            st.note("at_nine", f"{made} an asteroid, but {SIDE_NAMES[st.current ^ 1]} owns no open square.")
            return
        t = cands[draw(st.key, st.draws, len(cands))]
        st.draws += 1
    land_asteroid(st, t, made, (), aimed=True)


def land_asteroid(st: StarfallState, t: int, made: str, cells: tuple[int, ...] = (), aimed: bool = False) -> None:
    """An asteroid falls on ``t``: a drone or turret there is crushed; on the Command it wins."""
    enemy = st.current ^ 1
    ast = st.ast
    hit = st.kind[t]
    if hit:
        remove(st, t)
    ast[t] = 1
    st.star[t] = -1
    st.wreck[t] = 0
    if hit == COMMAND:
        st.cmd[enemy] = -1
        text = f"an asteroid falls on {SIDE_NAMES[enemy]}'s Command at {at(st, t)}."
        st.note("asteroid_drop", f"{made}: {text}", (t, *cells), ((text[0].upper() + text[1:], (t,), {"at": t}),), at=t)
        st.finish(st.current, "asteroid",
                  f"An asteroid lands on {SIDE_NAMES[enemy]}'s Command: {SIDE_NAMES[st.current]} wins.")
        return
    crushed = f", crushing the {KIND_NAMES[hit]} there" if hit else ""
    text = f"an asteroid falls on {SIDE_NAMES[enemy]}'s land at {at(st, t)}{crushed}."
    extra = {"aimed": True} if aimed else {}
    st.note("asteroid_drop", f"{made}: {text}", (t, *cells), ((text[0].upper() + text[1:], (t,), {"at": t, **extra}),),
            at=t, **extra)


# -- drones coming and going -------------------------------------------------------------------


def remove(st: StarfallState, sq: int) -> None:
    st.kind[sq] = 0
    st.power[sq] = st.ride[sq] = st.miss[sq] = st.shots[sq] = 0


def destroy(st: StarfallState, sq: int, by: int | None, how: str) -> None:
    """Remove the drone or turret on sq; an enemy drone destroyed by ``by`` pays it a missile.

    ``how`` == "landing" always pays at once; other kills leave a wreck with salvage on.
    Turrets and drones crushed by asteroids (``by`` None) pay nothing.
    """
    k = st.kind[sq]
    victim = st.side[sq]
    remove(st, sq)
    if k == TURRET or by is None or by == victim:
        return
    if how == "landing" or not st.rules.salvage:
        if st.cmd[by] >= 0:
            st.miss[st.cmd[by]] += 1
    else:
        st.wreck[sq] += 1
        st.wround[sq] = st.round


def relocate(st: StarfallState, frm: int, to: int) -> None:
    """Move the drone on ``frm`` to ``to`` (whatever was on ``to`` is gone); ``frm`` is left as :func:`remove` leaves it."""
    kind, power, ride, miss, shots = st.kind, st.power, st.ride, st.miss, st.shots
    st.side[to] = st.side[frm]
    # each array in one swap-like assignment (no call to remove): most moves of a game come here
    kind[to], kind[frm] = kind[frm], 0
    power[to], power[frm] = power[frm], 0
    ride[to], ride[frm] = ride[frm], 0
    miss[to], miss[frm] = miss[frm], 0
    shots[to], shots[frm] = shots[frm], 0


def pick_up(st: StarfallState, sq: int) -> None:
    """A drone ending its move on a wreck takes the wreck's missiles to its own Command."""
    n = st.wreck[sq]
    if n and st.kind[sq]:
        owner = st.side[sq]
        if st.cmd[owner] >= 0:
            st.miss[st.cmd[owner]] += n
        st.wreck[sq] = 0
        st.note("salvage", f"{SIDE_NAMES[owner]} salvages {n} missile{'s' * (n > 1)} from the wreck at {at(st, sq)}.",
                (sq,), at=sq, missiles=n)


def load(st: StarfallState, sq: int) -> None:
    """A scout or hunter beside its own Command takes missiles from the stock."""
    k = st.kind[sq]
    if k != SCOUT and k != HUNTER:
        return
    me = st.side[sq]
    c = st.cmd[me]
    if c < 0 or sq not in st.geo.nbr8[c]:
        return
    want = st.rules.scout_load if k == SCOUT else st.rules.hunter_load
    n = min(want, st.miss[c])
    if n > 0:
        st.miss[c] -= n
        st.miss[sq] += n
        if st.telling:
            st.note("loaded", f"The {KIND_NAMES[k]} at {at(st, sq)} loads {n} missile{'s' * (n > 1)} from the Command.",
                    (sq,), at=sq, missiles=n)


def load_all(st: StarfallState) -> None:
    me = st.current
    c = st.cmd[me]
    if c < 0 or not st.miss[c]:
        return  # no Command, or an empty stock: nothing to load
    kind, side = st.kind, st.side
    around = st.near[c](kind)  # the kinds beside the Command, read in C
    if SCOUT not in around and HUNTER not in around:
        return
    for sq in st.geo.nbr8[c]:
        k = kind[sq]
        if (k == SCOUT or k == HUNTER) and side[sq] == me:
            load(st, sq)


# -- actions ------------------------------------------------------------------------------------


def swap(st: StarfallState, a: int, b: int) -> None:
    star = st.star
    # two stars changing places move no hole: a board the mover's flow left alone stays so
    settled = star[a] >= 0 and star[b] >= 0 and _settled_holes(st, st.current) == []
    star[a], star[b] = star[b], star[a]
    was_quiet, st.quiet = st.quiet, False
    if st.telling:
        st.note("swap", f"{SIDE_NAMES[st.current]} swaps {at(st, a)} and {at(st, b)}.", (a, b), a=a, b=b)
    # on a quiet board every match the swap makes holds a or b
    resolve(st, (a, b), "swap", [a, b] if was_quiet else None, settled)


def fire(st: StarfallState, frm: int, to: int) -> None:
    me = st.current
    st.shots[frm] += 1
    st.miss[frm] -= 1
    shooter = KIND_NAMES[st.kind[frm]]

    def note(outcome: str, **data: object) -> None:
        if not st.telling:
            return
        head = f"{SIDE_NAMES[me]}'s {shooter} at {at(st, frm)} fires at {at(st, to)}"
        away = (f"{SIDE_NAMES[me]}'s {shooter} at {at(st, frm)} fires out of sight.", (frm,), {"frm": frm})
        st.note("missile", f"{head}: {outcome}", (frm, to),
                ((f"A missile from out of sight hits {at(st, to)}: {outcome}", (to,), {"to": to, **data}), away),
                frm=frm, to=to, **data)

    if st.kind[to]:
        st.power[to] -= 1
        name = KIND_NAMES[st.kind[to]]
        if st.power[to] <= 0:
            destroy(st, to, me, "missile")
            note(f"the {name} is destroyed.", hit="drone", destroyed=True)
        else:
            note(f"the {name} drops to power {st.power[to]}.", hit="drone", destroyed=False)
        return
    holes = None  # an asteroid gone changes the runs: the flow looks at every square
    if st.ast[to]:
        st.ast[to] = 0
        note("the asteroid is destroyed.", hit="asteroid")
    else:
        # on a board the mover's flow left alone, the one hole that flow can move is this one
        if _settled_holes(st, me) == []:
            holes = [to]
        st.star[to] = -1
        st.cleared[me] |= 1 << to
        if st.geo.half[to] == me:
            st.cleared_now += 1
        note("the star is destroyed.", hit="star")
    flow_and_cascade(st, "missile", holes)


def after_board_change(st: StarfallState) -> None:
    """After a missile shot: surrounded sieges go."""
    surround(st)


def move_drone(st: StarfallState, frm: int, to: int) -> None:
    me = st.current
    k = st.kind[frm]
    kind = st.kind
    calm_kind, calm_side = st.memo.calm
    calm = SIEGE in kind and calm_kind == kind and calm_side == st.side  # is_calm, without its call
    tail = ""
    took = ""  # the kind of the enemy piece the move destroyed (the event's "took")
    if st.kind[to]:
        other = KIND_NAMES[st.kind[to]]
        if st.side[to] != me:
            if st.kind[to] == TURRET:
                destroy(st, to, me, "siege")
                tail = " and ends the turret there"
            else:
                destroy(st, to, me, "landing")
                tail = f", taking the {other} (1 missile to the Command)"
            took = other
            relocate(st, frm, to)
        else:
            p = min(st.rules.max_power, st.power[to] + st.power[frm])
            st.power[to] = p
            st.ride[to] |= st.ride[frm]
            st.miss[to] += st.miss[frm]
            remove(st, frm)
            tail = f", stacking onto the {other} (power {p})"
    else:
        relocate(st, frm, to)
    if st.telling:
        name = KIND_NAMES[k]
        text = f"{SIDE_NAMES[me]}'s {name} moves {at(st, frm)} to {at(st, to)}"
        arrive = f"A {SIDE_NAMES[me]} {name} comes into sight at {at(st, to)}"
        taken = {"took": took} if took else {}
        st.note("move", text + tail + ".", (frm, to),
                ((arrive + tail + ".", (to,), {"to": to, **taken}),
                 (f"The {SIDE_NAMES[me]} {name} at {at(st, frm)} moves out of sight.", (frm,), {"frm": frm})),
                frm=frm, to=to, **taken)
    if st.wreck[to]:
        pick_up(st, to)
    if k == SHIELD and st.owner[to] == me:
        sweep(st, to)
    if kind[to] == SCOUT or kind[to] == HUNTER:  # load's own first test, without its call for other drones
        load(st, to)
    if calm:  # only what stands on or beside ``to`` changed for the better of a siege's enemies
        keep_calm(st, to)


def sweep(st: StarfallState, sq: int) -> None:
    """A shield that moved onto its own land takes enemy scouts, hunters, warps and shields beside it there."""
    me = st.current
    kind, side, owner = st.kind, st.side, st.owner
    for t in st.geo.nbr8[sq]:
        if kind[t] in SWEPT and side[t] != me and owner[t] == me:
            name = KIND_NAMES[kind[t]]
            destroy(st, t, me, "sweep")
            st.note("take", f"The shield at {at(st, sq)} sweeps away the {name} at {at(st, t)}.", (sq, t),
                    ((f"A shield out of sight sweeps away the {name} at {at(st, t)}.", (t,), {"at": t}),), by=sq, at=t)


def claim_open(st: StarfallState, t: int, me: int) -> bool:
    """Whether a claim or warp by side ``me`` takes square ``t``: no asteroid, and nobody's;
    with ``claims.take_enemy`` also the other side's, unless one of its drones or turrets
    stands there."""
    if st.ast[t]:
        return False
    o = st.owner[t]
    if o < 0:
        return True
    return st.rules.claim_enemy and o != me and not (st.kind[t] and st.side[t] != me)


def claim_squares(st: StarfallState, centre: int, radius: int) -> list[int]:
    me = st.current
    owner = st.owner
    got = [t for t in st.geo.disc(centre, radius) if claim_open(st, t, me)]
    bits = 0
    for t in got:
        owner[t] = me
        bits |= 1 << t
    st.lit[me] |= bits
    return got


def claim(st: StarfallState, sq: int) -> None:
    me = st.current
    owner = st.owner
    cells = st.geo.disc(sq, st.rules.claim_radius)
    before = [owner[t] for t in cells] if st.rules.spend_on_take else []
    got = claim_squares(st, sq, st.rules.claim_radius)
    text = f"{SIDE_NAMES[me]}'s scout at {at(st, sq)} claims {len(got)} square{'s' * (len(got) != 1)}"
    # claims.spend_on_take: a claim that took any of the other side's land costs the scout
    if any(b == me ^ 1 and owner[t] == me for t, b in zip(cells, before, strict=False)):
        remove(st, sq)
        st.note("claim", text + ", some of them the other side's, and is spent.", (sq, *got), at=sq, cells=got, spent=True)
        return
    st.note("claim", text + ".", (sq, *got), at=sq, cells=got)


def warp(st: StarfallState, frm: int, to: int) -> None:
    remove(st, frm)
    got = claim_squares(st, to, st.rules.warp_radius)
    st.note("warp", f"{SIDE_NAMES[st.current]}'s warp jumps from {at(st, frm)} to {at(st, to)}, claims {len(got)} "
            f"square{'s' * (len(got) != 1)} and is spent.", (frm, to, *got),
            ((f"{SIDE_NAMES[st.current]}'s warp at {at(st, frm)} jumps out of sight and is spent.", (frm,), {"frm": frm}),),
            frm=frm, to=to, cells=got)


def strike(st: StarfallState, frm: int, to: int) -> None:
    calm = is_calm(st)
    relocate(st, frm, to)
    me = SIDE_NAMES[st.current]
    st.note("strike", f"{me}'s siege strikes from {at(st, frm)} to {at(st, to)}.", (frm, to),
            ((f"A {me} siege strikes into sight at {at(st, to)}.", (to,), {"to": to}),
             (f"The {me} siege at {at(st, frm)} strikes out of sight.", (frm,), {"frm": frm})),
            frm=frm, to=to)
    pick_up(st, to)
    if calm:
        keep_calm(st, to)


def ram(st: StarfallState, frm: int, d: int) -> None:
    me = st.current
    centre = ram_centre(st, frm, d, None)
    assert centre is not None
    remove(st, frm)
    kind, ast, star = st.kind, st.ast, st.star
    half = st.geo.half
    st.note("ram", f"{SIDE_NAMES[me]}'s bomb rams {COMPASS[d]} from {at(st, frm)} and explodes at {at(st, centre)}.",
            (frm, centre),
            ((f"A {SIDE_NAMES[me]} bomb explodes at {at(st, centre)}.", (centre,), {"centre": centre}),
             (f"{SIDE_NAMES[me]}'s bomb at {at(st, frm)} rams out of sight.", (frm,), {"frm": frm})),
            frm=frm, centre=centre)
    for t in st.geo.disc(centre, 1):
        k = kind[t]
        if k and k != COMMAND and k != SIEGE:
            what = f"the {SIDE_NAMES[st.side[t]]} {KIND_NAMES[k]}"
            destroy(st, t, me, "bomb")
            st.note("blasted", f"The blast destroys {what} at {at(st, t)}.", (t,), at=t, hit=KIND_NAMES[k])
        if ast[t]:
            ast[t] = 0
            st.note("blasted", f"The blast destroys the asteroid at {at(st, t)}.", (t,), at=t, hit="asteroid")
        if star[t] >= 0:
            star[t] = -1
            st.cleared[me] |= 1 << t
            if half[t] == me:
                st.cleared_now += 1
    flow_and_cascade(st, "bomb")


def build(st: StarfallState, sq: int) -> None:
    me = st.current
    st.miss[st.cmd[me]] -= st.rules.turret_cost
    st.kind[sq], st.side[sq], st.power[sq] = TURRET, me, 1
    st.ride[sq] = st.miss[sq] = st.shots[sq] = 0
    st.note("build", f"{SIDE_NAMES[me]} turns {st.rules.turret_cost} missiles into a turret at {at(st, sq)}.", (sq,), at=sq)


# -- automatic rules -------------------------------------------------------------------------------


def surround(st: StarfallState) -> None:
    """Every siege with 4+ enemy drones (Command included, turrets not) beside it is destroyed.

    Skipping a calm layout (``st.memo.calm``, kept by :func:`keep_calm`) is the fast path of looking
    at every siege, held equal by
    tests/starfall/test_push_bookkeeping.py::test_narrowed_flows_and_calm_layouts_match_a_recount.
    """
    kind, side = st.kind, st.side
    if SIEGE not in kind:
        return
    calm_kind, calm_side = st.memo.calm  # is_calm, without its frame: every turn comes here twice
    if calm_kind == kind and calm_side == side:
        return  # the same drones as after the last look: no siege is surrounded
    nbr8 = st.geo.nbr8
    doomed = []
    sq = kind.find(SIEGE)
    while sq >= 0:
        if _surrounded(kind, side, nbr8[sq], side[sq]):
            doomed.append(sq)
        sq = kind.find(SIEGE, sq + 1)
    for sq in doomed:
        by = side[sq] ^ 1
        destroy(st, sq, by, "surround")
        st.note("take", f"{SIDE_NAMES[by]} surrounds the siege at {at(st, sq)}: it is destroyed.", (sq,), at=sq)
    # removing a siege never surrounds another one, so this layout has none left
    st.memo.calm = (bytes(kind), bytes(side))


def _surrounded(kind: bytearray, side: bytearray, around: tuple[int, ...], s: int) -> bool:
    """Whether 4+ drones (Command included, turrets not) not of side ``s`` stand on ``around``."""
    count = 0
    for t in around:
        k = kind[t]
        if k and k != TURRET and side[t] != s:
            count += 1
    return count >= 4


def near_getters(geo: Geometry) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]:
    """Per square, a function that reads its neighbours' entries of a per-square array as one
    tuple (``near[sq](kind)``, in the order of ``geo.nbr8[sq]``): one C call where a Python
    loop over eight squares would run every turn. Kept in ``geo.derived``.

    Held to ``geo.nbr8`` by
    tests/starfall/test_near_getters.py::test_each_getter_reads_the_squares_neighbours_in_order.
    """
    getters: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...] | None = geo.derived.get("near getters")
    if getters is None:
        getters = geo.derived["near getters"] = tuple(_getter(nb) for nb in geo.nbr8)
    return getters


def _getter(squares: tuple[int, ...]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    if len(squares) >= 2:  # itemgetter of one item returns the item, not a 1-tuple
        return itemgetter(*squares)
    return lambda values: tuple(values[s] for s in squares)


def is_calm(st: StarfallState) -> bool:
    """Whether the drones stand as :func:`surround` last left them (so no siege is surrounded)."""
    calm_kind, calm_side = st.memo.calm
    return calm_kind == st.kind and calm_side == st.side


def keep_calm(st: StarfallState, sq: int) -> None:
    """After a drone arrived on ``sq`` in a layout that was calm (and others only left squares):
    only a siege on or beside ``sq`` can have become surrounded, so if none is, the new layout
    is noted calm and the turn's :func:`surround` checks need not look at every siege."""
    kind, side = st.kind, st.side
    if kind[sq] != SIEGE and SIEGE not in st.near[sq](kind):  # the usual case: no siege there at all
        st.memo.calm = (bytes(kind), bytes(side))
        return
    nbr8 = st.geo.nbr8
    if kind[sq] == SIEGE and _surrounded(kind, side, nbr8[sq], side[sq]):
        return
    for t in nbr8[sq]:
        if kind[t] == SIEGE and _surrounded(kind, side, nbr8[t], side[t]):
            return
    st.memo.calm = (bytes(kind), bytes(side))


def turret_target(st: StarfallState, sq: int) -> int:
    """A turret's target: a siege first, else the weakest; ties nearest the owner's back row, then lowest column."""
    me = st.side[sq]
    geo = st.geo
    kind, side, power = st.kind, st.side, st.power
    best, best_key = -1, None
    for t in geo.nbr8[sq]:
        k = kind[t]
        if not k or side[t] == me or k == COMMAND or k == TURRET:
            continue
        key = (k != SIEGE, power[t], geo.back_distance(t, me), geo.col[t])
        if best_key is None or key < best_key:
            best, best_key = t, key
    return best


def turrets_fire(st: StarfallState) -> None:
    me = st.current
    kind, side = st.kind, st.side
    if TURRET not in kind:
        return
    for sq in range(st.geo.size):
        if kind[sq] == TURRET and side[sq] == me:
            t = turret_target(st, sq)
            if t < 0:
                continue
            st.power[t] -= 1
            name = KIND_NAMES[kind[t]]
            if st.power[t] <= 0:
                destroy(st, t, me, "turret")
                outcome = f"destroys the {name} at {at(st, t)}."
            else:
                outcome = f"hits the {name} at {at(st, t)} (power {st.power[t]})."
            st.note("turret", f"{SIDE_NAMES[me]}'s turret at {at(st, sq)} {outcome}", (sq, t),
                    ((f"A turret out of sight {outcome}", (t,), {"to": t}),), frm=sq, to=t)


def fade_wrecks(st: StarfallState) -> None:
    if not st.rules.salvage:
        return
    gone_by = st.round - st.rules.wreck_rounds - 1
    wreck, wround = st.wreck, st.wround
    for sq in range(st.geo.size):
        if wreck[sq] and wround[sq] <= gone_by:
            wreck[sq] = 0
            st.note("wreck_faded", f"The wreck at {at(st, sq)} fades.", (sq,), at=sq)


def siege_win(st: StarfallState) -> None:
    """At the start of its turn a side wins with a siege beside the enemy Command and no enemy shield beside that siege.

    The siege needs at least ``win.siege_power`` power (1 in standard: any siege).
    """
    me = st.current
    c = st.cmd[me ^ 1]
    kind, side, power = st.kind, st.side, st.power
    if c < 0 or SIEGE not in st.near[c](kind):  # no siege beside the enemy Command (read in C)
        return
    need = st.rules.siege_power
    nbr8 = st.geo.nbr8
    for sq in nbr8[c]:
        if kind[sq] == SIEGE and side[sq] == me and power[sq] >= need:
            if not any(kind[t] == SHIELD and side[t] != me for t in nbr8[sq]):
                st.finish(me, "siege", f"{SIDE_NAMES[me]}'s siege at {at(st, sq)} stands beside the enemy Command "
                          f"with no shield to stop it: {SIDE_NAMES[me]} wins.")
                return


def drift_if_due(st: StarfallState) -> None:
    """Clearing the drift threshold on one's own half in a turn moves every asteroid one square toward the mover."""
    if st.cleared_now < st.rules.drift_threshold:
        return
    me = st.current
    geo = st.geo
    step = -geo.width if me == 0 else geo.width
    ast, kind, power, star = st.ast, st.kind, st.power, st.star
    rocks = []
    sq = ast.find(1)
    while sq >= 0:
        rocks.append(sq)
        sq = ast.find(1, sq + 1)
    rocks.sort(key=lambda s: (geo.back_distance(s, me), s))
    st.note("drift", f"{SIDE_NAMES[me]} cleared {st.rules.drift_threshold} or more stars on its half this turn: "
            "the asteroids drift toward it.")

    def on_board(sq: int) -> bool:
        return 0 <= sq < geo.size

    was_quiet = st.quiet
    moved: list[int] = []  # squares that got a star (the one the rock landed on)

    def enter(frm: int, to: int) -> None:
        ast[frm], ast[to] = 0, 1
        star[frm], star[to] = star[to], -1
        st.wreck[to] = 0
        st.quiet = False
        moved.append(frm)

    for a in rocks:
        t = a + step
        if not on_board(t) or ast[t] or kind[t] == COMMAND:
            continue
        k = kind[t]
        if k and (k == TURRET or power[t] <= 1):
            name = KIND_NAMES[k]
            destroy(st, t, None, "asteroid")
            enter(a, t)
            st.note("crushed", f"An asteroid drifts onto the {name} at {at(st, t)} and destroys it.", (t,), at=t)
        elif k:
            power[t] -= 1
            t2 = t + step
            if not on_board(t2) or ast[t2] or kind[t2] == COMMAND:
                st.note("crushed", f"An asteroid hits the stack at {at(st, t)} (power {power[t]}) and stays put.",
                        (t,), at=t)
                continue
            if kind[t2]:
                name = KIND_NAMES[kind[t2]]
                destroy(st, t2, None, "asteroid")
                st.note("crushed", f"An asteroid jumps the stack at {at(st, t)} and destroys the {name} at {at(st, t2)}.",
                        (t, t2), ((f"An asteroid lands at {at(st, t2)} and destroys the {name} there.", (t2,),
                                   {"at": t2}),), at=t2)
            else:
                st.note("crushed", f"An asteroid hits the stack at {at(st, t)} (power {power[t]}) and jumps to "
                        f"{at(st, t2)}.", (t, t2), ((f"An asteroid hits the stack at {at(st, t)} (power {power[t]}) "
                                                      "and jumps on out of sight.", (t,), {"at": t}),), at=t2)
            enter(a, t2)
        else:
            enter(a, t)
    moved += flow(st, me)
    # on a quiet board every new match holds a square that got a star
    resolve(st, (), "cascade", moved if was_quiet else None, settled=True)
