"""Games for the adapters by name: ``"<game>/<ruleset id or .toml path>"``."""

from __future__ import annotations

from dataclasses import dataclass

from pegboard.game import Game
from pegboard.interop import checked
from pegboard.plugins import resolve
from pegboard.plugins.manager import Plugins
from pegboard.rules.rulesets import Ruleset, list_rulesets, load_game, resolve_ruleset


@dataclass(frozen=True)
class LoadedGame:
    """A game and the ruleset it was built from, as an adapter loads it."""

    spec_id: str
    ruleset: Ruleset
    game: Game

    @property
    def key(self) -> str:
        """``"<game>/<ruleset id>"``."""
        return f"{self.spec_id}/{self.ruleset.id}"


def split_name(name: str) -> tuple[str, str | None]:
    """``"nodewar/wide"`` -> ("nodewar", "wide"); ``"nodewar"`` -> ("nodewar", None)."""
    game, _, ruleset = name.partition("/")
    return game, ruleset or None


def load(name: str, plugins: Plugins | None = None) -> LoadedGame:
    """Build the game ``"<game>[/<ruleset id or .toml path>]"`` and check it has an action encoding."""
    registry = resolve(plugins)
    game_id, ruleset_id = split_name(name)
    ruleset = resolve_ruleset(game_id, ruleset_id, plugins=registry)
    game = load_game(ruleset, plugins=registry)
    return LoadedGame(game_id, ruleset, checked(game))


def installed_names(plugins: Plugins | None = None) -> list[str]:
    """``"<game>/<ruleset>"`` for every installed game and shipped ruleset."""
    registry = resolve(plugins)
    return [f"{game}/{info.id}" for game in sorted(registry.games()) for info in list_rulesets(game, registry)]
