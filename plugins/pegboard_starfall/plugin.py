"""Starfall's Pegboard hooks: the game, its bots, its evaluator, its board view and its benchmarks.

The per-game hooks take no ``game`` argument: every spec names its game, and the
platform keeps only the specs of the game it asks about."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pegboard import hookimpl
from pegboard.specs import BotSpec, GameSpec, data_dir

from .pieces import SIDE_NAMES

if TYPE_CHECKING:  # the tool specs are imported by the hooks that return them (see pegboard.toolspecs)
    from pegboard.specs import BenchSpec, EvaluatorSpec, Figure, RendererSpec


def _factory(ruleset: Any) -> Any:
    from .game import StarfallGame

    return StarfallGame(ruleset)


@hookimpl
def pegboard_games() -> GameSpec:
    return GameSpec(
        id="starfall",
        name="Starfall",
        factory=_factory,
        seats=SIDE_NAMES,
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


def _engine_bench(quick: bool) -> list[Figure]:
    from .bench import run

    return run(quick)


@hookimpl
def pegboard_benchmarks() -> BenchSpec:
    from pegboard.specs import BenchSpec  # only a bench needs it (see pegboard.toolspecs)

    return BenchSpec(id="starfall-engine", name="Starfall rules engine", game="starfall", run=_engine_bench)


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
                    "(docs/rules/starfall.md, Bots)" + ("; resigns a game lost on squares when it has no siege left."
                                                       if skill == 100 else "."),
        hint_after=HINT_AFTER if skill <= HINT_MAX_SKILL else None,
    )
    for skill in range(0, 101, 10)
)


@hookimpl
def pegboard_bots() -> tuple[BotSpec, ...]:
    return BOTS


def _evaluator(game: Any) -> Any:
    from .evaluator import StarfallEvaluator

    return StarfallEvaluator(game)


@hookimpl
def pegboard_evaluators() -> EvaluatorSpec:
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
def pegboard_renderers() -> RendererSpec:
    from pathlib import Path

    from pegboard.specs import RendererSpec

    return RendererSpec(id="board", name="Starfall board", game="starfall", factory=_board_view,
                        picture=Path(__file__).with_name("picture.png"))
