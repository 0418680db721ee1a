"""Node War's plugin hooks: the game, its bots, its evaluator and its benchmarks.

Registered through the ``pegboard`` entry point ``nodewar``, exactly like a
third-party plugin. Factories import their modules lazily, so listing plugins
costs nothing.
"""

from __future__ import annotations

from typing import Any

from pegboard import hookimpl
from pegboard.resources import data_dir
from pegboard.specs import BenchSpec, BotSpec, EvaluatorSpec, GameSpec

from .rules import SEATS


def _factory(ruleset: Any) -> Any:
    from .engine import NodeWarGame

    return NodeWarGame(ruleset)


@hookimpl
def pegboard_games() -> GameSpec:
    from .textformat import MatchText

    return GameSpec(
        id="nodewar",
        name="Node War",
        factory=_factory,
        seats=SEATS,
        schema_dir=data_dir("schemas", "nodewar"),
        ruleset_dir=data_dir("rulesets", "nodewar"),
        default_ruleset="standard",
        description="Grow a network from your Base, cut enemy lines, keep your nodes joined to the Base.",
        text_formats={".txt": MatchText()},
    )


@hookimpl
def pegboard_benchmarks(game: str) -> list[BenchSpec] | None:
    if game != "nodewar":
        return None
    from .bench import run
    from .bots import bench as bots_bench

    return [
        BenchSpec(id="nodewar-engine", name="Node War engine", game="nodewar", run=run),
        BenchSpec(id="nodewar-bots", name="Node War evaluator and bots", game="nodewar", run=bots_bench),
    ]


def _bot(level: str) -> Any:
    def factory(game: Any, seed: int) -> Any:
        from . import bots

        return getattr(bots, f"{level}Bot")(game, seed)

    return factory


#: Built-in levels, weakest first (the CLI's default bot is the last one).
BOTS = (
    BotSpec(
        id="easy",
        name="Easy",
        factory=_bot("Easy"),
        game="nodewar",
        budget=0.02,
        description="Greedy on immediate gains over a random sample of moves.",
    ),
    BotSpec(
        id="medium",
        name="Medium",
        factory=_bot("Medium"),
        game="nodewar",
        budget=0.1,
        description="One ply: every legal move scored by the static evaluation.",
    ),
    BotSpec(
        id="hard",
        name="Hard",
        factory=_bot("Hard"),
        game="nodewar",
        budget=0.5,
        description="Two-ply alpha-beta over the best moves and the strongest replies.",
    ),
    BotSpec(
        id="expert",
        name="Expert",
        factory=_bot("Expert"),
        game="nodewar",
        budget=1.0,
        description="Iterative-deepening alpha-beta with a transposition table, under a time budget.",
    ),
)


@hookimpl
def pegboard_bots(game: str) -> tuple[BotSpec, ...] | None:
    return BOTS if game == "nodewar" else None


def _evaluator(game: Any) -> Any:
    from .evaluator import NodeWarEvaluator

    return NodeWarEvaluator(game)


@hookimpl
def pegboard_evaluators(game: str) -> EvaluatorSpec | None:
    if game != "nodewar":
        return None
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
def pegboard_renderers(game: str) -> Any:
    if game != "nodewar":
        return None
    from pegboard.specs import RendererSpec

    return RendererSpec(id="board", name="Node War board", game="nodewar", factory=_board_view)
