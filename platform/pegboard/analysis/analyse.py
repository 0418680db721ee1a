"""The analysis of whole records: check them, judge every position, review every move.

:class:`Analysis` holds one record's line, its :class:`~pegboard.analysis.review.Review` and
the :class:`~pegboard.analysis.engine.Judge` settings. Three ways to run it:

- :meth:`Analysis.run` judges every position in this process, one by one;
- :meth:`Analysis.verdicts` yields the verdicts one at a time for a caller that owns the
  thread (a window's background worker hands each to :meth:`Review.add
  <pegboard.analysis.review.Review.add>` on its own thread and redraws the graph);
- :func:`analyse_all` spreads the positions of many records over an executor
  (:mod:`pegboard.batch.runner`: local processes or Ray) in spans; every verdict depends only
  on its position, so the results are the same for any ``-j``.

A record of a hidden-information game that is still running is refused
(:class:`~pegboard.errors.AnalysisRefused`): a finished game is analysed with everything
visible, so analysis can never be a way to look through the fog of a game under way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard.analysis.engine import (
    SEARCH_NAME,
    Judge,
    LineSource,
    Settings,
    Verdict,
    default_analyst,
    judge_span,
    walk,
)
from pegboard.analysis.explain import explain
from pegboard.analysis.review import MoveRow, Review, SideSummary
from pegboard.errors import AnalysisRefused, MatchFileError
from pegboard.game import JSON, Game, Move, Result, State
from pegboard.plugins import resolve as _plugins
from pegboard.records.replay import plain

if TYPE_CHECKING:
    from pegboard.batch.runner import Executor
    from pegboard.plugins.manager import Plugins

#: The settings when none are given: the default judge (:func:`~pegboard.analysis.engine.default_analyst`) at the default budget.
DEFAULTS = Settings()
#: Spans of positions per worker when many run in parallel (fewer, larger spans cost less set-up).
SPANS_PER_JOB = 6


class Analysis:
    """One line of play to analyse (see the module docstring); build it with :meth:`of_record`
    or :meth:`of_line`."""

    def __init__(
        self,
        game: Game,
        source: LineSource,
        texts: Sequence[str],
        movers: Sequence[int],
        settings: Settings,
        plugins: Plugins | None = None,
        *,
        result: Result | None = None,
        label: str = "",
        record: Mapping[str, JSON] | None = None,
    ) -> None:
        self.game = game
        self.source = source
        self.plugins = _plugins(plugins)
        if settings.bot is None:
            settings = settings._replace(bot=default_analyst(game, self.plugins))
        self.settings = settings
        self.result = result
        self.label = label
        self.record = record
        self.judge = Judge(game, settings, self.plugins, seed=source.seed)  # fails early on an unknown bot or evaluator
        self.review = Review(game.seats, source.moves, texts, movers)
        self._explained = False

    @classmethod
    def of_record(
        cls,
        record: Any,
        settings: Settings = DEFAULTS,
        plugins: Plugins | None = None,
        *,
        path: str | Path | None = None,
    ) -> Analysis:
        """Check ``record`` (every stage ``pegboard validate`` runs) and prepare its analysis.

        Raises :class:`~pegboard.errors.MatchFileError` for an invalid record and
        :class:`~pegboard.errors.AnalysisRefused` for a hidden-information game still running.
        """
        from pegboard.records.validate import load_record

        registry = _plugins(plugins)
        replay = load_record(record, registry, path=path)
        label = str(path) if path is not None else "<record>"
        if replay.result is None and replay.game.hidden_information:
            raise AnalysisRefused(
                f"{label}: this {replay.game.name} game is still running; only finished games are analysed "
                "(an analysis sees everything, the fog included)"
            )
        source = LineSource(record["ruleset"], int(record["seed"]), tuple(record["moves"]))
        texts = [m.text for m in replay.moves]
        movers = [m.seat for m in replay.moves]
        return cls(replay.game, source, texts, movers, settings, registry, result=replay.result, label=label, record=record)

    @classmethod
    def of_line(
        cls, game: Game, start: State, moves: Sequence[Move], settings: Settings = DEFAULTS, plugins: Plugins | None = None
    ) -> Analysis:
        """The analysis of ``moves`` played from ``start`` (a hand-built position; left unchanged).

        Raises :class:`~pegboard.errors.IllegalMove` for a move that is not legal in turn.
        """
        state = start.clone()
        texts, movers, encoded = [], [], []
        for move in moves:
            if state.result is not None and state.can_extend():
                state.extend()
            texts.append(state.move_text(move))
            movers.append(state.to_move)
            state.apply(move)
            encoded.append(plain(game.encode_move(move)))
        source = LineSource(game.ruleset, 0, tuple(encoded), start=start.to_json())
        return cls(game, source, texts, movers, settings, plugins, result=state.result, label="<line>")

    # -- running --------------------------------------------------------------------------------

    def verdicts(self, start: int = 0, stop: int | None = None) -> Iterator[Verdict]:
        """Judge positions ``start`` to ``stop - 1`` (default: to the end) in this thread, one at a time."""
        stop = self.review.total if stop is None else stop
        for index, state in enumerate(walk(self.source, self.game)):
            if index >= stop:
                return
            if index >= start:
                yield self.judge.verdict(state, index)

    def run(self, progress: Callable[[int], None] | None = None) -> Review:
        """Judge every position here, explain the marked moves, and return the review."""
        for verdict in self.verdicts():
            self.review.add([verdict])
            if progress is not None:
                progress(1)
        return self.finish()

    def finish(self) -> Review:
        """Explain the marked moves once every position is judged; returns the review."""
        if not self.review.complete:
            raise RuntimeError("finish() before every position was judged")
        if not self._explained:
            self._explain()
            self._explained = True
        return self.review

    def _explain(self) -> None:
        review = self.review
        marked = {row.number: row for row in review.rows if row.mark is not None}
        if not marked:
            return
        last = max(marked)
        for index, state in enumerate(walk(self.source, self.game)):
            row = marked.get(index + 1)
            if row is not None:
                after = review.verdicts[index + 1]
                reply = after.best if after is not None else None
                row.explanation = explain(self.game, self.judge.evaluator, state, row, reply)
            if index + 1 >= last:
                break

    # -- describing ----------------------------------------------------------------------------

    @property
    def rows(self) -> list[MoveRow]:
        """One row per move judged so far, in move order (see :class:`~pegboard.analysis.review.MoveRow`)."""
        return self.review.rows

    @property
    def sides(self) -> list[SideSummary]:
        """Each seat's accuracy, average drop and marks."""
        return self.review.sides()

    @property
    def curve(self) -> list[float | None]:
        """Seat 0's win chance in every position, the start first (None: not judged yet)."""
        return self.review.curve()

    def annotated(self) -> dict[str, JSON]:
        """The analysed record with the review written into its ``annotations``."""
        from pegboard.analysis.annotate import annotated_record

        return annotated_record(self)

    @property
    def analyst(self) -> str:
        """Who judged: the bot's id, or the analysis search's name."""
        return self.settings.bot or SEARCH_NAME

    def players(self) -> list[str]:
        """The record's player names per seat (seat names for a hand-built line)."""
        players = list((self.record or {}).get("players") or [])
        names = []
        for seat, name in enumerate(self.game.seats):
            player = players[seat] if seat < len(players) else {}
            names.append(str(player.get("name") or name))
        return names

    def to_json(self) -> dict[str, JSON]:
        """The review as JSON, with what was analysed and how."""
        return {
            "record": self.label,
            "game": self.game.id,
            "moves": len(self.source.moves),
            "result": None if self.result is None else self.result.to_json(),
            "bot": self.analyst,
            "budget": self.settings.budget,
            **self.review.to_json(),
        }


def analyse_all(
    analyses: Sequence[Analysis],
    *,
    executor: Executor | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[Review]:
    """Judge every position of every analysis (on ``executor``, or here when it is None) and
    explain the marked moves; the reviews, in order. ``progress(n)`` hears of each n positions."""
    if executor is None:
        return [analysis.run(progress) for analysis in analyses]
    for number, verdicts in executor.run(judge_task, spans(analyses, jobs)):
        analyses[number].review.add(verdicts)
        if progress is not None:
            progress(len(verdicts))
    return [analysis.finish() for analysis in analyses]


def spans(analyses: Sequence[Analysis], jobs: int) -> list[tuple[int, LineSource, Settings, int, int]]:
    """The tasks of :func:`analyse_all`: (analysis number, source, settings, start, stop) per span,
    about :data:`SPANS_PER_JOB` spans per job over all the positions."""
    total = sum(a.review.total for a in analyses)
    size = max(1, math.ceil(total / (max(1, jobs) * SPANS_PER_JOB)))
    return [
        (number, analysis.source, analysis.settings, start, min(start + size, analysis.review.total))
        for number, analysis in enumerate(analyses)
        for start in range(0, analysis.review.total, size)
    ]


def judge_task(number: int, source: LineSource, settings: Settings, start: int, stop: int) -> tuple[int, list[Verdict]]:
    """One span of one record with the process-wide plugins: what the executors run."""
    return number, judge_span(source, settings, start, stop)


def read_analysis(path: str | Path, settings: Settings = DEFAULTS, plugins: Plugins | None = None) -> Analysis:
    """:meth:`Analysis.of_record` for a match file (JSON or a game's text format)."""
    from pegboard.records.files import parse_record, read_text

    registry = _plugins(plugins)
    try:
        record = parse_record(read_text(path), path, registry)
    except MatchFileError as exc:
        exc.path = exc.path or str(path)
        raise
    return Analysis.of_record(record, settings, registry, path=path)
