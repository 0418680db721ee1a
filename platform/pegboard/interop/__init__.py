"""Adapters that show Pegboard games to other tools (OpenSpiel, PettingZoo).

Each adapter is an optional extra (``pip install pegboard[openspiel]``, ``[pettingzoo]``)
and is imported only when asked for (:mod:`.loading` builds a game from its name).
Adapters see games only through the game contract (:mod:`pegboard.game`): the fixed
action space (``Game.action_count``/``action_index``/``action_move``), the observation
tensor, ``ply_limit`` and ``stochastic``.
"""

from __future__ import annotations

from pegboard.errors import AdapterError, MissingExtra
from pegboard.game import Game

DEFAULT_PLY_CAP = 20_000
"""Moves after which an adapter stops a game whose ``ply_limit`` is unknown (scored a draw)."""

SEED_OUTCOMES = 4096
"""How many engine seeds the start-of-game chance event of a stochastic game chooses from."""


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


def missing_extra(extra: str, exc: ImportError) -> MissingExtra:
    """The error an adapter raises when its extra is not installed (a usage error: exit 2)."""
    return MissingExtra(extra, f"the {extra} adapter ({exc})")


__all__ = ["AdapterError", "checked", "missing_extra", "ply_cap", "returns"]
