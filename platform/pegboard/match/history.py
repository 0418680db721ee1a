"""What a session remembers and announces: one :class:`PlyRecord` per move, a :class:`Change` per change."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pegboard.game import Event, Move


@dataclass(frozen=True)
class PlyRecord:
    """One move of the history: who played it, how it reads, and what it did."""

    number: int
    seat: int
    move: Move
    text: str
    events: tuple[Event, ...]
    by: str
    clock: tuple[float | None, ...] | None = None


@dataclass(frozen=True)
class Change:
    """A notice sent to session listeners.

    ``kind``: ``move`` (a move was played; ``by`` is ``human``, a bot id or
    ``timeout``), ``undo``, ``redo``, ``jump``, ``restart``, ``import``,
    ``seats``, ``extend``, ``result`` (the game just ended), ``thinking`` (a bot
    started), ``bot_error``, ``paused``, ``resumed``. ``ply`` is the position
    after the change.
    """

    kind: str
    ply: int
    move: Move | None = None
    seat: int | None = None
    events: tuple[Event, ...] = ()
    by: str = ""
    text: str = ""


Listener = Callable[[Change], None]


__all__ = ["Change", "Listener", "PlyRecord"]
