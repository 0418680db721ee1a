"""Two Connect Four bots: ``easy`` (wins or blocks at once, else random) and ``minimax``.

Both take every random choice from ``random.Random(seed)``, so one seed gives
one sequence of moves. ``minimax`` searches a fixed depth rather than against
the clock, so its moves do not depend on how fast the machine is; the budget
the platform passes is not needed for a game this small.
"""

from __future__ import annotations

import random
from functools import cache

from pegboard.game import Game, Move, State
from pegboard.specs import Bot

from .rules import DIRECTIONS, Connect4Game, Connect4State

WIN = 1_000_000.0
#: What an open window (only one seat's discs in it) is worth, by how many discs it holds.
WINDOW_VALUE = {1: 1.0, 2: 4.0, 3: 32.0}


def _connect4(view: State) -> Connect4State:
    if not isinstance(view, Connect4State):
        raise TypeError(f"a Connect Four bot got a {type(view).__name__}")
    return view


def centre_first(game: Connect4Game, moves: list[int]) -> list[int]:
    """Columns ordered from the centre outwards (better moves first for alpha-beta)."""
    middle = (game.columns - 1) / 2
    return sorted(moves, key=lambda column: abs(column - middle))


def winning_move(state: Connect4State, seat: int) -> int | None:
    """A column where ``seat`` would complete a line right now, if any."""
    for column in state.open_columns():
        row = len(state.board[column])
        state.board[column].append(seat)
        wins = len(state.line_through(column, row, seat)) >= state.game.connect
        state.board[column].pop()
        if wins:
            return column
    return None


class EasyBot(Bot):
    """Completes its own line, else blocks the opponent's, else plays a random column."""

    def __init__(self, game: Game, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: State, budget: float) -> Move:
        state = _connect4(view)
        me = state.to_move
        for seat in (me, 1 - me):
            column = winning_move(state, seat)
            if column is not None:
                return column
        return self.rng.choice(state.open_columns())


@cache
def windows(columns: int, rows: int, connect: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every run of ``connect`` cells on the board (rows, columns and both diagonals)."""
    found = []
    for x in range(columns):
        for y in range(rows):
            for dx, dy in DIRECTIONS:
                cells = tuple((x + i * dx, y + i * dy) for i in range(connect))
                if all(0 <= cx < columns and 0 <= cy < rows for cx, cy in cells):
                    found.append(cells)
    return tuple(found)


def open_windows(state: Connect4State) -> dict[int, list[int]]:
    """How many open windows each seat has, by the number of discs in them: ``{2: [red, yellow]}``.

    A window is open for a seat when it holds that seat's discs and none of the other's.
    """
    game = state.game
    board = state.board
    found: dict[int, list[int]] = {}
    for cells in windows(game.columns, game.rows, game.connect):
        counts = [0, 0]
        for x, y in cells:
            column = board[x]
            if y < len(column):
                counts[column[y]] += 1
        for seat in (0, 1):
            if counts[seat] and not counts[1 - seat]:
                found.setdefault(counts[seat], [0, 0])[seat] += 1
    return found


def score(state: Connect4State) -> float:
    """Open windows for seat 0 minus open windows for seat 1, weighted by WINDOW_VALUE (a won game is +-WIN)."""
    if state.result is not None:
        winner = state.result.winner
        return 0.0 if winner is None else (WIN if winner == 0 else -WIN)
    return sum(WINDOW_VALUE.get(size, 0.0) * (red - yellow) for size, (red, yellow) in open_windows(state).items())


class MinimaxBot(Bot):
    """Alpha-beta negamax to a fixed depth over the open-window score; seeded tie-breaks.

    Quicker wins score higher and slower losses lower, so it never dawdles
    over a won game nor gives up early in a lost one.
    """

    depth = 5

    def __init__(self, game: Game, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: State, budget: float) -> Move:
        state = _connect4(view)
        moves = centre_first(state.game, state.open_columns())
        sign = 1.0 if state.to_move == 0 else -1.0
        best_value, best = -float("inf"), []
        for column in moves:
            state.push(column)
            value = -self._negamax(state, self.depth - 1, -float("inf"), -best_value + 1e-6, -sign)
            state.undo()
            if value > best_value + 1e-9:
                best_value, best = value, [column]
            elif abs(value - best_value) <= 1e-9:
                best.append(column)
        return self.rng.choice(best)

    def _negamax(self, state: Connect4State, depth: int, alpha: float, beta: float, sign: float) -> float:
        if state.result is not None or depth == 0:
            value = sign * score(state)
            # a win found with more depth left is a quicker win: worth more (and a quick loss, less)
            return value + depth if value >= WIN else value - depth if value <= -WIN else value
        best = -float("inf")
        for column in centre_first(state.game, state.open_columns()):
            state.push(column)
            value = -self._negamax(state, depth - 1, -beta, -alpha, -sign)
            state.undo()
            if value > best:
                best = value
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return best
