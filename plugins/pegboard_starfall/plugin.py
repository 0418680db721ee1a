"""Starfall's Pegboard hooks: the game, its bots, its evaluator and its benchmarks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pegboard import hookimpl
from pegboard.specs import BotSpec, GameSpec
from pegboard.support.resources import data_dir

if TYPE_CHECKING:
    from pegboard.specs import EvaluatorSpec


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
        hint=_hint,
        strict_decode=True,  # moves.decode refuses all the move schema refuses
    )


def _hint(game: Any, state: Any, seat: int) -> Any:
    from .bots import hint

    return hint(game, state, seat)


@hookimpl
def pegboard_benchmarks(game: str) -> Any:
    if game != "starfall":
        return None
    from pegboard.specs import BenchSpec  # only a bench needs it (see pegboard.toolspecs)

    from .bench import run

    return BenchSpec(id="starfall-engine", name="Starfall rules engine", game="starfall", run=run)


#: Default seconds per move: only skill 100's timed search reads it (metered in work units,
#: bots.WORK_PER_SECOND a second); the lower levels' search is fixed.
SKILL_BUDGET = 0.4


def _skill_factory(skill: int) -> Any:
    def factory(game: Any, seed: int) -> Any:
        from .bots import SkillBot

        return SkillBot(game, seed, skill)

    return factory


#: The quieter hand: against a bot of this skill or less, a person idle this many seconds
#: on their turn is shown the best swap.
HINT_MAX_SKILL = 50
HINT_AFTER = 30.0

#: skill-0 ... skill-100, weakest first (so the CLI's default bot is skill-100).
BOTS = tuple(
    BotSpec(
        id=f"skill-{skill}",
        name=f"Skill {skill}",
        factory=_skill_factory(skill),
        game="starfall",
        budget=SKILL_BUDGET,
        description=f"Best move {skill}% of the time, else a random legal move; knows the ladder up to {skill} "
                    "(docs/rules/starfall.md, Bots).",
        hint_after=HINT_AFTER if skill <= HINT_MAX_SKILL else None,
    )
    for skill in range(0, 101, 10)
)


@hookimpl
def pegboard_bots(game: str) -> tuple[BotSpec, ...] | None:
    return BOTS if game == "starfall" else None


def _evaluator(game: Any) -> Any:
    from .evaluator import StarfallEvaluator

    return StarfallEvaluator(game)


@hookimpl
def pegboard_evaluators(game: str) -> EvaluatorSpec | None:
    if game != "starfall":
        return None
    from pegboard.specs import EvaluatorSpec

    return EvaluatorSpec(
        id="standard",
        name="Starfall standard evaluation",
        game="starfall",
        factory=_evaluator,
        description="Weighted terms from the ruleset's [evaluator] table, South's point of view.",
    )


def _board_view(game: Any, session: Any) -> Any:
    from .ui import make_view

    return make_view(game, session)


@hookimpl
def pegboard_renderers(game: str) -> Any:
    if game != "starfall":
        return None
    from pathlib import Path

    from pegboard.specs import RendererSpec

    return RendererSpec(id="board", name="Starfall board", game="starfall", factory=_board_view,
                        picture=Path(__file__).with_name("picture.png"))
