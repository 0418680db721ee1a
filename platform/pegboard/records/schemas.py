"""JSON Schemas: loaded and compiled once per process, errors reported by JSON path.

The match envelope (``schemas/match.schema.json``) refers to the game's own
schemas through two fixed URIs under :data:`CURRENT_GAME`. When a record is
checked, a :class:`referencing.Registry` maps those URIs to the schemas of
the record's game, so one envelope schema serves every game and each move is
checked against ``move.schema.json`` in the game's ``GameSpec.schema_dir``
(wherever the plugin keeps it: ``schemas/<game>/`` for the built-in games,
a folder inside the package for a game installed on its own).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # jsonschema costs ~60 ms to import: only commands that validate pay for it
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
    from referencing import Resource

from pegboard.errors import SchemaFileError
from pegboard.records.fastschema import Predicate, compile_predicate
from pegboard.support.resources import data_dir

CURRENT_GAME = "https://pegboard.dev/schemas/current-game/"
"""Base URI the match envelope uses for the record's game (``move``, ``ruleset``)."""

GAME_SCHEMA_KINDS = ("ruleset", "move", "position")
_MAX_MESSAGE = 160


# A NamedTuple, not a frozen dataclass: the same fields, repr and equality, but a dataclass
# generates and compiles its methods in every process that imports it (~4 M instructions).
class SchemaIssue(NamedTuple):
    """One schema violation: where (a JSON path such as ``$.moves[3].to``) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@cache
def _load(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except FileNotFoundError:
        raise SchemaFileError(f"schema file not found ({path})") from None
    except (OSError, ValueError) as exc:
        raise SchemaFileError(f"schema file is broken: {exc} ({path})") from None
    if not isinstance(data, dict):
        raise SchemaFileError(f"schema file does not hold a JSON object ({path})")
    return data


def load_schema(path: str | Path) -> dict[str, Any]:
    """The parsed schema at ``path`` (read once per process; do not mutate it)."""
    return _load(str(Path(path).resolve()))


def core_schema_path(name: str) -> Path:
    """A schema the core owns, e.g. ``core_schema_path("match")``."""
    return data_dir("schemas", f"{name}.schema.json")


def game_schema_path(schema_dir: str | Path, kind: str) -> Path:
    """``<kind>.schema.json`` (``"move"``, ``"position"``, ``"ruleset"``) in a game's ``schema_dir``."""
    return Path(schema_dir) / f"{kind}.schema.json"


def _resource(contents: dict[str, Any]) -> Resource[Any]:
    from referencing import Resource
    from referencing.jsonschema import DRAFT202012

    return Resource.from_contents(contents, default_specification=DRAFT202012)


@cache
def _validator(path: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    schema = _load(path)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def validator(path: str | Path) -> Draft202012Validator:
    """A compiled validator for one self-contained schema file."""
    return _validator(str(Path(path).resolve()))


@cache
def _match_validator(schema_dir: str | None) -> Draft202012Validator:
    from jsonschema import Draft202012Validator
    from referencing import Registry

    envelope = _load(str(core_schema_path("match").resolve()))
    registry: Registry[Any] = Registry()
    for kind in ("move", "ruleset"):
        alias = f"{CURRENT_GAME}{kind}.schema.json"
        if schema_dir is None:
            registry = registry.with_resource(alias, _resource({}))
            continue
        contents = _load(str(game_schema_path(schema_dir, kind)))
        resource = _resource(contents)
        registry = registry.with_resource(alias, resource)
        own_id = resource.id()
        if own_id:  # the schema's internal "#/$defs/..." refs resolve against its own $id
            registry = registry.with_resource(own_id, resource)
    return Draft202012Validator(envelope, registry=registry)


def match_validator(schema_dir: str | Path | None) -> Draft202012Validator:
    """The match envelope validator, linked to the game whose schemas live in ``schema_dir``.

    With ``schema_dir=None`` the game-specific parts (moves, ruleset tables) are not checked.
    """
    return _match_validator(None if schema_dir is None else str(Path(schema_dir).resolve()))


@cache
def _predicate(path: str) -> Predicate | None:
    return compile_predicate(_load(path))


def predicate(path: str | Path) -> Predicate | None:
    """A fast valid/invalid test for one self-contained schema file (None: use :func:`validator`).

    A True answer needs no further check; on False, run :func:`issues` for the errors.
    """
    return _predicate(str(Path(path).resolve()))


@cache
def _move_predicate(schema_dir: str) -> Predicate | None:
    return _predicate(str(game_schema_path(schema_dir, "move")))


@cache
def _match_predicate(schema_dir: str, moves: bool = True) -> Predicate | None:
    linked: dict[str, Predicate | None] = {}
    for kind in ("move", "ruleset"):
        if kind == "move" and not moves:
            linked[f"{CURRENT_GAME}move.schema.json"] = None  # any move passes here
            continue
        found = _predicate(str(game_schema_path(schema_dir, kind)))
        if found is None:
            return None
        linked[f"{CURRENT_GAME}{kind}.schema.json"] = found
    return compile_predicate(_load(str(core_schema_path("match").resolve())), linked)


@cache  # also by the folder as given: resolving a path costs system calls, and the check runs per record
def match_predicate(schema_dir: str | Path, moves: bool = True) -> Predicate | None:
    """The fast test of a whole match record (envelope, ruleset, moves) of the game in ``schema_dir``.

    Lets a valid record through without importing ``jsonschema``; None when a
    schema is outside the fast subset. With ``moves=False`` it checks that the
    moves are a list but not what each move holds.
    """
    return _match_predicate(str(Path(schema_dir).resolve()), moves)


@cache
def move_predicate(schema_dir: str | Path) -> Predicate | None:
    """A fast valid/invalid test for one encoded move of the game in ``schema_dir``.

    None when the move schema needs the full validator (see :mod:`pegboard.records.fastschema`).
    """
    return _move_predicate(str(Path(schema_dir).resolve()))


def _shorten(text: str) -> str:
    return text if len(text) <= _MAX_MESSAGE else text[: _MAX_MESSAGE - 3] + "..."


def _most_specific(error: ValidationError) -> ValidationError:
    from jsonschema.exceptions import best_match

    # anyOf/oneOf/allOf errors hide the useful message in their context
    while error.context:
        deeper = best_match(error.context)
        if deeper is None:
            break
        error = deeper
    return error


def issues(check: Draft202012Validator, instance: Any) -> list[SchemaIssue]:
    """Every violation of ``instance``, in document order, each with its JSON path."""
    found: list[SchemaIssue] = []
    seen: set[tuple[str, str]] = set()
    for error in sorted(check.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path]):
        error = _most_specific(error)
        item = (error.json_path, _shorten(error.message))
        if item not in seen:
            seen.add(item)
            found.append(SchemaIssue(*item))
    return found


def schema_names(schema_dirs: Iterable[tuple[str, Path]]) -> list[str]:
    """Names ``pegboard schema NAME`` accepts: "match" and "<game>/<kind>" for each game."""
    names = ["match"]
    for game_id, schema_dir in schema_dirs:
        names += [f"{game_id}/{kind}" for kind in GAME_SCHEMA_KINDS if game_schema_path(schema_dir, kind).is_file()]
    return names
