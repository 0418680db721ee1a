"""Node War's built-in bots: Easy, Medium, Hard and Expert.

All four search the view they are given in place with ``push``/``undo``
(never copies) and break ties with a seeded random generator, so a bot built
with the same seed plays the same moves. They differ in how far they look:

- **Easy** looks at a random sample of the legal moves and takes the one
  that gains the most material right now (nodes placed, enemy nodes killed,
  own nodes revived), preferring forward points. No evaluation, no look-ahead.
- **Medium** plays every legal move once and keeps the one the static
  evaluator (:mod:`pegboard_nodewar.evaluator`) likes best: one ply.
- **Hard** runs a fixed two-ply alpha-beta over its 12 best root moves
  (ranked by the one-ply evaluation, with credit for parrying the
  opponent's current threats) plus its best loops and revives, each
  answered by the opponent's 8 strongest replies (every reply is tried and
  ranked by the material it wins, so no cut is missed).
- **Expert** runs iterative deepening under its budget with the same ranked
  move lists: two plies ever wider with captures settled at the leaves
  (quiescence), then four plies, with a transposition table carrying the
  best move of each position between iterations.

Why alpha-beta and not MCTS: a position has ~400 legal moves and a random
game runs to the 300-turn limit, so one playout costs ~50 ms (the engine
plays ~21 random games a second) and a second buys ~20 playouts, fewer than
the root has moves. Material (alive nodes) changes only through cuts,
revivals and new nodes, which a push/undo reveals in ~8 µs, and a static
evaluation costs 16-60 µs. Ranking every move by what it wins and searching
the dangerous ones two to four plies deep is what the measured ladder
rewards (docs/rules/nodewar.md, "Bots"; docs/performance.md).

The search budget is counted in *work units* (one unit ≈ one push/undo,
an evaluation counts as several), converted from seconds with a fixed rate,
so a given seed plays the same moves on any machine; a wall-clock guard
(``budget`` × 3 + 0.5 s, never above ``budget`` + 2.5 s) stops a search on
a machine far slower than the rate assumes.

Hard and Expert also answer :meth:`~pegboard.specs.Bot.search`: the same search as
``choose`` (:meth:`SearchBot.think`), returning the move with its negamax value as an
evaluator score from Blue's side, the principal line the transposition table holds and the
work spent. ``search(view, work=N)`` stops on work units alone and draws from a generator
seeded as the bot was, so its answer depends only on the seed, the view and N.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from pegboard.specs import Bot, Figure, SearchResult

from .engine import GROW, LOOP, MOVE_KINDS, REVIVE, Move, NodeWarGame, NodeWarState
from .evaluator import NodeWarEvaluator

#: Work units (push+undo ≈ 1, an evaluation ≈ 5) a bot may spend per second of budget.
WORK_PER_SECOND = 60_000
#: Score of a won position (minus the plies it takes, so quicker wins rank higher).
WIN = 1_000_000.0
#: Weight of one node of material in move ranking (placed + killed + revived).
MATERIAL = 10.0

_MASK = (1 << 64) - 1


def _mix(key: int) -> int:
    """splitmix64: a deterministic 64-bit hash of an integer (for transposition keys)."""
    z = (key + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def guard(budget: float) -> float:
    """Wall-clock seconds after which a search stops whatever its work count says."""
    budget = max(0.0, budget)
    return min(budget * 3 + 0.5, budget + 2.5)


class OutOfTime(Exception):
    """Raised inside a search when its work budget or wall-clock guard runs out."""


class NodeWarBot(Bot):
    """Shared machinery: the evaluator, seeded tie-breaks, move ranking."""

    name = "bot"

    def __init__(self, game: NodeWarGame, seed: int = 0) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)
        self.evaluator = NodeWarEvaluator(game)
        self.advance = self.evaluator.tables.advance

    def choose(self, view: NodeWarState, budget: float) -> Move:  # pragma: no cover - overridden
        raise NotImplementedError

    # -- helpers ----------------------------------------------------------------------

    def _legal(self, view: NodeWarState) -> list[Move]:
        moves = view.legal_moves()
        if not moves:
            raise ValueError("no legal move to choose from")
        return moves

    def gain(self, state: NodeWarState, move: Move, seat: int) -> float:
        """What ``move`` wins at once for ``seat``: material, or a decided game.

        ``seat`` may be the player not to move (a threat scan); the state is
        left as found.
        """
        rec, result = state.trial(move, seat)
        if result is not None and result.reason == "no_moves":
            value = WIN if result.winner == seat else -WIN
        else:
            value = MATERIAL * (rec.placed + len(rec.died) + len(rec.revived))
        return value + 0.05 * self.advance[seat][move.dst]

    def quiet_gain(self, move: Move, seat: int) -> float:
        """:meth:`gain` of a move the engine calls quiet (``quiet_test``), without playing it."""
        return (MATERIAL if move.kind == GROW else 0.0) + 0.05 * self.advance[seat][move.dst]

    def leaf(self, state: NodeWarState, ply: int) -> float:
        """The value of a position for the player to move (negamax convention)."""
        result = state.result
        if result is not None:
            if result.winner is None:
                return 0.0
            return (WIN - ply) if result.winner == state.to_move else -(WIN - ply)
        value = self.evaluator.score(state)
        return value if state.to_move == 0 else -value


class EasyBot(NodeWarBot):
    """Greedy on immediate material over a random sample of moves."""

    name = "Easy"
    sample = 24

    def choose(self, view: NodeWarState, budget: float) -> Move:
        moves = self._legal(view)
        rng = self.rng
        if len(moves) > self.sample:
            moves = rng.sample(moves, self.sample)
        seat = view.to_move
        best, best_value = moves[0], -float("inf")
        for move in moves:
            value = self.gain(view, move, seat) + rng.random() * 3.0
            if value > best_value:
                best, best_value = move, value
        return best


class MediumBot(NodeWarBot):
    """One ply: every legal move, scored by the static evaluation."""

    name = "Medium"

    def root_scores(self, view: NodeWarState, moves: Sequence[Move]) -> list[tuple[float, Move]]:
        """(value for the mover, move) per move, best first, with seeded tie-breaks."""
        rng = self.rng
        out = []
        push, undo, leaf = view.push, view.undo, self.leaf
        for move in moves:
            push(move)
            value = -leaf(view, 1)
            undo()
            out.append((value + rng.random() * 1e-3, move))
        out.sort(key=lambda item: item[0], reverse=True)
        return out

    def choose(self, view: NodeWarState, budget: float) -> Move:
        return self.root_scores(view, self._legal(view))[0][1]


class SearchBot(MediumBot):
    """Alpha-beta over ranked, width-limited move lists (Hard and Expert)."""

    #: Moves searched at each ply below the root (index 0 = the opponent's replies).
    widths: tuple[int, ...] = (8,)
    root_width = 12
    loop_width = 8
    depth = 2
    #: Settle captures at the leaves (see :meth:`quiescence`), and how many to try.
    quiesce = False
    capture_width = 3

    def __init__(self, game: NodeWarGame, seed: int = 0) -> None:
        super().__init__(game, seed)
        self.work = 0
        self.work_limit = float("inf")
        self.deadline = float("inf")
        self.table: dict[int, tuple[int, float, Move | None]] = {}
        self.size = game.geo.size

    # -- budget -----------------------------------------------------------------------

    def _spend(self, units: int) -> None:
        self.work += units
        if self.work > self.work_limit or time.perf_counter() > self.deadline:
            raise OutOfTime

    # -- ranking ----------------------------------------------------------------------

    def ranked(self, state: NodeWarState, width: int, first: Move | None = None, deep: bool = False) -> list[Move]:
        """The ``width`` most promising moves of the player to move.

        Every legal move is tried. Just above the leaves (``deep`` false) moves
        are ranked by the material they win at once, which finds every cut
        that refutes the previous move. Higher up (``deep`` true) they are
        ranked by the static evaluation after the move, so quiet defensive
        moves (a loop that protects a threatened line) are searched too.
        """
        moves = state.legal_moves()
        rng = self.rng.random
        if deep:
            self._spend(6 * len(moves) + 10)
            push, undo, leaf = state.push, state.undo, self.leaf
            scored = []
            for move in moves:
                push(move)
                value = -leaf(state, 1)
                undo()
                scored.append((value + rng() * 1e-3, move))
        else:
            self._spend(len(moves) // 3 + 10)
            seat = state.to_move
            gain, quiet, advance = self.gain, state.quiet_test(seat), self.advance[seat]
            scored = []
            for m in moves:
                if quiet(m):
                    value = (MATERIAL if m.kind == GROW else 0.0) + 0.05 * advance[m.dst]  # quiet_gain, inlined
                else:
                    value = gain(state, m, seat)
                scored.append((value + rng() * 1e-3, m))
        scored.sort(key=lambda item: item[0], reverse=True)
        top = [m for _, m in scored[:width]]
        if first is not None and first in moves:
            if first in top:
                top.remove(first)
            top.insert(0, first)
        return top

    def key_after(self, key: int, state: NodeWarState, move: Move) -> int:
        """Transposition key after ``move`` (already pushed): XOR of per-move keys.

        A position is keyed by the set of (move, mover, lines it cut) since
        the root; two orders of the same moves reach the same position unless
        a move cut differently, which the cut count tells apart.
        """
        rec = state.last_effect()
        size = self.size
        code = ((MOVE_KINDS.index(move.kind) * size + move.src) * size + move.dst) * 2 + rec.player
        return key ^ _mix(code * 64 + len(rec.cut))

    # -- alpha-beta -------------------------------------------------------------------

    def negamax(self, state: NodeWarState, depth: int, alpha: float, beta: float, ply: int, key: int) -> float:
        if depth == 0 or state.result is not None:
            self._spend(5)
            if self.quiesce and state.result is None:
                return self.quiescence(state, beta, ply)
            return self.leaf(state, ply)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            stored_depth, stored_value, hint = entry
            if stored_depth >= depth:
                return stored_value
        width = self.widths[min(ply - 1, len(self.widths) - 1)]
        moves = self.ranked(state, width, hint, deep=depth >= 2)
        alpha_in = alpha
        best, best_move = -float("inf"), None
        push, undo = state.push, state.undo
        for move in moves:
            push(move)
            try:
                value = -self.negamax(state, depth - 1, -beta, -alpha, ply + 1, self.key_after(key, state, move))
            finally:
                undo()
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        # Only exact values are reused as values; bounds still give an ordering hint.
        self.table[key] = (depth if alpha_in < best < beta else -1, best, best_move)
        return best

    def quiescence(self, state: NodeWarState, beta: float, ply: int) -> float:
        """The static value, or better if the player to move has a capture (a cut or a revive).

        The player to move may "stand pat" on the static evaluation or play
        one of its ``capture_width`` biggest captures; this settles the
        exchange a two-ply search would otherwise stop in the middle of.
        """
        stand = self.leaf(state, ply)
        if stand >= beta:
            return stand
        seat = state.to_move
        moves = state.legal_moves()
        self._spend(len(moves) // 3 + 10)
        quiet, gain = state.quiet_test(seat), self.gain
        threshold = MATERIAL * 1.5  # more than placing one node: something died or revived
        captures = []
        for move in moves:
            if not quiet(move):
                value = gain(state, move, seat)
                if value > threshold:
                    captures.append((value, move))
        if not captures:
            return stand
        captures.sort(key=lambda item: item[0], reverse=True)
        best = stand
        push, undo = state.push, state.undo
        for _, move in captures[: self.capture_width]:
            self._spend(6)
            push(move)
            value = -self.leaf(state, ply + 1)
            undo()
            if value > best:
                best = value
        return best

    def threats(self, state: NodeWarState, limit: int = 4) -> list[Move]:
        """The opponent's strongest captures if it could move now (a "null move").

        Returns up to ``limit`` of the opponent's moves that would kill or
        revive something, biggest first; the state is left as found.
        """
        enemy = 1 - state.to_move
        quiet, gain = state.quiet_test(enemy), self.gain
        found = []
        for move in state.moves_for(enemy):
            if not quiet(move):
                value = gain(state, move, enemy)
                if value > MATERIAL * 1.5:
                    found.append((value, move))
        found.sort(key=lambda item: item[0], reverse=True)
        return [m for _, m in found[:limit]]

    def threat_aware_scores(self, view: NodeWarState, moves: Sequence[Move]) -> list[tuple[float, Move]]:
        """:meth:`root_scores` plus, for ranking only, credit for parrying the opponent's threats.

        For each move, the opponent's current best captures are replayed after
        it; a move after which they kill less (a block, a backup loop, a cut
        of the attacker's supply line) ranks higher, so the search below sees it.
        """
        threats = self.threats(view)
        if not threats:
            return self.root_scores(view, moves)
        rng = self.rng
        push, undo, leaf, check = view.push, view.undo, self.leaf, view.check
        seat = view.to_move
        before = 0.0
        for t in threats:
            # NOTE: plays the opponent's threat *for the player to move*, so ``before`` is not
            # what the threat kills (``trial(t, 1 - seat)`` would be). Left as it was so the
            # bots play exactly as in the measured ladder; fixing it needs a new ladder run.
            rec, result = view.trial(t, seat)
            before = max(before, len(rec.died) + (WIN if result is not None and result.winner != seat else 0))
        self.work += 6 * len(moves) * len(threats)
        out = []
        for move in moves:
            push(move)
            value = -leaf(view, 1)
            after = 0.0
            if view.result is None:
                for t in threats:
                    if check(t) is None:
                        rec, result = view.trial(t, 1 - seat)
                        lost: float = len(rec.died)
                        if result is not None and result.winner != seat:
                            lost += WIN
                        if lost > after:
                            after = lost
            undo()
            relief = min(before - after, 20) * MATERIAL if after < before else 0.0
            out.append((value + relief + rng.random() * 1e-3, value, move))
        out.sort(key=lambda item: item[0], reverse=True)
        return [(rank, move) for rank, _, move in out]

    def candidates(self, ranked: Sequence[Move], width: int) -> list[Move]:
        """Root moves to search: the ``width`` best by one-ply evaluation, plus the best loops.

        A loop wins no material and places no node, so the one-ply ranking
        puts it below every grow; but a backup loop is the answer to a
        threatened line, so the best ``loop_width`` loops and revives always
        get searched.
        """
        chosen = list(ranked[:width])
        extra = [m for m in ranked[width:] if m.kind == LOOP or m.kind == REVIVE]
        return chosen + extra[: self.loop_width]

    def search_root(self, view: NodeWarState, candidates: Sequence[Move], depth: int) -> tuple[float, Move]:
        """Search ``candidates`` (best guess first) ``depth`` plies; (value, best move)."""
        alpha = -float("inf")
        best_move = candidates[0]
        push, undo = view.push, view.undo
        for move in candidates:
            push(move)
            try:
                value = -self.negamax(view, depth - 1, -float("inf"), -alpha, 1, self.key_after(0, view, move))
            finally:
                undo()
            if value > alpha:
                alpha, best_move = value, move
        return alpha, best_move

    def choose(self, view: NodeWarState, budget: float) -> Move:
        move: Move = self.think(view, *self.limits(budget, self.timed_work)).move  # type: ignore[assignment]
        return move

    def search(self, view: NodeWarState, *, seconds: float | None = None, work: int | None = None) -> SearchResult:
        """:meth:`think` under a budget of ``seconds`` or of ``work`` units, with a fresh
        generator seeded as the bot was (so the answer depends only on the seed, the view and
        the budget; :meth:`choose` keeps drawing from the bot's running generator)."""
        if (seconds is None) == (work is None):
            raise ValueError("give exactly one budget: seconds or work")
        limits = self.limits(seconds, self.timed_work) if seconds is not None else (float(work or 0), float("inf"))
        running, self.rng = self.rng, random.Random(self.seed)
        try:
            return self.think(view, *limits)
        finally:
            self.rng = running

    #: Whether a budget in seconds limits the work too (Expert) or only the wall-clock guard (Hard).
    timed_work = False

    @staticmethod
    def limits(budget: float, timed_work: bool) -> tuple[float, float]:
        """(work limit, wall-clock deadline) for a budget in seconds."""
        budget = max(0.0, budget)
        work_limit = max(1.0, budget * WORK_PER_SECOND) if timed_work else float("inf")
        return work_limit, time.perf_counter() + guard(budget)

    def begin(self, work_limit: float, deadline: float) -> None:
        self.table.clear()
        self.work, self.work_limit, self.deadline = 0, work_limit, deadline

    def answer(self, view: NodeWarState, value: float, line: Sequence[Move]) -> SearchResult:
        """A :class:`SearchResult` from a negamax value for the player to move."""
        score = value if view.to_move == 0 else -value
        return SearchResult(move=line[0], score=score, line=tuple(line), work=int(self.work))

    def principal_line(self, view: NodeWarState, first: Move, limit: int = 8) -> list[Move]:
        """``first`` and the best replies the transposition table holds after it."""
        line = [first]
        view.push(first)
        key = self.key_after(0, view, first)
        try:
            while len(line) < limit and view.result is None:
                entry = self.table.get(key)
                move = entry[2] if entry is not None else None
                if move is None or view.check(move) is not None:
                    break
                line.append(move)
                view.push(move)
                key = self.key_after(key, view, move)
        finally:
            for _ in line:
                view.undo()
        return line

    def think(self, view: NodeWarState, work_limit: float, deadline: float) -> SearchResult:
        """The one search behind :meth:`choose` and :meth:`search`: the threat-aware ranking,
        then a fixed ``depth``-ply alpha-beta over the candidates."""
        self.begin(work_limit, deadline)
        root = self.threat_aware_scores(view, self._legal(view))
        if root[0][0] >= WIN / 2:
            return self.answer(view, root[0][0], [root[0][1]])
        candidates = self.candidates([m for _, m in root], self.root_width)
        try:
            value, move = self.search_root(view, candidates, self.depth)
        except OutOfTime:  # a spent work budget, or a machine far slower than usual: keep the one-ply choice
            return self.answer(view, root[0][0], [root[0][1]])
        return self.answer(view, value, self.principal_line(view, move, self.depth))


class HardBot(SearchBot):
    """Two plies: 12 best root moves, each against the opponent's 8 strongest replies."""

    name = "Hard"
    root_width = 12
    widths = (8,)
    depth = 2


class ExpertBot(SearchBot):
    """Iterative deepening under a time budget: 2 plies ever wider, then 4 plies as time allows."""

    name = "Expert"
    #: (depth, root moves, widths below the root) per iteration.
    #: Only even depths: a search that ends on the own move is blind to the reply
    #: that refutes it, and would prefer moves whose refutation lies past its horizon.
    schedule: tuple[tuple[int, int, tuple[int, ...], bool], ...] = (
        (2, 12, (8,), False),
        (2, 16, (10,), True),
        (2, 24, (12,), True),
        (2, 40, (16,), True),
        (4, 10, (6, 5, 6), True),
    )

    #: Search iterations (schedule rows) the last :meth:`choose` completed.
    iterations = 0

    timed_work = True

    def think(self, view: NodeWarState, work_limit: float, deadline: float) -> SearchResult:
        """The schedule's iterations until the work budget (or the wall-clock guard) runs out;
        the answer is the last completed iteration's."""
        self.begin(work_limit, deadline)
        root = self.threat_aware_scores(view, self._legal(view))
        self.work += 6 * len(root)
        best_move = root[0][1]
        best = self.answer(view, root[0][0], [best_move])
        if root[0][0] >= WIN / 2:
            return best
        ranked = [m for _, m in root]
        self.iterations = 0
        for depth, width, widths, quiesce in self.schedule:
            self.widths, self.quiesce = widths, quiesce
            self.table.clear()
            candidates = self.candidates(ranked, width)
            if best_move in candidates:
                candidates.remove(best_move)
            candidates.insert(0, best_move)
            try:
                value, move = self.search_root(view, candidates, depth)
            except OutOfTime:
                break
            best_move, best = move, self.answer(view, value, self.principal_line(view, move, depth))
            self.iterations += 1
            if abs(value) >= WIN / 2:
                break
        return best._replace(work=int(self.work))


def bench(quick: bool = False) -> list[Figure]:
    """Evaluator and bot speed figures for ``pegboard bench`` (``quick``: a token run)."""
    import statistics

    from .rules import load_shipped

    game = NodeWarGame(load_shipped("standard"))
    rng = random.Random(11)
    state = game.new_state()
    while state.ply < 40 and state.result is None:
        state.push(rng.choice(state.legal_moves()))
    evaluator = NodeWarEvaluator(game)
    figures = []
    count, start = 0, time.perf_counter()
    span = 0.05 if quick else 1.0
    while time.perf_counter() - start < span:
        for _ in range(50):
            evaluator.score(state)
        count += 50
    figures.append(Figure("evaluator score(), 40-ply position", count / (time.perf_counter() - start), "evaluations/s"))
    levels = (("Easy", EasyBot, 0.02), ("Medium", MediumBot, 0.1), ("Hard", HardBot, 0.5), ("Expert", ExpertBot, 1.0))
    for name, cls, budget in levels[: 2 if quick else 4]:
        bot = cls(game, 1)
        times = []
        for _ in range(1 if quick else 3):
            view = state.clone()
            start = time.perf_counter()
            bot.choose(view, budget)
            times.append(time.perf_counter() - start)
        figures.append(Figure(f"{name} think time, 40-ply position", statistics.median(times) * 1000, "ms", f"budget {budget:g} s"))
    return figures
