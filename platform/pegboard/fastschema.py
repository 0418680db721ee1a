"""A fast yes/no check for the small JSON Schema subset that move schemas use.

A match record holds hundreds of moves, and ``jsonschema`` spends tens of
microseconds on each (``$ref`` look-ups, error objects), which dwarfs the
replay itself. :func:`compile_predicate` turns a schema into nested closures
that answer only "valid or not" in about a microsecond. It is a fast path, not
a second source of truth: when a predicate says "invalid", the caller runs
``jsonschema`` to get the exact error and its JSON path, and a schema that uses
any keyword outside :data:`SUPPORTED` gets no predicate at all (``None``), so
the caller falls back to ``jsonschema`` for everything.

``fastjsonschema`` would be the off-the-shelf choice, but it stops at draft 7
and our schemas are draft 2020-12 (``prefixItems``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

Predicate = Callable[[Any], bool]

SUPPORTED = frozenset(
    {
        "$schema", "$id", "$defs", "$comment", "title", "description", "examples", "default",
        "$ref", "type", "enum", "const", "properties", "required", "additionalProperties",
        "prefixItems", "items", "minItems", "maxItems", "minimum", "maximum",
        "oneOf", "anyOf", "allOf", "minLength", "maxLength", "pattern",
    }
)


class Unsupported(Exception):
    """The schema uses something this compiler does not handle."""


def _is_int(value: Any) -> bool:
    return (type(value) is int) or (type(value) is float and value.is_integer())


_TYPE_TESTS: dict[str, Predicate] = {
    "object": lambda v: type(v) is dict,
    "array": lambda v: type(v) is list,
    "string": lambda v: type(v) is str,
    "integer": _is_int,
    "number": lambda v: type(v) is int or type(v) is float,
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
}


def _type_test(names: list[str]) -> Predicate:
    try:
        tests = tuple(_TYPE_TESTS[name] for name in names)
    except KeyError as exc:
        raise Unsupported(f"type {exc}") from None
    if len(tests) == 1:
        return tests[0]
    return lambda v: any(test(v) for test in tests)


def _all_of(checks: list[Predicate]) -> Predicate:
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda v: first(v) and second(v)
    frozen = tuple(checks)

    def every(value: Any) -> bool:
        for check in frozen:
            if not check(value):
                return False
        return True

    return every


def _json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON Schema means it: 1 == 1.0, but True is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _enum_test(options: list[Any]) -> Predicate:
    if options and all(type(o) is str for o in options):
        names = frozenset(options)
        return lambda v: type(v) is str and v in names
    frozen = tuple(options)
    return lambda v: any(_json_equal(v, o) for o in frozen)


def _bounded_int(low: float | None, high: float | None) -> Predicate:
    low = float("-inf") if low is None else low
    high = float("inf") if high is None else high
    return lambda v: (type(v) is int or (type(v) is float and v.is_integer())) and low <= v <= high


class _Compiler:
    def __init__(self, root: Mapping[str, Any], external: Mapping[str, Predicate]) -> None:
        self.root = root
        self.refs: dict[str, Predicate] = dict(external)

    def ref(self, pointer: str) -> Predicate:
        if pointer in self.refs:
            return self.refs[pointer]
        if not pointer.startswith("#/"):
            raise Unsupported(f"$ref {pointer!r}")
        if pointer not in self.refs:
            target: Any = self.root
            for part in pointer[2:].split("/"):
                part = part.replace("~1", "/").replace("~0", "~")
                if not isinstance(target, dict) or part not in target:
                    raise Unsupported(f"$ref {pointer!r}")
                target = target[part]
            slot: list[Predicate] = []
            self.refs[pointer] = lambda value: slot[0](value)  # stands in while a recursive ref compiles
            slot.append(self.compile(target))
            self.refs[pointer] = slot[0]
        return self.refs[pointer]

    def compile(self, schema: Any) -> Predicate:
        if schema is True:
            return lambda value: True
        if schema is False:
            return lambda value: False
        if not isinstance(schema, dict):
            raise Unsupported("schema is not an object")
        unknown = set(schema) - SUPPORTED
        if unknown:
            raise Unsupported(", ".join(sorted(unknown)))
        checks: list[Predicate] = []
        if "$ref" in schema:
            checks.append(self.ref(schema["$ref"]))
        if "type" in schema:
            checks.append(_type_test(schema["type"] if isinstance(schema["type"], list) else [schema["type"]]))
        if "const" in schema:
            checks.append(_const_test(schema["const"]))
        if "enum" in schema:
            checks.append(_enum_test(schema["enum"]))
        checks.extend(self._object(schema))
        checks.extend(self._array(schema))
        if schema.get("type") == "integer" and set(schema) & {"minimum", "maximum"}:
            checks = [c for c in checks if c is not _is_int]
            checks.append(_bounded_int(schema.get("minimum"), schema.get("maximum")))
            schema = {k: v for k, v in schema.items() if k not in ("minimum", "maximum")}
        checks.extend(self._scalar(schema))
        for keyword, combine in (("allOf", all), ("anyOf", any)):
            if keyword in schema:
                parts = tuple(self.compile(s) for s in schema[keyword])
                checks.append(_combined(parts, combine))
        if "oneOf" in schema:
            parts = tuple(self.compile(s) for s in schema["oneOf"])
            checks.append(_exactly_one(parts))
        if not checks:
            return lambda value: True
        return _all_of(checks)

    def _object(self, schema: Mapping[str, Any]) -> list[Predicate]:
        checks: list[Predicate] = []
        properties = {k: self.compile(v) for k, v in schema.get("properties", {}).items()}
        required = tuple(schema.get("required", ()))
        extra = schema.get("additionalProperties", True)
        extra_check = None if extra is True else self.compile(extra)

        def check_object(value: Any) -> bool:
            if type(value) is not dict:
                return True  # object keywords ignore other types
            for key in required:
                if key not in value:
                    return False
            for key, item in value.items():
                predicate = properties.get(key)
                if predicate is not None:
                    if not predicate(item):
                        return False
                elif extra_check is not None and not extra_check(item):
                    return False
            return True

        if properties or required or extra_check is not None:
            checks.append(check_object)
        return checks

    def _array(self, schema: Mapping[str, Any]) -> list[Predicate]:
        prefix = tuple(self.compile(s) for s in schema.get("prefixItems", ()))
        rest = self.compile(schema["items"]) if "items" in schema else None
        low, high = schema.get("minItems", 0), schema.get("maxItems")
        if not prefix and rest is None and low == 0 and high is None:
            return []

        def check_array(value: Any) -> bool:
            if type(value) is not list:
                return True
            if len(value) < low or (high is not None and len(value) > high):
                return False
            for predicate, item in zip(prefix, value):  # noqa: B905 - shorter arrays are allowed
                if not predicate(item):
                    return False
            if rest is not None and len(value) > len(prefix):
                for item in value[len(prefix) :]:
                    if not rest(item):
                        return False
            return True

        return [check_array]

    def _scalar(self, schema: Mapping[str, Any]) -> list[Predicate]:
        checks: list[Predicate] = []
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None or high is not None:

            def check_number(value: Any) -> bool:
                if not isinstance(value, (int, float)) or isinstance(value, bool):
                    return True
                return (low is None or value >= low) and (high is None or value <= high)

            checks.append(check_number)
        short, long = schema.get("minLength"), schema.get("maxLength")
        if short is not None or long is not None:

            def check_length(value: Any) -> bool:
                if not isinstance(value, str):
                    return True
                size = len(value)  # code points, as JSON Schema counts them
                return (short is None or size >= short) and (long is None or size <= long)

            checks.append(check_length)
        if "pattern" in schema:
            try:  # ECMA-262 and Python agree on the simple patterns schemas use; anything else falls back
                search = re.compile(schema["pattern"]).search
            except (re.error, TypeError):
                raise Unsupported(f"pattern {schema['pattern']!r}") from None
            checks.append(lambda value: type(value) is not str or search(value) is not None)
        return checks


def compile_predicate(schema: Mapping[str, Any], external: Mapping[str, Predicate] | None = None) -> Predicate | None:
    """A fast validity test for ``schema``, or None when the schema needs full ``jsonschema``.

    ``external`` maps absolute ``$ref`` URIs to predicates already compiled (the
    match envelope's links to the current game's schemas); any other ref that
    does not start with ``#/`` makes the schema unsupported.
    """
    try:
        return _Compiler(schema, external or {}).compile(schema)
    except Unsupported:
        return None


def _const_test(expected: Any) -> Predicate:
    return lambda value: _json_equal(value, expected)


def _combined(parts: tuple[Predicate, ...], combine: Callable[[Iterable[bool]], bool]) -> Predicate:
    return lambda value: combine(p(value) for p in parts)


def _exactly_one(parts: tuple[Predicate, ...]) -> Predicate:
    return lambda value: sum(1 for p in parts if p(value)) == 1
