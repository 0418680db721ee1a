"""The analysis's own search: iterative-deepening alpha-beta on the game contract alone.

Analysis asks the chosen bot's :meth:`~pegboard.specs.Bot.search` first; a bot (or a game)
that cannot explain its choice is analysed with this search, so every game gets an analysis
without code of its own. It plays moves with ``push`` and takes them back with ``undo`` on the
state it is given, scores the leaves with the game's evaluator (seat 0's point of view: seat 0
maximises, every other seat minimises) and counts its budget in **nodes**: one node is one
move pushed. The same state and budget therefore give the same answer on any machine.

Each iteration searches one ply deeper, the best moves of the last iteration first, and the
replies that refuted a sibling ("killer" moves) first at every depth, which is what makes a
two-ply search cheap in a game with hundreds of moves. An iteration the budget interrupts
still counts once its first (previously best) move is searched: any move found better than
that one at the new depth is better. An iteration that could not finish in what is left of
the budget (two plies deeper costs about a root's width times more) is not started. A game
decided within the horizon stops the deepening, as does a tree searched to its end. The value
reported is the mean of the last two iterations' (see :func:`_smoothed`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pegboard.game import Move, Result, State
from pegboard.specs import SearchResult

#: The value of a won game for seat 0 (minus the plies it takes, so quicker wins rank higher).
WIN = 1e9
#: Values beyond this are decided games, not evaluations.
DECIDED = WIN / 2
#: The deepest iteration tried (budgets stop far sooner in real games).
MAX_DEPTH = 64
#: Plies of principal line kept.
LINE_PLIES = 4
_KILLERS = 2


class _Exhausted(Exception):
    """The node budget ran out inside an iteration."""


class Judgement(NamedTuple):
    """What :meth:`AlphaBeta.judge` found: the search's answer, and the position's value by depth.

    ``ladder[k]`` is the position's value (seat 0's side) searched ``k`` plies deep, smoothed as
    the reported score is (the mean of depths k and k - 1; ``ladder[0]`` is the static score),
    for every depth the search finished. ``depth`` is the depth of the answer (its iteration may
    be one the budget cut short). A move's value at depth d is its position's ``ladder[d - 1]``:
    that is how a review values the move played without searching it again.
    """

    found: SearchResult
    ladder: tuple[float, ...]
    depth: int


class AlphaBeta:
    """Iterative-deepening alpha-beta with a node budget (see the module docstring).

    ``evaluator`` scores a position for seat 0 (``Evaluator.score``); None scores every
    unfinished position 0, so only decided games count.
    """

    def __init__(self, evaluator: Any | None = None) -> None:
        self._score = evaluator.score if evaluator is not None else (lambda state: 0.0)
        self.nodes = 0
        self._limit = 0
        self._frontier = False
        self._killers: list[list[Move]] = []

    def search(self, state: State, work: int) -> SearchResult:
        """The best move of the side to move within ``work`` nodes.

        ``score`` is in evaluator units from seat 0's side (a decided game: about ±1e9);
        ``line`` the principal line, up to four plies. A budget below the number of legal
        moves is raised to it, so the first ply is always searched in full. The state is
        left as it was found.
        """
        return self.judge(state, work).found

    def judge(self, state: State, work: int) -> Judgement:
        """:meth:`search`, with the value of the position at every depth it finished (see :class:`Judgement`)."""
        moves = state.legal_moves()
        if not moves:
            raise ValueError("the position has no legal move to search")
        self.nodes, self._limit = 0, max(int(work), len(moves))
        self._killers = [[] for _ in range(MAX_DEPTH + 1)]
        maximising = state.to_move == 0
        exact = [self._score(state)]  # the root's value at depth 0, 1, ... for each finished iteration
        best: tuple[float, tuple[Move, ...], int] = (exact[0], (moves[0],), 0)
        order = list(moves)
        costs = [1]  # nodes each iteration took, iteration 0 costing one
        for depth in range(1, MAX_DEPTH + 1):
            self._frontier = False
            started = self.nodes
            value, line, ranked, complete = self._root(state, order, depth, maximising)
            if line:
                best = (value, line, depth)
            if not complete:
                break
            exact.append(value)
            costs.append(self.nodes - started)
            order = ranked
            if abs(value) >= DECIDED or not self._frontier:
                break  # decided within the horizon, or the whole tree was searched
            # Two plies deeper costs about a root's width more: skip an iteration that cannot finish.
            if costs[-2] * len(moves) > self._limit - self.nodes:
                break
        value, line, depth = best
        score = _smoothed(value, exact[depth - 1]) if depth > 0 else value
        ladder = (exact[0], *(_smoothed(exact[k], exact[k - 1]) for k in range(1, len(exact))))
        return Judgement(SearchResult(line[0], score=score, line=line[:LINE_PLIES], work=self.nodes), ladder, depth)

    def _root(
        self, state: State, moves: list[Move], depth: int, maximising: bool
    ) -> tuple[float, tuple[Move, ...], list[Move], bool]:
        """One iteration: (value, line, the moves best first, finished within the budget)."""
        alpha, beta = -float("inf"), float("inf")
        scored: list[tuple[float, int, Move]] = []
        best_value = -float("inf") if maximising else float("inf")
        best_line: tuple[Move, ...] = ()
        push, undo = state.push, state.undo
        for index, move in enumerate(moves):
            try:
                self._count()
                push(move)
                try:
                    value, line = self._value(state, depth - 1, alpha, beta, 1)
                finally:
                    undo()
            except _Exhausted:
                # Only a finished first move (the last iteration's best) makes a partial iteration count.
                return best_value, best_line if index > 0 else (), [], False
            scored.append((value, index, move))
            if (value > best_value) if maximising else (value < best_value):
                best_value, best_line = value, (move, *line)
                if maximising:
                    alpha = value
                else:
                    beta = value
        ranked = sorted(scored, key=lambda item: (-item[0] if maximising else item[0], item[1]))
        return best_value, best_line, [move for _, _, move in ranked], True

    def _value(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> tuple[float, tuple[Move, ...]]:
        result = state.result
        if result is not None:
            return _decided(result, ply), ()
        if depth == 0:
            self._frontier = True
            return self._score(state), ()
        maximising = state.to_move == 0
        best_value = -float("inf") if maximising else float("inf")
        best_line: tuple[Move, ...] = ()
        # The killers first, each checked alone: when one refutes the move above, the full list
        # of moves (most of a node's cost in a game with hundreds) is never generated.
        tried = [k for k in self._killers[ply] if state.check(k) is None]
        moves: list[Move] | None = None
        index = 0
        push, undo = state.push, state.undo
        while True:
            if index < len(tried):
                move = tried[index]
            else:
                if moves is None:
                    moves = [m for m in state.legal_moves() if m not in tried] if tried else state.legal_moves()
                    if not moves and not tried:  # an engine that ends the game only on its next move
                        return self._score(state), ()
                if index - len(tried) >= len(moves):
                    break
                move = moves[index - len(tried)]
            index += 1
            self._count()
            push(move)
            try:
                value, line = self._value(state, depth - 1, alpha, beta, ply + 1)
            finally:
                undo()
            if maximising:
                if value > best_value:
                    best_value, best_line = value, (move, *line)
                    alpha = max(alpha, value)
            elif value < best_value:
                best_value, best_line = value, (move, *line)
                beta = min(beta, value)
            if alpha >= beta:
                self._remember_killer(ply, move)
                break
        return best_value, best_line[:LINE_PLIES]

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self._limit:
            raise _Exhausted

    def _remember_killer(self, ply: int, move: Move) -> None:
        killers = self._killers[ply]
        if move in killers:
            return
        killers.insert(0, move)
        del killers[_KILLERS:]


def _smoothed(last: float, before: float) -> float:
    """The mean of the last two iterations' values, unless the last one decided the game.

    A search that ends on the mover's ply flatters the mover and one that ends on the reply
    flatters the other side (whoever moved last has just gained); the mean of depths d and
    d - 1 cancels that, so consecutive positions do not swing back and forth.
    """
    return last if abs(last) >= DECIDED or abs(before) >= DECIDED else (last + before) / 2


def _decided(result: Result, ply: int) -> float:
    """Seat 0's value of a finished game ``ply`` plies below the root."""
    if result.winner is None:
        return 0.0
    return WIN - ply if result.winner == 0 else -(WIN - ply)
