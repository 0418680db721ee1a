"""Connect Four's rules engine: the :class:`~pegboard.game.Game` and :class:`~pegboard.game.State`.

A move is the column index (an ``int``, 0 = leftmost) a disc is dropped into;
it lands on the lowest empty cell. The first seat to line up ``connect`` discs
in a row, a column or a diagonal wins; a full board without a line is a draw.
Every number comes from the ruleset's ``[board]`` table.
"""

from __future__ import annotations

from collections.abc import Mapping
from string import ascii_lowercase

from pegboard.game import JSON, Event, Game, IllegalMove, InvalidMoveEncoding, InvalidPosition, Refusal, Result, State

SEATS = ("Red", "Yellow")
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class Connect4Game(Game[int]):
    """The rules under one resolved ruleset: board size and the line length that wins."""

    id = "connect4"
    name = "Connect Four"
    seats = SEATS

    def __init__(self, ruleset: Mapping[str, JSON]) -> None:
        super().__init__(ruleset)
        board = ruleset["board"]
        self.columns = int(board["columns"])
        self.rows = int(board["rows"])
        self.connect = int(board["connect"])

    def new_state(self, seed: int = 0) -> Connect4State:
        # Connect Four has no chance: the seed changes nothing, but the contract takes it.
        return Connect4State(self)

    def encode_move(self, move: int) -> JSON:
        return {"column": move}

    def decode_move(self, data: JSON) -> int:
        if not isinstance(data, dict) or set(data) != {"column"}:
            raise InvalidMoveEncoding(f'a Connect Four move is {{"column": N}}, not {data!r}')
        column = data["column"]
        if isinstance(column, bool) or not isinstance(column, int) or not 0 <= column < self.columns:
            raise InvalidMoveEncoding(f"column must be an integer from 0 to {self.columns - 1}, not {column!r}")
        return column

    def move_text(self, move: int) -> str:
        """Columns are letters from the left, as in chess: ``a`` .. ``g``."""
        return ascii_lowercase[move] if isinstance(move, int) and 0 <= move < len(ascii_lowercase) else repr(move)

    def parse_move(self, text: str) -> int:
        """The inverse of :meth:`move_text` (used by the board view's tests and scripts)."""
        letter = text.strip().lower()
        if len(letter) != 1 or letter not in ascii_lowercase[: self.columns]:
            raise InvalidMoveEncoding(f"not a column of this board: {text!r}")
        return ascii_lowercase.index(letter)

    def state_from_json(self, data: Mapping[str, JSON]) -> Connect4State:
        columns = data.get("columns")
        if not isinstance(columns, list) or len(columns) != self.columns:
            raise InvalidPosition(f"expected {self.columns} columns")
        state = Connect4State(self)
        for index, column in enumerate(columns):
            if not isinstance(column, list) or len(column) > self.rows or any(disc not in (0, 1) for disc in column):
                raise InvalidPosition(f"column {self.move_text(index)} must hold at most {self.rows} discs, each 0 or 1")
            state.board[index] = [int(disc) for disc in column]
        counts = [sum(column.count(seat) for column in state.board) for seat in (0, 1)]
        if counts[0] - counts[1] not in (0, 1):
            raise InvalidPosition(f"{SEATS[0]} has {counts[0]} discs and {SEATS[1]} {counts[1]}: turns alternate")
        if data.get("to_move") != counts[0] - counts[1]:
            raise InvalidPosition(f"to_move must be {counts[0] - counts[1]} for these discs")
        winners = {seat for seat in (0, 1) if state.has_line(seat)}
        last = 1 - (counts[0] - counts[1])  # the seat that moved last
        if winners - {last}:
            raise InvalidPosition("a line belongs to the seat that did not move last")
        state.plies = sum(counts)
        if winners:
            state.over = Result(last, "line", text=f"{SEATS[last]} connects {self.connect}")
        elif state.plies == self.columns * self.rows:
            state.over = Result(None, "board_full", text="the board is full")
        return state


class Connect4State(State[int]):
    """A position: each column's discs from the bottom up, plus an undo stack."""

    game: Connect4Game

    def __init__(self, game: Connect4Game) -> None:
        self.game = game
        self.board: list[list[int]] = [[] for _ in range(game.columns)]
        self.plies = 0
        self.over: Result | None = None
        self.history: list[int] = []

    @property
    def to_move(self) -> int:
        return self.plies % 2

    @property
    def result(self) -> Result | None:
        return self.over

    @property
    def ply(self) -> int:
        return len(self.history)

    def legal_moves(self) -> list[int]:
        return self.open_columns()

    def open_columns(self) -> list[int]:
        """The columns a disc may be dropped into (none once the game is over)."""
        if self.over is not None:
            return []
        rows = self.game.rows
        return [index for index, column in enumerate(self.board) if len(column) < rows]

    def check(self, move: int) -> Refusal | None:
        if self.over is not None:
            return Refusal("game_over", "the game is over")
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < self.game.columns:
            return Refusal("no_such_column", f"there is no column {move!r}")
        if len(self.board[move]) >= self.game.rows:
            return Refusal("column_full", f"column {self.game.move_text(move)} is full")
        return None

    def apply(self, move: int) -> list[Event]:
        refusal = self.check(move)
        if refusal is not None:
            raise IllegalMove(refusal.reason, rule=refusal.rule, move=move)
        column = move
        seat = self.to_move
        self.push(column)
        row = len(self.board[column]) - 1
        text = f"{SEATS[seat]} drops a disc in column {self.game.move_text(column)}"
        events = [Event("disc_dropped", {"seat": seat, "column": column, "row": row}, text)]
        if self.over is not None:
            events.append(Event("game_over", self.over.to_json(), self.over.text))
        return events

    def push(self, move: int) -> None:
        """Drop the disc without checks or events (search and replays)."""
        index = move
        seat = self.plies % 2
        column = self.board[index]
        column.append(seat)
        self.plies += 1
        self.history.append(index)
        if self._line_through(index, len(column) - 1, seat):
            self.over = Result(seat, "line", text=f"{SEATS[seat]} connects {self.game.connect}")
        elif self.plies == self.game.columns * self.game.rows:
            self.over = Result(None, "board_full", text="the board is full")

    def undo(self) -> int:
        move = self.history.pop()  # IndexError at the start, as the contract says
        self.board[move].pop()
        self.plies -= 1
        self.over = None  # no move is played after the end, so the position before was open
        return move

    def disc(self, column: int, row: int) -> int | None:
        """The seat whose disc fills (column, row), or None for an empty or off-board cell."""
        if 0 <= column < self.game.columns and 0 <= row < len(self.board[column]):
            return self.board[column][row]
        return None

    def _line_through(self, column: int, row: int, seat: int) -> bool:
        return len(self.line_through(column, row, seat)) >= self.game.connect

    def line_through(self, column: int, row: int, seat: int) -> list[tuple[int, int]]:
        """The longest run of ``seat``'s discs through (column, row), as cells; the view
        highlights the winning line with it."""
        best: list[tuple[int, int]] = []
        for dx, dy in DIRECTIONS:
            run = [(column, row)]
            for sign in (1, -1):
                x, y = column + sign * dx, row + sign * dy
                while self.disc(x, y) == seat:
                    run.append((x, y))
                    x, y = x + sign * dx, y + sign * dy
            if len(run) > len(best):
                best = run
        return sorted(best)

    def has_line(self, seat: int) -> bool:
        """True when ``seat`` has ``connect`` discs in a row anywhere."""
        return any(
            disc == seat and self._line_through(x, y, seat) for x, column in enumerate(self.board) for y, disc in enumerate(column)
        )

    def clone(self) -> Connect4State:
        other = Connect4State(self.game)
        other.board = [list(column) for column in self.board]
        other.plies = self.plies
        other.over = self.over
        other.history = list(self.history)
        return other

    def to_json(self) -> dict[str, JSON]:
        return {"columns": [list(column) for column in self.board], "to_move": self.to_move}
