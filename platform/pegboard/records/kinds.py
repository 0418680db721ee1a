"""What a file holds, in words: how a command explains that it was given a file of the wrong kind.

A match record given to ``pegboard legal``, a position given to ``pegboard validate``, a JSON file
given to ``pegboard ruleset check``: the schema's first complaint ("'width' is a required
property") would not tell the user what went wrong, so the commands name what they expected and
what the file looks like ("expected a Node War position, found a Node War match record").
This runs only on the error path, imported there: a good file never pays for it.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any, NamedTuple

from pegboard.records import MATCH_FORMAT

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins

MATCH, POSITION, RULESET = "match record", "position", "ruleset"

_POSITION_FORMAT = re.compile(r"^pegboard\.(\w+)\.position/\d+$")


class Kind(NamedTuple):
    """What a document looks like: ``what`` (:data:`MATCH`, :data:`POSITION`, :data:`RULESET` or a
    description such as "a JSON list") and the ``game`` id it names, when it names one."""

    what: str
    game: str | None = None


def kind_of(data: Any, plugins: Plugins) -> Kind:
    """The kind of a parsed JSON (or TOML) document, judged by its keys."""
    if not isinstance(data, dict):
        return Kind(f"a JSON {_json_type(data)}")
    game = data.get("game") if isinstance(data.get("game"), str) else None
    if data.get("format") == MATCH_FORMAT or {"moves", "seed"} <= data.keys() or {"moves", "ruleset"} <= data.keys():
        return Kind(MATCH, game)
    found = _POSITION_FORMAT.match(str(data.get("format", "")))
    if found:
        return Kind(POSITION, found.group(1))
    if game is not None and "id" in data and "moves" not in data:
        return Kind(RULESET, game)
    owner = _position_of(data, plugins)
    if owner is not None:
        return Kind(POSITION, owner)
    if game is not None and game in plugins.games():
        return Kind(POSITION, game)  # a position that names its game but breaks its schema
    keys = ", ".join(list(map(str, data))[:4]) + (", ..." if len(data) > 4 else "")
    return Kind(f"a JSON object with the keys {keys}" if data else "an empty JSON object")


def described(kind: Kind, plugins: Plugins) -> str:
    """``"a Node War match record"``, ``"a Starfall position"``, ``"a JSON list"``."""
    if kind.what not in (MATCH, POSITION, RULESET):
        return kind.what
    spec = plugins.games().get(kind.game) if kind.game is not None else None
    name = spec.name if spec is not None else kind.game  # an unknown game: its id as written
    words = f"{name} {kind.what}" if name else kind.what
    return f"{'an' if words[0].lower() in 'aeiou' else 'a'} {words}"


def wrong_kind(data: Any, expected: str, game: str | None, plugins: Plugins) -> str | None:
    """The sentence for a document that is not the ``expected`` kind (of ``game``), else None.

    None also when the document is the right kind but breaks its schema, or is an object of no
    kind this module knows (most likely the expected kind, broken): the schema's own message
    says more then.
    """
    kind = kind_of(data, plugins)
    if kind.what == expected and (game is None or kind.game in (None, game)):
        return None
    if isinstance(data, dict) and kind.what not in (MATCH, POSITION, RULESET):
        return None  # an object of no known kind: probably the expected one, broken
    wanted = described(Kind(expected, game), plugins)
    hint = ""
    if kind.what == MATCH and expected == POSITION:
        hint = " (`pegboard position FILE --move N --out POSITION.json` writes one of its positions)"
    return f"expected {wanted}, found {described(kind, plugins)}{hint}"


def text_kind(text: str, plugins: Plugins) -> str | None:
    """What a file that is not JSON looks like, when it is recognisably something: TOML, or empty."""
    if not text.strip():
        return "an empty file"
    import tomllib

    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return None
    kind = kind_of(data, plugins)
    if kind.what == RULESET or ("game" in data and "id" in data):
        return f"{described(Kind(RULESET, kind.game), plugins)} (TOML)"
    return "a TOML file" if data else None


def json_kind(text: str, plugins: Plugins) -> str | None:
    """What a file that TOML cannot read looks like, when it is JSON."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return f"{described(kind_of(data, plugins), plugins)} (JSON)"


def _position_of(data: dict[str, Any], plugins: Plugins) -> str | None:
    """The game whose position schema ``data`` passes (compiled checks only; None when none does)."""
    from pegboard.errors import SchemaFileError
    from pegboard.records.schemas import game_schema_path, predicate

    for game_id, spec in plugins.games().items():
        schema = game_schema_path(spec.schema_dir, "position")
        try:
            check = predicate(schema) if schema.is_file() else None
        except SchemaFileError:
            continue
        if check is not None and check(data):
            return game_id
    return None


def _json_type(data: Any) -> str:
    if isinstance(data, list):
        return "list"
    if isinstance(data, str):
        return "string"
    if isinstance(data, bool):
        return "true/false value"
    if data is None:
        return "null"
    return "number"
