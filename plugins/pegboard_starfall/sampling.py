"""A uniformly random legal move without listing every legal move (``State.random_move``).

Rejection sampling over a fixed set of candidate slots that holds every legal move once:
every orthogonal pair of squares (a swap), every square a shooter's missile range covers,
every square for each rider and warp drone and for a turret, the eight neighbours of each
stepper, the eight directions of each siege's strike and each bomb's ram, one claim per
scout and one pass. A slot is drawn uniformly and kept if it is a legal move, else another
is drawn: each legal move is then exactly as likely as any other. Each test is cheap (a
swap looks at the few match windows through its two squares); a rider's reachable squares
are worked out once per call, only for the riders a draw lands on. After ``_TRIES``
rejected draws it picks from the full list instead, which keeps the draw uniform.

Every slot test mirrors the rule :mod:`movegen` lists moves by;
tests/starfall/test_sampling.py checks that the slots a position accepts are exactly its
legal moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from . import movegen
from .effects import claim_open
from .moves import BUILD, CLAIM, FIRE, MOVE, PASS_MOVE, RAM, STRIKE, SWAP, WARP, SfMove
from .pieces import BOMB, COMMAND, HUNTER, SCOUT, SIEGE, STEPPERS, TURRET
from .pieces import WARP as WARP_KIND
from .rams import ram_centre

if TYPE_CHECKING:
    from .state import StarfallState

#: Rejected draws before falling back to the full list (a fallback keeps the draw uniform).
_TRIES = 200

_Test = Callable[[int], "SfMove | None"]


class Slots:
    """The candidate slots of one position, as segments ``(size, test)``: ``test(i)`` is the
    legal move of slot ``i`` of that segment, or None."""

    def __init__(self, st: StarfallState) -> None:
        self.st = st
        self.vis = movegen._vis(st)
        self.segments: list[tuple[int, _Test]] = []
        self._rb: list[int] | None = None
        self._actions: list[SfMove] | None = None
        self._build()

    @property
    def rb(self) -> list[int]:
        if self._rb is None:
            self._rb = movegen.ride_bits(self.st, self.vis)
        return self._rb

    def _build(self) -> None:
        st, vis = self.st, self.vis
        geo = st.geo
        n = geo.size
        me = st.current
        kind, side = st.kind, st.side
        add = self.segments.append
        add((len(geo.swap_pairs), self._swap_test()))
        rules = st.rules
        disc_range = rules.range
        for sq in range(n):
            k = kind[sq]
            if not k or side[sq] != me or k == COMMAND or k == TURRET:
                continue
            if k == SCOUT or k == HUNTER:
                if st.miss[sq] > 0 and st.shots[sq] < movegen.shots_allowed(st, k):
                    disc = geo.disc(sq, disc_range)
                    add((len(disc), self._fire_test(sq, disc)))
            if k in STEPPERS:
                nbrs = geo.nbr8[sq]
                add((len(nbrs), self._move_test(sq, nbrs)))
            else:
                add((n, self._move_test(sq, None)))
            if k == SCOUT:
                add((1, self._claim_test(sq)))
            elif k == WARP_KIND:
                add((n, self._warp_test(sq)))
            elif k == SIEGE:
                add((8, self._strike_test(sq)))
            elif k == BOMB:
                add((8, self._ram_test(sq)))
        if st.cmd[me] >= 0 and st.miss[st.cmd[me]] >= rules.turret_cost:
            add((n, self._build_test()))
        add((1, self._pass_test))

    # -- slot tests (each mirrors movegen) ------------------------------------------------

    def _swap_test(self) -> _Test:
        st, vis = self.st, self.vis
        pairs = st.geo.swap_pairs
        star, owner = st.star, st.owner
        enemy = st.current ^ 1
        table = movegen.move_table(SWAP, st.geo.size)
        n = st.geo.size

        def completes(c: int, trie: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]) -> bool:
            for first, rests in trie:
                if star[first] == c and (vis is None or vis[first]):
                    for rest in rests:
                        for o in rest:
                            if star[o] != c or (vis is not None and not vis[o]):
                                break
                        else:
                            return True
            return False

        def test(i: int) -> SfMove | None:
            a, b, trie_a, trie_b = pairs[i]
            ca, cb = star[a], star[b]
            if ca < 0 or cb < 0 or ca == cb or owner[a] == enemy or owner[b] == enemy:
                return None
            if vis is not None and not (vis[a] and vis[b]):
                return None
            if completes(cb, trie_a) or completes(ca, trie_b):
                return table[a * n + b]
            return None

        return test

    def _fire_test(self, sq: int, disc: tuple[int, ...]) -> _Test:
        st, vis = self.st, self.vis
        kind, side, star, ast = st.kind, st.side, st.star, st.ast
        me = side[sq]
        table = movegen.move_table(FIRE, st.geo.size)
        base = sq * st.geo.size

        def test(i: int) -> SfMove | None:
            t = disc[i]
            if t == sq or (vis is not None and not vis[t]):
                return None
            k = kind[t]
            if k:
                if side[t] != me and k != COMMAND and k != TURRET:
                    return table[base + t]
            elif ast[t] or star[t] >= 0:
                return table[base + t]
            return None

        return test

    def _move_test(self, sq: int, targets: tuple[int, ...] | None) -> _Test:
        """Slot i: a move to ``targets[i]`` (a stepper's neighbours), or to square i (a rider)."""
        reach: movegen.Reach | None = None
        table = movegen.move_table(MOVE, self.st.geo.size)
        base = sq * self.st.geo.size

        def test(i: int) -> SfMove | None:
            nonlocal reach
            if reach is None:
                reach = movegen.Reach(self.st, sq, self.vis, self.rb)
            t = i if targets is None else targets[i]
            return table[base + t] if t in reach else None

        return test

    def _claim_test(self, sq: int) -> _Test:
        def test(i: int) -> SfMove | None:
            st = self.st
            return SfMove(CLAIM, sq) if movegen.claimable(st, sq, st.rules.claim_radius, self.vis) else None

        return test

    def _warp_test(self, sq: int) -> _Test:
        st, vis = self.st, self.vis
        kind, ast, owner = st.kind, st.ast, st.owner
        me = st.side[sq]
        radius = st.rules.warp_radius
        disc = st.geo.disc
        table = movegen.move_table(WARP, st.geo.size)
        base = sq * st.geo.size

        def test(t: int) -> SfMove | None:
            if kind[t] or ast[t] or owner[t] == me ^ 1 or (vis is not None and not vis[t]):
                return None
            for u in disc(t, radius):
                if (vis is None or vis[u]) and claim_open(st, u, me):
                    return table[base + t]
            return None

        return test

    def _strike_test(self, sq: int) -> _Test:
        st, vis = self.st, self.vis
        kind, ast = st.kind, st.ast
        rays = st.geo.rays[sq]
        table = movegen.move_table(STRIKE, st.geo.size)
        base = sq * st.geo.size

        def test(d: int) -> SfMove | None:
            last = -1
            for t in rays[d]:
                if vis is not None and not vis[t]:
                    return None
                if ast[t] or kind[t]:
                    break
                last = t
            return table[base + last] if last >= 0 else None

        return test

    def _ram_test(self, sq: int) -> _Test:
        def test(d: int) -> SfMove | None:
            return SfMove(RAM, sq, d) if ram_centre(self.st, sq, d, self.vis) is not None else None

        return test

    def _build_test(self) -> _Test:
        st, vis = self.st, self.vis
        kind, ast, owner = st.kind, st.ast, st.owner
        me = st.current

        def test(t: int) -> SfMove | None:
            if owner[t] == me and not kind[t] and not ast[t] and (vis is None or vis[t]):
                return SfMove(BUILD, t)
            return None

        return test

    def _pass_test(self, i: int) -> SfMove | None:
        if self._actions is None:
            self._actions = movegen.action_moves(self.st, self.vis)
        return None if self._actions else PASS_MOVE

    # -- drawing -----------------------------------------------------------------------

    def accepted(self) -> list[SfMove]:
        """Every slot's legal move (what the draws can return), for the tests."""
        return [m for size, test in self.segments for i in range(size) if (m := test(i)) is not None]


def random_move(st: StarfallState, rng: random.Random) -> SfMove | None:
    """A legal move of ``st``, each equally likely (see the module docstring)."""
    if st.winner_result is not None:
        return None
    if st.aims:
        moves = movegen.legal_moves(st)
        return moves[rng.randrange(len(moves))]
    slots = Slots(st)
    total = sum(size for size, _ in slots.segments)
    segments = slots.segments
    randrange = rng.randrange
    for _ in range(_TRIES):
        r = randrange(total)
        for size, test in segments:
            if r < size:
                move = test(r)
                if move is not None:
                    return move
                break
            r -= size
    moves = movegen.legal_moves(st)
    return moves[randrange(len(moves))]
