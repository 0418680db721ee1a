"""Match records: read, write, replay, validate and convert.

A record is a plain JSON-able dict (the envelope in ``schemas/match.schema.json``).
JSON files (``*.match.json``, any ``.json``) are the native form; a game may add
text forms through :attr:`pegboard.specs.GameSpec.text_formats`, chosen by suffix.

Validation runs in stages and stops at the first failing one:

1. ``syntax``: the file is UTF-8 JSON (or the game's text format); errors carry line/column.
2. ``schema``: the envelope, the ruleset and every move against their schemas; errors carry JSON paths.
3. ``replay``: every move is legal when replayed from the seed; errors carry the move number and rule.
4. ``result``: a declared result equals the replayed one.

Files are written through a temporary file and an atomic rename, so a crash
never leaves half a file, and :func:`convert` never overwrites its input.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from .game import ADJUDICATED_REASONS, JSON, Event, Game, IllegalMove, InvalidMoveEncoding, InvalidPosition, Move, PegboardError, Result, State
from .errors import RulesetError
from .rulesets import Ruleset, build_game, load_ruleset, ruleset_from_data
from .schemas import SchemaFileError, game_schema_path, issues, match_predicate, match_validator, move_predicate, validator
from .textfiles import UnreadableFile, read_utf8

if TYPE_CHECKING:
    from .plugins import Plugins
    from .specs import GameSpec, TextFormat

FORMAT = "pegboard.match/1"
STAGES = ("syntax", "schema", "replay", "result")
MATCH_SUFFIX = ".match.json"


class MatchFileError(PegboardError):
    """A match (or position) file failed a validation stage.

    Carries the ``path``, the ``stage`` ("syntax", "schema", "replay", "result",
    "position", or "output" when :func:`convert` cannot write its target), where
    in the file (``line``/``column``, ``json_path`` or the 1-based ``move``
    number), the broken ``rule`` id for replay errors, and the ``reason``.
    """

    def __init__(
        self,
        reason: str,
        *,
        path: str | Path | None = None,
        stage: str = "syntax",
        line: int | None = None,
        column: int | None = None,
        json_path: str | None = None,
        move: int | None = None,
        rule: str | None = None,
    ) -> None:
        self.reason = reason
        self.path = str(path) if path is not None else None
        self.stage = stage
        self.line = line
        self.column = column
        self.json_path = json_path
        self.move = move
        self.rule = rule
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.path:
            where.append(self.path)
        if self.line is not None:
            where.append(f"line {self.line}" + (f", column {self.column}" if self.column is not None else ""))
        text = self.reason
        if self.move is not None:
            text = f"move {self.move}: {text}"
        elif self.json_path:
            text = f"{self.json_path}: {text}"
        if self.rule:
            text = f"{text} [{self.rule}]"
        return f"{self.stage}: {text}" + (f" ({', '.join(where)})" if where else "")

    def __reduce__(self) -> tuple[Any, ...]:  # picklable across worker processes
        return (_rebuild_error, (self.reason, self.to_json()))

    def to_json(self) -> dict[str, JSON]:
        data = {
            "stage": self.stage,
            "reason": self.reason,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "json_path": self.json_path,
            "move": self.move,
            "rule": self.rule,
        }
        return {key: value for key, value in data.items() if value is not None}


def _rebuild_error(reason: str, data: dict[str, Any]) -> MatchFileError:
    data = {k: v for k, v in data.items() if k != "reason"}
    return MatchFileError(reason, **data)


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


def _plugins(plugins: Plugins | None) -> Plugins:
    if plugins is None:
        from .plugins import get_plugins

        return get_plugins()
    return plugins


# -- building records ---------------------------------------------------------------------


def record_from_moves(
    game: Game,
    ruleset: Ruleset | Mapping[str, JSON],
    seed: int,
    players: Sequence[str | Mapping[str, JSON]],
    moves: Iterable[Move],
    result: Result | Mapping[str, JSON] | None = None,
    meta: Mapping[str, JSON] | None = None,
) -> dict[str, JSON]:
    """A match record from moves as played. ``players`` are dicts or bot ids ("human" for a person)."""
    data = ruleset.data if isinstance(ruleset, Ruleset) else ruleset
    seats = []
    for index, player in enumerate(players):
        if isinstance(player, Mapping):
            seats.append({"seat": game.seats[index], **dict(player)})
        elif player == "human":
            seats.append({"seat": game.seats[index], "name": "Human", "bot": None})
        else:
            seats.append({"seat": game.seats[index], "name": str(player), "bot": str(player)})
    record: dict[str, JSON] = {
        "format": FORMAT,
        "game": game.id,
        "ruleset": json.loads(json.dumps(dict(data), default=str)),
        "seed": int(seed),
        "players": seats,
        "moves": [game.encode_move(move) for move in moves],
    }
    if result is not None:
        record["result"] = result.to_json() if isinstance(result, Result) else dict(result)
    if meta:
        record["meta"] = dict(meta)
    return record


# -- reading -------------------------------------------------------------------------------


def read_text(path: str | Path) -> str:
    """The file as text; a missing file, a folder or non-UTF-8 bytes raise a syntax error."""
    try:
        return read_utf8(Path(path))
    except UnreadableFile as exc:
        raise MatchFileError(exc.reason, path=path, line=exc.line, column=exc.column) from None


def parse_json(text: str, path: str | Path | None = None) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise MatchFileError(f"invalid JSON: {exc.msg}", path=path, line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise MatchFileError("invalid JSON: nested too deeply to read", path=path) from None


def _suffix(path: Path) -> str:
    return path.suffix.lower()


def text_formats_for(suffix: str, plugins: Plugins) -> list[tuple[GameSpec, TextFormat]]:
    """Every game's text format registered for ``suffix`` (".txt")."""
    return [(spec, spec.text_formats[suffix]) for spec in plugins.games().values() if suffix in spec.text_formats]


def _ruleset_resolver(game_id: str, base: Path, plugins: Plugins) -> Any:
    def resolve(ref: str) -> Mapping[str, JSON]:
        candidate = base / ref
        target: str | Path = candidate if ref.endswith(".toml") and candidate.is_file() else ref
        return load_ruleset(target, game=game_id, plugins=plugins).data

    return resolve


def parse_record(text: str, path: str | Path, plugins: Plugins | None = None) -> Any:
    """Parse a record's text by the file's suffix: JSON, or a game's text format (syntax stage)."""
    plugins = _plugins(plugins)
    file = Path(path)
    suffix = _suffix(file)
    if suffix == ".json" or (not text_formats_for(suffix, plugins) and text.lstrip().startswith("{")):
        return parse_json(text, file)
    candidates = text_formats_for(suffix, plugins)
    if not candidates:
        known = sorted({s for spec in plugins.games().values() for s in spec.text_formats} | {".json"})
        raise MatchFileError(f"unknown match file type {suffix or '(no suffix)'!r} (known: {', '.join(known)})", path=file)
    if not text.strip():  # a text format may have defaults for every header line; an empty file is still no record
        raise MatchFileError("the file is empty", path=file)
    failures: list[MatchFileError] = []
    for spec, fmt in candidates:
        try:
            return fmt.loads(text, _ruleset_resolver(spec.id, file.parent, plugins))
        except MatchFileError as exc:
            failures.append(exc)
        except (RulesetError, PegboardError) as exc:
            failures.append(MatchFileError(str(exc), stage="syntax"))
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            failures.append(MatchFileError(f"cannot read as {spec.name}: {exc}", stage="syntax"))
    # several games share the suffix: the one that read furthest is most likely the right one
    best = max(failures, key=lambda e: e.line or 0)
    if best.path is None:
        best.path = str(file)
    raise best


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
    """True when every move passes the game's compiled move check (see :mod:`pegboard.fastschema`).

    Otherwise the full validator sees the moves, so errors keep their exact messages and paths.
    """
    moves = record.get("moves") if isinstance(record, dict) else None
    if spec is None or not isinstance(moves, list):
        return False
    try:
        fast = move_predicate(spec.schema_dir)
    except SchemaFileError:
        return False
    return fast is not None and all(map(fast, moves))


def _ruleset_known_valid(record: Mapping[str, Any], game_id: Any, plugins: Plugins) -> bool:
    ruleset = record.get("ruleset")
    if not isinstance(ruleset, dict) or ruleset.get("game") != game_id:
        return False
    try:
        cached_ruleset(ruleset, plugins)
    except PegboardError:
        return False
    return True


_RULESETS: dict[tuple[int, str], Ruleset] = {}


def cached_ruleset(data: Mapping[str, Any], plugins: Plugins) -> Ruleset:
    """:func:`~pegboard.rulesets.ruleset_from_data`, remembered per distinct ruleset.

    A batch of match records usually embeds the same few rulesets; checking each
    against its schema once is enough. Invalid rulesets are not remembered.
    """
    return _ruleset_for(data, plugins, _ruleset_key(data, plugins))


def _ruleset_for(data: Mapping[str, Any], plugins: Plugins, key: tuple[int, str]) -> Ruleset:
    return _remember(_RULESETS, key, 64, lambda: ruleset_from_data(data, plugins))


def _ruleset_key(data: Mapping[str, Any], plugins: Plugins) -> tuple[int, str]:
    # Equal reprs mean equal JSON data (unlike sorted JSON, the same ruleset written in
    # another key order is a second entry: rare, and repr costs a third of json.dumps).
    return id(plugins), repr(data)


_K = TypeVar("_K")
_V = TypeVar("_V")


def _remember(cache: dict[_K, _V], key: _K, limit: int, build: Callable[[], _V]) -> _V:
    """``cache[key]``, built on first use; the cache is emptied when it outgrows ``limit``."""
    found = cache.get(key)
    if found is None:
        if len(cache) > limit:
            cache.clear()
        found = cache[key] = build()
    return found


# -- the replay and result stages ---------------------------------------------------------------

_GAMES: dict[tuple[int, str], Game] = {}


def game_for_record(record: Mapping[str, Any], plugins: Plugins | None = None) -> Game:
    """The game (with rule mods) a record was played under; built once per distinct ruleset."""
    plugins = _plugins(plugins)
    data = record["ruleset"]
    key = _ruleset_key(data, plugins)
    ruleset = _ruleset_for(data, plugins, key)  # the key serves both caches: repr(data) once
    return _remember(_GAMES, key, 32, lambda: build_game(ruleset, plugins))


# A NamedTuple, not a frozen dataclass: the same fields, repr and equality, but a dataclass
# generates and compiles its methods in every process that imports it (~4 M instructions).
class ReplayedMove(NamedTuple):
    """One move of a replayed record: its number, who played it, how it reads, what it did."""

    number: int
    seat: int
    move: Move
    text: str
    events: tuple[Event, ...]


@dataclass
class Replay:
    """A record checked through every stage by :func:`load_record`.

    ``result`` is the verdict: the replayed state's result, or a declared clock
    result (flag, move time) on a game the moves leave unfinished.
    """

    game: Game
    state: State
    moves: list[ReplayedMove]
    result: Result | None
    ruleset_id: str | None


def replay(
    record: Mapping[str, Any],
    plugins: Plugins | None = None,
    *,
    path: str | Path | None = None,
    events: bool = True,
) -> tuple[State, list[Event]]:
    """Replay a (schema-valid) record from its seed; raises :class:`MatchFileError` at the first bad move.

    Moves after a turn-limit result imply that the players extended the game
    (:meth:`~pegboard.game.State.extend`). With ``events=False`` the moves are
    checked and then played with :meth:`~pegboard.game.State.push`, and the
    returned event list is empty (validation needs only the verdict).
    """
    collected: list[Event] = []
    state = _replay(record, game_for_record(record, plugins), path, collected if events else None)
    return state, collected


def _replay(
    record: Mapping[str, Any],
    game: Game,
    path: str | Path | None,
    events: list[Event] | None,
    kept: list[ReplayedMove] | None = None,
) -> State:
    """The one replay loop. Collects every event into ``events`` and every move into ``kept``
    when they are given; without either, checked moves go through the fast ``push``."""
    state = game.new_state(int(record["seed"]))
    lines = _move_lines(record)
    fast = events is None and kept is None
    decode, check, advance = game.decode_move, state.check, state.advance  # no undo in a replay
    for number, encoded in enumerate(record["moves"], 1):
        # The usual case costs one decode, one check and one push; everything else is the slow path.
        try:
            move = decode(encoded)
        except InvalidMoveEncoding as exc:
            _refuse_after_end(state, path, number, lines)
            raise MatchFileError(str(exc), rule="encoding", **_where(path, number, lines)) from None
        if fast and check(move) is None:
            advance(move)
            continue
        _refuse_after_end(state, path, number, lines)
        if state.result is not None:
            state.extend()
        try:
            seat, text = state.to_move, _move_text(state, move, encoded) if kept is not None else ""
            played = state.apply(move)  # raises IllegalMove with the rule id and reason
        except IllegalMove as exc:  # the state is unchanged, so the move renders as it was tried
            raise MatchFileError(f"{_move_text(state, move, encoded)} is illegal: {exc.reason}", rule=exc.rule, **_where(path, number, lines)) from None
        if events is not None:
            events.extend(played)
        if kept is not None:
            kept.append(ReplayedMove(number, seat, move, text, tuple(played)))
    return state


def _move_lines(record: Mapping[str, Any]) -> list[int]:
    """Source line of each move, when a text format recorded them in ``meta.lines``."""
    meta = record.get("meta")
    lines = meta.get("lines") if isinstance(meta, Mapping) else None
    return [int(n) for n in lines] if isinstance(lines, list) else []


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
    verdict = state.result or (Result.from_json(record["result"]) if record.get("result") is not None else None)
    ruleset_id = record["ruleset"].get("id")
    return Replay(game, state, moves, verdict, str(ruleset_id) if ruleset_id else None)


def plain(value: Any) -> Any:
    """A JSON-plain copy (tuples to lists, mappings to dicts), for records and comparisons."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def _where(path: str | Path | None, number: int, lines: list[int]) -> dict[str, Any]:
    where: dict[str, Any] = {"path": path, "stage": "replay", "move": number, "json_path": f"$.moves[{number - 1}]"}
    if number <= len(lines):
        where["line"] = lines[number - 1]
    return where


def _refuse_after_end(state: State, path: str | Path | None, number: int, lines: list[int]) -> None:
    """Raise the replay error for a move after the end, unless the game may be extended."""
    result = state.result
    if result is not None and not state.can_extend():
        raise MatchFileError(f"the game was already over ({result.reason})", rule="game_over", **_where(path, number, lines))


def _move_text(state: State, move: Any, encoded: Any) -> str:
    try:
        return state.move_text(move)
    except Exception:  # noqa: BLE001 - a move the engine cannot even render is shown as JSON
        return json.dumps(encoded)


def check_result(record: Mapping[str, Any], state: State, path: str | Path | None = None) -> None:
    """Raise a ``result``-stage error unless the declared result matches the replayed one."""
    declared = record.get("result")
    if declared is None:
        return
    actual = state.result
    where: dict[str, Any] = {"path": path, "stage": "result", "json_path": "$.result"}
    if actual is None:
        if declared["reason"] in ADJUDICATED_REASONS:
            return  # a clock or a resignation ended it: the moves alone cannot say otherwise
        raise MatchFileError(f"declares a result ({declared['reason']}) but the game is not over after {len(record['moves'])} moves", **where)
    claimed = Result.from_json(declared)
    if not claimed.same_outcome(actual):
        raise MatchFileError(
            f"declares winner {claimed.winner} by {claimed.reason!r}, the replay gives winner {actual.winner} by {actual.reason!r}",
            **where,
        )
    if claimed.scores is not None and actual.scores is not None and tuple(claimed.scores) != tuple(actual.scores):
        raise MatchFileError(f"declares scores {list(claimed.scores)}, the replay gives {list(actual.scores)}", **where)


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
    except MatchFileError as exc:
        report.errors = [exc]
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


# -- writing --------------------------------------------------------------------------------


def dumps_record(record: Mapping[str, JSON], suffix: str = ".json", plugins: Plugins | None = None) -> str:
    """The record as JSON, or in the text format its game registers for ``suffix``."""
    plugins = _plugins(plugins)
    if suffix.lower() == ".json":
        return json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    spec = plugins.game(str(record["game"]))
    fmt = spec.text_formats.get(suffix.lower())
    if fmt is None:
        known = ", ".join([".json", *spec.text_formats])
        raise MatchFileError(f"{spec.name} records cannot be written as {suffix or '(no suffix)'!r} (known: {known})", stage="output")
    return fmt.dumps(record, game_for_record(record, plugins))


def write_text_atomic(path: str | Path, text: str) -> Path:
    """Write through a temporary file in the same folder, then rename over ``path``."""
    import tempfile  # only writers need it

    target = Path(path)
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return target


def write_record(record: Mapping[str, JSON], path: str | Path, plugins: Plugins | None = None) -> Path:
    """Write a record (format chosen by suffix) atomically."""
    file = Path(path)
    suffix = ".json" if file.name.endswith(".json") else _suffix(file)
    return write_text_atomic(file, dumps_record(record, suffix, plugins))


def check_output(target: str | Path, source: str | Path | None = None, *, force: bool = False) -> None:
    """Raise an ``output``-stage :class:`MatchFileError` unless ``target`` can be written:
    it is not ``source``, not a directory, its folder exists, and it is new or ``force`` is set."""
    dst = Path(target)
    if source is not None and dst.exists() and Path(source).exists() and os.path.samefile(source, dst):
        raise MatchFileError("refusing to overwrite the input file", path=dst, stage="output")
    if dst.is_dir():
        raise MatchFileError("the output is a directory", path=dst, stage="output")
    if dst.exists() and not force:
        raise MatchFileError("the file exists (use --force to replace it)", path=dst, stage="output")
    if not dst.parent.is_dir():
        raise MatchFileError("the folder does not exist", path=dst.parent, stage="output")


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


# -- positions ---------------------------------------------------------------------------------


def read_position(path: str | Path, game: Game, schema_dir: str | Path | None = None) -> State:
    """A state from a position JSON file: syntax, then the game's position schema, then the engine."""
    data = parse_json(read_text(path), path)
    if schema_dir is not None and game_schema_path(schema_dir, "position").is_file():
        found = issues(validator(game_schema_path(schema_dir, "position")), data)
        if found:
            first = found[0]
            raise MatchFileError(first.message, path=path, stage="schema", json_path=first.path)
    if not isinstance(data, dict):
        raise MatchFileError("a position must be a JSON object", path=path, stage="schema", json_path="$")
    try:
        return game.state_from_json(data)
    except InvalidPosition as exc:
        raise MatchFileError(str(exc), path=path, stage="position") from None
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise MatchFileError(f"not a {game.name} position: {type(exc).__name__}: {exc}", path=path, stage="position") from None
