"""A uniformly random legal move without listing every legal move (``State.random_move``).

Rejection sampling over a fixed set of candidate slots that holds every legal move once:
every orthogonal pair of squares (a swap), every square a shooter's missile range covers,
every square for each rider and warp drone and for a turret, the eight neighbours of each
stepper, the eight directions of each siege's strike and each bomb's ram, one claim per
scout and one pass. A slot is drawn uniformly and kept if it is a legal move, else another
is drawn: each legal move is then exactly as likely as any other. Each test is cheap (a
swap looks at the few match windows through its two squares; a drone move asks
:class:`movegen.Reach` about one square). After ``_TRIES`` rejected draws it picks from the
full list instead, which keeps the draw uniform.

Every slot test mirrors the rule :mod:`movegen` lists moves by;
tests/starfall/test_sampling.py checks that the slots a position accepts are exactly its
legal moves.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable
from itertools import compress
from typing import TYPE_CHECKING

from . import movegen
from .effects import claim_open
from .moves import BUILD, CLAIM, FIRE, MOVE, PASS_MOVE, RAM, STRIKE, SWAP, WARP, SfMove, move_table
from .pieces import BOMB, COMMAND, HUNTER, LETTERS, SCOUT, SHIELD, SIEGE, STEPPERS, TURRET
from .pieces import WARP as WARP_KIND
from .rams import ram_centre

if TYPE_CHECKING:
    from .geometry import Geometry
    from .state import StarfallState

#: Rejected draws before falling back to the full list (a fallback keeps the draw uniform).
_TRIES = 200

_Test = Callable[[int, int], "SfMove | None"]

def _block_sizes(geo: Geometry) -> tuple[tuple[int, ...], ...]:
    """``blocks[kind][sq]``: the move slots and own slots of a drone of that kind on sq
    (kept in ``geo.derived``)."""
    blocks: tuple[tuple[int, ...], ...] | None = geo.derived.get("block sizes")
    if blocks is None:
        n = geo.size
        extra = {SCOUT: 1, WARP_KIND: n, SIEGE: 8, BOMB: 8}
        blocks = geo.derived["block sizes"] = tuple(
            tuple((len(geo.nbr8[sq]) if k in STEPPERS else n) + extra.get(k, 0) for sq in range(n))
            for k in range(len(LETTERS))
        )
    return blocks


def _disc_sizes(geo: Geometry, radius: int) -> tuple[int, ...]:
    """``len(geo.disc(sq, radius))`` for every square (a shooter's fire slots; kept in ``geo.derived``)."""
    sizes: tuple[int, ...] | None = geo.derived.get(("disc sizes", radius))
    if sizes is None:
        sizes = geo.derived[("disc sizes", radius)] = tuple(len(geo.disc(sq, radius)) for sq in range(geo.size))
    return sizes


class Slots:
    """The candidate slots of one position, in segments: segment k covers the slots from
    ``ends[k - 1]`` (0 for k = 0) up to ``ends[k]``; ``tests[k] = (test, sq)`` and
    ``test(sq, i)`` is the legal move in slot i of that segment, or None."""

    def __init__(self, st: StarfallState) -> None:
        self.st = st
        self.vis = movegen._vis(st)
        geo = st.geo
        n = self.n = geo.size
        self.me = me = st.current
        self.enemy = me ^ 1
        self._reach: dict[int, movegen.Reach] = {}
        self._actions: list[SfMove] | None = None
        self.moves_by = move_table(MOVE, n)
        total = len(geo.swap_pairs)
        ends = [total]
        tests: list[tuple[_Test, int]] = [(self._swap, -1)]
        kind, side, miss, shots = st.kind, st.side, st.miss, st.shots
        rules = st.rules
        fire_sizes = _disc_sizes(geo, rules.range)
        blocks = _block_sizes(geo)
        drone, armed = self._drone, self._armed
        scout_shots, hunter_shots = rules.scout_shots, rules.hunter_shots
        # one segment per drone of the mover, in square order: its fire slots (while it may
        # shoot), its move slots, then its kind's own (claim, warp, strike or ram)
        for sq in compress(range(n), kind):
            k = kind[sq]
            if side[sq] != me or k == COMMAND or k == TURRET:
                continue
            if (k == SCOUT and miss[sq] > 0 and shots[sq] < scout_shots) or (
                k == HUNTER and miss[sq] > 0 and shots[sq] < hunter_shots
            ):
                total += fire_sizes[sq] + blocks[k][sq]
                tests.append((armed, sq))
            else:
                total += blocks[k][sq]
                tests.append((drone, sq))
            ends.append(total)
        if st.cmd[me] >= 0 and miss[st.cmd[me]] >= rules.turret_cost:
            total += n
            ends.append(total)
            tests.append((self._build, -1))
        total += 1
        ends.append(total)
        tests.append((self._pass, -1))
        self.fire_sizes = fire_sizes
        self.ends = ends
        self.tests = tests
        self.total = total

    def slot(self, r: int) -> SfMove | None:
        """The legal move in slot ``r`` (0 <= r < total), or None."""
        k = bisect_right(self.ends, r)
        test, sq = self.tests[k]
        return test(sq, r - self.ends[k - 1] if k else r)

    def accepted(self) -> list[SfMove]:
        """Every slot's legal move (what the draws can return), for the tests."""
        return [m for r in range(self.total) if (m := self.slot(r)) is not None]

    # -- slot tests (each mirrors movegen) ------------------------------------------------

    def _swap(self, _sq: int, i: int) -> SfMove | None:
        st, vis = self.st, self.vis
        a, b, trie_a, trie_b = st.geo.swap_pairs[i]
        star, owner = st.star, st.owner
        ca, cb = star[a], star[b]
        if ca < 0 or cb < 0 or ca == cb or owner[a] == self.enemy or owner[b] == self.enemy:
            return None
        if vis is not None and not (vis[a] and vis[b]):
            return None
        if movegen.swap_makes_line(st, a, b, trie_a, trie_b, vis):
            return move_table(SWAP, self.n)[a * self.n + b]
        return None

    def _fire(self, sq: int, i: int) -> SfMove | None:
        st = self.st
        t = st.geo.disc(sq, st.rules.range)[i]
        return move_table(FIRE, self.n)[sq * self.n + t] if movegen.fire_hits(st, sq, t, self.vis) else None

    def _armed(self, sq: int, i: int) -> SfMove | None:
        """A shooter's segment: its fire slots, then its drone slots."""
        fires = self.fire_sizes[sq]
        return self._fire(sq, i) if i < fires else self._drone(sq, i - fires)

    def _drone(self, sq: int, i: int) -> SfMove | None:
        """A drone's move slots (a stepper's neighbours, a rider's every square), then its kind's own."""
        st = self.st
        k = st.kind[sq]
        if k == SHIELD or k == SIEGE:
            around = st.geo.nbr8[sq]
            if i < len(around):
                t = around[i]
            elif k == SIEGE:
                return self._strike(sq, i - len(around))
            else:
                return None
        else:
            n = self.n
            if i >= n:
                i -= n
                if k == SCOUT:
                    return self._claim(sq, i)
                if k == WARP_KIND:
                    return self._warp(sq, i)
                return self._ram(sq, i)  # a bomb
            t = i
        return self.moves_by[sq * self.n + t] if t in self._reach_of(sq) else None

    def _reach_of(self, sq: int) -> movegen.Reach:
        reach = self._reach.get(sq)
        if reach is None:
            reach = self._reach[sq] = movegen.Reach(self.st, sq, self.vis)
        return reach

    def _claim(self, sq: int, _i: int) -> SfMove | None:
        st = self.st
        return SfMove(CLAIM, sq) if movegen.claimable(st, sq, st.rules.claim_radius, self.vis) else None

    def _warp(self, sq: int, t: int) -> SfMove | None:
        st, vis = self.st, self.vis
        if st.kind[t] or st.ast[t] or st.owner[t] == self.enemy or (vis is not None and not vis[t]):
            return None
        me = self.me
        for u in st.geo.disc(t, st.rules.warp_radius):
            if (vis is None or vis[u]) and claim_open(st, u, me):
                return move_table(WARP, self.n)[sq * self.n + t]
        return None

    def _strike(self, sq: int, d: int) -> SfMove | None:
        last = movegen.strike_end(self.st, sq, d, self.vis)
        return move_table(STRIKE, self.n)[sq * self.n + last] if last >= 0 else None

    def _ram(self, sq: int, d: int) -> SfMove | None:
        return SfMove(RAM, sq, d) if ram_centre(self.st, sq, d, self.vis) is not None else None

    def _build(self, _sq: int, t: int) -> SfMove | None:
        st, vis = self.st, self.vis
        if st.owner[t] == self.me and not st.kind[t] and not st.ast[t] and (vis is None or vis[t]):
            return SfMove(BUILD, t)
        return None

    def _pass(self, _sq: int, _i: int) -> SfMove | None:
        if self._actions is None:
            self._actions = movegen.action_moves(self.st, self.vis)
        return None if self._actions else PASS_MOVE


def random_move(st: StarfallState, rng: random.Random) -> SfMove | None:
    """A legal move of ``st``, each equally likely (see the module docstring).

    Fast path of ``rng.choice(legal_moves(st))`` (its slow twin: listing every move), held equal by
    tests/starfall/test_sampling.py::test_the_slots_a_position_accepts_are_its_legal_moves (the
    slots accepted are exactly the legal moves, so each is equally likely).
    """
    if st.winner_result is not None:
        return None
    if st.aims:
        moves = movegen.legal_moves(st)
        return moves[rng.randrange(len(moves))]
    slots = Slots(st)
    total, ends, tests = slots.total, slots.ends, slots.tests
    randrange = rng.randrange
    for _ in range(_TRIES):
        r = randrange(total)
        k = bisect_right(ends, r)
        test, sq = tests[k]
        move = test(sq, r - ends[k - 1] if k else r)
        if move is not None:
            return move
    moves = movegen.legal_moves(st)
    return moves[randrange(len(moves))]
