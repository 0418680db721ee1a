"""What a session remembers and announces: one :class:`PlyRecord` per move, a :class:`Change`
per change, told to listeners and to plugins' observers by a :class:`Broadcaster`."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pegboard.game import Event, Move, events_for

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins

log = logging.getLogger("pegboard.match.session")


@dataclass(frozen=True)
class PlyRecord:
    """One move of the history: who played it, how it reads, and what it did.

    ``text`` is the move in full; ``seat_texts`` (empty when every seat may read ``text``)
    holds it as each seat may be told of it (:meth:`pegboard.game.State.move_text_for`).
    """

    number: int
    seat: int
    move: Move
    text: str
    events: tuple[Event, ...]
    by: str
    clock: tuple[float | None, ...] | None = None
    seat_texts: tuple[str, ...] = ()

    def text_for(self, seat: int | None) -> str:
        """The move as the player of ``seat`` may read it (None: the full text, for no seat in particular)."""
        if seat is None or not 0 <= seat < len(self.seat_texts):
            return self.text
        return self.seat_texts[seat]

    def events_for(self, seat: int | None) -> list[Event]:
        """The move's events the player of ``seat`` may know about (None: all of them)."""
        return list(self.events) if seat is None else events_for(self.events, seat)


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


class Broadcaster:
    """A session's listeners (each called with every :class:`Change`) and its plugins'
    ``pegboard_match_event`` observers (each called with every :class:`Event`).

    A listener or observer that raises is logged and skipped: it never breaks the match.
    """

    def __init__(self) -> None:
        self.listeners: list[Listener] = []

    def add(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def remove(self, listener: Listener) -> None:
        if listener in self.listeners:
            self.listeners.remove(listener)

    def change(self, change: Change) -> None:
        for listener in list(self.listeners):
            try:
                listener(change)
            except Exception:  # noqa: BLE001 - a broken listener must not break the match
                log.exception("session listener failed on %s", change.kind)

    def events(self, plugins: Plugins | None, session: Any, events: Iterable[Event]) -> None:
        if plugins is None:
            return
        for event in events:
            try:
                plugins.notify(session, event)
            except Exception:  # noqa: BLE001
                log.exception("pegboard_match_event observer failed")


__all__ = ["Broadcaster", "Change", "Listener", "PlyRecord"]
