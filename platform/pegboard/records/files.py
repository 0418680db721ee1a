"""Match records as files: build a record, read and parse one (JSON or a game's text
format), write one atomically, and read position files.

A record is a plain JSON-able dict (the envelope in ``schemas/match.schema.json``).
JSON files (``*.match.json``, any ``.json``) are the native form; a game may add
text forms through :attr:`pegboard.specs.GameSpec.text_formats`, chosen by suffix.
Files are written through a temporary file and an atomic rename, so a crash never
leaves half a file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard.errors import MatchFileError, PegboardError, RulesetError, UnreadableFile
from pegboard.game import JSON, Game, InvalidPosition, Move, Result, State
from pegboard.plugins import resolve as _plugins
from pegboard.records import MATCH_FORMAT
from pegboard.records.replay import game_for_record
from pegboard.records.schemas import game_schema_path, issues, validator
from pegboard.rules.rulesets import Ruleset, load_ruleset
from pegboard.support.textfiles import read_utf8

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins
    from pegboard.specs import GameSpec, TextFormat

FORMAT = MATCH_FORMAT
MATCH_SUFFIX = ".match.json"



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
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MatchFileError(f"invalid JSON: {exc.msg}", path=path, line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise MatchFileError("invalid JSON: nested too deeply to read", path=path) from None
    # A \u escape of a UTF-16 surrogate (rare): is each one half of a pair? The one-character test
    # first is a memchr over the text; most records hold no backslash at all.
    if "\\" in text and ("\\ud" in text or "\\uD" in text):
        _refuse_lone_surrogates(text, data, path)
    return data


def _refuse_lone_surrogates(text: str, data: Any, path: str | Path | None) -> None:
    """JSON may escape half a surrogate pair (``"\\udcfd"``), which is no character: such a file
    could never be written back as UTF-8, so it is refused as its syntax stage."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        import re

        lone = r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
        found = re.search(lone, text)
        line = text.count("\n", 0, found.start()) + 1 if found else None
        column = found.start() - text.rfind("\n", 0, found.start()) if found else None
        raise MatchFileError("invalid JSON: a \\u escape names half of a surrogate pair, not a character", path=path, line=line, column=column) from None
    except (ValueError, RecursionError):
        return


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
        try:
            return parse_json(text, file)
        except MatchFileError:
            from pegboard.records.kinds import text_kind  # the error path only

            looks = text_kind(text, plugins)
            if looks is None:
                raise
            raise MatchFileError(f"expected a match record (JSON), found {looks}", path=file) from None
    candidates = text_formats_for(suffix, plugins)
    if not candidates:
        known = sorted({s for spec in plugins.games().values() for s in spec.text_formats} | {".json"})
        from pegboard.records.kinds import text_kind

        looks = text_kind(text, plugins)
        found = f"; the file looks like {looks}" if looks else ""
        raise MatchFileError(f"unknown match file type {suffix or '(no suffix)'!r} (known: {', '.join(known)}){found}", path=file)
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


# -- positions ---------------------------------------------------------------------------------


def read_position(path: str | Path, game: Game, schema_dir: str | Path | None = None, plugins: Plugins | None = None) -> State:
    """A state from a position JSON file: syntax, then the game's position schema, then the engine.

    A file of another kind (a match record, another game's position) is refused with a sentence
    naming what was expected and what the file is."""
    data = parse_json(read_text(path), path)
    if schema_dir is not None and game_schema_path(schema_dir, "position").is_file():
        found = issues(validator(game_schema_path(schema_dir, "position")), data)
        if found:
            from pegboard.records.kinds import POSITION, wrong_kind

            wrong = wrong_kind(data, POSITION, game.id, _plugins(plugins))
            if wrong is not None:
                raise MatchFileError(wrong, path=path, stage="schema", json_path="$")
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
