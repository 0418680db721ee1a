"""The platform's own plugin: what every game gets for free.

Registered by :class:`pegboard.plugins.manager.Plugins` itself, through the same hooks
as any third-party plugin (like datasette's default plugins).
"""

from __future__ import annotations

import random

from pegboard.game import Game, Move, State
from pegboard.hookspecs import hookimpl
from pegboard.specs import Bot, BotSpec


class RandomBot(Bot):
    """Plays a uniformly random legal move of any game; the same seed gives the same moves."""

    def __init__(self, game: Game | None = None, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: State, budget: float) -> Move:
        move: Move | None = view.random_move(self.rng)
        if move is None:
            raise ValueError("no legal move to choose from")
        return move


RANDOM = BotSpec(
    id="random",
    name="Random",
    factory=lambda game, seed: RandomBot(game, seed),
    game=None,
    budget=0.0,
    description="Plays a random legal move (seeded). Works for every game.",
    reads_only=True,
)



def _openspiel_mcts(game: Game, seed: int) -> Bot:
    from pegboard.interop.mcts import make_bot  # needs the openspiel extra; imported only when used

    return make_bot(game, seed)


OPENSPIEL_MCTS = BotSpec(
    id="openspiel-mcts",
    name="OpenSpiel MCTS",
    factory=_openspiel_mcts,
    game=None,
    budget=1.0,
    description="OpenSpiel's MCTSBot (UCT, random rollouts) under the time budget; needs pegboard[openspiel].",
)


@hookimpl
def pegboard_bots(game: str) -> list[BotSpec]:
    return [RANDOM, OPENSPIEL_MCTS]
