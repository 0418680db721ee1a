"""Node War's plugin hooks: the game, its bots, its evaluator and its benchmarks.

Registered through the ``pegboard`` entry point ``nodewar``, exactly like a
third-party plugin. Factories import their modules lazily, so listing plugins
costs nothing. The per-game hooks take no ``game`` argument: every spec names its
game, and the platform keeps only the specs of the game it asks about.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pegboard import hookimpl
from pegboard.game import JSON, Game
from pegboard.specs import BotSpec, GameSpec, data_dir

if TYPE_CHECKING:  # the tool specs are imported by the hooks that return them (see pegboard.toolspecs)
    from pegboard.specs import BenchSpec, EvaluatorSpec, Figure, RendererSpec

from .seats import SEATS


def _factory(ruleset: Any) -> Any:
    from .engine import NodeWarGame

    return NodeWarGame(ruleset)


class _LazyMatchText:
    """The ``.txt`` format (:class:`.textformat.MatchText`), imported on first use.

    The format module imports the engine and the record code; listing games
    (``pegboard games``, every start-up that reads the game specs) needs neither.
    """

    suffix = ".txt"

    def dumps(self, record: Mapping[str, JSON], game: Game) -> str:
        from .textformat import MatchText

        return MatchText().dumps(record, game)

    def loads(self, text: str, resolve_ruleset: Callable[[str], Mapping[str, JSON]]) -> dict[str, JSON]:
        from .textformat import MatchText

        return MatchText().loads(text, resolve_ruleset)


@hookimpl
def pegboard_games() -> GameSpec:
    return GameSpec(
        id="nodewar",
        name="Node War",
        factory=_factory,
        seats=SEATS,
        schema_dir=data_dir("schemas", "nodewar"),
        ruleset_dir=data_dir("rulesets", "nodewar"),
        default_ruleset="standard",
        description="Grow a network from your Base, cut enemy lines, keep your nodes joined to the Base.",
        text_formats={".txt": _LazyMatchText()},
        strict_decode=True,
    )


def _engine_bench(quick: bool) -> list[Figure]:
    from .bench import run

    return run(quick)


def _bots_bench(quick: bool) -> list[Figure]:
    from .bots import bench

    return bench(quick)


@hookimpl
def pegboard_benchmarks() -> list[BenchSpec]:
    from pegboard.specs import BenchSpec

    return [
        BenchSpec(id="nodewar-engine", name="Node War engine", game="nodewar", run=_engine_bench),
        BenchSpec(id="nodewar-bots", name="Node War evaluator and bots", game="nodewar", run=_bots_bench),
    ]


def _bot(cls_name: str) -> Callable[[Any, int], Any]:
    def factory(game: Any, seed: int) -> Any:
        from . import bots

        return getattr(bots, cls_name)(game, seed)

    return factory


#: (name, default budget in seconds, description) per built-in level, weakest first
#: (the CLI's default bot is the last one). The bot class is ``<name>Bot`` in bots.py.
_LEVELS = (
    ("Easy", 0.02, "Greedy on immediate gains over a random sample of moves."),
    ("Medium", 0.1, "One ply: every legal move scored by the static evaluation."),
    ("Hard", 0.5, "Two-ply alpha-beta over the best moves and the strongest replies."),
    ("Expert", 1.0, "Iterative-deepening alpha-beta with a transposition table, under a time budget."),
)

BOTS = tuple(
    BotSpec(
        id=name.lower(),
        name=name,
        factory=_bot(f"{name}Bot"),
        game="nodewar",
        budget=budget,
        description=description,
    )
    for name, budget, description in _LEVELS
)


@hookimpl
def pegboard_bots() -> tuple[BotSpec, ...]:
    return BOTS


def _evaluator(game: Any) -> Any:
    from .evaluator import NodeWarEvaluator

    return NodeWarEvaluator(game)


@hookimpl
def pegboard_evaluators() -> EvaluatorSpec:
    from pegboard.specs import EvaluatorSpec

    return EvaluatorSpec(
        id="standard",
        name="Node War standard evaluation",
        game="nodewar",
        factory=_evaluator,
        description="Fourteen weighted terms from the ruleset's [evaluator] table, Blue's point of view.",
    )


def _board_view(game: Any, session: Any) -> Any:
    from .view import NodeWarView  # imports pyglet, so only when a window opens

    return NodeWarView(game, session)


@hookimpl
def pegboard_renderers() -> RendererSpec:
    from pathlib import Path

    from pegboard.specs import RendererSpec

    return RendererSpec(id="board", name="Node War board", game="nodewar", factory=_board_view,
                        picture=Path(__file__).with_name("picture.png"))
