"""OpenSpiel adapter: every installed game and ruleset as a pyspiel game.

    from pegboard.interop.openspiel import load_game
    game = load_game("nodewar/standard")        # a pyspiel.Game; OpenSpiel's algorithms play it
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)

Each ``<game>/<ruleset>`` is registered with pyspiel (``pyspiel.register_game``) under the
short name ``pegboard_<game>_<ruleset>``, so ``pyspiel.load_game`` finds it too once
:func:`register` (or :func:`load_game`) has run.

How the Pegboard contract maps onto OpenSpiel's:

* actions are the game's fixed action encoding (``Game.action_index``/``action_move``);
  legal actions are listed in ascending order, as OpenSpiel requires;
* a *stochastic* game (``Game.stochastic``: the seed deals the board and draws every
  refill) starts with one chance node that picks the engine seed, uniformly from
  ``0 .. SEED_OUTCOMES - 1``; from there the engine's seeded generator makes every
  later random event. The seed is never shown to a player, so to the players each refill
  is still chance, and such a game is declared IMPERFECT_INFORMATION (its future depends on
  something nobody observes) even where its board is fully visible;
* observations are ``State.observation(player)`` (fog removes what the player may not
  know): the observation string is that JSON, the tensor is ``Game.observation_tensor``;
  the information-state string is the player's own record of everything it observed (a
  digest of each observation since the start, plus its own actions), so it has perfect
  recall. Perfect-information deterministic games use the action history, as OpenSpiel's
  own games do;
* a game that reaches ``Game.ply_limit()`` (or the adapter's cap when the game gives none)
  without a result ends as a draw; the result of a finished game is +1 / -1 / 0.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from typing import Any

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    from . import missing_extra

    raise missing_extra("openspiel", exc) from exc

from ..game import Game, State
from . import SEED_OUTCOMES, LoadedGame, checked, installed_names, load, ply_cap, returns

_REGISTERED: dict[str, type[pyspiel.Game]] = {}
# pyspiel may hand a game back to Python as a new wrapper without its Python attributes, so
# what a game and its states need lives here, keyed by the game type's short name.
_META: dict[str, tuple[Game, int]] = {}


def short_name(loaded: LoadedGame) -> str:
    """The pyspiel short name of a loaded game: ``pegboard_<game>_<ruleset>``."""
    return "pegboard_" + re.sub(r"[^A-Za-z0-9_]", "_", f"{loaded.spec_id}_{loaded.ruleset.id}")


def _imperfect(game: Game) -> bool:
    return game.hidden_information or game.stochastic


def game_type(game: Game, name: str) -> pyspiel.GameType:
    seats = len(game.seats)
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=name,
        long_name=f"Pegboard {game.name} ({name})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if game.stochastic else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=info.IMPERFECT_INFORMATION if _imperfect(game) else info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if seats == 2 else pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=seats,
        min_num_players=seats,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )


def game_info(game: Game) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=game.action_count(),
        max_chance_outcomes=SEED_OUTCOMES if game.stochastic else 0,
        num_players=len(game.seats),
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=ply_cap(game) + (1 if game.stochastic else 0),
    )


class PegboardGame(pyspiel.Game):  # type: ignore[misc]
    """A Pegboard game (one ruleset) as a pyspiel game."""

    def __init__(self, game: Game, name: str, params: dict[str, Any] | None = None) -> None:
        _META[name] = (checked(game), ply_cap(game))
        super().__init__(game_type(game, name), game_info(game), params or {})

    @property
    def pegboard(self) -> Game:
        """The Pegboard game behind this pyspiel game."""
        return _META[self.get_type().short_name][0]

    def new_initial_state(self) -> PegboardState:
        # A deterministic game's start is built on first use: OpenSpiel's clone makes a
        # new initial state and then overwrites it.
        return PegboardState(self, None, start=not self.pegboard.stochastic)

    def state_of(self, inner: State) -> PegboardState:
        """A pyspiel state that continues from the Pegboard state ``inner`` (not copied)."""
        return PegboardState(self, inner)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self.pegboard, recall)


class PegboardState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state around a Pegboard :class:`~pegboard.game.State` (None before the seed is drawn)."""

    def __init__(self, game: PegboardGame, inner: State | None, *, start: bool = False) -> None:
        super().__init__(game)
        # OpenSpiel clones a Python state by deep-copying each attribute: keep them few and
        # cheap to copy (the rules live in _META, the position in a _Box that clones itself).
        self._name = game.get_type().short_name
        self._box = _Box(inner, start=start)
        #: per seat, what it has learnt move by move (see Observer); None until first asked for
        self._recall: _Recall | None = None

    @property
    def inner(self) -> State | None:
        """The Pegboard state (None before the seed of a stochastic game is drawn)."""
        box = self._box
        if box.inner is None and box.start:
            box.inner = self._rules.new_state(0)
        return box.inner

    @property
    def _rules(self) -> Game:
        return _META[self._name][0]

    @property
    def _cap(self) -> int:
        return _META[self._name][1]

    # -- the pyspiel.State API ---------------------------------------------------------

    def current_player(self) -> int:
        if self.inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.inner.to_move

    def is_terminal(self) -> bool:
        inner = self.inner
        return inner is not None and (inner.result is not None or inner.ply >= self._cap)

    def returns(self) -> list[float]:
        seats = len(self._rules.seats)
        if not self.is_terminal():
            return [0.0] * seats
        result = self.inner.result if self.inner is not None else None
        return returns(self._rules, result.winner if result is not None else None)

    def _moves(self) -> set[Any]:
        box = self._box
        if box.legal is None:
            inner = self.inner
            assert inner is not None
            index = self._rules.action_index
            box.legal = {move: index(move) for move in inner.legal_moves()}
        return box.legal.keys()  # type: ignore[return-value]

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or player != self.current_player():
            return []
        box = self._box
        if box.actions is None:
            self._moves()
            assert box.legal is not None
            box.actions = sorted(box.legal.values())
        return list(box.actions)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / SEED_OUTCOMES
        return [(seed, p) for seed in range(SEED_OUTCOMES)]

    def _apply_action(self, action: int) -> None:
        game = self._rules
        box = self._box
        inner = self.inner
        if inner is None:
            if not 0 <= action < SEED_OUTCOMES:
                raise ValueError(f"seed {action} is not a chance outcome")
            box.inner = game.new_state(int(action))
        else:
            move = game.action_move(int(action))
            if move not in self._moves():
                raise ValueError(f"action {action} ({game.move_text(move)}) is not legal here")
            inner.push(move)
        box.legal = box.actions = None
        if self._recall is not None:
            self._learn(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        game = self._rules
        return game.move_text(game.action_move(int(action)))

    def __str__(self) -> str:
        return "(the engine seed is not drawn yet)" if self.inner is None else str(self.inner)

    # -- what each seat has learnt (information states) ---------------------------------

    def recall(self, player: int) -> list[str]:
        """``player``'s record of the game so far: observation digests and its own actions."""
        if self._recall is None:
            self._rebuild_recall()
        assert self._recall is not None
        return self._recall.seen[player]

    def _rebuild_recall(self) -> None:
        self._recall = _Recall(len(self._rules.seats))
        history = self.history()
        replay = self.get_game().new_initial_state()
        replay._recall = self._recall
        if replay.inner is not None or not history:
            replay._observe()
        for action in history:
            replay.apply_action(action)
        self._recall = replay._recall

    def _learn(self, action: int) -> None:
        assert self._recall is not None
        if self.inner is not None and self.history():
            mover = self._mover_of_last()
            if mover is not None:
                self._recall.seen[mover].append(f"a{action}")
        self._observe()

    def _mover_of_last(self) -> int | None:
        hist = self.full_history()
        last = hist[-1] if hist else None
        return None if last is None or last.player < 0 else int(last.player)

    def _observe(self) -> None:
        assert self._recall is not None
        if self.inner is None:
            return
        for seat, seen in enumerate(self._recall.seen):
            text = json.dumps(self.inner.observation(seat), sort_keys=True, separators=(",", ":"))
            seen.append(hashlib.blake2b(text.encode(), digest_size=8).hexdigest())


class _Box:
    """Holds a state's Pegboard position; deep-copied (by OpenSpiel's clone) with ``State.clone``."""

    __slots__ = ("inner", "start", "legal", "actions")

    def __init__(self, inner: State | None, *, start: bool = False) -> None:
        self.inner = inner
        self.start = start  # inner is the game's seed-0 start, not built yet
        self.legal: dict[Any, int] | None = None  # legal move -> action index
        self.actions: list[int] | None = None  # the legal action indices, ascending

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        other = _Box(None if self.inner is None else self.inner.clone(), start=self.start)
        other.legal, other.actions = self.legal, self.actions  # never mutated, only replaced
        return other


class _Recall:
    """Per seat, the digests of what it observed and its own actions (copied cheaply on clone)."""

    __slots__ = ("seen",)

    def __init__(self, seats: int) -> None:
        self.seen: list[list[str]] = [[] for _ in range(seats)]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Recall:
        other = _Recall(0)
        other.seen = [list(seen) for seen in self.seen]
        return other


class Observer:
    """OpenSpiel's observer protocol: a tensor (and dict view) plus strings, per player."""

    def __init__(self, game: Game, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        shape = () if perfect_recall else game.observation_shape()
        self.tensor = np.zeros(int(np.prod(shape)) if shape else 0, np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)} if shape else {}

    def set_from(self, state: PegboardState, player: int) -> None:
        if self.perfect_recall or state.inner is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self.game.observation_tensor(state.inner.observation(player), player)

    def string_from(self, state: PegboardState, player: int) -> str:
        if self.perfect_recall:
            if not _imperfect(self.game):
                return " ".join(map(str, state.history()))
            return f"seat {player}: " + " ".join(state.recall(player))
        if state.inner is None:
            return "(the engine seed is not drawn yet)"
        return json.dumps(state.inner.observation(player), sort_keys=True, separators=(",", ":"))


# -- loading and registering ------------------------------------------------------------------


def _register(loaded: LoadedGame) -> type[PegboardGame]:
    name = short_name(loaded)
    found = _REGISTERED.get(name)
    if found is not None:
        return found
    game = loaded.game

    class Registered(PegboardGame):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            super().__init__(game, name, params)

    Registered.__name__ = f"PegboardGame_{name}"
    pyspiel.register_game(game_type(game, name), Registered)
    _REGISTERED[name] = Registered
    return Registered


def load_game(name: str) -> PegboardGame:
    """The pyspiel game for ``"<game>/<ruleset>"`` (ruleset id or .toml path; default: the game's standard)."""
    loaded = load(name)
    return _register(loaded)()


def register(names: list[str] | None = None) -> list[str]:
    """Register ``names`` (default: every installed game and ruleset) with pyspiel; returns their short names."""
    out = []
    for name in names if names is not None else installed_names():
        loaded = load(name)
        _register(loaded)
        out.append(short_name(loaded))
    return out


def wrap_game(game: Game) -> PegboardGame:
    """An unregistered pyspiel game around an already built Pegboard game (bots use this)."""
    return PegboardGame(game, "pegboard_" + re.sub(r"[^A-Za-z0-9_]", "_", game.id) + f"_{id(game):x}")


# -- the openspiel-mcts bot -------------------------------------------------------------------


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


class OpenSpielMCTS:
    """A Pegboard bot: OpenSpiel's MCTS (UCT, c = 2, one random rollout per leaf) on the bot's view.

    The view of a stochastic game carries no real seed (observations never include it),
    so the search plays the future refills of one made-up seed: a determinization.
    """

    def __init__(self, game: Game, seed: int = 0, *, uct_c: float = 2.0) -> None:
        self.spiel = wrap_game(game)
        self.random = np.random.RandomState(seed)
        self.search = TimedMCTSBot(
            self.spiel, uct_c=uct_c, max_simulations=10**9, evaluator=None, solve=True, random_state=self.random
        )
        self.search.evaluator = TimedRolloutEvaluator(self.search, self.random)

    def choose(self, view: State, budget: float) -> Any:
        state = self.spiel.state_of(view.clone())
        self.search.deadline = time.perf_counter() + max(0.0, budget)
        action = self.search.step(state)
        return self.spiel.pegboard.action_move(int(action))


def make_bot(game: Game, seed: int) -> OpenSpielMCTS:
    return OpenSpielMCTS(game, seed)


__all__ = ["OpenSpielMCTS", "PegboardGame", "PegboardState", "load_game", "make_bot", "register", "short_name", "wrap_game"]
