"""An analysis that runs beside a window: one position at a time on a bot worker.

:class:`BackgroundAnalysis` judges the positions of an :class:`~pegboard.analysis.analyse.Analysis`
in order, each as one job of the session's own bot machinery (:mod:`pegboard.match.botworkers`):
``"process"`` forks a child per position (the window's frame loop keeps its core), ``"thread"``
thinks on a daemon thread, ``"inline"`` judges one position inside each :meth:`poll` (tests and
headless drivers: a frame then costs one position's work budget, never the whole game).
:meth:`poll` never blocks on a running job; it hands each verdict to the analysis's
:class:`~pegboard.analysis.review.Review` as it arrives.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from pegboard.analysis.engine import Judge, Verdict, walk
from pegboard.match.botworkers import BotJob, make_worker
from pegboard.specs import Bot

if TYPE_CHECKING:
    from pegboard.analysis.analyse import Analysis
    from pegboard.analysis.review import Review
    from pegboard.game import Move, State


class PositionJudge(Bot):
    """The worker's "bot" for one position: its answer is the :class:`Verdict` of the position
    it is shown (position ``index`` of the line), not a move to play."""

    def __init__(self, judge: Judge, index: int) -> None:
        self.judge = judge
        self.index = index

    def choose(self, view: State, budget: float) -> Move:
        return self.judge.verdict(view, self.index)


class BackgroundAnalysis:
    """Judges every position of ``analysis`` on a ``workers`` worker (see the module docstring).

    ``error`` holds what went wrong (a bot's crash), after which nothing more is judged.
    """

    def __init__(self, analysis: Analysis, workers: str = "process") -> None:
        self.analysis = analysis
        self.workers = workers
        self._worker = make_worker(workers)
        self._positions: Iterator[State] = walk(analysis.source, analysis.game)
        self._next = 0
        self.error: str | None = None
        self.closed = False

    @property
    def review(self) -> Review:
        return self.analysis.review

    @property
    def total(self) -> int:
        """Positions to judge (one per move, and the last)."""
        return self.review.total

    @property
    def done(self) -> int:
        """Positions judged so far."""
        return self.review.done

    @property
    def complete(self) -> bool:
        return self.review.complete

    @property
    def running(self) -> bool:
        """True while positions are still being judged."""
        return not (self.complete or self.closed or self.error is not None)

    def poll(self) -> list[Verdict]:
        """Take the verdicts that have arrived, start the next position; never waits for a job.

        Once every position is judged the marked moves are explained (in this thread: it walks
        the line once with the evaluator, without searching).
        """
        arrived: list[Verdict] = []
        if self.closed:
            return arrived
        arrived += self._collect()
        if self.running and not self._worker.busy and self._next < self.total:
            self._start_next()
            arrived += self._collect()  # an inline worker has answered already
        if arrived and self.complete:
            self.analysis.finish()
        return arrived

    def _collect(self) -> list[Verdict]:
        found: list[Verdict] = []
        self._worker.collect()
        while not self._worker.done.empty():
            job = self._worker.done.get_nowait()
            if job.error is not None:
                self.error = f"the analysis of move {job.generation + 1} failed: {job.error}"
                continue
            verdict = job.answer
            assert isinstance(verdict, Verdict)
            self.review.add([verdict])
            found.append(verdict)
        return found

    def _start_next(self) -> None:
        """Start the first position not judged yet (a resumed review skips those it has)."""
        verdicts = self.review.verdicts
        while self._next < self.total:
            index = self._next
            state = next(self._positions)
            self._next += 1
            if verdicts[index] is None:
                # the walk moves its one state on: the job gets a copy of its own
                self._worker.start(BotJob(index, 0, PositionJudge(self.analysis.judge, index), state.clone(), 0.0))
                return

    def wait(self, timeout: float | None = 30.0) -> bool:
        """Block until the running position is judged (headless drivers and tests only)."""
        return self._worker.join(timeout)

    def close(self) -> None:
        """Stop: a running position is cancelled (a process is killed) and its verdict dropped."""
        if not self.closed:
            self.closed = True
            self._worker.close()


__all__ = ["BackgroundAnalysis", "PositionJudge"]
