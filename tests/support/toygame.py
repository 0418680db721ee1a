"""A tiny Nim game implementing the whole game contract, for platform tests only.

Rules: piles of tokens; a move takes 1..max_take tokens from one pile; the
player who takes the last token wins. After ``max_turns`` moves the game ends
on the turn limit (more tokens taken wins, equal draws) and may be extended
by ``extend_by`` turns. The ``.nim`` text format and the ``odd-only`` rule mod
exercise the platform's text-format and rule-mod plumbing.

Load it with ``Plugins.register(toygame)`` or ``--plugin tests/platform/toygame.py``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pegboard import Event, Game, IllegalMove, Result, State, hookimpl
from pegboard.game import InvalidMoveEncoding, InvalidPosition
from pegboard.specs import BenchSpec, Bot, BotSpec, Evaluation, Evaluator, EvaluatorSpec, Figure, GameSpec, RuleMod, RuleModSpec, Term

HERE = Path(__file__).resolve().parent / "toy"
SEATS = ("Left", "Right")


class NimState(State):
    def __init__(self, game: NimGame, piles: list[int], taken: list[int], turn: int, limit: int) -> None:
        self.game = game
        self.piles = piles
        self.taken = taken
        self.turn = turn
        self.limit = limit
        self._history: list[tuple[tuple[int, int], int]] = []  # (move, limit before)
        self._result: Result | None = None
        self._update_result()

    @property
    def to_move(self) -> int:
        return self.turn % 2

    @property
    def result(self) -> Result | None:
        return self._result

    @property
    def ply(self) -> int:
        return len(self._history)

    def _update_result(self) -> None:
        if not any(self.piles):
            # the previous mover took the last token
            self._result = Result((self.turn - 1) % 2, "last_token", tuple(self.taken)) if self.turn else Result(None, "empty", tuple(self.taken))
        elif self.turn >= self.limit:
            a, b = self.taken
            self._result = Result(0 if a > b else 1 if b > a else None, "turn_limit", tuple(self.taken))
        else:
            self._result = None

    def legal_moves(self) -> list[tuple[int, int]]:
        if self._result is not None:
            return []
        top = self.game.max_take
        return [(i, k) for i, n in enumerate(self.piles) for k in range(1, min(n, top) + 1)]

    def check(self, move: Any) -> str | None:
        if self._result is not None:
            return "the game is over"
        if not (isinstance(move, tuple) and len(move) == 2):
            return "not a move"
        pile, take = move
        if not 0 <= pile < len(self.piles):
            return f"there is no pile {pile}"
        if not 1 <= take <= self.game.max_take:
            return f"you may take 1 to {self.game.max_take} tokens"
        if take > self.piles[pile]:
            return f"pile {pile} holds only {self.piles[pile]}"
        return None

    def apply(self, move: Any) -> list[Event]:
        reason = self.check(move)
        if reason is not None:
            rule = "game_over" if self._result is not None else "take"
            raise IllegalMove(reason, rule=rule, move=move)
        pile, take = move
        mover = self.to_move
        self._history.append((move, self.limit))
        self.piles[pile] -= take
        self.taken[mover] += take
        self.turn += 1
        self._update_result()
        events = [Event("took", {"pile": pile, "take": take}, f"{SEATS[mover]} took {take} from pile {pile}")]
        if self._result is not None:
            events.append(Event("game_over", self._result.to_json(), "game over"))
        return events

    def undo(self) -> tuple[int, int]:
        if not self._history:
            raise IndexError("nothing to undo")
        (pile, take), self.limit = self._history.pop()
        self.turn -= 1
        self.piles[pile] += take
        self.taken[self.to_move] -= take
        self._update_result()
        return (pile, take)

    def can_extend(self) -> bool:
        return self._result is not None and self._result.reason == "turn_limit"

    def extend(self) -> None:
        if not self.can_extend():
            raise IllegalMove("only a turn-limit result can be extended", rule="extend")
        # the undo entry of the last move keeps the limit it was played under
        self.limit = self.turn + self.game.extend_by
        self._update_result()

    def clone(self) -> NimState:
        other = NimState(self.game, list(self.piles), list(self.taken), self.turn, self.limit)
        other._history = list(self._history)
        other._update_result()
        return other

    def to_json(self) -> dict[str, Any]:
        return {"piles": list(self.piles), "taken": list(self.taken), "turn": self.turn, "limit": self.limit}


class NimGame(Game):
    id = "toy"
    name = "Toy Nim"
    seats = SEATS

    def __init__(self, ruleset: Mapping[str, Any]) -> None:
        super().__init__(ruleset)
        rules = ruleset["nim"]
        self.start = list(rules["piles"])
        self.max_take = int(rules["max_take"])
        self.max_turns = int(rules.get("max_turns", 100))
        self.extend_by = int(rules.get("extend_by", 10))

    def new_state(self, seed: int = 0) -> NimState:
        piles = list(self.start)
        if self.ruleset["nim"].get("shuffle", False):
            # deterministic "randomness" from the seed
            shift = seed % len(piles)
            piles = piles[shift:] + piles[:shift]
        return NimState(self, piles, [0, 0], 0, self.max_turns)

    def encode_move(self, move: Any) -> dict[str, int]:
        return {"pile": move[0], "take": move[1]}

    def decode_move(self, data: Any) -> tuple[int, int]:
        try:
            return (int(data["pile"]), int(data["take"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidMoveEncoding(f"not a nim move: {data!r}") from exc

    def move_text(self, move: Any) -> str:
        return f"{move[1]}@{move[0]}"

    def parse_move(self, text: str) -> tuple[int, int]:
        match = re.fullmatch(r"\s*(\d+)@(\d+)\s*", text)
        if not match:
            raise InvalidMoveEncoding(f"not a nim move: {text!r}")
        return (int(match.group(2)), int(match.group(1)))

    def state_from_json(self, data: Mapping[str, Any]) -> NimState:
        try:
            state = NimState(self, list(data["piles"]), list(data["taken"]), int(data["turn"]), int(data["limit"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidPosition(f"not a nim position: {exc}") from exc
        return state


class NimText:
    """The ``.nim`` text format: ``#`` header lines, then ``<n> <Seat> <take>@<pile>``."""

    def dumps(self, record: Mapping[str, Any], game: Game) -> str:
        ruleset = record["ruleset"]
        lines = ["# pegboard toy match", f"# ruleset: {ruleset['game']}/{ruleset['id']}", f"# seed: {record['seed']}"]
        for player in record["players"]:
            lines.append(f"# {player['seat'].lower()}: {player.get('bot') or 'human'}")
        for n, move in enumerate(record["moves"], 1):
            lines.append(f"{n} {SEATS[(n - 1) % 2]} {move['take']}@{move['pile']}")
        if record.get("result"):
            lines.append(f"# result: {record['result']['winner']} {record['result']['reason']}")
        return "\n".join(lines) + "\n"

    def loads(self, text: str, resolve_ruleset: Callable[[str], Mapping[str, Any]]) -> dict[str, Any]:
        from pegboard.errors import MatchFileError

        ruleset_ref, seed, players, moves, result = "toy/standard", 0, {}, [], None
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line:
                continue
            if line.startswith("#"):
                key, _, value = line[1:].partition(":")
                key, value = key.strip().lower(), value.strip()
                if key == "ruleset":
                    ruleset_ref = value
                elif key == "seed":
                    seed = int(value)
                elif key in ("left", "right"):
                    players[key] = value
                elif key == "result":
                    winner, reason = value.split()
                    result = {"winner": None if winner == "None" else int(winner), "reason": reason}
                continue
            match = re.fullmatch(r"(\d+) (Left|Right) (\d+)@(\d+)", line)
            if not match:
                raise MatchFileError("not a move line", stage="syntax", line=number, column=1)
            if int(match.group(1)) != len(moves) + 1:
                raise MatchFileError(f"expected move number {len(moves) + 1}", stage="syntax", line=number, column=1)
            moves.append({"pile": int(match.group(4)), "take": int(match.group(3))})
        record: dict[str, Any] = {
            "format": "pegboard.match/1",
            "game": "toy",
            "ruleset": dict(resolve_ruleset(ruleset_ref)),
            "seed": seed,
            "players": [
                {"seat": seat, "name": players.get(seat.lower(), "human"), **({"bot": players[seat.lower()]} if players.get(seat.lower(), "human") != "human" else {})}
                for seat in SEATS
            ],
            "moves": moves,
        }
        if result is not None:
            record["result"] = result
        return record


class OddOnly(RuleMod):
    """Rule mod: odd takes only, while any odd take is possible; reports an extra event per move."""

    def __init__(self, game: Game, options: Mapping[str, Any]) -> None:
        self.note = str(options.get("note", "odd take"))

    def filter_moves(self, state: State, moves: list[Any]) -> list[Any]:
        odd = [m for m in moves if m[1] % 2 == 1]
        return odd or moves

    def check(self, state: State, move: Any) -> str | None:
        if move[1] % 2 == 1 or not any(m[1] % 2 == 1 for m in state.legal_moves()):
            return None
        return "only odd takes are allowed"

    def after_apply(self, state: State, move: Any, events: list[Event]) -> list[Event]:
        return [Event("odd_take", {"take": move[1]}, self.note)]


class NoPileZero(RuleMod):
    """Rule mod with only filter_moves: pile 0 is closed while other piles have tokens (check is derived)."""

    def __init__(self, game: Game, options: Mapping[str, Any]) -> None:
        pass

    def filter_moves(self, state: State, moves: list[Any]) -> list[Any]:
        kept = [m for m in moves if m[0] != 0]
        return kept or moves


class TakeMost(Bot):
    """A greedy toy bot: takes as much as it can from the biggest pile."""

    def choose(self, view: State, budget: float) -> Any:
        return max(view.legal_moves(), key=lambda m: (m[1], -m[0]))


class TakenEvaluator(Evaluator):
    def evaluate(self, state: State) -> Evaluation:
        a, b = state.taken  # type: ignore[attr-defined]
        terms = (Term("taken", (a, b), 1.0, float(a - b)), Term("parity", (sum(state.piles) % 2, 0), 0.5, 0.5 * (sum(state.piles) % 2)))  # type: ignore[attr-defined]
        return Evaluation(sum(t.contribution for t in terms), terms)

    def score(self, state: State) -> float:
        return self.evaluate(state).score


def _bench(quick: bool) -> list[Figure]:
    return [Figure("toy playouts", 3.0 if quick else 30.0, "games")]


def write_plugin(folder: Path, name: str, *lines: str) -> Path:
    """A single-file plugin ``folder/name.py`` for ``--plugin`` tests: the ``hookimpl``
    import, then ``lines`` (write ``@hookimpl`` above each hook)."""
    path = folder / f"{name}.py"
    path.write_text("\n".join(["from pegboard import hookimpl", *lines]) + "\n")
    return path


#: Moves of a standard game (piles [3, 4, 5], grundy 3 ^ 0 ^ 1 = 2: the first player wins) whose
#: third move throws the win away: from [2, 2, 5] only (2, 1) leaves the XOR at 0, and (0, 1)
#: hands Right a win it keeps to the last token.
THROWN_WIN = [(1, 2), (0, 1), (0, 1), (1, 2), (2, 1), (0, 1), (2, 3), (2, 1)]


def record_of(moves: list[tuple[int, int]], plugins: Any = None, players: tuple[str, str] = ("human", "human")) -> dict[str, Any]:
    """The record of a standard toy game played with ``moves`` (its result included)."""
    from pegboard.records.files import record_from_moves
    from pegboard.rules.rulesets import load_game, load_ruleset

    plugins = plugins if plugins is not None else make_plugins()
    ruleset = load_ruleset("toy/standard", plugins=plugins)
    game = load_game("toy", ruleset, plugins=plugins)
    state = game.new_state(0)
    for move in moves:
        state.apply(move)
    return record_from_moves(game, ruleset, 0, list(players), moves, state.result)


def make_plugins() -> Any:
    """A plugin manager with only the built-ins and this toy game (no entry points)."""
    from pegboard.plugins.manager import Plugins

    plugins = Plugins(load_entry_points=False)
    plugins.register(sys.modules[__name__], name="toygame", version="test", source=__file__)
    return plugins


@hookimpl
def pegboard_games() -> GameSpec:
    return GameSpec(
        id="toy",
        name="Toy Nim",
        factory=NimGame,
        seats=SEATS,
        schema_dir=HERE / "schemas",
        ruleset_dir=HERE / "rulesets",
        description="A test-only Nim game.",
        text_formats={".nim": NimText()},
    )


@hookimpl
def pegboard_bots(game: str) -> list[BotSpec] | None:
    if game != "toy":
        return None
    return [BotSpec("takemost", "Take most", lambda g, seed: TakeMost(), game="toy", budget=0.1)]


@hookimpl
def pegboard_evaluators(game: str) -> list[EvaluatorSpec] | None:
    if game != "toy":
        return None
    return [EvaluatorSpec("taken", "Tokens taken", "toy", lambda g: TakenEvaluator())]


@hookimpl
def pegboard_rule_mods(game: str) -> list[RuleModSpec] | None:
    if game != "toy":
        return None
    return [
        RuleModSpec("odd-only", "Odd takes only", "toy", OddOnly),
        RuleModSpec("no-pile-zero", "Pile 0 closed", "toy", NoPileZero),
    ]


@hookimpl
def pegboard_benchmarks(game: str) -> list[BenchSpec] | None:
    if game != "toy":
        return None
    return [BenchSpec("toy-playouts", "Toy playouts", "toy", _bench)]
