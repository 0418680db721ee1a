"""OpenSpiel adapter: every installed game and ruleset as a pyspiel game.

    from pegboard.interop.openspiel import spiel_game
    game = spiel_game("nodewar/standard")        # a pyspiel.Game; OpenSpiel's algorithms play it
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)

Each ``<game>/<ruleset>`` is registered with pyspiel (``pyspiel.register_game``) under the
short name ``pegboard_<game>_<ruleset>``, so ``pyspiel.load_game`` finds it too once
:func:`register` (or :func:`spiel_game`) has run. (:func:`pegboard.load_game` builds
the Pegboard game itself; this module wraps it.)

How the Pegboard contract maps onto OpenSpiel's:

* actions are the game's fixed action encoding (``Game.action_index``/``action_move``);
  legal actions are listed in ascending order, as OpenSpiel requires;
* a *stochastic* game (``Game.stochastic``: the seed deals the board and draws every
  refill) starts with one chance node that picks the engine seed, uniformly from
  ``0 .. SEED_OUTCOMES - 1``; from there the engine's seeded generator makes every
  later random event. The seed is never shown to a player, so to the players each refill
  is still chance, and such a game is declared IMPERFECT_INFORMATION (its future depends on
  something nobody observes) even where its board is fully visible;
* observations are ``State.observation(player)`` (fog removes what the player may not
  know): the observation string is that JSON, the tensor is ``Game.observation_tensor``;
  the information-state string is the player's own record of everything it observed (a
  digest of each observation since the start, plus its own actions), so it has perfect
  recall. Perfect-information deterministic games use the action history, as OpenSpiel's
  own games do;
* a game that reaches ``Game.ply_limit()`` (or the adapter's cap when the game gives none)
  without a result ends as a draw; the result of a finished game is +1 / -1 / 0.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pegboard.interop.loading import LoadedGame, installed_names, load
from pegboard.interop.spiel import PegboardGame, PegboardState, game_type, spiel_name, wrap_game

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    from pegboard.interop import missing_extra

    raise missing_extra("openspiel", exc) from exc

_REGISTERED: dict[str, Callable[[], PegboardGame]] = {}


def short_name(loaded: LoadedGame) -> str:
    """The pyspiel short name of a loaded game: ``pegboard_<game>_<ruleset>``."""
    return spiel_name(loaded.spec_id, loaded.ruleset.id)


def _register(loaded: LoadedGame) -> Callable[[], PegboardGame]:
    name = short_name(loaded)
    found = _REGISTERED.get(name)
    if found is not None:
        return found
    game = loaded.game

    class Registered(PegboardGame):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            super().__init__(game, name, params)

    Registered.__name__ = f"PegboardGame_{name}"
    pyspiel.register_game(game_type(game, name), Registered)
    _REGISTERED[name] = Registered
    return Registered


def spiel_game(name: str) -> PegboardGame:
    """The pyspiel game for ``"<game>/<ruleset>"`` (ruleset id or .toml path; default: the game's standard)."""
    loaded = load(name)
    return _register(loaded)()


def register(names: list[str] | None = None) -> list[str]:
    """Register ``names`` (default: every installed game and ruleset) with pyspiel; returns their short names."""
    out = []
    for name in names if names is not None else installed_names():
        loaded = load(name)
        _register(loaded)
        out.append(short_name(loaded))
    return out




__all__ = ["PegboardGame", "PegboardState", "register", "spiel_game", "short_name", "wrap_game"]
