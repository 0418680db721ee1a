"""The authoritative side of an online match: the waiting player's program.

:class:`HostMatch` owns the :class:`~pegboard.match.session.Session` (engine, seed,
clocks), checks every message the guest sends, and produces what the guest may
see: its own ``observation(seat)`` and the events meant for it, never the
position itself. After every move the match record is written through
:func:`pegboard.records.files.write_record`, so a killed host resumes from disk.

It does no I/O: :meth:`HostMatch.handle` takes a message from the guest and
returns the messages to send back; :meth:`HostMatch.outgoing` returns the state
updates that moves made meanwhile (bots, clocks, the local player). Everything
runs on the thread that calls it (the UI thread), like the session.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pegboard.errors import SessionError
from pegboard.game import JSON, Game, IllegalMove, InvalidMoveEncoding, Move, PegboardError, events_for
from pegboard.match.history import PlyRecord
from pegboard.match.session import Change, Session
from pegboard.online import protocol as p
from pegboard.online.store import Store, Ticket
from pegboard.records.files import write_record
from pegboard.records.replay import game_for_record
from pegboard.records.validate import read_record

log = logging.getLogger("pegboard.online.host")

HOST_PLAYER = "human"
KEPT_REFUSALS = 20
"""Refusals kept for the UI (the newest); the rest are only counted."""
LOGGED_REFUSALS = 10
"""Refusals of one match written to the log; after them one line says the rest are not."""
REASON_CHARS = 200
"""A refusal's reason is cut to this (it may quote what the guest sent)."""
JUNK_LIMIT = 20
"""Refusals in a row (nothing accepted between) after which the guest is disconnected."""
EARLIER_PLIES = 300
"""At most this many moves before the last are told again in one ``state`` (``earlier``)..."""
EARLIER_BYTES = 64 * 1024
"""... and at most this much of JSON (the oldest go first): a state stays well inside a message."""


@dataclass(frozen=True)
class Refusal:
    """A guest message the host turned down (kept for the UI and the tests)."""

    kind: str
    reason: str


class HostMatch:
    """One online match run by this program (see the module docstring).

    ``host_player`` is ``"human"`` (a person at this program) or a bot id for
    the host's seat. The guest's seat is played through :meth:`handle` only.
    """

    def __init__(
        self,
        ticket: Ticket,
        game: Game,
        seed: int,
        *,
        ruleset_label: str,
        store: Store,
        plugins: Any,
        host_player: str = HOST_PLAYER,
        time_source: Callable[[], float] = time.monotonic,
        workers: str = "thread",
    ) -> None:
        if ticket.role != "host" or ticket.guest_token is None:
            raise PegboardError("a host match needs the host's ticket")
        self.ticket = ticket
        self.game = game
        self.seed = seed
        self.ruleset_label = ruleset_label
        self.store = store
        self.plugins = plugins
        self.host_seat = ticket.seat
        self.guest_seat = 1 - ticket.seat
        self.host_player = host_player
        self._time = time_source
        self._workers = workers
        self.session: Session | None = None
        self.accepted = False
        self.declined = False
        self.refusals: deque[Refusal] = deque(maxlen=KEPT_REFUSALS)
        self.refused_count = 0
        self.junk_streak = 0
        """Refusals since the guest's last accepted message (:data:`JUNK_LIMIT` disconnects it)."""
        self._unsent: list[dict[str, JSON]] = []  # guest-visible events since the last update
        self._told_through = 0  # the ply of the last state made for the guest (its moves were told)
        self._dirty = False
        self.on_finish: Callable[[HostMatch], None] | None = None

    # -- building ------------------------------------------------------------------------------

    @classmethod
    def resume(cls, ticket: Ticket, store: Store, plugins: Any, **kwargs: Any) -> HostMatch:
        """The match of ``ticket`` as its saved record left it (the guest had accepted)."""
        path = store.record_path(ticket.match)
        record = read_record(path, plugins)
        game = game_for_record(record, plugins)
        meta = record.get("meta") if isinstance(record.get("meta"), Mapping) else {}
        online = meta.get("online", {}) if isinstance(meta, Mapping) else {}
        label = str(online.get("ruleset", ticket.ruleset or game.id)) if isinstance(online, Mapping) else game.id
        match = cls(ticket, game, int(record.get("seed", 0) or 0), ruleset_label=label, store=store, plugins=plugins, **kwargs)
        match._start_session()
        assert match.session is not None
        match.session.import_record(record, source=str(path))
        clocks = online.get("clocks") if isinstance(online, Mapping) else None
        if match.session.clock is not None and isinstance(clocks, list) and len(clocks) == len(game.seats):
            match.session.clock.restore([None if c is None else float(c) for c in clocks])
        match.session.resume_bots()  # an import pauses bots; the match simply goes on
        match._told_through = match.session.cursor  # a returning guest says what it saw (sync)
        match.accepted = True
        match._dirty = True
        return match

    def _start_session(self) -> None:
        seats: list[str] = ["human"] * len(self.game.seats)
        seats[self.host_seat] = self.host_player
        self.session = Session(self.game, seats, self.seed, ruleset=self.ruleset_label, plugins=self.plugins,
                               time_source=self._time, workers=self._workers)
        self.session.add_listener(self._changed)

    # -- what the guest is told --------------------------------------------------------------

    def offer(self) -> dict[str, JSON]:
        """The host's settings, sent before the match starts (the guest accepts or declines)."""
        return {
            "t": "offer",
            "match": self.ticket.match,
            "game": self.game.id,
            "ruleset": _plain(self.game.ruleset),
            "label": self.ruleset_label,
            "seat": self.guest_seat,
            "names": list(self.ticket.names),
            "ratings": list(self.ticket.ratings),
            "accepted": self.accepted,
        }

    def snapshot(self) -> dict[str, JSON]:
        """The guest's whole view now (sent after a (re)connection and after each change)."""
        session = self.session
        if session is None:
            return self.offer()
        message: dict[str, JSON] = {
            "t": "state",
            "ply": session.ply,
            "to_move": session.to_move,
            "obs": session.state.observation(self.guest_seat),
            "events": self._unsent,
            "clocks": session.clock_times(),
            "result": session.result.to_json() if session.result is not None else None,
        }
        last = session.history[session.cursor - 1] if session.cursor else None
        if last is not None:
            message["last"] = self._told(last)
        # moves since the previous state other than the last (two at once, or missed while away)
        first = max(self._told_through + 1, session.cursor - EARLIER_PLIES)
        earlier = [{"ply": r.number, **self._told(r)} for r in session.history[max(0, first - 1) : session.cursor - 1]]
        while earlier and p.size_of(earlier) > EARLIER_BYTES:
            del earlier[: max(1, len(earlier) // 4)]
        if earlier:
            message["earlier"] = earlier
        self._told_through = session.cursor
        self._unsent = []
        self._dirty = False
        return message

    def _told(self, record: PlyRecord) -> dict[str, JSON]:
        """The last move as the guest's seat may know it: its text as that seat reads it, and the
        encoded move only when the seat may read the move in full (its own move, a game without
        hidden information, or a move it saw every square of): nothing tells it what it cannot see."""
        text = record.text_for(self.guest_seat)
        told: dict[str, JSON] = {"seat": record.seat, "text": text}
        if not self.game.hidden_information or record.seat == self.guest_seat or text == record.text:
            told["move"] = self.game.encode_move(record.move)
        return told

    def outgoing(self) -> list[dict[str, JSON]]:
        """State updates owed to the guest since the last call (empty when nothing moved)."""
        return [self.snapshot()] if self._dirty and self.accepted else []

    # -- the local side --------------------------------------------------------------------------

    def poll(self) -> list[dict[str, JSON]]:
        """Run bots and clocks (call it every frame); returns the updates to send."""
        if self.session is not None and self.accepted:
            self.session.poll()
        return self.outgoing()

    def play_local(self, move: Move) -> list[dict[str, JSON]]:
        """The person at the host plays ``move``; raises :class:`IllegalMove` if they may not."""
        session = self._live()
        if session.to_move != self.host_seat:
            raise IllegalMove("it is not your turn", rule="not_your_turn", move=move)
        session.play(move)
        return self.outgoing()

    def resign_local(self) -> list[dict[str, JSON]]:
        """The host leaves the match: a loss for the host's seat."""
        session = self._live()
        if not session.is_over:
            session.resign(self.host_seat)
        return self.outgoing()

    def _live(self) -> Session:
        if self.session is None or not self.accepted:
            raise SessionError("the match has not started: the guest has not accepted yet")
        return self.session

    # -- messages from the guest ---------------------------------------------------------------

    def handle(self, data: Any) -> list[dict[str, JSON]]:
        """Act on one message from the guest; returns what to send back (refusals included)."""
        if not isinstance(data, Mapping):
            return self._refuse("?", "a message must be a JSON object")
        kind = data.get("t")
        kind = kind if isinstance(kind, str) else "?"
        if not p.same_secret(data.get("token"), self.ticket.guest_token or ""):
            return self._refuse(kind, "wrong or missing token")
        answer = self._handle(kind, data)
        if kind != "sync" and not any(m.get("t") == "refused" for m in answer):
            self.junk_streak = 0  # a real step of the match (a sync proves nothing)
        return answer

    def _handle(self, kind: str, data: Mapping[str, Any]) -> list[dict[str, JSON]]:
        if kind == "accept":
            return self._accept()
        if kind == "decline":
            self.declined = True
            return []
        if kind == "sync":  # after a reconnection: the settings (a restarted guest needs them) and the view
            seen = data.get("seen")
            if isinstance(seen, int) and not isinstance(seen, bool) and self.session is not None:
                self._told_through = min(max(0, seen), self._told_through)  # the moves it missed are told again
            return [self.offer(), self.snapshot()] if self.accepted else [self.offer()]
        if kind == "move":
            return self._guest_move(data)
        if kind == "resign":
            session = self.session
            if session is None or not self.accepted:
                return self._refuse(kind, "the match has not started")
            if session.is_over:
                return self._refuse(kind, "the game is already over")
            session.resign(self.guest_seat)
            return self.outgoing()
        return self._refuse(kind, f"unknown message: a match has no message called {kind[:40]}")

    def _accept(self) -> list[dict[str, JSON]]:
        if not self.accepted:
            self._start_session()
            self.accepted = True
            self._dirty = True
            self.store.save(self.ticket)  # from now on the match can be resumed
            self._write()
        return [self.snapshot()]

    def _guest_move(self, data: Mapping[str, Any]) -> list[dict[str, JSON]]:
        session = self.session
        if session is None or not self.accepted:
            return self._refuse("move", "the match has not started")
        seat = data.get("seat")
        if seat != self.guest_seat:
            return self._refuse("move", f"you play {self.game.seats[self.guest_seat]}, not the other seat")
        if session.is_over:
            return self._refuse("move", "the game is over")
        if session.to_move != seat:
            return self._refuse("move", "not your turn")
        if data.get("ply") != session.ply:
            return self._refuse("move", f"stale move: the game is at move {session.ply}")
        if p.size_of(data.get("move")) > p.MAX_MOVE_BYTES:
            return self._refuse("move", f"move over {p.MAX_MOVE_BYTES} bytes")
        try:
            move = self.game.decode_move(data.get("move"))
        except (InvalidMoveEncoding, ValueError, TypeError, KeyError, IndexError) as exc:
            # the detail goes to the log: it echoes what was sent, or is Python's words ("'kind'")
            log.info("match %s: a move that does not decode: %s", self.ticket.match[:8], str(exc)[:REASON_CHARS])
            return self._refuse("move", f"malformed move: it is not a {self.game.name or self.game.id} move")
        try:
            session.play(move)
        except IllegalMove as exc:
            return self._refuse("move", f"illegal move: {exc.reason}")
        return self.outgoing()

    def _refuse(self, kind: str, reason: str) -> list[dict[str, JSON]]:
        """Answer a guest message with a refusal; what is kept and logged of it is bounded."""
        kind, reason = kind[:40], reason[:REASON_CHARS]
        self.refusals.append(Refusal(kind, reason))
        self.refused_count += 1
        self.junk_streak += 1
        if self.refused_count <= LOGGED_REFUSALS:
            log.warning("match %s: refused the guest's %s: %s", self.ticket.match[:8], kind, reason)
            if self.refused_count == LOGGED_REFUSALS:
                log.warning("match %s: further refusals are counted, not logged", self.ticket.match[:8])
        message: dict[str, JSON] = {"t": "refused", "of": kind, "reason": reason}
        if self.session is not None and self.accepted:
            message["ply"] = self.session.ply
        return [message]

    # -- after every change ----------------------------------------------------------------------

    def _changed(self, change: Change) -> None:
        if change.kind == "move":
            self._unsent.extend(e.to_json() for e in events_for(list(change.events), self.guest_seat))
        if change.kind in ("move", "result"):
            self._dirty = True
            self._write()

    def _write(self) -> None:
        """The record after every move (and the ticket once the game is over)."""
        session = self.session
        if session is None:
            return
        record = session.to_record()
        players = record.get("players")
        if isinstance(players, list):
            for seat, entry in enumerate(players):
                if isinstance(entry, dict) and seat < len(self.ticket.names) and (entry.get("bot") is None):
                    entry["name"] = self.ticket.names[seat]
        record["meta"] = {"online": {"match": self.ticket.match, "host_seat": self.host_seat,
                                     "ruleset": self.ruleset_label, "clocks": list(session.clock_times())}}
        write_record(record, self.store.record_path(self.ticket.match), self.plugins)
        if session.is_over and not self.ticket.finished:
            self.ticket.finished = True
            self.store.save(self.ticket)
            if self.on_finish is not None:
                self.on_finish(self)

    def close(self) -> None:
        if self.session is not None:
            self.session.close()


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
