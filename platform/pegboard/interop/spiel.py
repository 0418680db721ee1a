"""The OpenSpiel adapter's game, state and observer classes.

:mod:`pegboard.interop.openspiel` loads and registers games by name and documents how the
Pegboard contract maps onto OpenSpiel's; :func:`wrap_game` wraps an already built game
(the ``openspiel-mcts`` bot uses it).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    from pegboard.interop import missing_extra

    raise missing_extra("openspiel", exc) from exc

from pegboard.game import Game, State
from pegboard.interop import SEED_OUTCOMES, checked, ply_cap, returns

# pyspiel may hand a game back to Python as a new wrapper without its Python attributes, so
# what a game and its states need lives here, keyed by the game type's short name.
_META: dict[str, tuple[Game, int]] = {}


def spiel_name(*parts: str) -> str:
    """A pyspiel short name: ``pegboard_`` and the parts, with anything but letters, digits and _ as _."""
    return "pegboard_" + re.sub(r"[^A-Za-z0-9_]", "_", "_".join(parts))


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



def wrap_game(game: Game) -> PegboardGame:
    """An unregistered pyspiel game around an already built Pegboard game (bots use this)."""
    return PegboardGame(game, spiel_name(game.id, f"{id(game):x}"))
