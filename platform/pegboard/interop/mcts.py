"""The ``openspiel-mcts`` bot: OpenSpiel's MCTSBot on a Pegboard bot's view, under a time budget.

Its leaf evaluator (:class:`NativeRolloutEvaluator`) is what makes it a fair opponent: it plays
the rollout on the Pegboard state underneath with the engine's own ``push`` and
``random_move``, and, when the game has an evaluator, stops after a few plies and scores the
position with it, so one simulation costs what the native engine costs (a short playout and
one evaluation) instead of a random game to the end through the adapter. The built-in
``mcts`` bot (:mod:`pegboard.search.mcts`) scores its playouts the same way, so the two differ
in the tree search alone.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    from pegboard.interop import missing_extra

    raise missing_extra("openspiel", exc) from exc

from pegboard.game import Game, State
from pegboard.interop import ply_cap, returns
from pegboard.interop.spiel import wrap_game
from pegboard.specs import Bot, Evaluator

#: Random plies an evaluated rollout plays before the game's evaluator scores it (the same
#: as the built-in ``mcts`` bot's playout).
ROLLOUT_PLIES = 4


class TimedMCTSBot(mcts.MCTSBot):  # type: ignore[misc]
    """OpenSpiel's MCTSBot searching until a deadline instead of a fixed simulation count."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deadline = 0.0
        self.simulations = 0

    def mcts_search(self, state: Any) -> Any:
        # The body of mcts.MCTSBot.mcts_search with a clock: two simulations at least (the
        # first evaluates the root, the second expands it), then as many as fit before the
        # deadline, or until the root is solved.
        root = mcts.SearchNode(None, state.current_player(), 1)
        self.simulations = 0
        while self.simulations < self.max_simulations:
            self.simulations += 1
            visit_path, working_state = self._apply_tree_policy(root, state)
            if working_state.is_terminal():
                result = working_state.returns()
                visit_path[-1].outcome = result
                solved = self.solve
            else:
                result = self.evaluator.evaluate(working_state)
                solved = False
            while visit_path:
                decision = -1
                while visit_path[decision].player == pyspiel.PlayerId.CHANCE:
                    decision -= 1
                target = result[visit_path[decision].player]
                node = visit_path.pop()
                node.total_reward += target
                node.explore_count += 1
                if solved and node.children:
                    player = node.children[0].player
                    if player == pyspiel.PlayerId.CHANCE:
                        outcome = node.children[0].outcome
                        if outcome is not None and all(np.array_equal(c.outcome, outcome) for c in node.children):
                            node.outcome = outcome
                        else:
                            solved = False
                    else:
                        best = None
                        all_solved = True
                        for child in node.children:
                            if child.outcome is None:
                                all_solved = False
                            elif best is None or child.outcome[player] > best.outcome[player]:
                                best = child
                        if best is not None and (all_solved or best.outcome[player] == self.max_utility):
                            node.outcome = best.outcome
                        else:
                            solved = False
            if root.outcome is not None or (self.simulations >= 2 and time.perf_counter() >= self.deadline):
                break
        return root


class NativeRolloutEvaluator(mcts.RandomRolloutEvaluator):  # type: ignore[misc]
    """OpenSpiel's leaf evaluator, played on the Pegboard state underneath with the engine's
    ``push`` and ``random_move``, and stopped at the search deadline.

    With a Pegboard ``evaluator`` the rollout plays ``plies`` random plies and scores the
    position it reaches: seat 0's return is ``tanh(score / scale)`` (the curve of the
    window's bar), seat 1's its negation. Without one it plays to the end of the game as
    ``RandomRolloutEvaluator`` does (an unfinished rollout scores as a draw). Priors are
    OpenSpiel's uniform ones.
    """

    def __init__(
        self, bot: TimedMCTSBot, random_state: Any, evaluator: Evaluator | None = None, plies: int = ROLLOUT_PLIES
    ) -> None:
        super().__init__(n_rollouts=1, random_state=random_state)
        self.bot = bot
        self.evaluator = evaluator
        self.plies = plies
        self.rng = random.Random(int(random_state.randint(2**31)))

    def evaluate(self, state: Any) -> Any:
        inner = state.inner
        game = state.get_game().pegboard
        if inner is None:  # a chance node: OpenSpiel's own rollout draws the seed
            return super().evaluate(state)
        seats = len(game.seats)
        cap = ply_cap(game)
        limit = inner.ply + self.plies if self.evaluator is not None and seats == 2 else cap
        deadline = self.bot.deadline
        played = 0
        push, random_move, rng = inner.push, inner.random_move, self.rng
        try:
            while inner.result is None and inner.ply < min(cap, limit):
                if self.evaluator is None and time.perf_counter() >= deadline:
                    return np.zeros(seats)
                move = random_move(rng)
                if move is None:
                    break
                push(move)
                played += 1
            result = inner.result
            if result is not None or self.evaluator is None or seats != 2:
                return np.array(returns(game, result.winner if result is not None else None))
            value = math.tanh(self.evaluator.score(inner) / self.evaluator.scale)
            return np.array([value, -value])
        finally:
            for _ in range(played):
                inner.undo()


class OpenSpielMCTS(Bot):
    """A Pegboard bot: OpenSpiel's MCTS (UCT, c = 2, one random rollout per leaf) on the bot's view.

    The view of a stochastic game carries no real seed (observations never include it),
    so the search plays the future refills of one made-up seed: a determinization.
    """

    def __init__(self, game: Game, seed: int = 0, *, uct_c: float = 2.0, evaluator: Evaluator | None = None) -> None:
        self.spiel = wrap_game(game)
        self.random = np.random.RandomState(seed)
        self.spiel_bot = TimedMCTSBot(
            self.spiel, uct_c=uct_c, max_simulations=10**9, evaluator=None, solve=True, random_state=self.random
        )
        self.spiel_bot.evaluator = NativeRolloutEvaluator(self.spiel_bot, self.random, evaluator)

    @property
    def simulations(self) -> int:
        """Simulations the last move's search ran (for the "simulations per move" figures)."""
        return int(self.spiel_bot.simulations)

    def choose(self, view: State, budget: float) -> Any:
        state = self.spiel.state_of(view.clone())
        self.spiel_bot.deadline = time.perf_counter() + max(0.0, budget)
        action = self.spiel_bot.step(state)
        return self.spiel.pegboard.action_move(int(action))

    def cancel(self) -> None:
        self.spiel_bot.deadline = 0.0  # the search and its rollout stop at their next check


def make_bot(game: Game, seed: int, evaluator: Evaluator | None = None) -> OpenSpielMCTS:
    return OpenSpielMCTS(game, seed, evaluator=evaluator)


__all__ = ["NativeRolloutEvaluator", "OpenSpielMCTS", "ROLLOUT_PLIES", "TimedMCTSBot", "make_bot"]
