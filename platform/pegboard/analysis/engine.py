"""Judging positions: the analysing bot's best move, its score and line, as a seat-0 win chance.

A :class:`Judge` looks at one position at a time. It asks the chosen bot's
:meth:`~pegboard.specs.Bot.search` under a work budget (a fresh bot per position, seeded from
the record's seed and the position's number, so a position's verdict never depends on which
others were judged before it: spans of positions can run in any process, in any order), and
falls back on the analysis's own :class:`~pegboard.analysis.search.AlphaBeta` when the bot
cannot explain its choice, or when no bot is named. A finished position is judged by its result.

:func:`judge_span` is the task the executors run (:mod:`pegboard.batch.runner`): it rebuilds
the game from a :class:`LineSource` and judges positions ``start`` to ``stop - 1``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from pegboard.analysis.search import AlphaBeta
from pegboard.analysis.winchance import logistic, result_chance
from pegboard.batch.runner import derive_seed
from pegboard.errors import BotError, UnknownId
from pegboard.game import JSON, Game, Move, State
from pegboard.plugins import resolve as _plugins
from pegboard.records.replay import game_for_record, plain, positions

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins
    from pegboard.specs import BotSpec, Evaluator, SearchResult

#: Work units per position when none is given: the analysis search's nodes (enough for two
#: full plies of Node War, five or six of Connect Four), or the named bot's own units.
DEFAULT_BUDGET = 4_000
#: The name the rows give the analysis's own search.
SEARCH_NAME = "alphabeta"
#: Plies of principal line a verdict keeps.
LINE_PLIES = 4
#: The logistic constant for games without an evaluator (only decided games then count).
_NO_EVALUATOR_SCALE = 1.0


class Settings(NamedTuple):
    """How to analyse: ``bot`` (an id, or None for the analysis search), ``budget`` in work
    units per position, ``evaluator`` (an id, or None for the game's first)."""

    bot: str | None = None
    budget: int = DEFAULT_BUDGET
    evaluator: str | None = None


class LineSource(NamedTuple):
    """A line of play to analyse, in plain data (it travels to worker processes).

    ``ruleset`` is the resolved ruleset, ``seed`` the game seed, ``moves`` the encoded moves;
    ``start`` a position document to begin from instead of ``new_state(seed)`` (hand-built
    positions in tests and tools).
    """

    ruleset: Mapping[str, JSON]
    seed: int
    moves: tuple[JSON, ...]
    start: Mapping[str, JSON] | None = None

    def game(self, plugins: Plugins | None = None) -> Game:
        return game_for_record({"ruleset": self.ruleset}, plugins)

    def first_state(self, game: Game) -> State:
        return game.new_state(self.seed) if self.start is None else game.state_from_json(self.start)


class Verdict(NamedTuple):
    """What the analysis found in the position after ``ply`` moves (0: the start).

    ``chance`` is seat 0's win chance there; ``score`` the score behind it (evaluator units,
    seat 0's side), None when the bot measured a win chance itself or the game is over.
    ``depth`` and ``ladder`` come from the analysis search only (a bot's search gives neither):
    the depth of the answer, and per depth the search finished, the position's (score, chance)
    searched that deep (see :class:`~pegboard.analysis.search.Judgement`), which values the move
    that led here at the depth the position before it was searched.
    ``mover`` is the seat to move (None once the game is over); ``best`` the best move
    (encoded) and ``line`` the principal line from it (encoded, with ``texts`` in the game's
    notation); ``work`` the units spent; ``by`` who judged: a bot id, ``"alphabeta"`` or
    ``"result"``.
    """

    ply: int
    mover: int | None
    chance: float
    score: float | None
    best: JSON | None
    line: tuple[JSON, ...]
    texts: tuple[str, ...]
    work: int
    by: str
    depth: int = 0
    ladder: tuple[tuple[float, float], ...] = ()


class Judge:
    """Judges positions of one game under :class:`Settings` (see the module docstring)."""

    def __init__(self, game: Game, settings: Settings, plugins: Plugins | None = None, *, seed: int = 0) -> None:
        registry = _plugins(plugins)
        self.game = game
        self.settings = settings
        self.seed = seed
        self.evaluator = evaluator_for(game, settings.evaluator, registry)
        self.bot: BotSpec | None = registry.bot(game.id, settings.bot) if settings.bot is not None else None
        self._search = AlphaBeta(self.evaluator)

    def chance(self, score: float) -> float:
        """Seat 0's win chance at ``score`` by the evaluator's scale."""
        if self.evaluator is None:
            return logistic(score, _NO_EVALUATOR_SCALE)
        return self.evaluator.win_chance(score)

    def verdict(self, state: State, index: int) -> Verdict:
        """Judge ``state`` (position ``index`` of the line); the state is left as it was."""
        result = state.result
        if result is not None:
            return Verdict(index, None, result_chance(result, 0), None, None, (), (), 0, "result")
        mover = state.to_move
        found, by, depth = None, SEARCH_NAME, 0
        ladder: tuple[tuple[float, float], ...] = ()
        budget = max(1, int(self.settings.budget))
        if self.bot is not None:
            found = self._ask_bot(self.bot, state, index, budget)
            by = self.bot.id
        if found is None:
            judged = self._search.judge(state, budget)
            found, by, depth = judged.found, SEARCH_NAME, judged.depth
            ladder = tuple((score, self.chance(score)) for score in judged.ladder)
        if found.score is not None:
            chance, score = self.chance(found.score), float(found.score)
        else:
            own = min(1.0, max(0.0, float(found.win_chance if found.win_chance is not None else 0.5)))
            chance, score = (own if mover == 0 else 1.0 - own), None
        line, texts = self._line(state, found.move, found.line)
        return Verdict(index, mover, chance, score, line[0], line, texts, int(found.work), by, depth, ladder)

    def _ask_bot(self, spec: BotSpec, state: State, index: int, budget: int) -> SearchResult | None:
        """The bot's ``search`` of a copy of ``state`` (a fresh bot, seeded by the position's number)."""
        bot = spec.factory(self.game, derive_seed(self.seed, index, "analysis"))
        try:
            found = bot.search(state.clone(), work=budget)
        except Exception as exc:  # noqa: BLE001 - a bot's bug is one clear error, not a traceback
            raise BotError(f"bot {spec.id!r} crashed analysing move {index + 1}: {type(exc).__name__}: {exc}") from exc
        if found is not None and state.check(found.move) is not None:
            raise BotError(f"bot {spec.id!r} named an illegal best move at move {index + 1}: {state.check(found.move)}")
        return found

    def _line(self, state: State, move: Move, line: Sequence[Move]) -> tuple[tuple[JSON, ...], tuple[str, ...]]:
        """The principal line, encoded and in words: ``move`` first, cut at the first move that
        is not legal in turn (a bot's line may run past what it checked) or after four plies."""
        moves = [move, *line[1:]] if line and line[0] == move else [move]
        encoded: list[JSON] = []
        texts: list[str] = []
        pushed = 0
        try:
            for step in moves[:LINE_PLIES]:
                if state.result is not None or state.check(step) is not None:
                    break
                encoded.append(plain(self.game.encode_move(step)))
                texts.append(state.move_text(step))
                state.push(step)
                pushed += 1
        finally:
            for _ in range(pushed):
                state.undo()
        return tuple(encoded), tuple(texts)


def default_analyst(game: Game, plugins: Plugins) -> str | None:
    """Who judges when nobody was named: None (the analysis search) for a game without chance;
    for a game with chance (``Game.stochastic``), the game's strongest own bot, whose search
    weighs the chance it cannot know. The analysis search plays on the true state and would
    see a finished game's future draws, so its "better move" could lean on luck the player
    could not know. A bot whose ``search`` gives no answer still leaves the judging to the
    analysis search, position by position."""
    if not game.stochastic:
        return None
    strongest = plugins.strongest_bot(game.id)
    return None if strongest == "random" else strongest


def evaluator_for(game: Game, evaluator_id: str | None, plugins: Plugins) -> Evaluator | None:
    """The game's evaluator (``evaluator_id``, or its first); None when the game has none and
    no id was asked for."""
    try:
        spec = plugins.evaluator(game.id, evaluator_id)
    except UnknownId:
        if evaluator_id is not None:
            raise
        return None
    return spec.factory(game)


def decode_moves(game: Game, moves: Sequence[JSON]) -> list[Move]:
    """The moves of a record (already replayed once) as the game's move values."""
    decode = game.decode_move
    return [decode(move) for move in moves]


def walk(source: LineSource, game: Game) -> Iterator[State]:
    """Every position of the line in turn, the start first and the end last (see
    :func:`~pegboard.records.replay.positions`)."""
    return positions(source.first_state(game), decode_moves(game, source.moves))


def judge_span(source: LineSource, settings: Settings, start: int, stop: int, plugins: Plugins | None = None) -> list[Verdict]:
    """Verdicts for positions ``start`` to ``stop - 1`` of ``source`` (a task for the executors)."""
    game = source.game(plugins)
    judge = Judge(game, settings, plugins, seed=source.seed)
    found: list[Verdict] = []
    for index, state in enumerate(walk(source, game)):
        if index >= stop:
            break
        if index >= start:
            found.append(judge.verdict(state, index))
    return found
