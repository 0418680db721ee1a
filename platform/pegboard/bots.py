"""Generic bots that play any game through the public :class:`~pegboard.game.State` API."""

from __future__ import annotations

import random

from .game import Game, Move, State
from .specs import Bot


class RandomBot(Bot):
    """Plays a uniformly random legal move; the same seed gives the same moves."""

    def __init__(self, game: Game | None = None, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: State, budget: float) -> Move:
        moves = view.legal_moves()
        if not moves:
            raise ValueError("no legal move to choose from")
        move: Move = moves[self.rng.randrange(len(moves))]
        return move
