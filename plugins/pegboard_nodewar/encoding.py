"""Node War's fixed-size encodings for reinforcement-learning tools (see Game.action_count).

Actions: a move is (kind, source point, offset to the target). Every move's target lies
within the larger of the two reach radii ``R`` of its source, so the offset fits a
``(2R+1) x (2R+1)`` window and the action space has ``4 * points * (2R+1)²`` entries
(80 028 on the standard 13 x 19 board).

Observations: planes over the board, from the observing seat's side ("mine" first), built
from the observation document only:

0 my nodes, 1 my Base, 2 my alive nodes, 3 opponent's nodes, 4 opponent's Base,
5 opponent's alive nodes, 6 points on my live lines, 7 points on the opponent's live lines,
8 points on cut lines, 9 "it is my turn" (constant plane), 10 turns left / turn limit (constant plane).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from math import gcd
from typing import Any

PLANES = 11


class Encoding:
    """Action indices and observation planes for one Node War ruleset.

    The engine hands over its move kinds and move type (this module does not import it).
    """

    def __init__(self, game: Any, kinds: tuple[str, ...], move: Callable[[str, int, int], Any]) -> None:
        self.kinds = kinds
        self.make = move
        self.width, self.height = game.width, game.height
        self.size = game.width * game.height
        self.reach = max(game.params.base_radius, game.params.node_radius)
        self.span = 2 * self.reach + 1
        self.count = len(kinds) * self.size * self.span * self.span

    def index(self, move: Any) -> int:
        w, r, span = self.width, self.reach, self.span
        dx = move.dst % w - move.src % w
        dy = move.dst // w - move.src // w
        if abs(dx) > r or abs(dy) > r:
            raise ValueError(f"no action index for {move}: its target is beyond the reach window")
        return int(((self.kinds.index(move.kind) * self.size + move.src) * span + dy + r) * span + dx + r)

    def move(self, index: int) -> Any:
        if type(index) is not int or not 0 <= index < self.count:
            raise ValueError(f"action index {index!r} is outside 0..{self.count - 1}")
        rest, ox = divmod(index, self.span)
        rest, oy = divmod(rest, self.span)
        kind, src = divmod(rest, self.size)
        x, y = src % self.width + ox - self.reach, src // self.width + oy - self.reach
        if not (0 <= x < self.width and 0 <= y < self.height) or (ox, oy) == (self.reach, self.reach):
            raise ValueError(f"action index {index} names no move (its target is off the board)")
        return self.make(self.kinds[kind], src, y * self.width + x)

    def shape(self) -> tuple[int, ...]:
        return (PLANES, self.height, self.width)

    def tensor(self, obs: Mapping[str, Any], me: int) -> list[float]:
        size, w = self.size, self.width
        planes = [0.0] * (PLANES * size)
        for node in obs["nodes"]:
            p = node["y"] * w + node["x"]
            base = 0 if node["owner"] == me else 3
            planes[base * size + p] = 1.0
            if node["kind"] == "base":
                planes[(base + 1) * size + p] = 1.0
            if node["alive"]:
                planes[(base + 2) * size + p] = 1.0
        for line in obs["lines"]:
            plane = 8 if line["state"] == "cut" else (6 if line["owner"] == me else 7)
            (ax, ay), (bx, by) = line["ends"]
            steps = gcd(bx - ax, by - ay) or 1
            sx, sy = (bx - ax) // steps, (by - ay) // steps
            for k in range(steps + 1):
                planes[plane * size + (ay + k * sy) * w + ax + k * sx] = 1.0
        if obs.get("to_move") == me:
            planes[9 * size:10 * size] = [1.0] * size
        limit = obs.get("turn_limit") or 1
        left = max(0.0, (limit - obs.get("turn", 1) + 1) / limit)
        planes[10 * size:11 * size] = [left] * size
        return planes
