"""An example plugin: a one-file bot that works for any game.

Load it with ``pegboard --plugin plugins/examples/greedy_bot.py ...`` and pick
it like any other bot, e.g. ``pegboard --plugin plugins/examples/greedy_bot.py
match nodewar --blue greedy --red random``.

The bot looks one move ahead: it tries every legal move on its view of the
game (apply, score with the game's first evaluator, undo) and keeps the best.
Games without an evaluator get a random move. It only uses the public API:
``pegboard.hookimpl``, the :class:`~pegboard.specs.BotSpec` it returns, the
State methods and :func:`pegboard.scripting.evaluators` to find an evaluator.
"""

from __future__ import annotations

import random
import time
from typing import Any

from pegboard import Game, State, hookimpl
from pegboard.scripting import evaluators as evaluators_of
from pegboard.specs import Bot, BotSpec


class GreedyBot(Bot):
    """One-ply greedy search with the game's evaluator; ties broken by a seeded coin."""

    def __init__(self, game: Game, seed: int) -> None:
        self.rng = random.Random(seed)
        evaluators = evaluators_of(game)
        self.evaluator = next(iter(evaluators.values())).factory(game) if evaluators else None

    def choose(self, view: State, budget: float) -> Any:
        moves = view.legal_moves()
        self.rng.shuffle(moves)
        if self.evaluator is None:
            return moves[0]
        # evaluators score from seat 0's side: seat 0 maximises, every other seat minimises
        mover = view.to_move
        sign = 1.0 if mover == 0 else -1.0
        deadline = time.perf_counter() + max(budget, 0.001)
        best, best_score = moves[0], float("-inf")
        for move in moves:
            view.apply(move)
            try:
                result = view.result
                if result is not None and result.winner is not None:
                    score = 1e9 if result.winner == mover else -1e9  # a finished game beats any estimate
                else:
                    score = sign * self.evaluator.score(view)
            finally:
                view.undo()
            if score > best_score:
                best, best_score = move, score
            if time.perf_counter() > deadline:
                break  # out of time: the best move seen so far
        return best


@hookimpl
def pegboard_bots() -> list[BotSpec]:
    return [
        BotSpec(
            id="greedy",
            name="Greedy (example plugin)",
            factory=GreedyBot,
            game=None,
            budget=0.5,
            description="Tries every move one ply deep with the game's evaluator; random without one.",
        )
    ]
