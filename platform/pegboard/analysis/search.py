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

from typing import Any

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
        return self.judge(state, work)[0]

    def judge(self, state: State, work: int, played: Move | None = None) -> tuple[SearchResult, float | None]:
        """:meth:`search`, and the exact value (seat 0's side) of ``played`` at the same depth.

        ``played`` is searched second in every iteration, with a full window, so its value and
        the best move's come from the same search: the gap between them is what the move cost,
        free of the odd/even swing between two searches from consecutive positions.
        """
        moves = state.legal_moves()
        if not moves:
            raise ValueError("the position has no legal move to search")
        if played is not None and played not in moves:
            played = None
        self.nodes, self._limit = 0, max(int(work), len(moves))
        self._killers = [[] for _ in range(MAX_DEPTH + 1)]
        maximising = state.to_move == 0
        found: list[tuple[float, tuple[Move, ...], float | None]] = []  # (value, line, played's value) per iteration
        order = _second(list(moves), played)
        costs = [1]  # nodes each iteration took, iteration 0 costing one
        for depth in range(1, MAX_DEPTH + 1):
            self._frontier = False
            started = self.nodes
            value, line, ranked, complete, exact = self._root(state, order, depth, maximising, played)
            if line:
                found.append((value, line, exact))
            if not complete:
                break
            costs.append(self.nodes - started)
            order = _second(ranked, played)
            if abs(value) >= DECIDED or not self._frontier:
                break  # decided within the horizon, or the whole tree was searched
            # Two plies deeper costs about a root's width more: skip an iteration that cannot finish.
            if costs[-2] * len(moves) > self._limit - self.nodes:
                break
        if not found:
            found.append((self._score(state), (moves[0],), None))
        value, line, exact = found[-1]
        if len(found) > 1:
            value = _smoothed(value, found[-2][0])
            exact = None if exact is None or found[-2][2] is None else _smoothed(exact, found[-2][2])
        return SearchResult(line[0], score=value, line=line[:LINE_PLIES], work=self.nodes), exact

    def _root(
        self, state: State, moves: list[Move], depth: int, maximising: bool, played: Move | None
    ) -> tuple[float, tuple[Move, ...], list[Move], bool, float | None]:
        """One iteration: (value, line, the moves best first, finished within the budget, ``played``'s value)."""
        alpha, beta = -float("inf"), float("inf")
        scored: list[tuple[float, int, Move]] = []
        best_value = -float("inf") if maximising else float("inf")
        best_line: tuple[Move, ...] = ()
        exact: float | None = None
        needed = 1 if played is None or moves[0] == played else 2  # moves that make a partial iteration count
        push, undo = state.push, state.undo
        for index, move in enumerate(moves):
            window = (-float("inf"), float("inf")) if move == played else (alpha, beta)
            try:
                self._count()
                push(move)
                try:
                    value, line = self._value(state, depth - 1, window[0], window[1], 1)
                finally:
                    undo()
            except _Exhausted:
                # Only the finished first moves (the last best, the move played) make a partial iteration count.
                return best_value, best_line if index >= needed else (), [], False, exact
            if move == played:
                exact = value
            scored.append((value, index, move))
            if (value > best_value) if maximising else (value < best_value):
                best_value, best_line = value, (move, *line)
                if maximising:
                    alpha = value
                else:
                    beta = value
        ranked = sorted(scored, key=lambda item: (-item[0] if maximising else item[0], item[1]))
        return best_value, best_line, [move for _, _, move in ranked], True, exact

    def _value(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> tuple[float, tuple[Move, ...]]:
        result = state.result
        if result is not None:
            return _decided(result, ply), ()
        if depth == 0:
            self._frontier = True
            return self._score(state), ()
        moves = state.legal_moves()
        if not moves:  # an engine that ends the game only on its next move: judge the position
            return self._score(state), ()
        killers = self._killers[ply]
        if killers:
            first = [k for k in killers if k in moves]
            if first:
                moves = first + [m for m in moves if m not in first]
        maximising = state.to_move == 0
        best_value = -float("inf") if maximising else float("inf")
        best_line: tuple[Move, ...] = ()
        push, undo = state.push, state.undo
        for move in moves:
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


def _second(moves: list[Move], played: Move | None) -> list[Move]:
    """``moves`` with ``played`` moved to the second place (the first stays the last best)."""
    if played is None or not moves or moves[0] == played:
        return moves
    rest = [m for m in moves[1:] if m != played]
    return [moves[0], played, *rest]


def _decided(result: Result, ply: int) -> float:
    """Seat 0's value of a finished game ``ply`` plies below the root."""
    if result.winner is None:
        return 0.0
    return WIN - ply if result.winner == 0 else -(WIN - ply)
