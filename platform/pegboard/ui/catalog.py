"""What the window can offer for a game: rulesets, bots, evaluator, board view (no pyglet here)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pegboard.game import Game
from pegboard.specs import BotSpec, RendererSpec


@dataclass(frozen=True)
class RulesetChoice:
    """One installed ruleset of a game: ``ref`` ("nodewar/standard"), ``id`` and a display ``name``."""

    ref: str
    id: str
    name: str


def ruleset_choices(plugins: Any, game_id: str) -> list[RulesetChoice]:
    """Every installed ruleset of ``game_id`` (shipped and from plugins), default first."""
    from pegboard.errors import RulesetError
    from pegboard.rules.rulesets import list_rulesets, read_toml

    default = plugins.game(game_id).default_ruleset
    choices = []
    for ref in list_rulesets(game_id, plugins):
        try:
            name = str(read_toml(ref.path).get("name", ref.id))
        except RulesetError:
            name = f"{ref.id} (unreadable)"
        choices.append(RulesetChoice(ref.ref, ref.id, name))
    choices.sort(key=lambda c: (c.id != default, c.id))
    return choices


def bot_choices(plugins: Any, game_id: str) -> list[BotSpec]:
    """Every bot that can play ``game_id``, in registration order."""
    return list(plugins.bots(game_id).values())


def evaluator_for(plugins: Any, game: Game) -> Any:
    """The game's first evaluator, built for ``game``, or None."""
    specs = plugins.evaluators(game.id)
    if not specs:
        return None
    return next(iter(specs.values())).factory(game)


def renderer_for(plugins: Any, game_id: str) -> RendererSpec | None:
    specs = plugins.renderers(game_id)
    return next(iter(specs.values())) if specs else None
