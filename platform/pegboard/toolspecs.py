"""The specs of the tools around a game (evaluators, renderers, benchmarks) and the values they return.

Part of the plugin API of :mod:`pegboard.specs`, which re-exports every name here: import
them from there. They live apart because a command that only replays games (``pegboard
validate``) never uses them, and a frozen dataclass costs every process that creates it
~3.5 M instructions (its methods are generated and compiled at import); ``pegboard.specs``
imports this module the first time one of these names is asked for.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic

from pegboard.game import JSON, Game, StateT

if TYPE_CHECKING:
    from pegboard.match.session import Session
    from pegboard.ui.board import BoardView


@dataclass(frozen=True)
class Term:
    """One named term of an evaluation.

    ``values`` holds each seat's raw value (in seat order), ``weight`` the
    factor applied, and ``contribution`` what the term adds to the score.
    """

    name: str
    values: tuple[float, ...]
    weight: float
    contribution: float
    description: str = ""

    def to_json(self) -> dict[str, JSON]:
        return {"name": self.name, "values": list(self.values), "weight": self.weight, "contribution": self.contribution}


@dataclass(frozen=True)
class Evaluation:
    """A static evaluation from seat 0's point of view, with its breakdown."""

    score: float
    terms: tuple[Term, ...] = ()

    def to_json(self) -> dict[str, JSON]:
        return {"score": self.score, "terms": [t.to_json() for t in self.terms]}


class Evaluator(ABC, Generic[StateT]):
    """Scores a position from seat 0's point of view (positive is good for seat 0)."""

    #: How big a score is: the window's evaluation bar fills ``0.5 + 0.5 * tanh(score / scale)``
    #: of the way for seat 0.
    scale: float = 10.0

    #: The constant of the logistic that turns a score into seat 0's chance of winning
    #: (:meth:`win_chance`): a score of ``win_scale`` is a 73 % chance, ``3 * win_scale`` 95 %.
    #: None (the default) uses ``scale / 2``, the curve the evaluation bar already draws
    #: (``0.5 + 0.5 * tanh(s / scale)`` is the logistic of ``s / (scale / 2)``).
    win_scale: float | None = None

    @abstractmethod
    def evaluate(self, state: StateT) -> Evaluation:
        """The score with its per-term breakdown."""

    def score(self, state: StateT) -> float:
        """The score alone; search calls this, so an override should skip the breakdown."""
        return self.evaluate(state).score

    def win_chance(self, score: float) -> float:
        """Seat 0's chance of winning (0 to 1) at ``score``: ``1 / (1 + exp(-score / win_scale))``.

        Analysis marks moves by how much of this chance they give away, so the marks mean
        the same in every game. Override it for a curve other than the logistic.
        """
        from pegboard.analysis.winchance import logistic

        scale = self.win_scale if self.win_scale is not None else self.scale / 2
        return logistic(score, scale if scale > 0 else 1.0)


@dataclass(frozen=True)
class EvaluatorSpec:
    """A static evaluator for one game; ``factory(game)`` returns an :class:`Evaluator`."""

    id: str
    name: str
    game: str
    factory: Callable[[Game], Evaluator]
    description: str = ""


@dataclass(frozen=True)
class RendererSpec:
    """The pyglet board view of a game.

    ``factory(game, session)`` returns an object implementing
    :class:`pegboard.ui.board.BoardView`. Importing pyglet is the factory's
    job, so registering a renderer costs nothing headless.
    """

    id: str
    name: str
    game: str
    factory: Callable[[Game, Session], BoardView]


@dataclass(frozen=True)
class Figure:
    """One benchmark measurement: ``name`` (what), ``value`` and ``unit`` ("moves/s")."""

    name: str
    value: float
    unit: str
    note: str = ""


@dataclass(frozen=True)
class BenchSpec:
    """A benchmark ``pegboard bench`` runs for ``game``.

    ``run(quick)`` returns :class:`Figure` rows; ``quick=True`` must finish in a
    few seconds (used by tests to prove the bench works, never to time it).
    """

    id: str
    name: str
    game: str
    run: Callable[[bool], list[Figure]]


__all__ = ["BenchSpec", "Evaluation", "Evaluator", "EvaluatorSpec", "Figure", "RendererSpec", "Term"]
