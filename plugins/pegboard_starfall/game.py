"""The Starfall :class:`~pegboard.game.Game`: one ruleset's rules, building states."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pegboard.game import Game

from . import moves as mv
from .geometry import ORTHOGONAL, geometry
from .pieces import SIDE_NAMES
from .rules import Rules
from .state import StarfallState


class StarfallGame(Game):
    """Starfall under one resolved ruleset (see rulesets/starfall/standard.toml)."""

    id = "starfall"
    name = "Starfall"
    seats = SIDE_NAMES

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

    def determinize(self, view: Any, player: int, rng: random.Random) -> StarfallState:
        """A state ``view`` could be (see :meth:`pegboard.game.Game.determinize`): a made-up
        seed for the refills still to come and, under fog, a random star on every unseen
        square the view leaves blank, each one that completes no line with the stars beside
        it. The other side's drones and asteroids out of sight stay unknown: a view has none
        there, and guessing them would invent pieces."""
        from . import fog
        from .rng import seed_key

        st: StarfallState = view.clone()
        st.seed = rng.getrandbits(62)
        st.key = seed_key(st.seed)
        st.draws = 0
        if self.rules.fogged:
            seen = fog.visible(st, player)
            star, ast, colors = st.star, st.ast, self.rules.colors
            width, height = self.geo.width, self.geo.height
            for sq, known in enumerate(seen):
                if known or star[sq] >= 0 or ast[sq]:
                    continue
                c, r = sq % width, sq // width
                banned = 0
                for dc, dr in ORTHOGONAL:
                    c1, r1, c2, r2 = c + dc, r + dr, c + 2 * dc, r + 2 * dr
                    if 0 <= c2 < width and 0 <= r2 < height:
                        a, b = star[r1 * width + c1], star[r2 * width + c2]
                        if a >= 0 and a == b:
                            banned |= 1 << a
                allowed = [k for k in range(colors) if not banned >> k & 1] or list(range(colors))
                star[sq] = allowed[rng.randrange(len(allowed))]
            st.memo.forget()
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
