"""A game's line of play: the live state, every move played with its events, and a cursor
that steps back and forth through them, telling listeners about each change, and the end
of a game by resignation or a flag (the game's own concede move, or an adjudicated result).

:class:`MatchLine` knows nothing of seats, bots or clocks; :class:`~pegboard.match.session.Session`
adds those on top. Each change of position bumps :attr:`MatchLine.generation`, the counter
a session uses to drop a bot's answer to an old position.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard.errors import SessionError
from pegboard.game import JSON, Event, Game, IllegalMove, Move, Result, State
from pegboard.match.history import Broadcaster, Change, Listener, PlyRecord
from pegboard.match.recordio import ImportedMatch, parse_match_text, read_match_file, replay_for_import, ruleset_label, write_match
from pegboard.plugins import resolve
from pegboard.records.files import record_from_moves

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins

log = logging.getLogger(__name__)


class MatchLine:
    """The moves of one game from its seed, with a cursor (see the module docstring).

    ``ruleset`` is the ruleset reference shown to people ("nodewar/standard"); by
    default it is made from the game's resolved ruleset. ``plugins`` receives the
    ``pegboard_match_event`` notices.
    """

    def __init__(self, game: Game, seed: int = 0, *, ruleset: str | None = None, plugins: Plugins | None = None) -> None:
        self._plugins = plugins
        self._broadcast = Broadcaster()
        self._generation = 0
        self._new_line(game, seed, ruleset)

    def _new_line(self, game: Game, seed: int, ruleset: str | None) -> None:
        self.game = game
        self.seed = int(seed)
        self.ruleset = ruleset or ruleset_label(game)
        self.state: State = game.new_state(self.seed)
        self.history: list[PlyRecord] = []
        self.cursor = 0
        self._adjudicated: Result | None = None
        self._generation += 1

    @property
    def plugins(self) -> Plugins:
        if self._plugins is None:
            self._plugins = resolve(None)
        return self._plugins

    # -- listeners --------------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(change)`` after every change (see :class:`Change`)."""
        self._broadcast.add(listener)

    def remove_listener(self, listener: Listener) -> None:
        self._broadcast.remove(listener)

    def _emit(self, kind: str, **kwargs: Any) -> None:
        self._broadcast.change(Change(kind=kind, ply=self.cursor, **kwargs))

    def _notify(self, events: Iterable[Event]) -> None:
        self._broadcast.events(self._plugins, self, events)

    def _session_event(self, kind: str, text: str, **data: JSON) -> None:
        """Tell pegboard_match_event observers about a session-level step (undo, restart ...)."""
        self._notify([Event(kind=f"session_{kind}", data=dict(data, ply=self.cursor), text=text)])

    # -- reading the line -------------------------------------------------------------------

    @property
    def generation(self) -> int:
        """A counter bumped by every change of position."""
        return self._generation

    @property
    def ply(self) -> int:
        return self.cursor

    @property
    def moves(self) -> list[Move]:
        """The moves leading to the current position."""
        return [r.move for r in self.history[: self.cursor]]

    @property
    def result(self) -> Result | None:
        """How the game ended (a clock flag or a resignation included), or None."""
        return self._adjudicated or self.state.result

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def to_move(self) -> int:
        return self.state.to_move

    @property
    def can_undo(self) -> bool:
        return self.cursor > 0

    @property
    def can_redo(self) -> bool:
        return self.cursor < len(self.history)

    def seat_name(self, seat: int) -> str:
        return self.game.seats[seat]

    # -- moving along the line --------------------------------------------------------------

    def _apply(self, move: Move, *, by: str, seat: int | None = None) -> list[Event]:
        """Play ``move`` (raises :class:`~pegboard.game.IllegalMove`, the state unchanged); the redo tail is dropped.

        ``seat`` is the seat the move is recorded for when it is not the one to move (a
        resignation or a flag: the seat that gives up).
        """
        seat = self.state.to_move if seat is None else seat
        try:
            text = self.state.move_text(move)
        except Exception:  # noqa: BLE001 - a move the game cannot render is refused by apply below
            text = repr(move)
        seat_texts = self._seat_texts(move, text)
        events = self.state.apply(move)
        del self.history[self.cursor :]
        self.cursor += 1
        self._adjudicated = None
        self._generation += 1
        record = PlyRecord(self.cursor, seat, move, text, tuple(events), by, clock=self._moved(), seat_texts=seat_texts)
        self.history.append(record)
        self._notify(events)
        self._emit("move", move=move, seat=seat, events=record.events, by=by, text=text)
        if self.state.result is not None:
            self._emit("result", text=self.state.result.sentence(self.game.seats))
        return events

    def _seat_texts(self, move: Move, text: str) -> tuple[str, ...]:
        """``move`` as each seat may be told of it, before it is played; empty when every seat
        may read ``text`` (always, in a game without hidden information)."""
        if not self.game.hidden_information:
            return ()
        texts = []
        for seat in range(len(self.game.seats)):
            try:
                texts.append(self.state.move_text_for(move, seat))
            except Exception:  # noqa: BLE001 - a game that cannot tell a seat about the move tells it nothing
                log.exception("move_text_for failed")
                texts.append("a move")
        return tuple(texts) if any(t != text for t in texts) else ()

    def _moved(self) -> tuple[float | None, ...] | None:
        """Called when a move has been applied, before anyone hears of it; returns the clocks
        to remember with it (a session stops its clocks here). The line has none."""
        return None

    def _step_back(self) -> None:
        self.state.undo()
        self.cursor -= 1

    def _step_forward(self) -> None:
        self.state.apply(self.history[self.cursor].move)
        self.cursor += 1

    def jump(self, ply: int) -> None:
        """Show the position after move ``ply`` (0 = the start); the redo tail is kept."""
        if not 0 <= ply <= len(self.history):
            raise SessionError(f"no position after move {ply} (history has {len(self.history)} moves)")
        start = self.cursor
        while self.cursor > ply:
            self._step_back()
        while self.cursor < ply:
            self._step_forward()
        self._navigated("jump", abs(ply - start))

    def _navigated(self, kind: str, taken: int) -> None:
        self._adjudicated = None
        self._generation += 1
        self._repositioned()
        self._session_event(kind, f"{kind} to move {self.cursor}", moves=taken)
        self._emit(kind, text=f"{taken} move(s)")

    def _repositioned(self) -> None:
        """Called after an undo, redo or jump, before anyone hears of it (a session pauses its bots)."""

    # -- ending by resignation or the clock -------------------------------------------------------

    def resign(self, seat: int) -> None:
        """``seat`` gives up (or leaves an online match): the other side wins by ``resign``.

        Played as the game's own concede move when it has one (the record replays to the
        result), else adjudicated like a clock flag.
        """
        if self.is_over:
            raise SessionError("the game is already over")
        if not 0 <= seat < len(self.game.seats):
            raise SessionError(f"no seat {seat}")
        self._flag(seat, "resign")

    def _flag(self, seat: int, reason: str) -> None:
        """``seat`` ran out of time or resigned: the game's own concede move if it has one, else adjudicate."""
        move = self.state.concede_move(seat, reason)
        if move is not None:
            try:
                self._apply(move, by="resign" if reason == "resign" else "timeout", seat=seat)
            except IllegalMove:
                log.exception("the game refused its own concede move")
            else:
                if self.state.result is not None:
                    return
        what = {"flag": "ran out of time", "resign": "resigned"}.get(reason, "ran out of move time")
        self._adjudicated = self.game.time_loss(seat, reason, f"{self.seat_name(seat)} {what}")
        del self.history[self.cursor :]
        self._generation += 1
        self._session_event("flag", self._adjudicated.text, seat=seat)
        self._emit("result", seat=seat, text=self._adjudicated.text)

    # -- records ------------------------------------------------------------------------------------

    def to_record(self) -> dict[str, JSON]:
        """The match up to the current position as a ``pegboard.match/1`` record."""
        return record_from_moves(self.game, self.game.ruleset, self.seed, self._players(), self.moves, self.result)

    def _players(self) -> list[dict[str, JSON]]:
        """The record's players, one per seat (a line alone knows only the seat names)."""
        return [{"name": name, "bot": None} for name in self.game.seats]

    def export(self, path: str | Path) -> Path:
        """Write the match to ``path``: JSON for ``.json``, else the game's text format for the suffix."""
        return write_match(self.to_record(), path, self.plugins)

    def text_suffixes(self) -> list[str]:
        """File suffixes this game's matches can be written in besides ``.json``."""
        spec = self.plugins.games().get(self.game.id)
        return [] if spec is None else list(spec.text_formats)

    def import_file(self, path: str | Path) -> None:
        """Replace the game by the match in ``path`` (JSON or a game's text format).

        The file goes through :mod:`pegboard.records` (syntax, schema, replay,
        result: what ``pegboard validate`` runs); on any problem
        :class:`MatchImportError` is raised and nothing changes.
        """
        self.import_record(read_match_file(path, self.plugins), source=str(path))

    def parse_record(self, text: str, suffix: str = ".json") -> dict[str, JSON]:
        """Parse a record from text (format by ``suffix``); raises :class:`MatchImportError`."""
        return parse_match_text(text, suffix, self.plugins)

    def import_record(self, record: Mapping[str, JSON], *, source: str | None = None) -> None:
        """Replace the game by ``record`` after checking and replaying it; see :meth:`import_file`."""
        self._take_over(replay_for_import(record, self.game, len(self.game.seats), self.plugins, source))

    def _take_over(self, imported: ImportedMatch) -> None:
        """Become the line of an imported record."""
        self._generation += 1
        self.game, self.seed, self.ruleset = imported.game, imported.seed, imported.ruleset
        self.state, self.history, self.cursor = imported.state, imported.plies, len(imported.plies)
        self._adjudicated = imported.adjudicated
