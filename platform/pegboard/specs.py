"""The small frozen dataclasses that plugin hooks return.

Each spec has an ``id`` (unique within its kind and game), a human ``name``
and a ``factory`` that builds the real object. The platform only calls the
factory when the thing is used, so listing plugins is cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from .game import JSON, Event, Game, Move, State


@dataclass(frozen=True)
class GameSpec:
    """A rules engine a plugin provides.

    ``factory(ruleset)`` returns a :class:`~pegboard.game.Game` for a resolved
    ruleset mapping. ``schema_dir`` holds ``ruleset.schema.json``,
    ``move.schema.json`` and ``position.schema.json``; ``ruleset_dir`` holds the
    game's shipped ``*.toml`` rulesets, ``default_ruleset`` names the standard one.
    ``text_formats`` maps a file suffix (".txt") to a :class:`TextFormat` the
    game can read and write match records in besides JSON.
    """

    id: str
    name: str
    factory: Callable[[Mapping[str, JSON]], Game]
    seats: tuple[str, ...]
    schema_dir: Path
    ruleset_dir: Path
    default_ruleset: str = "standard"
    description: str = ""
    text_formats: Mapping[str, TextFormat] = field(default_factory=dict)


class TextFormat(Protocol):
    """A game-specific text format for match records (e.g. Node War's .txt export)."""

    def dumps(self, record: Mapping[str, JSON], game: Game) -> str:
        """Render a match record (see pegboard.records) as text."""

    def loads(self, text: str, resolve_ruleset: Callable[[str], Mapping[str, JSON]]) -> dict[str, JSON]:
        """Parse text into a match record dict; raise records.MatchFileError naming the line.

        ``resolve_ruleset`` turns a ruleset id or path named in the file into a
        resolved ruleset mapping.
        """


@runtime_checkable
class Bot(Protocol):
    """Something that picks a move.

    ``choose`` receives a state built from the bot's own observation (never
    the full state of a hidden-information game) and a time budget in seconds.
    It must return one of ``view.legal_moves()`` and may search the view with
    apply/undo, leaving it as it found it.
    """

    def choose(self, view: State, budget: float) -> Move: ...


@dataclass(frozen=True)
class BotSpec:
    """A bot for one game (``game`` id), or for every game (``game`` is None).

    ``factory(game, seed)`` returns a :class:`Bot`; the same seed must give the
    same moves. ``budget`` is the default seconds per move.
    """

    id: str
    name: str
    factory: Callable[[Game, int], Bot]
    game: str | None = None
    budget: float = 1.0
    description: str = ""


@dataclass(frozen=True)
class Term:
    """One named term of an evaluation: each side's raw value and the weighted total."""

    name: str
    blue: float
    red: float
    weight: float
    contribution: float
    description: str = ""


@dataclass(frozen=True)
class Evaluation:
    """A static evaluation from seat 0's point of view, with its breakdown."""

    score: float
    terms: tuple[Term, ...] = ()

    def to_json(self) -> dict[str, JSON]:
        return {
            "score": self.score,
            "terms": [
                {"name": t.name, "seat0": t.blue, "seat1": t.red, "weight": t.weight, "contribution": t.contribution}
                for t in self.terms
            ],
        }


class Evaluator(Protocol):
    """Scores a position from seat 0's point of view (positive is good for seat 0).

    An optional ``scale`` attribute tells the window's evaluation bar how big a
    score is: the bar fills ``0.5 + 0.5 * tanh(score / scale)`` of the way for
    seat 0 (default 10).
    """

    def evaluate(self, state: State) -> Evaluation: ...

    def score(self, state: State) -> float:
        """The score alone; search calls this, so it should skip the breakdown."""


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
    factory: Callable[..., Any]


class RuleMod(Protocol):
    """A scripted rule change, active only when a ruleset names it in ``mods``.

    Every method is optional; the platform wraps the game so that:

    - ``filter_moves(state, moves)`` returns the moves that stay legal (it may
      remove moves, or add moves the engine itself can apply);
    - ``check(state, move)`` returns a reason to refuse a move, or None;
    - ``after_apply(state, move, events)`` returns extra events to report
      (it may inspect but must not mutate the state).
    """


@dataclass(frozen=True)
class RuleModSpec:
    """A rule mod for one game; ``factory(game, options)`` returns a :class:`RuleMod`.

    ``options`` is the ruleset table ``[mod_options.<id>]`` (empty if absent).
    """

    id: str
    name: str
    game: str
    factory: Callable[[Game, Mapping[str, JSON]], Any]
    description: str = ""


@dataclass(frozen=True)
class RulesetDir:
    """A folder of ``*.toml`` rulesets a plugin ships (for ``game``, or any if None)."""

    path: Path
    game: str | None = None


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


def as_list(value: Any) -> list[Any]:
    """Hooks may return one spec, a list of them, or None; flatten to a list."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


__all__ = [
    "BenchSpec",
    "Bot",
    "BotSpec",
    "Evaluation",
    "Evaluator",
    "EvaluatorSpec",
    "Event",
    "Figure",
    "GameSpec",
    "RendererSpec",
    "RuleMod",
    "RuleModSpec",
    "RulesetDir",
    "Term",
    "TextFormat",
    "as_list",
]
