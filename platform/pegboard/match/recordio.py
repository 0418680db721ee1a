"""A session's match records: writing the match played so far, and reading a record back
into a session (the window's Import). Everything goes through :mod:`pegboard.records`,
the same stages ``pegboard validate`` runs; problems become :class:`MatchImportError` or
:class:`SessionError` with the line and move they concern."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pegboard.errors import MatchFileError, MatchImportError, PegboardError, RulesetError, SessionError
from pegboard.game import JSON, Game, Result, State
from pegboard.match.history import PlyRecord
from pegboard.records.files import parse_record, read_text, write_record
from pegboard.records.replay import plain
from pegboard.records.validate import load_record

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins


@dataclass
class ImportedMatch:
    """A record checked and replayed for a session: what :meth:`Session.import_record` takes over."""

    game: Game
    seed: int
    ruleset: str
    state: State
    plies: list[PlyRecord]
    adjudicated: Result | None
    """The record's declared result when the moves leave the game unfinished (a clock, a resignation)."""


def write_match(record: Mapping[str, JSON], path: str | Path, plugins: Plugins) -> Path:
    """Write ``record`` (format by suffix); raises :class:`SessionError` with a plain reason."""
    target = Path(path)
    try:
        return write_record(record, target, plugins)
    except MatchFileError as exc:
        raise SessionError(exc.reason) from exc
    except OSError as exc:
        raise SessionError(f"cannot write {target}: {exc.strerror or exc}") from exc


def read_match_file(path: str | Path, plugins: Plugins) -> dict[str, JSON]:
    """The record in ``path`` (JSON or a game's text format), parsed; raises :class:`MatchImportError`."""
    try:
        record = parse_record(read_text(path), path, plugins)
    except PegboardError as exc:
        raise import_error(exc) from exc
    return _object(record)


def parse_match_text(text: str, suffix: str, plugins: Plugins) -> dict[str, JSON]:
    """A record from text (format by ``suffix``); raises :class:`MatchImportError`."""
    try:
        record = parse_record(text, Path(f"record{suffix}"), plugins)
    except PegboardError as exc:
        raise import_error(exc) from exc
    return _object(record)


def replay_for_import(record: Mapping[str, JSON], game: Game, seats: int, plugins: Plugins, source: str | None) -> ImportedMatch:
    """Check and replay ``record`` for a session playing ``game`` with ``seats`` seats.

    The session's own game is reused when the record's ruleset is the same, so rule
    mods and caches carry over. Raises :class:`MatchImportError`; nothing is changed.
    """
    if not isinstance(record, Mapping):
        raise MatchImportError("a match record must be a JSON object")
    game_id = record.get("game")
    if game_id != game.id:
        raise MatchImportError(f"this is a {game_id} match, not {game.id}")
    same_rules = plain(record.get("ruleset")) == plain(game.ruleset)
    try:
        replayed = load_record(dict(record), plugins, path=source, game=game if same_rules else None)
    except PegboardError as exc:
        raise import_error(exc) from exc
    if len(replayed.game.seats) != seats:
        raise MatchImportError("the record's game has a different number of seats")
    ref = replayed.ruleset_id
    return ImportedMatch(
        game=replayed.game,
        seed=int(record.get("seed", 0) or 0),
        ruleset=f"{replayed.game.id}/{ref}" if ref else ruleset_label(replayed.game),
        state=replayed.state,
        plies=[PlyRecord(m.number, m.seat, m.move, m.text, m.events, by="import") for m in replayed.moves],
        adjudicated=replayed.result if replayed.state.result is None else None,
    )


def import_error(exc: PegboardError) -> MatchImportError:
    """A records/ruleset error as a :class:`MatchImportError` (keeping line and move)."""
    if isinstance(exc, MatchImportError):
        return exc
    if isinstance(exc, MatchFileError):
        reason = exc.reason if exc.move is not None or not exc.json_path else f"{exc.json_path}: {exc.reason}"
        return MatchImportError(reason, line=exc.line, move_number=exc.move)
    if isinstance(exc, RulesetError):
        return MatchImportError(exc.reason, line=exc.line)
    return MatchImportError(str(exc))


def ruleset_label(game: Game) -> str:
    """``"nodewar/standard"``: the game's id and its ruleset's id, as people see it."""
    rid = game.ruleset.get("id")
    return f"{game.id}/{rid}" if rid else game.id


def _object(record: object) -> dict[str, JSON]:
    if not isinstance(record, dict):
        raise MatchImportError("a match record must be a JSON object")
    return record
