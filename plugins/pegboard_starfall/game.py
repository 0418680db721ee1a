"""The Starfall :class:`~pegboard.game.Game`: one ruleset's rules, building states."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pegboard.game import Game

from . import moves as mv
from .geometry import geometry
from .rules import Rules
from .state import StarfallState


class StarfallGame(Game):
    """Starfall under one resolved ruleset (see rulesets/starfall/standard.toml)."""

    id = "starfall"
    name = "Starfall"
    seats = ("South", "North")

    def __init__(self, ruleset: Mapping[str, Any] | None = None) -> None:
        super().__init__(ruleset or {})
        self.rules = Rules.from_ruleset(self.ruleset)
        self.geo = geometry(self.rules.width, self.rules.height)
        #: Fog hides squares from each side; then observations differ from the position.
        self.hidden_information = self.rules.fogged

    def rating_overrides(self, ratings: Sequence[float]) -> dict[str, Any]:
        """The players' ratings for "asteroids from ratings" (used when ``handicap.enabled``)."""
        south, north = ratings
        return {"handicap": {"south_rating": float(south), "north_rating": float(north)}}

    def rating_gap(self, seat: int) -> float | None:
        """The gap the handicap's asteroids leave, seen from ``seat`` (None with the handicap off)."""
        gap = self.rules.handicap_gap
        if not self.rules.handicap or gap is None:
            return None
        return gap if seat == 0 else -gap

    def new_state(self, seed: int = 0) -> StarfallState:
        from .setup import new_game

        st = StarfallState(self, seed)
        new_game(st)
        return st

    def encode_move(self, move: Any) -> dict[str, Any]:
        return mv.encode(self.geo, move)

    def decode_move(self, data: Any) -> mv.SfMove:
        return mv.decode(self.geo, data)

    def move_text(self, move: Any) -> str:
        return mv.text(self.geo, move)

    def state_from_json(self, data: Mapping[str, Any]) -> StarfallState:
        from .position import state_from_json

        return state_from_json(self, data, cls=StarfallState)

    def state_from_observation(self, data: Mapping[str, Any], player: int) -> StarfallState:
        """A side's view rebuilt from its observation (hidden squares become unknown)."""
        from .position import state_from_json

        return state_from_json(self, data, view_of=player, cls=StarfallState)
