"""The ``openspiel-mcts`` bot: OpenSpiel's MCTSBot on a Pegboard bot's view, under a time budget."""

from __future__ import annotations

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
from pegboard.specs import Bot


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


class TimedRolloutEvaluator(mcts.RandomRolloutEvaluator):  # type: ignore[misc]
    """OpenSpiel's random-rollout evaluator, played on the Pegboard state underneath and
    stopped at the search deadline (an unfinished rollout scores as a draw).

    Same distribution of moves as ``RandomRolloutEvaluator`` (uniform over the legal moves),
    without listing action indices at every ply, and never past the move's time budget.
    """

    def __init__(self, bot: TimedMCTSBot, random_state: Any) -> None:
        super().__init__(n_rollouts=1, random_state=random_state)
        self.bot = bot

    def evaluate(self, state: Any) -> Any:
        inner = state.inner
        game = state.get_game().pegboard
        if inner is None:  # a chance node: OpenSpiel's own rollout draws the seed
            return super().evaluate(state)
        work = inner.clone()
        cap = ply_cap(game)
        randint = self._random_state.randint
        deadline = self.bot.deadline
        while work.result is None and work.ply < cap:
            if time.perf_counter() >= deadline:
                return np.zeros(len(game.seats))
            moves = work.legal_moves()
            work.push(moves[randint(len(moves))])
        return np.array(returns(game, work.result.winner if work.result is not None else None))


class OpenSpielMCTS(Bot):
    """A Pegboard bot: OpenSpiel's MCTS (UCT, c = 2, one random rollout per leaf) on the bot's view.

    The view of a stochastic game carries no real seed (observations never include it),
    so the search plays the future refills of one made-up seed: a determinization.
    """

    def __init__(self, game: Game, seed: int = 0, *, uct_c: float = 2.0) -> None:
        self.spiel = wrap_game(game)
        self.random = np.random.RandomState(seed)
        self.spiel_bot = TimedMCTSBot(
            self.spiel, uct_c=uct_c, max_simulations=10**9, evaluator=None, solve=True, random_state=self.random
        )
        self.spiel_bot.evaluator = TimedRolloutEvaluator(self.spiel_bot, self.random)

    def choose(self, view: State, budget: float) -> Any:
        state = self.spiel.state_of(view.clone())
        self.spiel_bot.deadline = time.perf_counter() + max(0.0, budget)
        action = self.spiel_bot.step(state)
        return self.spiel.pegboard.action_move(int(action))

    def cancel(self) -> None:
        self.spiel_bot.deadline = 0.0  # the search and its rollout stop at their next check


def make_bot(game: Game, seed: int) -> OpenSpielMCTS:
    return OpenSpielMCTS(game, seed)


__all__ = ["OpenSpielMCTS", "TimedMCTSBot", "TimedRolloutEvaluator", "make_bot"]
