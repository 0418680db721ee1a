"""A tiny connect-N placement game used to test the session and the window shell.

Not shipped as a game: tests register it in their own ``Plugins``. Players
drop a stone on any empty cell; N in a row (any direction) wins. A turn limit
ends the game in a draw that may be extended, and ``passing`` rulesets have a
``pass`` move that the session plays when a move timer runs out.

Load it with :func:`load` so that tests in different folders share one module.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pegboard import hookimpl
from pegboard.errors import MatchFileError
from pegboard.game import JSON, Event, Game, IllegalMove, InvalidMoveEncoding, InvalidPosition, Refusal, Result, State
from pegboard.plugins.manager import Plugins
from pegboard.specs import Bot, BotSpec, Evaluation, Evaluator, EvaluatorSpec, GameSpec, RendererSpec, Term

DATA = Path(__file__).resolve().parent / "gridtoy_data"
PASS = -1
CONCEDE = -2  # the seat to move loses on time (never in legal_moves)
SEATS = ("Black", "White")


def load_ruleset(name: str = "standard") -> dict[str, JSON]:
    import tomllib

    return tomllib.loads((DATA / "rulesets" / f"{name}.toml").read_text())


class ToyGame(Game):
    id = "gridtoy"
    name = "Toy Connect"
    seats = SEATS

    def __init__(self, ruleset: Mapping[str, JSON]) -> None:
        super().__init__(ruleset)
        board = ruleset.get("board", {})
        self.width = int(board.get("width", 6))
        self.height = int(board.get("height", 5))
        self.connect = int(board.get("connect", 4))
        self.max_turns = int(board.get("max_turns", 30))
        self.extend_by = int(board.get("extend_by", 10))
        self.passing = bool(board.get("passing", False))
        self.cells = self.width * self.height

    def new_state(self, seed: int = 0) -> ToyState:
        return ToyState(self)

    def cell(self, x: int, y: int) -> int:
        return y * self.width + x

    def xy(self, cell: int) -> tuple[int, int]:
        return cell % self.width, cell // self.width

    def encode_move(self, move: Any) -> JSON:
        if move == PASS:
            return {"pass": True}
        if move == CONCEDE:
            return {"concede": True}
        x, y = self.xy(move)
        return {"x": x, "y": y}

    def decode_move(self, data: JSON) -> int:
        if not isinstance(data, dict):
            raise InvalidMoveEncoding(f"a move is an object, not {data!r}")
        if data.get("pass"):
            return PASS
        if data.get("concede"):
            return CONCEDE
        try:
            x, y = int(data["x"]), int(data["y"])
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidMoveEncoding(f"bad move {data!r}") from exc
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise InvalidMoveEncoding(f"cell {x},{y} is off the board")
        return self.cell(x, y)

    def move_text(self, move: Any) -> str:
        if move == PASS:
            return "pass"
        if move == CONCEDE:
            return "out of time"
        x, y = self.xy(move)
        return f"{'abcdefghijklmnop'[x]}{y + 1}"

    def parse_text(self, text: str) -> int:
        text = text.strip().lower()
        if text == "pass":
            return PASS
        if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
            raise InvalidMoveEncoding(f"not a move: {text!r}")
        x, y = ord(text[0]) - ord("a"), int(text[1:]) - 1
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise InvalidMoveEncoding(f"cell {text} is off the board")
        return self.cell(x, y)

    def state_from_json(self, data: Mapping[str, JSON]) -> ToyState:
        try:
            state = ToyState(self)
            for cell in data["moves"]:
                state.apply(int(cell))
        except (KeyError, TypeError, ValueError, IllegalMove) as exc:
            raise InvalidPosition(str(exc)) from exc
        return state


class ToyState(State):
    def __init__(self, game: ToyGame) -> None:
        self.game = game
        self.board = [-1] * game.cells
        self.stack: list[int] = []
        self.limit = game.max_turns
        self._result: Result | None = None
        self._results: list[Result | None] = []

    @property
    def to_move(self) -> int:
        return len(self.stack) % 2

    @property
    def result(self) -> Result | None:
        return self._result

    @property
    def ply(self) -> int:
        return len(self.stack)

    def legal_moves(self) -> list[int]:
        if self._result is not None:
            return []
        moves = [c for c, v in enumerate(self.board) if v < 0]
        if self.game.passing:
            moves.append(PASS)
        return moves

    def check(self, move: Any) -> Refusal | None:
        if self._result is not None:
            return Refusal("game_over", "the game is over")
        if move == PASS:
            return None if self.game.passing else Refusal("no_passing", "passing is not allowed")
        if move == CONCEDE:
            return None if self.game.passing else Refusal("no_passing", "conceding is not allowed")
        if not isinstance(move, int) or not 0 <= move < self.game.cells:
            return Refusal("off_board", "not a cell of the board")
        if self.board[move] >= 0:
            return Refusal("occupied", f"{self.game.move_text(move)} is taken")
        return None

    def apply(self, move: Any) -> list[Event]:
        refusal = self.check(move)
        if refusal is not None:
            raise IllegalMove(refusal.reason, rule=refusal.rule, move=move)
        seat = self.to_move
        self._results.append(self._result)
        self.stack.append(move)
        if move == CONCEDE:
            self._result = Result(1 - seat, "flag", text=f"{SEATS[seat]} ran out of time")
            return [Event("game_over", self._result.to_json(), self._result.text)]
        if move == PASS:
            events = [Event("pass", {"seat": seat}, f"{SEATS[seat]} passes")]
        else:
            self.board[move] = seat
            events = [Event("stone_placed", {"cell": move, "seat": seat}, f"{SEATS[seat]} plays {self.game.move_text(move)}")]
        if move != PASS and self._wins(move, seat):
            self._result = Result(seat, "connect", text=f"{SEATS[seat]} connects {self.game.connect}")
        elif all(v >= 0 for v in self.board):
            self._result = Result(None, "board_full")
        elif len(self.stack) >= self.limit:
            self._result = Result(None, "turn_limit", text=f"turn limit {self.limit}")
        if self._result is not None:
            events.append(Event("game_over", self._result.to_json(), "game over"))
        return events

    def _wins(self, cell: int, seat: int) -> bool:
        g = self.game
        x0, y0 = g.xy(cell)
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                x, y = x0 + sign * dx, y0 + sign * dy
                while 0 <= x < g.width and 0 <= y < g.height and self.board[g.cell(x, y)] == seat:
                    run += 1
                    x, y = x + sign * dx, y + sign * dy
            if run >= g.connect:
                return True
        return False

    def undo(self) -> int:
        move = self.stack.pop()
        if move >= 0:
            self.board[move] = -1
        self._result = self._results.pop()
        return move

    def can_extend(self) -> bool:
        return self._result is not None and self._result.reason == "turn_limit"

    def extend(self) -> None:
        if not self.can_extend():
            super().extend()
        self.limit += self.game.extend_by
        self._result = None

    def extension_turns(self) -> int:
        return self.game.extend_by

    def timeout_move(self) -> int | None:
        return PASS if self.game.passing else None

    def concede_move(self, seat: int, reason: str) -> int | None:
        return CONCEDE if self.game.passing and seat == self.to_move else None

    def clone(self) -> ToyState:
        other = ToyState(self.game)
        other.board = list(self.board)
        other.stack = list(self.stack)
        other.limit = self.limit
        other._result = self._result
        other._results = list(self._results)
        return other

    def to_json(self) -> dict[str, JSON]:
        return {"moves": list(self.stack)}


# -- bots ------------------------------------------------------------------------------------------


class RandomBot(Bot):
    def __init__(self, game: Game, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: State, budget: float) -> Any:
        moves = [m for m in view.legal_moves() if m != PASS] or view.legal_moves()
        return self.rng.choice(moves)


class FirstBot(Bot):
    """Plays the lowest free cell: fully predictable."""

    def __init__(self, game: Game, seed: int) -> None:
        pass

    def choose(self, view: State, budget: float) -> Any:
        return min(m for m in view.legal_moves() if m != PASS)


class GateBot(Bot):
    """Waits until the test opens :attr:`gate`, then plays like :class:`FirstBot`.

    ``calls`` counts how often it was asked, so tests can see stale answers being dropped.
    """

    gate = threading.Event()
    calls = 0

    def __init__(self, game: Game, seed: int) -> None:
        pass

    def choose(self, view: State, budget: float) -> Any:
        GateBot.calls += 1
        if not GateBot.gate.wait(20):
            raise TimeoutError("gate never opened")
        return min(m for m in view.legal_moves() if m != PASS)


class SleepyBot(Bot):
    """Sleeps a minute before answering: only useful to show a stale job being killed."""

    def __init__(self, game: Game, seed: int) -> None:
        pass

    def choose(self, view: State, budget: float) -> Any:
        import time

        time.sleep(60)
        return min(m for m in view.legal_moves() if m != PASS)


class BadBot(Bot):
    def __init__(self, game: Game, seed: int) -> None:
        pass

    def choose(self, view: State, budget: float) -> Any:
        taken = [c for c, v in enumerate(view.board) if v >= 0]  # type: ignore[attr-defined]
        return taken[0] if taken else 10_000


class CrashBot(Bot):
    def __init__(self, game: Game, seed: int) -> None:
        pass

    def choose(self, view: State, budget: float) -> Any:
        raise RuntimeError("boom")


BOTS = {
    "dice": BotSpec("dice", "Dice", RandomBot, game="gridtoy", budget=0.1),
    "first": BotSpec("first", "First", FirstBot, game="gridtoy", budget=0.1),
    "gate": BotSpec("gate", "Gate", GateBot, game="gridtoy", budget=0.1),
    "sleepy": BotSpec("sleepy", "Sleepy", SleepyBot, game="gridtoy"),
    "bad": BotSpec("bad", "Bad", BadBot, game="gridtoy"),
    "crash": BotSpec("crash", "Crash", CrashBot, game="gridtoy"),
}


# -- evaluator -------------------------------------------------------------------------------------


class ToyEvaluator(Evaluator):
    """Stones and centre control; seat 0's point of view. ``scale``: the score the bar shows as ~88%."""

    scale = 2.0

    def __init__(self, game: ToyGame) -> None:
        self.game = game

    def evaluate(self, state: State) -> Evaluation:
        g = self.game
        board = state.board  # type: ignore[attr-defined]
        cx, cy = (g.width - 1) / 2, (g.height - 1) / 2
        stones = [0.0, 0.0]
        centre = [0.0, 0.0]
        for cell, seat in enumerate(board):
            if seat >= 0:
                x, y = g.xy(cell)
                stones[seat] += 1
                centre[seat] += max(0.0, 3 - abs(x - cx) - abs(y - cy))
        terms = (
            Term("stones", (stones[0], stones[1]), 1.0, stones[0] - stones[1], "stones on the board"),
            Term("centre", (centre[0], centre[1]), 0.5, 0.5 * (centre[0] - centre[1]), "closeness to the centre"),
        )
        return Evaluation(sum(t.contribution for t in terms), terms)

    def score(self, state: State) -> float:
        return self.evaluate(state).score


# -- text format -----------------------------------------------------------------------------------


def ToyFormatError(reason: str, line: int) -> MatchFileError:  # noqa: N802 - reads like a class
    return MatchFileError(reason, line=line, stage="syntax")


class ToyText:
    """``1 Black c3`` per line; ``#`` lines are comments; ``# ruleset: id``."""

    def dumps(self, record: Mapping[str, JSON], game: Game) -> str:
        lines = ["# pegboard toy match", f"# ruleset: {record['ruleset'].get('id', 'standard')}"]
        for i, data in enumerate(record["moves"], start=1):
            lines.append(f"{i} {SEATS[(i - 1) % 2]} {game.move_text(game.decode_move(data))}")
        return "\n".join(lines) + "\n"

    def loads(self, text: str, resolve_ruleset: Any) -> dict[str, JSON]:
        ruleset_ref = "standard"
        moves: list[JSON] = []
        lines: list[int] = []
        game: ToyGame | None = None
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#"):
                if line[1:].strip().startswith("ruleset:"):
                    ruleset_ref = line.split(":", 1)[1].strip()
                continue
            if game is None:
                game = ToyGame(resolve_ruleset(ruleset_ref))
            parts = line.split()
            if len(parts) != 3:
                raise ToyFormatError("expected '<turn> <seat> <cell>'", number)
            if parts[0] != str(len(moves) + 1):
                raise ToyFormatError(f"expected turn {len(moves) + 1}, found {parts[0]}", number)
            try:
                move = game.parse_text(parts[2])
            except InvalidMoveEncoding as exc:
                raise ToyFormatError(str(exc), number) from exc
            moves.append(game.encode_move(move))
            lines.append(number)
        ruleset = resolve_ruleset(ruleset_ref)
        return {"format": "pegboard.match/1", "game": "gridtoy", "ruleset": dict(ruleset), "seed": 0,
                "players": [{"seat": seat, "name": "Player", "bot": None} for seat in SEATS], "moves": moves, "meta": {"lines": lines}}


# -- renderer --------------------------------------------------------------------------------------


def make_view(game: ToyGame, session: Any) -> Any:
    """Built lazily: importing pyglet is the factory's job."""
    from support.gridtoy_view import ToyBoardView

    return ToyBoardView(game, session)


class ToyPlugin:
    @hookimpl
    def pegboard_games(self) -> GameSpec:
        return GameSpec(
            id="gridtoy", name="Toy Connect", factory=ToyGame, seats=SEATS, schema_dir=DATA / "schemas",
            ruleset_dir=DATA / "rulesets", text_formats={".txt": ToyText()},
        )

    @hookimpl
    def pegboard_bots(self) -> list[BotSpec]:
        return list(BOTS.values())

    @hookimpl
    def pegboard_evaluators(self) -> list[EvaluatorSpec]:
        return [EvaluatorSpec("gridtoy", "Toy heuristic", "gridtoy", ToyEvaluator)]

    @hookimpl
    def pegboard_renderers(self) -> list[RendererSpec]:
        return [RendererSpec("gridtoy", "Toy board", "gridtoy", make_view)]


class EventLog:
    """A pegboard_match_event observer that keeps every event it saw."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    @hookimpl
    def pegboard_match_event(self, session: Any, event: Event) -> None:
        self.events.append(event)


def make_plugins(*extra: object) -> Plugins:
    """A plugin manager with only the toy game (and ``extra`` plugin objects)."""
    plugins = Plugins(load_entry_points=False)
    plugins.register(ToyPlugin(), name="gridtoy")
    for i, plugin in enumerate(extra):
        plugins.register(plugin, name=f"extra{i}")
    return plugins
