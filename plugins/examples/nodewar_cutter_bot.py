"""An example plugin: a Node War bot that loves cutting, written against the public API only.

Load it with ``pegboard --plugin plugins/examples/nodewar_cutter_bot.py`` and
pick it as ``cutter``::

    pegboard --plugin plugins/examples/nodewar_cutter_bot.py match nodewar --blue cutter --red easy --games 10

It is the bot built step by step in docs/plugins.md ("Tutorial: writing a
Node War bot"). For every legal move it plays the move on its view, reads
the events the engine reports (``nodes_died``, ``nodes_revived``), asks the
opponent's best immediate cut in reply the same way, and undoes everything.
The standard evaluator breaks ties. No engine internals: only
``State.legal_moves / apply / undo / result``, the events, and the
evaluator found through the plugin manager.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from pegboard import Game, State, hookimpl
from pegboard.scripting import evaluators
from pegboard.specs import Bot, BotSpec

NODE = 10.0  # what one node is worth, in evaluator points (the standard alive_nodes weight)


def swing(events: Iterable[Any]) -> int:
    """Nodes a move killed plus nodes it revived, read from its events."""
    return sum(e.data.get("count", 0) for e in events if e.kind in ("nodes_died", "nodes_revived"))


class CutterBot(Bot):
    """Maximise (nodes won now) - (nodes the best reply wins back), then the evaluation."""

    def __init__(self, game: Game, seed: int) -> None:
        self.rng = random.Random(seed)
        self.evaluator = next(iter(evaluators(game).values())).factory(game)
        self.width = 12  # how many of our best moves get the reply check

    def value(self, view: State, mover: int) -> float:
        """The evaluator's score for ``mover`` (it always scores from Blue's side)."""
        score = self.evaluator.score(view)
        return score if mover == 0 else -score

    def best_reply_swing(self, view: State) -> float:
        """The most nodes the player to move can win with one move (a win counts as everything)."""
        replier, best = view.to_move, 0.0
        for reply in view.legal_moves():
            events = view.apply(reply)
            gained = 1e6 if view.result is not None and view.result.winner == replier else swing(events)
            view.undo()
            best = max(best, gained)
        return best

    def choose(self, view: State, budget: float) -> Any:
        mover = view.to_move
        scored = []
        for move in view.legal_moves():
            events = view.apply(move)
            if view.result is not None and view.result.winner == mover:
                view.undo()
                return move  # a move that wins at once
            scored.append((NODE * swing(events) + self.value(view, mover) + self.rng.random() * 1e-3, move))
            view.undo()
        scored.sort(key=lambda item: item[0], reverse=True)
        best, best_value = scored[0][1], float("-inf")
        for first, move in scored[: self.width]:
            view.apply(move)
            net = first - NODE * self.best_reply_swing(view)
            view.undo()
            if net > best_value:
                best, best_value = move, net
        return best


@hookimpl
def pegboard_bots() -> list[BotSpec]:
    return [
        BotSpec(
            id="cutter",
            name="Cutter (example plugin)",
            factory=CutterBot,
            game="nodewar",
            budget=0.5,
            description="Cuts whatever kills the most, unless the best reply wins it back.",
        )
    ]
