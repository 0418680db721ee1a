"""Node War's plugin hooks: the game itself and its benchmarks.

Registered through the ``pegboard`` entry point ``nodewar``, exactly like a
third-party plugin. Bots and evaluators register their own hooks in their
own modules of this package.
"""

from __future__ import annotations

from typing import Any

from pegboard import hookimpl
from pegboard.resources import data_dir
from pegboard.specs import BenchSpec, GameSpec

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

    return [BenchSpec(id="nodewar-engine", name="Node War engine", game="nodewar", run=run)]


def _board_view(game: Any, session: Any) -> Any:
    from .view import NodeWarView  # imports pyglet, so only when a window opens

    return NodeWarView(game, session)


@hookimpl
def pegboard_renderers(game: str) -> Any:
    if game != "nodewar":
        return None
    from pegboard.specs import RendererSpec

    return RendererSpec(id="board", name="Node War board", game="nodewar", factory=_board_view)
