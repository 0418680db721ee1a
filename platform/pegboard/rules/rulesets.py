"""Rulesets: TOML files that set a game's rules, with ``extends`` inheritance.

A ruleset file names its ``game`` and ``id``, may ``extends = "<game>/<id>"``
another ruleset (or ``"<id>"`` of the same game, or a relative ``.toml``
path), may list rule ``mods``, and holds the game's own tables. Loading
resolves the chain by deep merge (tables merge key by key, every other value
replaces the parent's), drops ``extends``, validates the result against the
``ruleset.schema.json`` in the game's ``GameSpec.schema_dir`` and returns a frozen
:class:`Ruleset`. The common keys (:data:`COMMON_KEYS`) may appear in any game's rulesets.

The identity keys ``id``, ``name`` and ``description`` are never inherited:
a child names itself (``id`` defaults to the file name, ``name`` to the id).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pegboard.errors import RulesetError as RulesetError  # re-exported: where callers have always found it
from pegboard.errors import UnknownRuleset, UnreadableFile
from pegboard.game import Game, PegboardError
from pegboard.plugins import resolve
from pegboard.support.textfiles import read_utf8

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins

IDENTITY_KEYS = ("id", "name", "description")


@dataclass(frozen=True, eq=False)
class Ruleset:
    """A resolved ruleset: ``data`` is what the game factory receives (``extends`` removed).

    Two rulesets are equal when their game, id, name, :attr:`digest` and source are.
    """

    game: str
    id: str
    name: str
    data: Mapping[str, Any] = field(repr=False)
    source: Path | None = None

    @cached_property
    def digest(self) -> str:
        """The sha256 of ``data``'s canonical JSON, worked out when first asked for
        (validating records never needs it, and hashlib loads OpenSSL)."""
        return digest_of(self.data)

    def _identity(self) -> tuple[Any, ...]:
        return (self.game, self.id, self.name, self.digest, self.source)

    def __eq__(self, other: object) -> bool:
        return self._identity() == other._identity() if isinstance(other, Ruleset) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._identity())

    @property
    def ref(self) -> str:
        """``"<game>/<id>"``."""
        return f"{self.game}/{self.id}"

    @property
    def mods(self) -> tuple[str, ...]:
        return tuple(self.data.get("mods", ()))


# A NamedTuple, not a frozen dataclass: the same fields, repr and equality, but a dataclass
# generates and compiles its methods in every process that imports it (~4 M instructions).
class RulesetRef(NamedTuple):
    """A shipped ruleset file found by :func:`list_rulesets` (not yet loaded)."""

    game: str
    id: str
    path: Path

    @property
    def ref(self) -> str:
        return f"{self.game}/{self.id}"


# -- small helpers ------------------------------------------------------------------------


def canonical_json(data: Any) -> str:
    """The one JSON spelling used for digests: sorted keys, no spaces, UTF-8."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def digest_of(data: Mapping[str, Any]) -> str:
    import hashlib  # loads OpenSSL: only when a digest is asked for (not to list rulesets)

    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()


def deep_merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Tables merge key by key; any other value in ``override`` replaces the base's."""
    merged: dict[str, Any] = {key: _copy(value) for key, value in base.items()}
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = deep_merge(merged[key], value)
        else:
            merged[key] = _copy(value)
    return merged


def _copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


#: The keys every ruleset may have, whatever its game (each game's ruleset schema lists them).
COMMON_KEYS = ("game", "id", "name", "description", "mods", "mod_options", "timers")


def _ordered(data: dict[str, Any]) -> dict[str, Any]:
    """The common keys first, then the game's tables in their file order."""
    head = {key: data[key] for key in COMMON_KEYS if key in data}
    return {**head, **{k: v for k, v in data.items() if k not in head}}


_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")


def read_toml(path: Path, plugins: Plugins | None = None) -> dict[str, Any]:
    """Parse one TOML file; every failure is a :class:`RulesetError` naming the file (and, for
    a JSON file, what it holds: game names come from ``plugins``)."""
    try:
        text = read_utf8(path)
    except UnreadableFile as exc:
        raise RulesetError(exc.reason, path=path, line=exc.line, column=exc.column) from None
    import tomllib  # here, not at the top: validating records (rulesets embedded as JSON) never reads TOML

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = _TOML_POSITION.search(message)
        line = int(found.group(1)) if found else None
        column = int(found.group(2)) if found else None
        if found is None and "(at end of document)" in message:
            lines = text.splitlines() or [""]
            line, column = len(lines), len(lines[-1]) + 1
        reason = _TOML_POSITION.sub("", message).replace("(at end of document)", "").strip()
        from pegboard.records.kinds import json_kind  # a file of another kind: say what it is

        looks = json_kind(text, resolve(plugins))
        if looks is not None:
            raise RulesetError(f"expected a TOML ruleset, found {looks}", path=path) from None
        raise RulesetError(f"TOML syntax error: {reason}", path=path, line=line, column=column) from None


# -- finding files -------------------------------------------------------------------------


def list_rulesets(game: str | None = None, plugins: Plugins | None = None) -> list[RulesetRef]:
    """Every shipped ruleset (of ``game``, or of all games) from every plugin's ruleset dirs.

    A game's own folder comes first; when two files claim the same ``<game>/<id>``,
    the first one found wins.
    """
    plugins = resolve(plugins)
    found: dict[tuple[str, str], RulesetRef] = {}
    for folder in plugins.ruleset_dirs():
        if not folder.path.is_dir():
            continue
        for path in sorted(folder.path.glob("*.toml")):
            owner = folder.game
            if owner is None:
                try:
                    owner = str(read_toml(path, plugins).get("game", ""))
                except RulesetError:
                    continue  # a broken file in a shared folder: `ruleset check` reports it
            ruleset_id = path.stem
            if game is not None and owner != game:
                continue
            found.setdefault((owner, ruleset_id), RulesetRef(owner, ruleset_id, path))
    return sorted(found.values(), key=lambda r: (r.game, r.id))


def find_ruleset(game: str, ruleset_id: str, plugins: Plugins | None = None) -> Path:
    """The file of ``<game>/<id>``; raises :class:`RulesetError` listing the known ids."""
    plugins = resolve(plugins)
    plugins.game(game)  # unknown game -> UnknownId
    known = list_rulesets(game, plugins)
    for ref in known:
        if ref.id == ruleset_id:
            return ref.path
    names = ", ".join(r.id for r in known) or "none"
    raise UnknownRuleset(f"unknown ruleset {game}/{ruleset_id} (known: {names})")


def _looks_like_path(ref: str) -> bool:
    return ref.endswith(".toml") or "\\" in ref or ref.count("/") > 1 or ref.startswith((".", "~"))


# -- loading -------------------------------------------------------------------------------


def _resolve_chain(path: Path, plugins: Plugins, chain: tuple[Path, ...]) -> dict[str, Any]:
    # Errors name each file as it was reached (as typed, or relative to its child); the cycle
    # test compares the files themselves.
    if path.resolve() in {link.resolve() for link in chain}:
        loop = " -> ".join(p.name for p in (*chain, path))
        raise RulesetError(f"forms a cycle: {loop}", path=chain[0], key="extends")
    raw = read_toml(path, plugins)
    game = raw.get("game")
    if not isinstance(game, str) or not game:
        raise RulesetError("expected a string naming the game", path=path, key="game")
    parent_ref = raw.pop("extends", None)
    if parent_ref is None:
        return raw
    if not isinstance(parent_ref, str):
        raise RulesetError('expected a string like "<game>/<id>"', path=path, key="extends")
    if _looks_like_path(parent_ref):
        parent_path = (path.parent / parent_ref).expanduser()
        if not parent_path.is_file():
            raise RulesetError(f"parent ruleset file {parent_ref!r} not found", path=path, key="extends")
    else:
        parent_game, _, parent_id = parent_ref.rpartition("/")
        parent_game = parent_game or game
        if parent_game != game:
            raise RulesetError(f"a {game} ruleset cannot extend a {parent_game} ruleset", path=path, key="extends")
        try:
            parent_path = find_ruleset(parent_game, parent_id, plugins)
        except PegboardError as exc:
            raise RulesetError(f"unknown parent: {exc}", path=path, key="extends") from None
    parent = _resolve_chain(parent_path, plugins, (*chain, path))
    if parent.get("game") != game:
        raise RulesetError(f"parent {parent_ref!r} is a {parent.get('game')} ruleset, not {game}", path=path, key="extends")
    for key in IDENTITY_KEYS:
        parent.pop(key, None)
    return deep_merge(parent, raw)


def _validate(data: dict[str, Any], plugins: Plugins, path: Path | str | None) -> None:
    from pegboard.errors import SchemaFileError
    from pegboard.records.schemas import game_schema_path, issues, predicate, validator  # not to list rulesets

    spec = plugins.game(data["game"])
    schema = game_schema_path(spec.schema_dir, "ruleset")
    try:
        fast = predicate(schema)  # a valid ruleset never needs jsonschema (about 0.1 s to import)
        found = [] if fast is not None and fast(data) else issues(validator(schema), data)
    except SchemaFileError as exc:
        raise RulesetError(str(exc), path=path) from None
    if found:
        first = found[0]
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        key = first.path[2:] if first.path.startswith("$.") else first.path
        raise RulesetError(f"{first.message}{more}", path=path, key=key or "$")
    mods = data.get("mods", [])
    if mods:
        known = plugins.rule_mods(data["game"])
        for index, mod in enumerate(mods):
            if mod not in known:
                names = ", ".join(sorted(known)) or "none"
                raise RulesetError(f"unknown rule mod {mod!r} (known: {names})", path=path, key=f"mods[{index}]")


def ruleset_from_data(data: Mapping[str, Any], plugins: Plugins | None = None, *, source: str | Path | None = None) -> Ruleset:
    """A :class:`Ruleset` from an already resolved mapping (e.g. one embedded in a match record)."""
    plugins = resolve(plugins)
    resolved = _ordered(_copy(dict(data)))
    if "extends" in resolved:
        raise RulesetError("a resolved ruleset may not contain `extends`", path=source, key="extends")
    game = resolved.get("game")
    if not isinstance(game, str):
        raise RulesetError("expected a string naming the game", path=source, key="game")
    try:
        plugins.game(game)
    except PegboardError as exc:
        raise RulesetError(str(exc), path=source, key="game") from None
    _validate(resolved, plugins, source)
    ruleset_id = str(resolved.get("id", ""))
    return Ruleset(
        game=game,
        id=ruleset_id,
        name=str(resolved.get("name", ruleset_id)),
        data=resolved,
        source=Path(source) if source is not None else None,
    )


def load_ruleset(ref: str | Path, game: str | None = None, plugins: Plugins | None = None) -> Ruleset:
    """Load and resolve a ruleset.

    ``ref`` is ``"<game>/<id>"``, ``"<id>"`` (with ``game`` given), or a path to a
    ``.toml`` file. Raises :class:`RulesetError` (or :class:`~pegboard.errors.UnknownId`
    for an unknown game).
    """
    plugins = resolve(plugins)
    text = str(ref)
    if isinstance(ref, Path) or _looks_like_path(text) or Path(text).is_file():
        path = Path(text).expanduser()
    else:
        owner, _, ruleset_id = text.rpartition("/")
        owner = owner or game or ""
        if not owner:
            raise UnknownRuleset(f"ruleset {text!r} needs a game: write <game>/{text}")
        if game is not None and owner != game:
            raise UnknownRuleset(f"ruleset {text!r} is not a {game} ruleset")
        path = find_ruleset(owner, ruleset_id, plugins)
    data = _resolve_chain(path, plugins, ())
    if game is not None and data.get("game") != game:
        raise RulesetError(f"expected a ruleset for {game}, found one for {data.get('game')!r}", path=path, key="game")
    data.setdefault("id", path.stem)
    data.setdefault("name", data["id"])
    try:
        plugins.game(data["game"])
    except PegboardError as exc:
        raise RulesetError(str(exc), path=path, key="game") from None
    return ruleset_from_data(data, plugins, source=path)


def build_game(ruleset: Ruleset, plugins: Plugins | None = None) -> Game:
    """The game for a resolved ruleset, wrapped by its rule mods when it names any."""
    plugins = resolve(plugins)
    game = plugins.game(ruleset.game).factory(ruleset.data)
    if ruleset.mods:
        from pegboard.rules.mods import apply_mods

        game = apply_mods(game, ruleset, plugins)
    return game


def _is_game_id(ref: str | Path) -> bool:
    text = str(ref)
    return not isinstance(ref, Path) and "/" not in text and "\\" not in text and not text.endswith(".toml")


def resolve_ruleset(ref: str | Path | Ruleset, ruleset: str | Path | Ruleset | None = None, *, plugins: Plugins | None = None) -> Ruleset:
    """The ruleset :func:`load_game` builds its game from (the same arguments)."""
    plugins = resolve(plugins)
    if ruleset is not None:
        game_id = str(ref)
        if not isinstance(ruleset, Ruleset):
            return load_ruleset(ruleset, game=game_id, plugins=plugins)
        if ruleset.game != game_id:
            raise RulesetError(f"expected a {game_id} ruleset, found {ruleset.ref}")
        return ruleset
    if isinstance(ref, Ruleset):
        return ref
    if _is_game_id(ref):
        return load_ruleset(plugins.game(str(ref)).default_ruleset, game=str(ref), plugins=plugins)
    return load_ruleset(ref, plugins=plugins)


def load_game(ref: str | Path | Ruleset, ruleset: str | Path | Ruleset | None = None, plugins: Plugins | None = None) -> Game:
    """A game ready to play, its rule mods applied; the one way the platform builds a game by name.

    ``ref`` is a game id (``"nodewar"``: its default ruleset), ``"<game>/<ruleset id>"``,
    the path of a ``.toml`` ruleset or a loaded :class:`Ruleset`. With ``ruleset`` given,
    ``ref`` is the game id and ``ruleset`` a ruleset id, reference, path or :class:`Ruleset`
    of that game: ``load_game("nodewar", "skirmish")`` is ``load_game("nodewar/skirmish")``.
    Raises :class:`~pegboard.errors.UnknownId` for an unknown game and :class:`RulesetError`
    for a bad or unknown ruleset.
    """
    plugins = resolve(plugins)
    return build_game(resolve_ruleset(ref, ruleset, plugins=plugins), plugins)


# -- writing TOML (for `pegboard ruleset show`) -----------------------------------------------

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return json.dumps(str(value))  # dates and times: written as strings


def dumps_toml(data: Mapping[str, Any]) -> str:
    """A small TOML writer for plain data (tables, arrays, scalars); ``tomllib`` reads it back equal.

    Tables become ``[a.b]`` sections; arrays of tables are written inline.
    """
    lines: list[str] = []

    def table(prefix: tuple[str, ...], mapping: Mapping[str, Any]) -> None:
        scalars = [(k, v) for k, v in mapping.items() if not isinstance(v, Mapping)]
        tables = [(k, v) for k, v in mapping.items() if isinstance(v, Mapping)]
        if prefix and (scalars or not tables):
            if lines:
                lines.append("")
            lines.append("[" + ".".join(_key(p) for p in prefix) + "]")
        for key, value in scalars:
            lines.append(f"{_key(str(key))} = {_value(value)}")
        for key, value in tables:
            table((*prefix, str(key)), value)

    table((), data)
    return "\n".join(lines) + "\n"
