"""Adapters that show Pegboard games to other tools (OpenSpiel, PettingZoo).

Each adapter is an optional extra (``pip install pegboard[openspiel]``, ``[pettingzoo]``)
and is imported only when asked for. Adapters see games only through the game contract
(:mod:`pegboard.game`): the fixed action space (``Game.action_count``/``action_index``/
``action_move``), the observation tensor, ``ply_limit`` and ``stochastic``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..game import Game, PegboardError

if TYPE_CHECKING:
    from ..plugins import Plugins
    from ..rulesets import Ruleset

DEFAULT_PLY_CAP = 20_000
"""Moves after which an adapter stops a game whose ``ply_limit`` is unknown (scored a draw)."""

SEED_OUTCOMES = 4096
"""How many engine seeds the start-of-game chance event of a stochastic game chooses from."""


class AdapterError(PegboardError):
    """A game cannot be shown to an outside tool (no action encoding, missing extra)."""


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
    from ..plugins import get_plugins
    from ..rulesets import build_game, load_ruleset

    registry = plugins or get_plugins()
    game_id, ruleset_id = split_name(name)
    spec = registry.game(game_id)
    ruleset = load_ruleset(ruleset_id or spec.default_ruleset, game=game_id, plugins=registry)
    game = build_game(ruleset, registry)
    return LoadedGame(game_id, ruleset, checked(game))


def checked(game: Game) -> Game:
    """``game`` itself, once it is known to offer the encodings the adapters need."""
    if game.action_count() <= 0:
        raise AdapterError(f"{game.name} offers no fixed action encoding (Game.action_count), so no adapter can show it")
    if not game.observation_shape():
        raise AdapterError(f"{game.name} offers no observation tensor (Game.observation_shape)")
    return game


def ply_cap(game: Game) -> int:
    limit = game.ply_limit()
    return limit if limit is not None and limit > 0 else DEFAULT_PLY_CAP


def returns(game: Game, winner: int | None) -> list[float]:
    """+1 for the winner, -1 for every other seat, 0 for all on a draw (zero-sum for two seats)."""
    seats = len(game.seats)
    if winner is None:
        return [0.0] * seats
    return [1.0 if seat == winner else -1.0 / (seats - 1) for seat in range(seats)]


def installed_names(plugins: Plugins | None = None) -> list[str]:
    """``"<game>/<ruleset>"`` for every installed game and shipped ruleset."""
    from ..plugins import get_plugins
    from ..rulesets import list_rulesets

    registry = plugins or get_plugins()
    return [f"{game}/{info.id}" for game in sorted(registry.games()) for info in list_rulesets(game, registry)]


def missing_extra(extra: str, exc: ImportError) -> AdapterError:
    return AdapterError(f"this needs the optional extra: pip install 'pegboard[{extra}]' ({exc})")


__all__ = ["AdapterError", "LoadedGame", "Mapping", "checked", "installed_names", "load", "ply_cap", "returns", "split_name"]
