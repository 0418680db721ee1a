"""An online match seen as a :class:`~pegboard.match.session.Session`, for the match window.

The window and the board views draw ``session.state`` and play with
``session.play(move)``. :class:`OnlineSession` gives them that vocabulary for a
match played through an :class:`~pegboard.online.client.OnlineClient`, in either
role: its ``state`` is always this player's own view (never the host's full
position), its history holds the moves this side may know about, and ``play``
sends the move (a host plays it into its real session at once; a guest waits
for the host's answer). Its :attr:`online` flag tells views that the rules,
seats and seed are fixed: no restart, no seat changes, no undo.

It does not poll the network: whoever owns the client (the window's Play a
friend controller) polls it every frame and hands each match notice to
:meth:`OnlineSession.receive`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pegboard.errors import SessionError
from pegboard.game import Event, IllegalMove, InvalidMoveEncoding, Move, Refusal, Result
from pegboard.match.history import Change, PlyRecord
from pegboard.match.seats import HUMAN, SeatController
from pegboard.match.session import Session

if TYPE_CHECKING:
    from pathlib import Path

    from pegboard.online.client import OnlineClient
    from pegboard.online.player import Notice

NOT_ONLINE = "not in an online match: its rules and moves are fixed by the host"


class OnlineSession(Session):
    """The match of ``client`` (paired and accepted) as a session a window can draw and drive.

    ``first_ply`` is the ply of the first state the guest's window follows (its history starts
    there; the default is the latest state received).
    """

    online = True

    def __init__(self, client: OnlineClient, *, first_ply: int | None = None,
                 time_source: Callable[[], float] = time.monotonic) -> None:
        player = client.player
        seat = client.seat
        game = player.host.game if player.host is not None else player.guest.game if player.guest is not None else None
        if game is None or seat is None:
            raise SessionError("the online match has not been paired yet")
        names = player.names()
        seats = [SeatController(remote=names[i] if i < len(names) else player.peer_name) for i in range(len(game.seats))]
        seats[seat] = SeatController()
        label = player.host.ruleset_label if player.host is not None else player.guest.label if player.guest is not None else None
        super().__init__(game, seats, 0, ruleset=label, plugins=player.plugins, workers="inline", time_source=time_source)
        self.client = client
        self.seat = seat
        self._host_session = player.host.session if player.host is not None else None
        self._host_clocks: list[float | None] = []
        self._host_clocks_at = 0.0
        # a guest's history starts where it came in (a resumed guest never saw the earlier moves)
        guest = player.guest
        self._seen_ply = first_ply if first_ply is not None else guest.last.ply if guest is not None and guest.last else 0
        if self._host_session is not None:
            self._host_session.add_listener(self._host_changed)
        self._refresh()

    # -- what the window and views read --------------------------------------------------------

    @property
    def result(self) -> Result | None:
        return self.client.result

    @property
    def to_move(self) -> int:
        to_move = self.client.player.to_move
        return to_move if to_move is not None else self.state.to_move

    @property
    def can_undo(self) -> bool:
        return False

    @property
    def can_redo(self) -> bool:
        return False

    @property
    def thinking(self) -> int | None:
        return None

    def player_label(self, seat: int) -> str:
        """``"You (South)"`` or ``"Bob (North)"``."""
        ctl = self.seats[seat]
        who = "You" if seat == self.seat else (ctl.remote or "the other player")
        return f"{who} ({self.seat_name(seat)})"

    def input_block(self) -> str | None:
        if self.is_over:
            return "The game is over."
        if self.client.my_turn:
            return None
        guest = self.client.player.guest
        if guest is not None and guest.pending:
            return f"{self.client.player.peer_name or 'The host'} is away: your move is kept and will be sent when they are back."
        if guest is not None and guest.in_flight:
            return "Your move is on its way to the host."
        if not self.client.player.started:
            return "The match has not started yet."
        return f"Waiting for {self.player_label(self.to_move)} to move."

    def check(self, move: Move) -> Refusal | None:
        blocked = self.input_block()
        return Refusal("not_your_turn", blocked) if blocked else self.state.check(move)

    def clock_times(self, now: float | None = None) -> list[float | None]:
        """Both clocks: the host's own, or the guest's last word from the host run down since."""
        if self._host_session is not None:
            return self._host_session.clock_times(now)
        if not self._host_clocks:
            return [None] * len(self.game.seats)
        now = self._time() if now is None else now
        running = self.to_move if self.result is None and self.client.player.started else None
        return [None if left is None else max(0.0, left - (now - self._host_clocks_at)) if i == running else left
                for i, left in enumerate(self._host_clocks)]

    def move_time_left(self, now: float | None = None) -> float | None:
        if self._host_session is not None:
            return self._host_session.move_time_left(now)
        return None  # the guest is told the clocks only; the host enforces the move timer

    def hint_due(self, now: float | None = None) -> bool:
        return False

    def hint(self) -> Move | None:
        return None

    # -- playing -------------------------------------------------------------------------------

    def play(self, move: Move) -> list[Event]:
        """Send this side's move; raises :class:`IllegalMove` when it cannot be played now."""
        refusal = self.check(move)
        if refusal is not None:
            raise IllegalMove(refusal.reason, rule=refusal.rule, move=move)
        self.client.play(move)  # a host's session changes now (see _host_changed); a guest hears back
        return []

    def resign(self, seat: int | None = None) -> None:
        """Leave the match now (a loss for this side)."""
        if not self.is_over:
            self.client.resign()

    def poll(self, now: float | None = None) -> bool:
        return False  # the owner of the client polls it and calls receive()

    # -- what the host or the network says -----------------------------------------------------

    def receive(self, notice: Notice) -> None:
        """A notice from :meth:`OnlineClient.poll` about this match (others are ignored)."""
        if self._host_session is not None:
            return  # a host follows its own session (see _host_changed)
        if notice.kind == "state" or (notice.kind == "over" and self.result is not None):
            self._guest_update(notice)

    def _host_changed(self, change: Change) -> None:
        self._refresh()
        if change.kind in ("move", "result", "thinking"):
            self._emit(change.kind, move=change.move, seat=change.seat, events=change.events, by=change.by,
                       text=change.text)

    def _guest_update(self, notice: Notice) -> None:
        """One ``state`` notice (several may wait in one poll: each carries its own ply and move)."""
        guest = self.client.player.guest
        if guest is None or guest.last is None:
            return
        latest = guest.last
        self._host_clocks = [None if c is None else float(c) for c in latest.clocks]
        self._host_clocks_at = self._time()
        before = self._seen_ply
        ply = notice.data.get("ply", latest.ply) if notice.kind == "state" else before
        ply = ply if isinstance(ply, int) else latest.ply
        events = tuple(_event(e) for e in notice.data.get("events", []) if isinstance(e, Mapping))
        last = notice.data.get("last") if isinstance(notice.data.get("last"), Mapping) else None
        given = notice.data.get("earlier")
        earlier: Mapping[int, Mapping[str, Any]] = given if isinstance(given, Mapping) else {}
        move: Move | None = None
        mover: int | None = None
        if ply > before:
            for number in range(before + 1, ply + 1):
                known = last if number == ply else earlier.get(number)  # each as this seat may know it
                mover = int(known["seat"]) if known is not None and isinstance(known.get("seat"), int) else None
                move = _decoded(self, known.get("move")) if known is not None else None
                text = str(known.get("text")) if known is not None else "a move you cannot see"
                seat = mover if mover is not None else 1 - self.seat
                self.history.append(PlyRecord(number=number, seat=seat, move=move, text=text,
                                              events=events if number == ply else (), by=HUMAN))
            self._seen_ply = ply
        self._refresh()
        if ply > before:
            self._emit("move", move=move, seat=mover, events=events, by=HUMAN)
        if latest.result is not None and notice.kind == "over":
            self._emit("result")

    def _refresh(self) -> None:
        view = self.client.view()
        if view is not None:
            self.state = view
        hs = self._host_session
        if hs is not None:
            self.history = list(hs.history[: hs.cursor])
            self._seen_ply = hs.cursor
        self.cursor = len(self.history)

    # -- what an online match does not offer ---------------------------------------------------

    def undo(self) -> int:
        raise SessionError(NOT_ONLINE)

    def redo(self) -> int:
        raise SessionError(NOT_ONLINE)

    def jump(self, ply: int) -> None:
        raise SessionError(NOT_ONLINE)

    def set_seats(self, seats: Any) -> None:
        raise SessionError(NOT_ONLINE)

    def restart(self, *args: Any, **kwargs: Any) -> None:
        raise SessionError(NOT_ONLINE)

    def can_extend(self) -> bool:
        return False

    def extend(self) -> None:
        raise SessionError(NOT_ONLINE)

    def import_file(self, path: str | Path) -> None:
        raise SessionError(NOT_ONLINE)

    def import_record(self, record: Any, *, source: str | None = None) -> None:
        raise SessionError(NOT_ONLINE)

    def resume_bots(self) -> None:
        pass

    def pause_bots(self) -> None:
        pass

    def close(self) -> None:
        """Stop following the match (the client stays open; its owner closes it)."""
        if self._host_session is not None:
            self._host_session.remove_listener(self._host_changed)
        super().close()


def _event(data: Mapping[str, Any]) -> Event:
    """An event as the host sent it (already filtered for this side)."""
    details = data.get("data")
    return Event(kind=str(data.get("kind", "")), data=dict(details) if isinstance(details, Mapping) else {},
                 text=str(data.get("text", "")))


def _decoded(session: Session, data: Any) -> Move | None:
    try:
        move: Move = session.game.decode_move(data)
    except (InvalidMoveEncoding, ValueError, TypeError, KeyError, IndexError):
        return None
    return move


__all__ = ["OnlineSession"]
