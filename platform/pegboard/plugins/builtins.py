"""The platform's own plugin: what every game gets for free (``random``, ``mcts``, ``openspiel-mcts``).

Registered by :class:`pegboard.plugins.manager.Plugins` itself, through the same hooks
as any third-party plugin (like datasette's default plugins), as a :class:`BuiltIns`
object that holds the manager, so the MCTS bots can find the game's evaluator.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from pegboard.errors import UnknownId
from pegboard.game import Game, Move, State
from pegboard.hookspecs import hookimpl
from pegboard.specs import Bot, BotSpec

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins
    from pegboard.specs import Evaluator


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





#: The ``mcts`` bot's default seconds per move.
MCTS_BUDGET = 1.0


class BuiltIns:
    """The built-in plugin, registered by the :class:`~pegboard.plugins.manager.Plugins` that
    holds it: the ``mcts`` bot scores its playouts with the game's first evaluator, which it
    looks up through that manager when a bot is built."""

    def __init__(self, plugins: Plugins) -> None:
        self.plugins = plugins
        self.mcts = BotSpec(
            id="mcts",
            name="MCTS",
            factory=self.make_mcts,
            game=None,
            budget=MCTS_BUDGET,
            description="Monte Carlo tree search on the game contract: short random playouts scored by the "
                        "game's evaluator, a solver for forced wins, sampled chance and fog.",
        )
        self.openspiel_mcts = BotSpec(
            id="openspiel-mcts",
            name="OpenSpiel MCTS",
            factory=self.make_openspiel_mcts,
            game=None,
            budget=1.0,
            description="OpenSpiel's MCTSBot (UCT, solver) with rollouts through the native engine, scored by the "
                        "game's evaluator, under the time budget; needs pegboard[openspiel].",
        )

    def evaluator_for(self, game: Game) -> Evaluator | None:
        """The game's first registered evaluator, built for ``game``; None if it has none."""
        try:
            specs = self.plugins.evaluators(game.id)
        except UnknownId:
            return None
        for spec in specs.values():
            return spec.factory(game)
        return None

    def make_mcts(self, game: Game, seed: int) -> Bot:
        from pegboard.search.mcts import make_bot  # the search module loads only when the bot is used

        return make_bot(game, seed, self.evaluator_for(game))

    def make_openspiel_mcts(self, game: Game, seed: int) -> Bot:
        from pegboard.interop.mcts import make_bot  # needs the openspiel extra; imported only when used

        return make_bot(game, seed, self.evaluator_for(game))

    @hookimpl
    def pegboard_bots(self, game: str) -> list[BotSpec]:
        return [RANDOM, self.mcts, self.openspiel_mcts]
