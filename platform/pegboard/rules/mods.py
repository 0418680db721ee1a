"""Rule mods: scripted rule changes layered over a game when a ruleset names them.

:func:`apply_mods` wraps a :class:`~pegboard.game.Game` in a :class:`ModdedGame`
whose states are :class:`ModdedState` proxies: ``legal_moves`` runs each mod's
``filter_moves``, ``check``/``apply`` refuse what a mod refuses, and
``after_apply`` may add events. A ruleset without ``mods`` never gets here,
so the plain engine pays nothing.

Mods receive the engine's own state (never the proxy), so they can inspect
and search it without recursing through other mods.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pegboard.errors import RulesetError
from pegboard.game import JSON, Event, Game, IllegalMove, MoveT, Result, State
from pegboard.match.clock import ClockSettings

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins
    from pegboard.rules.rulesets import Ruleset
    from pegboard.specs import RuleMod


class _Mod:
    """One active mod with the id the ruleset named it by."""

    __slots__ = ("id", "impl")

    def __init__(self, mod_id: str, impl: RuleMod) -> None:
        self.id = mod_id
        self.impl = impl


class ModdedGame(Game[MoveT]):
    """A game with rule mods active; everything not about legality is the inner game's."""

    def __init__(self, inner: Game[MoveT], mods: Sequence[_Mod]) -> None:
        super().__init__(inner.ruleset)
        self.inner = inner
        self.mods = tuple(mods)
        self.id = inner.id
        self.name = inner.name
        self.seats = inner.seats
        self.hidden_information = inner.hidden_information
        self.stochastic = inner.stochastic

    def wrap(self, state: State[MoveT]) -> ModdedState[MoveT]:
        return ModdedState(self, state)

    def new_state(self, seed: int = 0) -> ModdedState[MoveT]:
        return self.wrap(self.inner.new_state(seed))

    def encode_move(self, move: MoveT) -> JSON:
        return self.inner.encode_move(move)

    def decode_move(self, data: JSON) -> MoveT:
        return self.inner.decode_move(data)

    def move_text(self, move: MoveT) -> str:
        return self.inner.move_text(move)

    def timers(self) -> ClockSettings | None:
        return self.inner.timers()

    def time_loss(self, seat: int, reason: str, text: str = "") -> Result:
        return self.inner.time_loss(seat, reason, text)

    def state_from_json(self, data: Mapping[str, JSON]) -> ModdedState[MoveT]:
        return self.wrap(self.inner.state_from_json(data))

    def rating_overrides(self, ratings: Sequence[float]) -> dict[str, JSON]:
        return self.inner.rating_overrides(ratings)

    def rating_gap(self, seat: int) -> float | None:
        return self.inner.rating_gap(seat)

    def state_from_observation(self, data: Mapping[str, JSON], player: int) -> ModdedState:
        return self.wrap(self.inner.state_from_observation(data, player))
    # mods add or remove moves the engine itself can play, so the encodings stay the inner game's
    def ply_limit(self) -> int | None:
        return self.inner.ply_limit()

    def action_count(self) -> int:
        return self.inner.action_count()

    def action_index(self, move: MoveT) -> int:
        return self.inner.action_index(move)

    def action_move(self, index: int) -> MoveT:
        return self.inner.action_move(index)

    def observation_shape(self) -> tuple[int, ...]:
        return self.inner.observation_shape()

    def observation_tensor(self, observation: Mapping[str, JSON], player: int) -> list[float]:
        return self.inner.observation_tensor(observation, player)

    def __getattr__(self, name: str) -> Any:
        # Not contract probing: game-specific helpers (text parsers, geometry) of the wrapped
        # engine stay reachable for the game's own renderer and text format.
        if name == "inner":  # not set yet (copy/unpickle): never recurse
            raise AttributeError(name)
        return getattr(self.inner, name)


class ModdedState(State[MoveT]):
    """A state proxy that applies the game's rule mods around the engine's state."""

    def __init__(self, game: ModdedGame[MoveT], inner: State[MoveT]) -> None:
        self.game = game
        self.modded = game
        self.inner = inner

    @property
    def to_move(self) -> int:
        return self.inner.to_move

    @property
    def result(self) -> Result | None:
        return self.inner.result

    @property
    def ply(self) -> int:
        return self.inner.ply

    def legal_moves(self) -> list[MoveT]:
        moves = self.inner.legal_moves()
        for mod in self.modded.mods:
            moves = list(mod.impl.filter_moves(self.inner, moves))
        return moves

    def check(self, move: MoveT) -> str | None:
        reason = self.inner.check(move)
        if reason is not None:
            return reason
        refused = self._refusing_mod(move)
        return None if refused is None else refused[1]

    def _refusing_mod(self, move: MoveT) -> tuple[str, str] | None:
        """The first mod refusing a move the engine accepts, with its reason."""
        for mod in self.modded.mods:
            reason = mod.impl.check(self.inner, move)
            if reason is not None:
                return mod.id, f"{reason} {mod.id}" if reason == mod.impl.FILTERED else reason
        return None

    def apply(self, move: MoveT) -> list[Event]:
        refused = None if self.inner.check(move) is not None else self._refusing_mod(move)
        if refused is not None:  # (an engine refusal is raised by the engine's own apply, with its rule id)
            mod_id, reason = refused
            raise IllegalMove(reason, rule=f"mod:{mod_id}", move=move)
        events = list(self.inner.apply(move))
        for mod in self.modded.mods:
            events.extend(mod.impl.after_apply(self.inner, move, events))
        return events

    def undo(self) -> MoveT:
        return self.inner.undo()

    def can_extend(self) -> bool:
        return self.inner.can_extend()

    def extend(self) -> None:
        self.inner.extend()

    def extension_turns(self) -> int | None:
        return self.inner.extension_turns()

    def timeout_move(self) -> MoveT | None:
        return self.inner.timeout_move()

    def concede_move(self, seat: int, reason: str) -> MoveT | None:
        return self.inner.concede_move(seat, reason)

    def clone(self) -> ModdedState[MoveT]:
        return ModdedState(self.modded, self.inner.clone())

    def to_json(self) -> dict[str, JSON]:
        return self.inner.to_json()

    def observation(self, player: int) -> dict[str, JSON]:
        return self.inner.observation(player)

    def player_view(self, player: int) -> ModdedState[MoveT]:
        return ModdedState(self.modded, self.inner.player_view(player))

    def move_text(self, move: MoveT) -> str:
        return self.inner.move_text(move)

    def move_text_for(self, move: MoveT, seat: int) -> str:
        return self.inner.move_text_for(move, seat)

    def __getattr__(self, name: str) -> Any:
        # As ModdedGame: the engine's own attributes (boards, counters) stay readable by its renderer.
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)


def apply_mods(game: Game, ruleset: Ruleset, plugins: Plugins) -> Game:
    """Wrap ``game`` with the mods ``ruleset`` names, in the order it names them."""
    if not ruleset.mods:
        return game
    known = plugins.rule_mods(ruleset.game)
    options = ruleset.data.get("mod_options", {}) or {}
    active = []
    for index, mod_id in enumerate(ruleset.mods):
        spec = known.get(mod_id)
        if spec is None:
            names = ", ".join(sorted(known)) or "none"
            raise RulesetError(f"unknown rule mod {mod_id!r} (known: {names})", path=ruleset.source, key=f"mods[{index}]")
        active.append(_Mod(mod_id, spec.factory(game, dict(options.get(mod_id, {})))))
    return ModdedGame(game, active)
