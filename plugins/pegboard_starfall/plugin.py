"""Starfall's Pegboard hooks: the game itself and its benchmarks."""

from __future__ import annotations

from typing import Any

from pegboard import hookimpl
from pegboard.resources import data_dir
from pegboard.specs import BenchSpec, GameSpec


def _factory(ruleset: Any) -> Any:
    from .game import StarfallGame

    return StarfallGame(ruleset)


@hookimpl
def pegboard_games() -> GameSpec:
    return GameSpec(
        id="starfall",
        name="Starfall",
        factory=_factory,
        seats=("South", "North"),
        schema_dir=data_dir("schemas", "starfall"),
        ruleset_dir=data_dir("rulesets", "starfall"),
        default_ruleset="standard",
        description="Swap stars into lines to earn drones, then claim the sky, fight and lay siege.",
    )


@hookimpl
def pegboard_benchmarks(game: str) -> Any:
    if game != "starfall":
        return None
    from .bench import run

    return BenchSpec(id="starfall-engine", name="Starfall rules engine", game="starfall", run=run)
