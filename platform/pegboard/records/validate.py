"""Validation of match records, in stages that stop at the first failing one.

1. ``syntax``: the file is UTF-8 JSON (or the game's text format); errors carry line/column.
2. ``schema``: the envelope, the ruleset and every move against their schemas; errors carry JSON paths.
3. ``replay``: every move is legal when replayed from the seed; errors carry the move number and rule.
4. ``result``: a declared result equals the replayed one.
5. ``annotations`` (only for a record that has them): each names a move of the record, once, and
   its better move and line are legal (:mod:`pegboard.records.annotations`).

:func:`convert` validates its source fully before it writes, and never overwrites its input.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard.errors import MatchFileError, PegboardError, RulesetError, SchemaFileError
from pegboard.game import JSON, Game, Result
from pegboard.plugins import resolve as _plugins
from pegboard.records.annotations import check_annotations
from pegboard.records.files import check_output, parse_record, read_text, write_record
from pegboard.records.replay import Replay, ReplayedMove, _replay, cached_ruleset, check_result, game_for_record, replay
from pegboard.records.schemas import issues, match_predicate, match_validator, move_predicate

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins
    from pegboard.specs import GameSpec

STAGES = ("syntax", "schema", "replay", "result", "annotations")


@dataclass
class Report:
    """The outcome of :func:`validate_file` for one file."""

    path: str
    ok: bool
    stage: str
    """The last stage passed when ``ok``, otherwise the stage that failed."""
    errors: list[MatchFileError] = field(default_factory=list)
    game: str | None = None
    moves: int = 0
    result: dict[str, JSON] | None = None

    def to_json(self) -> dict[str, JSON]:
        return {
            "path": self.path,
            "ok": self.ok,
            "stage": self.stage,
            "game": self.game,
            "moves": self.moves,
            "result": self.result,
            "errors": [e.to_json() for e in self.errors],
        }




# -- the schema stage ------------------------------------------------------------------------


def check_schema(
    record: Any, plugins: Plugins | None = None, path: str | Path | None = None, *, moves: bool = True
) -> list[MatchFileError]:
    """Envelope, ruleset and moves against their schemas; every error with its JSON path.

    ``moves=False`` skips what each move holds when its game's ``decode_move`` checks
    as much (:attr:`~pegboard.specs.GameSpec.strict_decode`; see :func:`validate_record`).
    """
    plugins = _plugins(plugins)
    game_id = record.get("game") if isinstance(record, dict) else None
    spec = plugins.games().get(game_id) if isinstance(game_id, str) else None
    if not _passes_fast_check(record, spec, moves or spec is None or not spec.strict_decode):
        errors = _schema_issues(record, spec, plugins, path)
        if errors or not isinstance(record, dict):
            return errors
    if spec is None:
        known = ", ".join(sorted(plugins.games())) or "none"
        return [MatchFileError(f"unknown game {game_id!r} (known: {known})", path=path, stage="schema", json_path="$.game")]
    if record["ruleset"].get("game") != game_id:
        return [MatchFileError(f"the ruleset is for {record['ruleset'].get('game')!r}, not {game_id!r}", path=path, stage="schema", json_path="$.ruleset.game")]
    seats = len(spec.seats)
    if len(record["players"]) != seats:
        return [MatchFileError(f"expected {seats} players ({', '.join(spec.seats)}), found {len(record['players'])}", path=path, stage="schema", json_path="$.players")]
    try:
        cached_ruleset(record["ruleset"], plugins)
    except RulesetError as exc:
        return [MatchFileError(exc.reason, path=path, stage="schema", json_path=f"$.ruleset.{exc.key}" if exc.key else "$.ruleset")]
    return []


def _passes_fast_check(record: Any, spec: GameSpec | None, moves: bool = True) -> bool:
    """True when the whole record (the moves' contents too, unless ``moves`` is False) passes
    the compiled schema check (no ``jsonschema`` needed)."""
    if spec is None:
        return False
    try:
        check = match_predicate(spec.schema_dir, moves)
    except SchemaFileError:
        return False
    return check is not None and check(record)


def _schema_issues(record: Any, spec: GameSpec | None, plugins: Plugins, path: str | Path | None) -> list[MatchFileError]:
    """The schema errors ``jsonschema`` finds, each with its JSON path."""
    game_id = spec.id if spec is not None else None
    moves_ok = _moves_pass_fast_check(record, spec)
    # When the moves and the embedded ruleset are known good, the envelope alone is left to check:
    # a validator without the game's schemas linked in does exactly that.
    envelope_only = moves_ok and _ruleset_known_valid(record, game_id, plugins)
    try:
        check = match_validator(spec.schema_dir if spec and not envelope_only else None)
    except SchemaFileError as exc:
        return [MatchFileError(str(exc), path=path, stage="schema", json_path="$")]
    instance = {**record, "moves": []} if moves_ok else record
    return [MatchFileError(i.message, path=path, stage="schema", json_path=i.path) for i in issues(check, instance)]


def _moves_pass_fast_check(record: Any, spec: Any) -> bool:
    """True when every move passes the game's compiled move check (see :mod:`pegboard.records.fastschema`).

    Otherwise the full validator sees the moves, so errors keep their exact messages and paths.
    """
    moves = record.get("moves") if isinstance(record, dict) else None
    if spec is None or not isinstance(moves, list):
        return False
    try:
        fast = move_predicate(spec.schema_dir)
    except SchemaFileError:
        return False
    return fast is not None and all(map(fast, moves)) and all(map(fast, _annotated_moves(record)))


def _annotated_moves(record: Mapping[str, Any]) -> list[Any]:
    """The better moves and lines of a record's annotations (checked by the move schema too)."""
    notes = record.get("annotations")
    found: list[Any] = []
    for note in notes if isinstance(notes, list) else []:
        if isinstance(note, dict):
            if "better" in note:
                found.append(note["better"])
            line = note.get("line")
            if isinstance(line, list):
                found.extend(line)
    return found


def _ruleset_known_valid(record: Mapping[str, Any], game_id: Any, plugins: Plugins) -> bool:
    ruleset = record.get("ruleset")
    if not isinstance(ruleset, dict) or ruleset.get("game") != game_id:
        return False
    try:
        cached_ruleset(ruleset, plugins)
    except PegboardError:
        return False
    return True


def load_record(
    record: Any, plugins: Plugins | None = None, *, path: str | Path | None = None, game: Game | None = None,
) -> Replay:
    """Check a parsed record through the schema, replay and result stages, keeping every move.

    What the window's import runs (``pegboard validate`` runs the same stages
    through :func:`validate_record`). ``game`` replaces the game built from
    the record's ruleset (pass it only when it was built from that ruleset).
    Raises :class:`MatchFileError` at the first failing stage.
    """
    plugins = _plugins(plugins)
    errors = check_schema(record, plugins, path)
    if errors:
        raise errors[0]
    game = game or game_for_record(record, plugins)
    moves: list[ReplayedMove] = []
    state = _replay(record, game, path, None, moves)
    check_result(record, state, path)
    if record.get("annotations"):
        check_annotations(record, game, path)
    verdict = state.result or (Result.from_json(record["result"]) if record.get("result") is not None else None)
    ruleset_id = record["ruleset"].get("id")
    return Replay(game, state, moves, verdict, str(ruleset_id) if ruleset_id else None)


def validate_record(record: Any, path: str | Path = "<record>", plugins: Plugins | None = None) -> Report:
    """Run the schema, replay and result stages on an already parsed record."""
    plugins = _plugins(plugins)
    report = Report(path=str(path), ok=False, stage="schema")
    try:
        # A strict_decode game's moves are checked by decoding them in the replay: their
        # schema runs only if the replay fails, and its errors then come first, as they would.
        errors = check_schema(record, plugins, path, moves=False)
        if errors:
            report.errors = errors
            return report
        report.game = record["game"]
        report.stage = "replay"
        try:
            state, _ = replay(record, plugins, path=path, events=False)
        except Exception:
            errors = check_schema(record, plugins, path)
            if errors:
                return Report(path=str(path), ok=False, stage="schema", errors=errors)
            raise
        report.moves = state.ply
        report.stage = "result"
        check_result(record, state, path)
        if record.get("annotations"):
            report.stage = "annotations"
            _check_annotations(record, plugins, path)
    except MatchFileError as exc:
        report.errors = [exc]
        report.stage = exc.stage if exc.stage in STAGES else report.stage
        return report
    except PegboardError as exc:  # e.g. a rule mod that refuses to build
        report.errors = [MatchFileError(str(exc), path=path, stage=report.stage)]
        return report
    except RecursionError:
        report.errors = [MatchFileError("the record is nested too deeply to check", path=path, stage=report.stage)]
        return report
    except Exception as exc:  # noqa: BLE001 - a plugin bug on one file must not stop a batch
        report.errors = [MatchFileError(f"unexpected {type(exc).__name__}: {exc}", path=path, stage=report.stage)]
        return report
    report.ok = True
    report.result = state.result.to_json() if state.result is not None else record.get("result")  # a clock's verdict
    return report


def _check_annotations(record: Any, plugins: Plugins, path: str | Path) -> None:
    """The annotations stage; a better move that cannot be read reports the schema's errors
    first (a strict-decode game's moves skipped the schema, see :func:`validate_record`)."""
    try:
        check_annotations(record, game_for_record(record, plugins), path)
    except MatchFileError:
        errors = check_schema(record, plugins, path)
        if errors:
            raise errors[0] from None
        raise


def validate_file(path: str | Path, plugins: Plugins | None = None) -> Report:
    """Validate one match file through every stage; never raises for a bad file."""
    plugins = _plugins(plugins)
    try:
        record = parse_record(read_text(path), path, plugins)
    except MatchFileError as exc:
        if exc.path is None:
            exc.path = str(path)
        return Report(path=str(path), ok=False, stage="syntax", errors=[exc])
    except RecursionError:
        error = MatchFileError("nested too deeply to read", path=path)
        return Report(path=str(path), ok=False, stage="syntax", errors=[error])
    except Exception as exc:  # noqa: BLE001 - e.g. a text format plugin's bug: this file fails, the batch goes on
        error = MatchFileError(f"unexpected {type(exc).__name__}: {exc}", path=path)
        return Report(path=str(path), ok=False, stage="syntax", errors=[error])
    return validate_record(record, path, plugins)


def validate_files(paths: Iterable[str | Path], plugins: Plugins | None = None) -> list[Report]:
    """:func:`validate_file` for each path, in order (one task of a parallel batch)."""
    return [validate_file(path, plugins) for path in paths]


def read_record(path: str | Path, plugins: Plugins | None = None) -> dict[str, JSON]:
    """Read a match file and check its syntax and schema (raises :class:`MatchFileError`)."""
    plugins = _plugins(plugins)
    record = parse_record(read_text(path), path, plugins)
    errors = check_schema(record, plugins, path)
    if errors:
        raise errors[0]
    if not isinstance(record, dict):  # the schema stage has refused anything else
        raise MatchFileError("a match record must be a JSON object", path=path, stage="schema", json_path="$")
    return record


def convert(source: str | Path, target: str | Path, plugins: Plugins | None = None, *, force: bool = False) -> Report:
    """Convert a match file between JSON and a game's text format(s), losslessly.

    The source is fully validated first (a converted file is always valid).
    Refuses to write over the source, and over any existing file unless ``force``.
    """
    plugins = _plugins(plugins)
    src, dst = Path(source), Path(target)
    check_output(dst, src, force=force)
    try:
        record = parse_record(read_text(src), src, plugins)
    except MatchFileError as exc:
        exc.path = exc.path or str(src)
        raise
    report = validate_record(record, src, plugins)
    if not report.ok:
        raise report.errors[0]
    write_record(record, dst, plugins)
    return report


