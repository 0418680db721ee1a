"""A read-only window on a live state, for bots that only look.

:func:`pegboard.batch.runner.play_game` hands a bot whose :class:`~pegboard.specs.BotSpec`
says ``reads_only`` this view of the real state of a perfect-information game,
instead of a fresh :meth:`~pegboard.game.State.player_view` copy for every
decision. Queries go to the live state; anything that would change it raises
:class:`ReadOnlyError`. A bot that wants to search calls :meth:`clone` and
gets a private copy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pegboard.errors import ReadOnlyError
from pegboard.game import JSON, Event, Move, Refusal, Result, State

if TYPE_CHECKING:
    import random


class ReadOnlyState(State):
    """Every read of ``state``, no writes (``apply``, ``push``, ``undo``, ``extend`` raise)."""

    def __init__(self, state: State) -> None:
        self._state = state
        self.game = state.game

    @property
    def to_move(self) -> int:
        return self._state.to_move

    @property
    def result(self) -> Result | None:
        return self._state.result

    @property
    def ply(self) -> int:
        return self._state.ply

    def legal_moves(self) -> list[Move]:
        return self._state.legal_moves()

    def check(self, move: Move) -> Refusal | None:
        return self._state.check(move)

    def random_move(self, rng: random.Random) -> Move | None:
        return self._state.random_move(rng)

    def can_extend(self) -> bool:
        return self._state.can_extend()

    def _refuse(self, what: str) -> ReadOnlyError:
        return ReadOnlyError(f"this bot may only read the position ({what} refused); it can clone() it to search")

    def apply(self, move: Move) -> list[Event]:
        raise self._refuse("apply")

    def push(self, move: Move) -> None:
        raise self._refuse("push")

    def undo(self) -> Move:
        raise self._refuse("undo")

    def extend(self) -> None:
        raise self._refuse("extend")

    def clone(self) -> State:
        """A private, writable copy of the live state."""
        return self._state.clone()

    def to_json(self) -> dict[str, JSON]:
        return self._state.to_json()

    def observation(self, player: int) -> dict[str, JSON]:
        return self._state.observation(player)

    def player_view(self, player: int) -> State:
        return self._state.player_view(player)

    def move_text(self, move: Move) -> str:
        return self._state.move_text(move)
