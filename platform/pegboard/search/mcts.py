"""The built-in ``mcts`` bot: Monte Carlo tree search on the game contract alone.

UCT (UCB1 over each node's children) with three additions that the contract makes possible:

- **Short playouts scored by the game's evaluator.** A simulation plays ``playout`` random
  plies (``State.random_move``) past the new leaf and scores the position it reaches with
  the game's first evaluator: seat 0 wins with probability ``0.5 + 0.5 * tanh(score /
  scale)``, ``scale`` being the evaluator's own (the window's bar uses the same curve; the
  bot was measured with it, before ``Evaluator.win_chance`` with its fitted, flatter
  ``win_scale`` existed). A game without an evaluator is played out to its end (a draw past
  ``PLAYOUT_CAP`` plies).
- **A solver** in two-seat games without chance or hidden information: a child whose move
  ends the game in the mover's favour is proven won, a node all of whose replies are proven
  lost for the replier is proven won, and so on up the tree (MCTS-Solver, Winands et al.
  2008). Proven wins are played at once; proven losses are avoided while anything else is
  left. This is what finds short forced wins that averages blur.
- **Chance and hidden information as the contract declares them.** When the game is
  ``stochastic`` or has ``hidden_information``, every simulation runs on a fresh
  ``Game.determinize(view, me, rng)``: a state the bot's view could be, with the unseen
  parts and the future chance draws sampled. The tree's nodes stand for move sequences
  (open loop), so statistics gather over the samples; a move found illegal in a sample
  is passed over there. The bot never sees more than the view it is handed.

Budgets: ``choose(view, seconds)`` and ``search(view, seconds=...)`` run simulations until the
clock says stop; ``search(view, work=N)`` runs exactly N simulations (the work unit is one
simulation) with a generator seeded as the bot was, so its answer depends only on the seed,
the view and N.

Everything in a simulation is push/undo on one state (the view itself, or the sample); the
evaluator is found once, when the bot is built, never in the loop.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from pegboard.game import Game, Move, State
from pegboard.specs import Bot, Evaluator, SearchResult

#: The exploration constant of UCB1 (rewards are 0..1); sqrt(2) is the textbook value,
#: less explores less. Measured in docs/balance.md ("The native mcts bot").
EXPLORATION = 0.9
#: Random plies a simulation plays past its new leaf before the evaluator scores it.
PLAYOUT = 4
#: Without an evaluator a playout runs to the end of the game, or is a draw past this.
PLAYOUT_CAP = 2_000
#: The principal line reported by :meth:`MCTSBot.search` stops after this many moves.
LINE_LIMIT = 12


class Node:
    """One move sequence from the root: who moved into it, its children, its statistics.

    ``reward`` sums the simulations' rewards for ``mover`` (1 a win, 0 a loss, 0.5 a
    draw); ``proven`` is 1.0 or 0.0 once the solver has proven the node won or lost for
    ``mover``.
    """

    __slots__ = ("move", "mover", "children", "untried", "visits", "reward", "proven")

    def __init__(self, move: Move | None, mover: int) -> None:
        self.move = move
        self.mover = mover
        self.children: list[Node] = []
        self.untried: list[Move] | None = None
        self.visits = 0
        self.reward = 0.0
        self.proven: float | None = None

    def mean(self) -> float:
        return self.reward / self.visits if self.visits else 0.5


class MCTSBot(Bot):
    """Monte Carlo tree search for any game (see the module docstring)."""

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        *,
        evaluator: Evaluator | None = None,
        exploration: float = EXPLORATION,
        playout: int = PLAYOUT,
    ) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)
        self.evaluator = evaluator
        self.scale = evaluator.scale if evaluator is not None else 1.0
        self.exploration = exploration
        self.playout = playout if evaluator is not None else PLAYOUT_CAP
        self.seats = len(game.seats)
        #: Sample a state per simulation: the view hides something or the game has chance.
        self.sampled = bool(game.stochastic or game.hidden_information)
        self.solver = self.seats == 2 and not self.sampled
        self.stop = False
        #: Simulations the last search ran (for the "simulations per move" figures).
        self.simulations = 0

    # -- the Bot API ---------------------------------------------------------------------

    def choose(self, view: State, budget: float) -> Move:
        return self.run(view, self.rng, time.perf_counter() + max(0.0, budget), None).move

    def search(self, view: State, *, seconds: float | None = None, work: int | None = None) -> SearchResult:
        """The most visited move, its win chance for the side to move, the most visited line."""
        if (seconds is None) == (work is None):
            raise ValueError("give exactly one budget: seconds or work")
        rng = random.Random(self.seed)
        if work is not None:
            return self.run(view, rng, math.inf, max(1, int(work)))
        return self.run(view, rng, time.perf_counter() + max(0.0, seconds or 0.0), None)

    def cancel(self) -> None:
        self.stop = True

    # -- the search ------------------------------------------------------------------------

    def run(self, view: State, rng: random.Random, deadline: float, simulations: int | None) -> SearchResult:
        """Simulations until ``deadline`` (or exactly ``simulations`` of them); at least one."""
        if view.result is not None or not view.legal_moves():
            raise ValueError("no legal move to choose from")
        me = view.to_move
        root = Node(None, -1)  # the root's own proven value just says the search is decided
        root.untried = view.legal_moves()
        rng.shuffle(root.untried)
        self.stop = False
        count = 0
        clock = time.perf_counter
        while True:
            state = self.game.determinize(view, me, rng) if self.sampled else view
            self.simulate(root, state, rng)
            count += 1
            if root.proven is not None or self.stop:
                break
            if simulations is not None:
                if count >= simulations:
                    break
            elif clock() >= deadline:
                break
        self.simulations = count
        best = self.best_child(root)
        line = self.line(root)
        chance = best.proven if best.proven is not None else best.mean()
        return SearchResult(move=best.move, win_chance=chance, line=line, work=count)

    def simulate(self, root: Node, state: State, rng: random.Random) -> None:
        """One simulation: select, expand one move, play out, back the reward up."""
        path = [root]
        node = root
        pushed = 0
        push = state.push
        rewards: Sequence[float] | None = None
        try:
            while state.result is None:
                if node.untried is None:
                    node.untried = state.legal_moves()
                    rng.shuffle(node.untried)
                move = self.untried(node, state)
                if move is not None:
                    child = Node(move, state.to_move)
                    push(move)
                    pushed += 1
                    node.children.append(child)
                    path.append(child)
                    node = child
                    break
                nxt = self.select(node, state)
                if nxt is None:
                    break
                if nxt.proven is not None:  # a proven node's value needs no playout
                    path.append(nxt)
                    rewards = self.proven_rewards(nxt)
                    break
                push(nxt.move)
                pushed += 1
                path.append(nxt)
                node = nxt
            if rewards is None:
                if state.result is not None and self.solver:
                    node.proven = self.terminal_value(state, node.mover)
                rewards, played = self.play_out(state, rng)
                pushed += played
        finally:
            if not self.sampled:
                for _ in range(pushed):
                    state.undo()
        for n in path:
            n.visits += 1
            if n.mover >= 0:
                n.reward += rewards[n.mover]
        if self.solver:
            self.prove(path)

    def untried(self, node: Node, state: State) -> Move | None:
        """Take the next untried move of ``node`` that is legal in ``state``, if any."""
        untried = node.untried
        if not untried:
            return None
        if not self.sampled:
            return untried.pop()
        check = state.check
        for i in range(len(untried) - 1, -1, -1):
            if check(untried[i]) is None:
                return untried.pop(i)
        return None

    def select(self, node: Node, state: State) -> Node | None:
        """The child to follow by UCB1 (a proven win first, a proven loss last)."""
        best, best_value = None, -math.inf
        log_n = math.log(node.visits + 1)
        c = self.exploration
        check = state.check if self.sampled else None
        fallback = None
        for child in node.children:
            proven = child.proven
            if proven == 1.0:
                return child
            if proven == 0.0:
                fallback = fallback or child
                continue
            value = child.reward / child.visits + c * math.sqrt(log_n / child.visits)
            if value > best_value and (check is None or check(child.move) is None):
                best, best_value = child, value
        return best if best is not None else fallback

    def proven_rewards(self, node: Node) -> list[float]:
        value = node.proven if node.proven is not None else 0.5
        out = [1.0 - value] * self.seats
        out[node.mover] = value
        return out

    def terminal_value(self, state: State, mover: int) -> float | None:
        """1.0 or 0.0 when the finished game is a win or loss for ``mover``; None for a draw."""
        result = state.result
        if result is None or result.winner is None:
            return None
        return 1.0 if result.winner == mover else 0.0

    def play_out(self, state: State, rng: random.Random) -> tuple[list[float], int]:
        """Random plies from ``state`` (left pushed: the caller undoes them) and each seat's reward."""
        played = 0
        push, random_move = state.push, state.random_move
        while state.result is None and played < self.playout:
            move = random_move(rng)
            if move is None:
                break
            push(move)
            played += 1
        return self.rewards(state), played

    def rewards(self, state: State) -> list[float]:
        """Each seat's reward for the position a playout reached."""
        result = state.result
        seats = self.seats
        if result is not None:
            if result.winner is None:
                return [0.5] * seats
            out = [0.0] * seats
            out[result.winner] = 1.0
            return out
        if self.evaluator is None or seats != 2:
            return [0.5] * seats
        p0 = 0.5 + 0.5 * math.tanh(self.evaluator.score(state) / self.scale)
        return [p0, 1.0 - p0]

    def prove(self, path: list[Node]) -> None:
        """Carry proven values up ``path`` (deepest first) as far as they decide a node."""
        for i in range(len(path) - 1, 0, -1):
            node, parent = path[i], path[i - 1]
            if node.proven is None:
                return
            if parent.proven is not None:
                continue
            if node.proven == 1.0:  # the player to move at parent has a winning move
                parent.proven = 0.0
            elif parent.untried == [] and all(child.proven == 0.0 for child in parent.children):
                parent.proven = 1.0  # every move there loses for the player to move
            else:
                return

    def best_child(self, root: Node) -> Node:
        """A proven win, else the most visited child not proven lost (the best mean on ties)."""
        children = root.children
        for child in children:
            if child.proven == 1.0:
                return child
        live = [c for c in children if c.proven != 0.0] or children
        return max(live, key=lambda c: (c.visits, c.mean()))

    def line(self, root: Node) -> tuple[Move, ...]:
        """The most visited (or proven winning) child at each step from the root."""
        out: list[Move] = []
        node = root
        while node.children and len(out) < LINE_LIMIT:
            node = self.best_child(node)
            if node.visits < 2 and out:
                break
            out.append(node.move)
        return tuple(out)


def make_bot(game: Game, seed: int, evaluator: Evaluator | None) -> MCTSBot:
    """The ``mcts`` bot with the default settings."""
    return MCTSBot(game, seed, evaluator=evaluator)


__all__ = ["EXPLORATION", "MCTSBot", "Node", "PLAYOUT", "make_bot"]
