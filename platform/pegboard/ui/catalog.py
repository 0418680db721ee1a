"""What the window can offer for a game: rulesets, bots, evaluator, board view (no pyglet here)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
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


@dataclass(frozen=True)
class GameChoice:
    """One installed game as the game chooser shows it: its ``name``, its one-line
    ``description`` (the GameSpec's) and its ``picture`` (the renderer's, or None)."""

    id: str
    name: str
    description: str
    picture: Path | None


def game_choices(plugins: Any) -> list[GameChoice]:
    """Every installed game, in the order ``pegboard games`` lists them."""
    choices = []
    for spec in plugins.games().values():
        try:
            renderer = renderer_for(plugins, spec.id)
        except Exception:  # noqa: BLE001 - a plugin whose renderer hook raises still has a game to offer
            renderer = None
        picture = renderer.picture if renderer is not None else None
        choices.append(GameChoice(spec.id, spec.name or spec.id, spec.description,
                                  picture if picture is not None and picture.is_file() else None))
    return choices


def default_seats(plugins: Any, game_id: str) -> list[str]:
    """Who plays when nobody chose: a person in the first seat, the strongest bot in the others."""
    seats = plugins.game(game_id).seats
    return ["human", *[plugins.strongest_bot(game_id)] * (len(seats) - 1)]


def renderer_for(plugins: Any, game_id: str) -> RendererSpec | None:
    specs = plugins.renderers(game_id)
    return next(iter(specs.values())) if specs else None
