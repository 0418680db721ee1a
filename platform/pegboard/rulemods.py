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

from .game import JSON, Event, Game, IllegalMove, Move, Result, State
from .rulesets import RulesetError

if TYPE_CHECKING:
    from .plugins import Plugins
    from .rulesets import Ruleset


class _Mod:
    """One active mod: its id and whichever of the three methods it implements."""

    __slots__ = ("id", "filter_moves", "check", "after_apply")

    def __init__(self, mod_id: str, impl: Any) -> None:
        self.id = mod_id
        self.filter_moves = getattr(impl, "filter_moves", None)
        self.check = getattr(impl, "check", None)
        self.after_apply = getattr(impl, "after_apply", None)


class ModdedGame(Game):
    """A game with rule mods active; everything not about legality is the inner game's."""

    def __init__(self, inner: Game, mods: Sequence[_Mod]) -> None:
        super().__init__(inner.ruleset)
        self.inner = inner
        self.mods = tuple(mods)
        self.id = inner.id
        self.name = inner.name
        self.seats = inner.seats
        self.hidden_information = inner.hidden_information

    def wrap(self, state: State) -> ModdedState:
        return ModdedState(self, state)

    def new_state(self, seed: int = 0) -> ModdedState:
        return self.wrap(self.inner.new_state(seed))

    def encode_move(self, move: Move) -> JSON:
        return self.inner.encode_move(move)

    def decode_move(self, data: JSON) -> Move:
        return self.inner.decode_move(data)

    def move_text(self, move: Move) -> str:
        return self.inner.move_text(move)

    def state_from_json(self, data: Mapping[str, JSON]) -> ModdedState:
        return self.wrap(self.inner.state_from_json(data))

    def rating_overrides(self, ratings: Sequence[float]) -> dict[str, JSON]:
        return self.inner.rating_overrides(ratings)

    def rating_gap(self, seat: int) -> float | None:
        return self.inner.rating_gap(seat)

    def __getattr__(self, name: str) -> Any:
        # game-specific helpers (text parsers, geometry) stay reachable
        if name == "inner":  # not set yet (copy/unpickle): never recurse
            raise AttributeError(name)
        return getattr(self.inner, name)


class ModdedState(State):
    """A state proxy that applies the game's rule mods around the engine's state."""

    def __init__(self, game: ModdedGame, inner: State) -> None:
        self.game = game
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

    def legal_moves(self) -> list[Move]:
        moves = self.inner.legal_moves()
        for mod in self.game.mods:
            if mod.filter_moves is not None:
                moves = list(mod.filter_moves(self.inner, moves))
        return moves

    def check(self, move: Move) -> str | None:
        reason = self.inner.check(move)
        if reason is not None:
            return reason
        for mod in self.game.mods:
            if mod.check is not None:
                reason = mod.check(self.inner, move)
                if reason is not None:
                    return reason
            elif mod.filter_moves is not None and move not in mod.filter_moves(self.inner, self.inner.legal_moves()):
                return f"not allowed by the rule mod {mod.id}"
        return None

    def _refusing_mod(self, move: Move) -> tuple[str, str] | None:
        if self.inner.check(move) is not None:
            return None  # the engine's own apply raises with its own rule id
        for mod in self.game.mods:
            if mod.check is not None:
                reason = mod.check(self.inner, move)
            elif mod.filter_moves is not None and move not in mod.filter_moves(self.inner, self.inner.legal_moves()):
                reason = f"not allowed by the rule mod {mod.id}"
            else:
                reason = None
            if reason is not None:
                return mod.id, reason
        return None

    def apply(self, move: Move) -> list[Event]:
        refused = self._refusing_mod(move)
        if refused is not None:
            mod_id, reason = refused
            raise IllegalMove(reason, rule=f"mod:{mod_id}", move=move)
        events = list(self.inner.apply(move))
        for mod in self.game.mods:
            if mod.after_apply is not None:
                events.extend(mod.after_apply(self.inner, move, events) or ())
        return events

    def undo(self) -> Move:
        return self.inner.undo()

    def can_extend(self) -> bool:
        return self.inner.can_extend()

    def extend(self) -> None:
        self.inner.extend()

    def clone(self) -> ModdedState:
        return ModdedState(self.game, self.inner.clone())

    def to_json(self) -> dict[str, JSON]:
        return self.inner.to_json()

    def observation(self, player: int) -> dict[str, JSON]:
        return self.inner.observation(player)

    def player_view(self, player: int) -> ModdedState:
        return ModdedState(self.game, self.inner.player_view(player))

    def move_text(self, move: Move) -> str:
        return self.inner.move_text(move)

    def __getattr__(self, name: str) -> Any:
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
