"""Starfall's fixed-size encodings for reinforcement-learning tools (see Game.action_count).

Actions (``n`` squares): the five two-square kinds (swap, fire, move, warp, strike) take
``kind * n² + a * n + b``; claim and build take ``n`` each; ram takes ``8 n`` (square,
direction); pass is the last index. Session-only moves (timeout, concede) have no index:
``legal_moves`` never lists them. 74 416 actions on the 11 x 11 board.

Observations: planes over the board from the observer's side, built from the observation
document only (under fog it has already lost what the observer may not know):

* one plane per star colour, then "no star" (a hole or an asteroid square), "unknown"
  (not visible) and "asteroid";
* squares I own, squares the opponent owns;
* per drone kind (command ... turret): my drone's power there, the opponent's;
* missiles carried (mine, the opponent's), wreck missiles;
* "it is my turn" (constant plane).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import moves as mv
from .pieces import LETTERS

if TYPE_CHECKING:
    from .game import StarfallGame

_PAIRS = (mv.SWAP, mv.FIRE, mv.MOVE, mv.WARP, mv.STRIKE)
_SINGLES = (mv.CLAIM, mv.BUILD)
_KINDS = len(LETTERS) - 1  # drone kinds 1 .. 9


class Encoding:
    """Action indices and observation planes for one Starfall ruleset."""

    def __init__(self, game: StarfallGame) -> None:
        self.width, self.height = game.geo.width, game.geo.height
        self.n = n = game.geo.size
        self.colors = game.rules.colors
        self.singles_at = len(_PAIRS) * n * n
        self.ram_at = self.singles_at + len(_SINGLES) * n
        self.pass_at = self.ram_at + 8 * n
        self.count = self.pass_at + 1
        self.planes = self.colors + 3 + 2 + 2 * _KINDS + 3 + 1

    def index(self, move: mv.SfMove) -> int:
        n = self.n
        if move.kind in _PAIRS:
            return (_PAIRS.index(move.kind) * n + move.a) * n + move.b
        if move.kind in _SINGLES:
            return self.singles_at + _SINGLES.index(move.kind) * n + move.a
        if move.kind == mv.RAM:
            return self.ram_at + move.a * 8 + move.b
        if move.kind == mv.PASS:
            return self.pass_at
        raise ValueError(f"no action index for a {move.kind} move (the session makes those)")

    def move(self, index: int) -> mv.SfMove:
        if type(index) is not int or not 0 <= index < self.count:
            raise ValueError(f"action index {index!r} is outside 0..{self.count - 1}")
        n = self.n
        if index < self.singles_at:
            kind, rest = divmod(index, n * n)
            a, b = divmod(rest, n)
            return mv.swap(a, b) if _PAIRS[kind] == mv.SWAP else mv.SfMove(_PAIRS[kind], a, b)
        if index < self.ram_at:
            kind, a = divmod(index - self.singles_at, n)
            return mv.SfMove(_SINGLES[kind], a)
        if index < self.pass_at:
            a, d = divmod(index - self.ram_at, 8)
            return mv.ram(a, d)
        return mv.PASS_MOVE

    def shape(self) -> tuple[int, ...]:
        return (self.planes, self.height, self.width)

    def tensor(self, obs: Mapping[str, Any], me: int) -> list[float]:
        n, w, colors = self.n, self.width, self.colors
        out = [0.0] * (self.planes * n)
        no_star, unknown, asteroid = colors, colors + 1, colors + 2
        owned = colors + 3
        drones = owned + 2
        carried = drones + 2 * _KINDS
        wreck, turn = carried + 2, carried + 3
        for r, row in enumerate(obs["stars"]):
            for c, star in enumerate(row):
                sq = r * w + c
                if star is None:
                    out[unknown * n + sq] = 1.0
                elif 0 <= star < colors:
                    out[star * n + sq] = 1.0
                else:
                    out[no_star * n + sq] = 1.0
        for c, r in obs["asteroids"]:
            out[asteroid * n + r * w + c] = 1.0
        for r, row in enumerate(obs["owners"]):
            for c, owner in enumerate(row):
                if owner is not None and owner >= 0:
                    out[(owned + (owner != me)) * n + r * w + c] = 1.0
        for drone in obs["drones"]:
            c, r = drone["at"]
            sq = r * w + c
            theirs = drone["side"] != me
            kind = LETTERS.index(drone["kind"]) - 1
            out[(drones + 2 * kind + theirs) * n + sq] = float(max(1, drone["power"]))
            out[(carried + theirs) * n + sq] = float(drone["missiles"])
        for item in obs["wrecks"]:
            c, r = item["at"]
            out[wreck * n + r * w + c] = float(item["missiles"])
        if obs.get("to_move") == me:
            out[turn * n:(turn + 1) * n] = [1.0] * n
        return out
