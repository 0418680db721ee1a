"""The Node War rules engine.

Reads top-down: constants, the :class:`Move` type, the :class:`NodeWarGame`
(rules under one ruleset), then :class:`NodeWarState` with move generation,
``check``, ``push``/``apply``/``undo``, the end of the game and events.

Board points are flat integers ``p = y * width + x`` (see
:mod:`pegboard_nodewar.geometry`). Lines live in parallel lists indexed by a
line id; a line split by a move is marked ``GONE`` and the undo record
brings it back, so ``undo`` restores the position exactly.

Invariants the engine relies on (a loaded position is checked for them):

- no node lies strictly inside an uncut line;
- an uncut line never touches an uncut line of the other player (whoever
  drew the later one cut the earlier), so splitting an own line cuts nothing
  and a point never lies on uncut lines of both players.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from pegboard.game import JSON, Event, Game, IllegalMove, InvalidMoveEncoding, PegboardError, Refusal, Result, State

from .geometry import Geometry, geometry
from .moves import BASE, CUT, EMPTY, GONE, GROW, LIVE, LOOP, MOVE_KINDS, REGULAR, REVIVE, SPLIT, Move
from .rules import SEATS, Params

if TYPE_CHECKING:
    import random

# NamedTuple constructors are generated Python functions (keyword handling); ``tuple.__new__``
# builds the same value in about half the time, which counts once per replayed or played move.
_new_move: Callable[[type[Move], tuple[str, int, int]], Move] = tuple.__new__
_new_effect: Callable[[type[MoveEffect], tuple[Any, ...]], MoveEffect] = tuple.__new__

#: ``NodeWarState._result`` after a move until someone asks: deciding means looking for a
#: legal move, which a replay learns for free from the next move passing ``check``.
_PENDING: Any = object()


@cache
def _target_table(geo: Geometry, radius: int) -> list[Any]:
    """The per-source slots of :meth:`NodeWarGame.targets` for one board shape and radius."""
    return [None] * geo.size


@cache
def _path_table(geo: Geometry, radius: int) -> list[Any]:
    """The per-source slots of :meth:`NodeWarGame.paths` for one board shape and radius."""
    return [None] * geo.size


class NodeWarGame(Game[Move]):
    """Node War under one resolved ruleset."""

    id = "nodewar"
    name = "Node War"
    seats = SEATS

    def __init__(self, ruleset: Mapping[str, JSON]) -> None:
        super().__init__(ruleset)
        self.params = params = Params.from_ruleset(ruleset)
        self.geo: Geometry = geometry(
            params.width, params.height, params.metric, (params.base_radius, params.node_radius)
        )
        self.width, self.height = params.width, params.height
        self.base_points = tuple(self.geo.point(x, y) for x, y in params.bases)
        # Per node kind: radius ring table and branch limit, indexed by kind code.
        self.limit_of = (0, params.node_branches, params.base_branches)
        self.radius_of = (0, params.node_radius, params.base_radius)
        self.ring_of = ((), self.geo.rings[params.node_radius], self.geo.rings[params.base_radius])
        self.reach_of = ((), self.geo.reach[params.node_radius], self.geo.reach[params.base_radius])
        #: The most points any node reaches (random_move's candidate slots per node).
        self.reach_slots = max(len(ring) for rings in self.ring_of[1:] for ring in rings)
        # Ready-made Move values per (node kind, source), built on first use and shared by every
        # game on this board shape (a match builds one game per game played).
        self._targets: tuple[list[Any], ...] = ([], _target_table(self.geo, params.node_radius), _target_table(self.geo, params.base_radius))
        #: Per node kind, per source: ``{point in reach: lattice points strictly between}`` (see :meth:`paths`).
        self.path_of: tuple[list[Any], ...] = ([], _path_table(self.geo, params.node_radius), _path_table(self.geo, params.base_radius))

    def targets(self, kind: int, s: int) -> tuple[tuple[int, tuple[int, ...], Move, Move, Move, Move], ...]:
        """For a node of ``kind`` at ``s``: ``(q, inner, grow, split, loop, revive)`` per point in reach.

        ``inner`` holds the lattice points strictly between s and q; the four
        moves are prebuilt so move generation allocates no Move values.
        """
        table = self._targets[kind]
        found: tuple[tuple[int, tuple[int, ...], Move, Move, Move, Move], ...] | None = table[s]
        if found is None:
            found = tuple(
                (q, inner, Move(GROW, s, q), Move(SPLIT, s, q), Move(LOOP, s, q), Move(REVIVE, s, q))
                for q, inner in self.ring_of[kind][s]
            )
            table[s] = found
        return found

    def paths(self, kind: int, s: int) -> dict[int, tuple[int, ...]]:
        """For a node of ``kind`` at ``s``: every point in its reach mapped to the points strictly between.

        One look-up answers both "in range?" and "which points could block the line?"
        (``check``'s hot path); built on first use and shared like :meth:`targets`.
        """
        table = self.path_of[kind]
        found: dict[int, tuple[int, ...]] | None = table[s]
        if found is None:
            found = table[s] = dict(self.ring_of[kind][s])
        return found

    # -- points and moves -------------------------------------------------------------

    def point(self, x: int, y: int) -> int:
        if not self.geo.on_board(x, y):
            raise ValueError(f"{x},{y} is off the {self.width}x{self.height} board")
        return self.geo.point(x, y)

    def xy(self, p: int) -> tuple[int, int]:
        return self.geo.xy(p)

    def move(self, kind: str, src: tuple[int, int], dst: tuple[int, int]) -> Move:
        """Build a move from coordinates: ``game.move("grow", (6, 2), (6, 6))``."""
        if kind not in MOVE_KINDS:
            raise ValueError(f"unknown move type {kind!r}")
        return Move(kind, self.point(*src), self.point(*dst))

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle the ruleset only; the geometry tables are rebuilt (and shared) on load.
        return (type(self), (dict(self.ruleset),))

    def new_state(self, seed: int = 0) -> NodeWarState:
        return NodeWarState(self)

    def encode_move(self, move: Move) -> JSON:
        xs, ys = self.geo.xs, self.geo.ys
        return {"kind": move.kind, "from": [xs[move.src], ys[move.src]], "to": [xs[move.dst], ys[move.dst]]}

    def decode_move(self, data: JSON) -> Move:
        try:
            kind = data["kind"]
            sx, sy = data["from"]
            tx, ty = data["to"]
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidMoveEncoding(f"a move needs 'kind', 'from' [x, y] and 'to' [x, y]: {data!r}") from exc
        if kind not in MOVE_KINDS:
            raise InvalidMoveEncoding(f"unknown move kind {kind!r}")
        if len(data) != 3:  # refuses all the move schema refuses (GameSpec.strict_decode)
            raise InvalidMoveEncoding(f"a move has only 'kind', 'from' and 'to': {data!r}")
        w, h = self.width, self.height
        if (
            type(sx) is not int
            or type(sy) is not int
            or type(tx) is not int
            or type(ty) is not int
            or not (0 <= sx < w and 0 <= tx < w and 0 <= sy < h and 0 <= ty < h)
        ):
            raise InvalidMoveEncoding(f"move points must be integer points on the {w}x{h} board: {data!r}")
        return _new_move(Move, (kind, sy * w + sx, ty * w + tx))

    def move_text(self, move: Move) -> str:
        label = self.geo.label
        return f"{move.kind} {label(move.src)} -> {label(move.dst)}"

    # -- fixed-size encodings (see encoding.py) ----------------------------------------

    @property
    def encoding(self) -> Any:
        found = self.__dict__.get("_encoding")
        if found is None:
            from .encoding import Encoding

            found = self.__dict__["_encoding"] = Encoding(self, MOVE_KINDS, Move)
        return found

    def ply_limit(self) -> int | None:
        return self.params.turn_limit

    def action_count(self) -> int:
        return int(self.encoding.count)

    def action_index(self, move: Move) -> int:
        return int(self.encoding.index(move))

    def action_move(self, index: int) -> Move:
        return self.encoding.move(index)  # type: ignore[no-any-return]

    def observation_shape(self) -> tuple[int, ...]:
        return self.encoding.shape()  # type: ignore[no-any-return]

    def observation_tensor(self, observation: Mapping[str, JSON], player: int) -> list[float]:
        return self.encoding.tensor(observation, player)  # type: ignore[no-any-return]

    def parse_move(self, text: str) -> Move:
        """The inverse of :meth:`move_text` ("grow 6,2 -> 6,6"; "→" works too)."""
        from .notation import parse_move_text

        return parse_move_text(text, self)

    def state_from_json(self, data: Mapping[str, JSON]) -> NodeWarState:
        from .position import state_from_json

        return state_from_json(NodeWarState(self, empty=True), data)


class MoveEffect(NamedTuple):
    """What one pushed move did: the engine's undo record, also read by bots.

    Point and line ids are those of the state the move was played on; see
    :meth:`NodeWarState.last_effect`.
    """

    move: Move
    player: int  # the seat that played it
    placed: bool  # a node was created at move.dst
    added: int  # lines appended by the move (popped on undo)
    replaced: tuple[int, ...]  # own lines split by the move (GONE, restored on undo)
    cut: tuple[int, ...]  # enemy lines cut
    died: tuple[int, ...]  # enemy nodes that lost their connection
    revived: tuple[int, ...]  # own nodes brought back (the new node excluded)
    result: Result | None  # result before the move: always None (a move is legal only in a game going on)


class NodeWarState(State[Move]):
    """A Node War position; ``apply``/``undo`` (or ``push``/``undo``) mutate it in place.

    Bots, evaluators and views may *read* these flat tables (never write them):

    - per point ``p``: ``owner[p]`` (seat or ``EMPTY``), ``kind[p]`` (``REGULAR``,
      ``BASE`` or 0), ``branches[p]``, ``alive[p]``, ``occupied[p]``,
      ``links[p]`` (neighbours through live lines), ``ends[p]`` (ids of every
      line ending at p), ``through[p]`` (live lines with p strictly inside),
      ``own_through[seat][p]`` (how many of them are seat's), ``insert_points[p]``
      (points inside the live lines ending at p);
    - per line id: ``la``, ``lb`` (ends), ``lowner``, ``lstate`` (``LIVE``, ``CUT``
      or ``GONE`` for a line a split replaced);
    - ``nodes[seat]`` and ``order`` (placement order), ``base[seat]``, ``turn``
      (number of the next move) and ``turn_limit``.

    Search code reads what moves do through :meth:`last_effect`, :meth:`trial`,
    :meth:`quiet_test` and :meth:`moves_for`, never through the undo stack.
    """

    game: NodeWarGame

    def __init__(self, game: NodeWarGame, *, empty: bool = False) -> None:
        self.game = game
        geo = game.geo
        n = geo.size
        self._geo = geo
        self.owner = [EMPTY] * n  # seat owning the node at p, or EMPTY
        self.occupied = [False] * n  # a node stands at p (fast "is the path clear?" tests)
        self.kind = [0] * n  # REGULAR / BASE / 0
        self.branches = [0] * n  # line ends at p, cut lines included
        self.alive = [False] * n
        self.links: list[list[int]] = [[] for _ in range(n)]  # neighbours through uncut lines
        self.ends: list[list[int]] = [[] for _ in range(n)]  # ids of every line (live or cut) ending at p
        self.through: list[list[int]] = [[] for _ in range(n)]  # uncut lines with p strictly inside
        self.own_through = ([0] * n, [0] * n)  # per seat: how many of its uncut lines have p inside
        # Points strictly inside the uncut lines ending at p: where p can insert a node. (Two
        # uncut lines from one node never share such a point: one would pass through the other's end.)
        self.insert_points: list[set[int]] = [set() for _ in range(n)]
        cells = (geo.width - 1) * (geo.height - 1)
        # Per seat, per unit cell: the seat's uncut lines meeting that cell (the cut search index).
        self.cell_lines: tuple[list[list[int]], list[list[int]]] = (
            [[] for _ in range(cells)],
            [[] for _ in range(cells)],
        )
        self.la: list[int] = []
        self.lb: list[int] = []
        self.lowner: list[int] = []
        self.lstate: list[int] = []
        self.nodes: tuple[list[int], list[int]] = ([], [])  # per seat, in placement order
        self.order: list[int] = []  # every node in placement order
        self.base = [-1, -1]
        self.turn = 1  # number of the next move
        self.turn_limit = game.params.turn_limit
        self._to_move = game.params.first
        self._result: Result | None = None
        self._stack: list[MoveEffect] = []
        if not empty:
            for seat, p in enumerate(game.base_points):
                self._place(p, seat, BASE)

    # -- the State API ------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def result(self) -> Result | None:
        found = self._result
        if found is _PENDING:
            found = self._result = self._decide()
        return found

    @property
    def ply(self) -> int:
        return len(self._stack)

    def alive_counts(self) -> tuple[int, int]:
        """Alive nodes per seat, Bases included (the turn-limit count)."""
        alive = self.alive
        return (sum(1 for p in self.nodes[0] if alive[p]), sum(1 for p in self.nodes[1] if alive[p]))

    # -- building blocks (also used by position loading) ----------------------------------

    def _place(self, p: int, seat: int, kind: int) -> None:
        self.owner[p] = seat
        self.occupied[p] = True
        self.kind[p] = kind
        self.alive[p] = True
        self.nodes[seat].append(p)
        self.order.append(p)
        if kind == BASE:
            self.base[seat] = p

    def _unplace(self, p: int) -> None:
        seat = self.owner[p]
        self.owner[p] = EMPTY
        self.occupied[p] = False
        self.kind[p] = 0
        self.alive[p] = False
        self.nodes[seat].pop()
        self.order.pop()

    def _index(self, lid: int, a: int, b: int) -> None:
        """Enter an uncut line in the lookup tables (links, through, counts, cells)."""
        self.links[a].append(b)
        self.links[b].append(a)
        geo = self._geo
        found = geo.segments.get(a * geo.size + b)
        inside, cells = found if found is not None else geo.segment(a, b)
        seat = self.lowner[lid]
        if inside:
            self._index_inside(lid, a, b, inside, seat)
        cell_lines = self.cell_lines[seat]
        for c in cells:
            cell_lines[c].append(lid)

    def _index_inside(self, lid: int, a: int, b: int, inside: tuple[int, ...], seat: int) -> None:
        """The part of :meth:`_index` for the lattice points strictly inside line a-b."""
        through = self.through
        count = self.own_through[seat]
        for q in inside:
            through[q].append(lid)
            count[q] += 1
        self.insert_points[a].update(inside)
        self.insert_points[b].update(inside)

    def _unindex(self, lid: int, a: int, b: int) -> None:
        self.links[a].remove(b)
        self.links[b].remove(a)
        inside, cells = self._geo.segment(a, b)
        if inside:
            through = self.through
            count = self.own_through[self.lowner[lid]]
            for q in inside:
                through[q].remove(lid)
                count[q] -= 1
            self.insert_points[a].difference_update(inside)
            self.insert_points[b].difference_update(inside)
        cell_lines = self.cell_lines[self.lowner[lid]]
        for c in cells:
            cell_lines[c].remove(lid)

    def _add_line(self, a: int, b: int, seat: int, state: int = LIVE) -> int:
        lid = len(self.la)
        self.la.append(a)
        self.lb.append(b)
        self.lowner.append(seat)
        self.lstate.append(state)
        self.branches[a] += 1
        self.branches[b] += 1
        self.ends[a].append(lid)
        self.ends[b].append(lid)
        if state == LIVE:
            self._index(lid, a, b)
        return lid

    def _pop_line(self) -> None:
        lid = len(self.la) - 1
        a, b = self.la[lid], self.lb[lid]
        if self.lstate[lid] == LIVE:
            self._unindex(lid, a, b)
        self.la.pop()
        self.lb.pop()
        self.lowner.pop()
        self.lstate.pop()
        self.branches[a] -= 1
        self.branches[b] -= 1
        # remove, not pop: undoing a split re-appends the restored line, so the
        # newest line is not always last in ends[]
        self.ends[a].remove(lid)
        self.ends[b].remove(lid)

    def _retire(self, lid: int) -> None:
        """Remove a live own line replaced by a split."""
        a, b = self.la[lid], self.lb[lid]
        self.lstate[lid] = GONE
        self.branches[a] -= 1
        self.branches[b] -= 1
        self.ends[a].remove(lid)
        self.ends[b].remove(lid)
        self._unindex(lid, a, b)

    def _restore(self, lid: int) -> None:
        a, b = self.la[lid], self.lb[lid]
        self.lstate[lid] = LIVE
        self.branches[a] += 1
        self.branches[b] += 1
        self.ends[a].append(lid)
        self.ends[b].append(lid)
        self._index(lid, a, b)

    # -- move generation ------------------------------------------------------------------

    def _node_moves(self, s: int, seat: int) -> Iterator[Move]:
        """The legal moves from ``seat``'s alive node ``s`` that has a free branch."""
        game = self.game
        owner, kind, branches, alive = self.owner, self.kind, self.branches, self.alive
        limit_of = game.limit_of
        node_limit = limit_of[REGULAR]
        count = self.own_through[seat]
        mine = self.insert_points[s]
        near = self.links[s]
        blocked = self.occupied.__getitem__
        for q, inner, grow, split, loop, revive in game.targets(kind[s], s):
            o = owner[q]
            if o == EMPTY:
                # An insert's path lies inside s's own uncut line, so it is never blocked.
                if inner and any(map(blocked, inner)):
                    continue
                k = count[q]
                if k:
                    if 2 * k + (q not in mine) <= node_limit:
                        yield split
                else:
                    yield grow
            elif o == seat:
                if q in near or branches[q] >= limit_of[kind[q]]:
                    continue
                if inner and any(map(blocked, inner)):
                    continue
                yield loop if alive[q] else revive

    def _inserts(self, s: int, seat: int) -> Iterator[Move]:
        """Splits a node makes by inserting into its own live lines (all a full node can do)."""
        node_limit = self.game.limit_of[REGULAR]
        count = self.own_through[seat]
        mine = self.insert_points[s]
        if not mine:
            return
        reach = self.game.reach_of[self.kind[s]][s]
        for q in sorted(mine):  # sorted: move order must not depend on undo history
            if q in reach and 2 * count[q] <= node_limit:
                yield Move(SPLIT, s, q)

    def legal_moves(self) -> list[Move]:
        return self.moves_for(self._to_move)

    #: Candidates :meth:`random_move` draws before it falls back to listing every move.
    SAMPLE_TRIES = 96

    def random_move(self, rng: random.Random) -> Move | None:
        """A uniformly random legal move, usually without listing them all.

        Every legal move joins one of the mover's nodes to a point in that
        node's reach, and the point alone fixes the move type, so each (node,
        point in reach) pair is a candidate for at most one legal move. A
        candidate is drawn as (node, slot) with ``reach_slots`` slots per
        node, the largest reach on the board; slots past a node's own reach,
        dead nodes and illegal moves are thrown back. Every legal move owns
        exactly one slot, so the first legal draw is uniform over the legal
        moves, and so is the fallback (a uniform pick from :meth:`legal_moves`)
        after :attr:`SAMPLE_TRIES` misses.
        """
        if self.result is not None:
            return None
        seat = self._to_move
        nodes = self.nodes[seat]
        game = self.game
        slots = game.reach_slots
        alive, owner, through, targets, rules = self.alive, self.owner, self.own_through[seat], game.targets, self._rules
        kind, branches, limit_of, occupied, insert_points = self.kind, self.branches, game.limit_of, self.occupied, self.insert_points
        span = len(nodes) * slots
        # rng.randrange(span) written out (the same numbers for a random.Random): it runs per candidate
        getrandbits, bits = rng.getrandbits, span.bit_length()
        for _ in range(self.SAMPLE_TRIES):
            pick = getrandbits(bits)
            while pick >= span:
                pick = getrandbits(bits)
            at, slot = divmod(pick, slots)
            s = nodes[at]
            if not alive[s]:
                continue
            ring = targets(kind[s], s)
            if slot >= len(ring):
                continue
            q, inner, grow, split, loop, revive = ring[slot]
            # Quick refusals that _rules would also give (it decides every candidate left):
            # a node without a free branch can only insert into its own line, and any other
            # line must not pass through a node (an insert's path never does).
            if branches[s] >= limit_of[kind[s]] and q not in insert_points[s]:
                continue
            if inner and any(map(occupied.__getitem__, inner)):
                continue
            o = owner[q]
            if o == EMPTY:
                move = split if through[q] else grow
            elif o == seat:
                move = loop if alive[q] else revive
            else:
                continue
            if rules(move) is None:
                return move
        moves = self.legal_moves()
        return moves[rng.randrange(len(moves))] if moves else None

    def moves_for(self, seat: int) -> list[Move]:
        """The moves ``seat`` could play in this position if it were to move.

        Reads the position only (the player to move stays as it is), so a bot
        can list the opponent's moves for a threat scan. Empty once the game
        is over; ``moves_for(state.to_move)`` is :meth:`legal_moves`.
        """
        if self.result is not None:
            return []
        alive, branches, kind, limit_of = self.alive, self.branches, self.kind, self.game.limit_of
        moves: list[Move] = []
        extend = moves.extend
        for s in self.nodes[seat]:
            if alive[s]:
                if branches[s] < limit_of[kind[s]]:
                    extend(self._node_moves(s, seat))
                else:
                    extend(self._inserts(s, seat))
        return moves

    def has_move(self, seat: int | None = None) -> bool:
        """True when ``seat`` (default: the player to move) has at least one legal move.

        Looks at the newest nodes first (they are the likeliest to have free
        branches) and at inserts last, so the usual answer costs one node.
        """
        if seat is None:
            seat = self._to_move
        alive, branches, kind, limit_of = self.alive, self.branches, self.kind, self.game.limit_of
        nodes = self.nodes[seat]
        full = []
        for s in reversed(nodes):
            if alive[s]:
                if branches[s] < limit_of[kind[s]]:
                    for _ in self._node_moves(s, seat):
                        return True
                else:
                    full.append(s)
        for s in full:
            for _ in self._inserts(s, seat):
                return True
        return False

    # -- checking a move --------------------------------------------------------------------

    def classify(self, src: int, dst: int) -> str | None:
        """The move type a src -> dst move of the player to move would be (None: no type fits)."""
        o = self.owner[dst]
        seat = self._to_move
        if o == EMPTY:
            return SPLIT if self.own_through[seat][dst] else GROW
        if o == seat:
            return LOOP if self.alive[dst] else REVIVE
        return None

    def _why_not(self, move: Move) -> tuple[str, str] | None:
        """None if legal, else ``(rule id, reason)``."""
        result = self._result
        if result is _PENDING and self.turn <= self.turn_limit:
            # Only "no legal move" can have ended the game, so a move that passes is proof enough.
            found = self._rules(move)
            if found is None:
                self._result = None
                return None
            result = self.result
            if result is None:
                return found
        elif result is _PENDING:
            result = self.result
        if result is not None:
            return "game_over", f"the game is over ({result.reason})"
        return self._rules(move)

    def _rules(self, move: Move) -> tuple[str, str] | None:
        """:meth:`_why_not` for a game still going."""
        try:
            kind, s, t = move
        except (TypeError, ValueError):
            return "bad_move", f"{move!r} is not a Node War move"
        geo = self._geo
        if kind not in MOVE_KINDS:
            return "bad_move", f"unknown move type {kind!r}"
        if type(s) is not int or type(t) is not int or not (0 <= s < geo.size and 0 <= t < geo.size):
            return "off_board", "a move point is off the board"
        seat = self._to_move
        owner, label = self.owner, geo.label
        game = self.game
        if owner[s] != seat:
            if owner[s] == EMPTY:
                return "no_source_node", f"there is no node at {label(s)}"
            return "not_own_node", f"the node at {label(s)} belongs to {SEATS[owner[s]]}"
        if not self.alive[s]:
            return "dead_source", f"the node at {label(s)} is dead and cannot act"
        if s == t:
            return "same_point", "source and target are the same point"
        sk = self.kind[s]
        inner = (game.path_of[sk][s] or game.paths(sk, s)).get(t)
        if inner is None:
            return "out_of_range", f"{label(t)} is beyond the radius {game.radius_of[sk]} of {label(s)}"
        o = owner[t]
        actual: str | None  # classify(s, t), inlined: check() is on the replay hot path
        if o == EMPTY:
            actual = SPLIT if self.own_through[seat][t] else GROW
        elif o == seat:
            actual = LOOP if self.alive[t] else REVIVE
        else:
            actual = None
        if actual is None:
            return "occupied", f"{label(t)} holds a {SEATS[owner[t]]} node"
        if actual != kind:
            return "wrong_move_type", f"{label(s)} -> {label(t)} is a {actual}, not a {kind}"
        free = self.branches[s] < game.limit_of[sk]
        if kind == SPLIT:
            own = [lid for lid in self.through[t] if self.lowner[lid] == seat]
            insert = any(self.la[lid] == s or self.lb[lid] == s for lid in own)
            if not insert:
                if not free:
                    return "branch_limit", f"{label(s)} has no free branch"
                for q in inner:
                    if owner[q] != EMPTY:
                        return "line_through_node", f"the line would pass through the node at {label(q)}"
            need = 2 * len(own) + (0 if insert else 1)
            if need > game.limit_of[REGULAR]:
                return (
                    "split_branch_limit",
                    f"the new node at {label(t)} would have {need} branches (limit {game.limit_of[REGULAR]})",
                )
            return None
        if not free:
            return "branch_limit", f"{label(s)} has no free branch"
        if kind != GROW:
            if self.branches[t] >= game.limit_of[self.kind[t]]:
                return "branch_limit", f"{label(t)} has no free branch"
            if t in self.links[s]:
                return "already_joined", f"{label(s)} and {label(t)} are already joined by a live line"
        for q in inner:
            if owner[q] != EMPTY:
                return "line_through_node", f"the line would pass through the node at {label(q)}"
        return None

    def check(self, move: Move) -> Refusal | None:
        if self._result is _PENDING and self.turn <= self.turn_limit:
            # _why_not's usual case, inlined: check() is on the replay and match hot paths
            if self._rules(move) is None:
                self._result = None
                return None
        found = self._why_not(move)
        return None if found is None else Refusal(*found)

    # -- playing a move ---------------------------------------------------------------------

    def apply(self, move: Move) -> list[Event]:
        found = self._why_not(move)
        if found is not None:
            raise IllegalMove(found[1], rule=found[0], move=move)
        self.push(move)
        return self._events(self._stack[-1])

    def push(self, move: Move) -> None:
        """Play a move known to be legal (from :meth:`legal_moves`), without events.

        The fast path for search; an illegal move corrupts the state, so use
        :meth:`apply` for anything that did not come from the engine.
        """
        kind, s, t = move
        seat = self._to_move
        la, lb, lowner, lstate = self.la, self.lb, self.lowner, self.lstate
        placed = kind == GROW or kind == SPLIT
        replaced: tuple[int, ...] = ()
        first_new = len(la)
        new_segment = True
        if placed:
            self._place(t, seat, REGULAR)
            if kind == SPLIT:
                replaced = tuple(sorted(lid for lid in self.through[t] if lowner[lid] == seat))
                for lid in replaced:
                    a, b = la[lid], lb[lid]
                    self._retire(lid)
                    if a == s or b == s:
                        new_segment = False
                    self._add_line(a, t, seat)
                    self._add_line(t, b, seat)
        cut: tuple[int, ...] = ()
        died: tuple[int, ...] = ()
        # A move from a node the mover does not own (``trial`` allows it: the bots' threat scan
        # plays the opponent's threats that way) joins the two networks with its line; only the
        # full recount from the Base, after the flood, gives such a move the answer it always had.
        mixed = self.owner[s] != seat
        if new_segment:
            geo = self._geo
            found = geo.segments.get(s * geo.size + t)
            inside, cells = found if found is not None else geo.segment(s, t)
            cut = self._cuts(s, t, cells, seat)
            # self._add_line(s, t, seat), written out: it runs for nearly every move
            lid = len(la)
            la.append(s)
            lb.append(t)
            lowner.append(seat)
            lstate.append(LIVE)
            self.branches[s] += 1
            self.branches[t] += 1
            ends, links = self.ends, self.links
            ends[s].append(lid)
            ends[t].append(lid)
            links[s].append(t)
            links[t].append(s)
            if inside:
                self._index_inside(lid, s, t, inside, seat)
            own_cells = self.cell_lines[seat]
            for c in cells:
                own_cells[c].append(lid)
            if cut:
                alive = self.alive
                lost: list[int] = []
                for lid in cut:
                    lstate[lid] = CUT
                    a, b = la[lid], lb[lid]
                    self._unindex(lid, a, b)
                    # One line at a time: each removal splits at most one piece off the enemy's
                    # living network, and _detach finds it without walking the whole network.
                    if alive[a] and not mixed:
                        lost += self._detach(1 - seat, a, b)
                if lost:
                    lost.sort()
                    died = tuple(lost)
        added = len(self.la) - first_new
        # Life: the target's network joins the source's (alive) network. A grown node's
        # only link is its (alive) source, so nothing comes back.
        revived = () if kind == GROW else self._flood(t, placed)
        if cut and mixed and any(self.alive[self.la[lid]] for lid in cut):
            died = self._recount(1 - seat)
        self._stack.append(_new_effect(MoveEffect, (move, seat, placed, added, replaced, cut, died, revived, None)))
        self.turn += 1
        self._to_move = 1 - seat
        self._result = _PENDING

    # -- reading what moves do (for search) ------------------------------------------------------

    def last_effect(self) -> MoveEffect:
        """What the last pushed move did (placed, cut, died, revived ...); IndexError if none.

        The record stays valid after further moves; its ids refer to this state.
        """
        return self._stack[-1]

    def trial(self, move: Move, seat: int) -> tuple[MoveEffect, Result | None]:
        """Play ``move`` for ``seat``, note its effect and the result after it, and take it back.

        ``seat`` may be the player *not* to move (a threat scan asks what the
        opponent could do if it moved now); the move must be one of
        ``moves_for(seat)``. The position and the player to move are left as
        they were.
        """
        mover = self._to_move
        self._to_move = seat
        self.push(move)
        rec, result = self._stack[-1], self.result
        self.undo()
        self._to_move = mover
        return rec, result

    def quiet_test(self, seat: int) -> Callable[[Move], bool]:
        """A predicate: True for a move of ``seat`` that surely cuts nothing and revives nothing.

        A grow or loop whose segment shares no unit cell with an enemy live
        line (the engine indexes live lines by the cells they cross) cuts
        nothing; it revives nothing either, as both its ends are alive or new.
        Splits (which may join a dead line) and revives answer False. The
        predicate is cheap (no move is played) and stays valid while this
        state is pushed and undone.
        """
        cells = self._geo.cells
        enemy_cells = self.cell_lines[1 - seat]

        def quiet(move: Move) -> bool:
            kind = move.kind
            if kind == REVIVE or kind == SPLIT:
                return False
            for c in cells(move.src, move.dst):
                if enemy_cells[c]:
                    return False
            return True

        return quiet

    def _cuts(self, s: int, t: int, cells: tuple[int, ...], seat: int) -> tuple[int, ...]:
        """Enemy live lines that segment s-t (meeting the unit ``cells``) touches (sorted ids)."""
        geo = self._geo
        cell_lines = self.cell_lines[1 - seat]
        candidates: set[int] | None = None
        for c in cells:
            row = cell_lines[c]
            if row:
                if candidates is None:
                    candidates = set(row)
                else:
                    candidates.update(row)
        if candidates is None:
            return ()
        # geo.touch(s, t, a, b), with the s-t part of its key (geo.touch_key) computed once
        la, lb, known, contact, rel, span = self.la, self.lb, geo.touch_cache, geo.contact, geo.rel, geo.rel_span
        ps, pt = rel[s], rel[t]
        if ps > pt:
            ps, pt = pt, ps
        base = (pt - ps) * span + geo.rel_half - ps
        found = []
        for lid in candidates:
            a, b = la[lid], lb[lid]
            pa, pb = rel[a], rel[b]
            key = (base + pa) * span + pb - pa if pa < pb else (base + pb) * span + pa - pb
            hit = known.get(key)
            if hit is None:
                hit = contact(key, s, t, a, b)
            if hit:
                found.append(lid)
        found.sort()
        return tuple(found)

    def _flood(self, t: int, placed: bool) -> tuple[int, ...]:
        """Bring ``t``'s network to life; returns the dead nodes that came back."""
        alive, links = self.alive, self.links
        if not placed and alive[t]:
            return ()
        alive[t] = True
        revived = [] if placed else [t]
        stack = [t]
        while stack:
            p = stack.pop()
            for q in links[p]:
                if not alive[q]:
                    alive[q] = True
                    revived.append(q)
                    stack.append(q)
        revived.sort()
        return tuple(revived)

    def _recount(self, seat: int) -> tuple[int, ...]:
        """Recompute ``seat``'s life from its Base; returns the nodes that died."""
        alive, links = self.alive, self.links
        reached = {self.base[seat]}
        stack = [self.base[seat]]
        while stack:
            p = stack.pop()
            for q in links[p]:
                if q not in reached:
                    reached.add(q)
                    stack.append(q)
        died = []
        for p in self.nodes[seat]:
            if alive[p] and p not in reached:
                alive[p] = False
                died.append(p)
        died.sort()
        return tuple(died)

    def _detach(self, seat: int, a: int, b: int) -> list[int]:
        """Kill what lost its Base when ``seat``'s live line a-b (alive ends) left the links; returns it.

        Alive means joined to the Base through live lines, so after one line goes
        either a and b are still joined (nothing dies) or the network fell in two
        pieces, one holding the Base. Two walks, one from each end, take a step
        in turn: they meet, or the smaller piece runs out first. A cut usually
        severs a twig, so this costs a few nodes where walking the whole network
        from the Base cost all of them.
        """
        links = self.links
        seen_a, seen_b = {a}, {b}
        todo_a, todo_b = [a], [b]
        while todo_a and todo_b:
            for q in links[todo_a.pop()]:
                if q not in seen_a:
                    if q in seen_b:
                        return []
                    seen_a.add(q)
                    todo_a.append(q)
            for q in links[todo_b.pop()]:
                if q not in seen_b:
                    if q in seen_a:
                        return []
                    seen_b.add(q)
                    todo_b.append(q)
        done, rest, todo = (seen_a, seen_b, todo_b) if not todo_a else (seen_b, seen_a, todo_a)
        if self.base[seat] in done:  # the piece that ran out holds the Base: the other one dies, all of it
            while todo:
                for q in links[todo.pop()]:
                    if q not in rest:
                        rest.add(q)
                        todo.append(q)
            done = rest
        alive = self.alive
        for p in done:
            alive[p] = False
        return list(done)

    def undo(self) -> Move:
        if not self._stack:
            raise IndexError("no move to undo")
        rec = self._stack.pop()
        move = rec.move
        alive = self.alive
        for p in rec.died:
            alive[p] = True
        for p in rec.revived:
            alive[p] = False
        for lid in rec.cut:
            self.lstate[lid] = LIVE
            self._index(lid, self.la[lid], self.lb[lid])
        for _ in range(rec.added):
            self._pop_line()
        for lid in reversed(rec.replaced):
            self._restore(lid)
        if rec.placed:
            self._unplace(move.dst)
        self.turn -= 1
        self._to_move = rec.player
        self._result = rec.result
        return move

    # -- the end of the game ----------------------------------------------------------------

    def _decide(self) -> Result | None:
        """The result at the start of the current turn: no-move loss first, then the limit."""
        seat = self._to_move
        if not self.has_move(seat):
            return Result(
                winner=1 - seat,
                reason="no_moves",
                scores=self.alive_counts(),
                text=f"{SEATS[seat]} has no legal move and loses.",
            )
        if self.turn - 1 >= self.turn_limit:
            counts = self.alive_counts()
            if counts[0] == counts[1]:
                winner, text = None, f"Turn limit {self.turn_limit}: {counts[0]} alive nodes each, a draw."
            else:
                winner = 0 if counts[0] > counts[1] else 1
                text = (
                    f"Turn limit {self.turn_limit}: {SEATS[winner]} wins with "
                    f"{counts[winner]} alive nodes to {counts[1 - winner]}."
                )
            return Result(winner=winner, reason="turn_limit", scores=counts, text=text)
        return None

    def can_extend(self) -> bool:
        result = self.result
        return result is not None and result.reason == "turn_limit"

    def extend(self) -> None:
        """Withdraw a turn-limit result and allow ``extension`` more turns."""
        if not self.can_extend():
            raise PegboardError("only a game that ended on the turn limit can be extended")
        self.turn_limit += self.game.params.extension
        self._result = self._decide()

    def extension_turns(self) -> int:
        return self.game.params.extension

    # -- events ------------------------------------------------------------------------------

    def _events(self, rec: MoveEffect) -> list[Event]:
        geo = self._geo
        labels, xs, ys = geo.labels, geo.xs, geo.ys

        def label(p: int) -> str:
            return labels[p]

        def xy(p: int) -> list[int]:
            return [xs[p], ys[p]]
        move, seat = rec.move, rec.player
        who, enemy = SEATS[seat], SEATS[1 - seat]
        s, t = move.src, move.dst
        events = []
        if rec.placed:
            events.append(
                Event("node_placed", {"owner": seat, "at": xy(t)}, f"{who} places a node at {label(t)}.")
            )
        for lid in rec.replaced:
            a, b = self.la[lid], self.lb[lid]
            events.append(
                Event(
                    "line_split",
                    {"owner": seat, "ends": [xy(a), xy(b)], "at": xy(t)},
                    f"{who} splits its line {label(a)}-{label(b)} at {label(t)}.",
                )
            )
        if rec.added > 2 * len(rec.replaced):
            events.append(
                Event(
                    "line_added",
                    {"owner": seat, "ends": [xy(s), xy(t)]},
                    f"{who} draws a line {label(s)}-{label(t)}.",
                )
            )
        if rec.cut:
            n = len(rec.cut)
            events.append(
                Event(
                    "lines_cut",
                    {
                        "owner": 1 - seat,
                        "count": n,
                        "lines": [[xy(self.la[lid]), xy(self.lb[lid])] for lid in rec.cut],
                    },
                    f"{who} cuts {n} {enemy} line{'s' if n > 1 else ''}.",
                )
            )
        if rec.died:
            n = len(rec.died)
            events.append(
                Event(
                    "nodes_died",
                    {"owner": 1 - seat, "count": n, "points": [xy(p) for p in rec.died]},
                    f"{n} {enemy} node{'s' if n > 1 else ''} lose{'' if n > 1 else 's'} contact with the Base.",
                )
            )
        if rec.revived:
            n = len(rec.revived)
            events.append(
                Event(
                    "nodes_revived",
                    {"owner": seat, "count": n, "points": [xy(p) for p in rec.revived]},
                    f"{n} {who} node{'s come' if n > 1 else ' comes'} back to life.",
                )
            )
        result = self.result
        if result is not None:
            events.append(Event("game_over", result.to_json(), result.text))
        return events

    # -- copies and serialisation -------------------------------------------------------------

    def clone(self) -> NodeWarState:
        other = NodeWarState.__new__(NodeWarState)
        other.__dict__.update(self.__dict__)
        for name in ("owner", "occupied", "kind", "branches", "alive", "la", "lb", "lowner", "lstate", "order", "base", "_stack"):
            setattr(other, name, list(getattr(self, name)))
        for name in ("links", "ends", "through"):
            setattr(other, name, [list(row) for row in getattr(self, name)])
        blue_cells, red_cells = self.cell_lines
        other.cell_lines = ([list(row) for row in blue_cells], [list(row) for row in red_cells])
        other.insert_points = [set(row) for row in self.insert_points]
        other.own_through = (list(self.own_through[0]), list(self.own_through[1]))
        other.nodes = (list(self.nodes[0]), list(self.nodes[1]))
        return other

    def to_json(self) -> dict[str, JSON]:
        from .position import state_to_json

        return state_to_json(self)

    def __str__(self) -> str:
        from .position import ascii_board

        return ascii_board(self)

    def text_for(self, seat: int) -> str:
        from .position import ascii_board

        return ascii_board(self, bottom=seat)



def perft(state: NodeWarState, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``state`` (a move-generation check).

    Finished games count as leaves. ``state`` is left as it was.
    """
    if depth == 0 or state.result is not None:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        state.push(move)
        total += perft(state, depth - 1)
        state.undo()
    return total


__all__ = [
    "BASE",
    "CUT",
    "EMPTY",
    "GONE",
    "GROW",
    "LIVE",
    "LOOP",
    "MOVE_KINDS",
    "REGULAR",
    "REVIVE",
    "SPLIT",
    "Move",
    "MoveEffect",
    "NodeWarGame",
    "NodeWarState",
    "perft",
]
