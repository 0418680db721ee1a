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
        self._encoding: Any = None

    #: The seed deals the board and draws every refill.
    stochastic = True

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

    # -- fixed-size encodings (see encoding.py) ----------------------------------------

    @property
    def encoding(self) -> Any:
        if self._encoding is None:
            from .encoding import Encoding

            self._encoding = Encoding(self)
        return self._encoding

    def ply_limit(self) -> int | None:
        # A turn is any number of missile shots, then one action; only scouts and hunters
        # shoot, each square at most its kind's shots a turn, and at most drone_cap squares.
        rules = self.rules
        return rules.max_turns * (1 + rules.drone_cap * max(rules.scout_shots, rules.hunter_shots))

    def action_count(self) -> int:
        return int(self.encoding.count)

    def action_index(self, move: Any) -> int:
        return int(self.encoding.index(move))

    def action_move(self, index: int) -> mv.SfMove:
        return self.encoding.move(index)  # type: ignore[no-any-return]

    def observation_shape(self) -> tuple[int, ...]:
        return self.encoding.shape()  # type: ignore[no-any-return]

    def observation_tensor(self, observation: Mapping[str, Any], player: int) -> list[float]:
        return self.encoding.tensor(observation, player)  # type: ignore[no-any-return]

    def state_from_json(self, data: Mapping[str, Any]) -> StarfallState:
        from .position import state_from_json

        return state_from_json(self, data, cls=StarfallState)

    def state_from_observation(self, data: Mapping[str, Any], player: int) -> StarfallState:
        """A side's view rebuilt from its observation (hidden squares become unknown)."""
        from .position import state_from_json

        return state_from_json(self, data, view_of=player, cls=StarfallState)
