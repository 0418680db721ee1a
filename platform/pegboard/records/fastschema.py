"""A fast yes/no check for the small JSON Schema subset that Pegboard's schemas use.

A match record holds hundreds of moves, and ``jsonschema`` spends tens of
microseconds on each (``$ref`` look-ups, error objects), which dwarfs the
replay itself. :func:`compile_predicate` turns a schema into Python source, one
plain function per subschema with the simple checks inlined, and compiles it:
"valid or not" for a Node War move in well under a microsecond. It is a fast
path, not a second source of truth: when a predicate says "invalid", the caller
runs ``jsonschema`` to get the exact error and its JSON path, and a schema that
uses any keyword outside :data:`SUPPORTED` gets no predicate at all (``None``),
so the caller falls back to ``jsonschema`` for everything.

``fastjsonschema`` would be the off-the-shelf choice, but it stops at draft 7
and our schemas are draft 2020-12 (``prefixItems``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from pegboard.diskcache import compile_cached

Predicate = Callable[[Any], bool]

SUPPORTED = frozenset(
    {
        "$schema", "$id", "$defs", "$comment", "title", "description", "examples", "default",
        "$ref", "type", "enum", "const", "properties", "required", "additionalProperties",
        "prefixItems", "items", "minItems", "maxItems", "minimum", "maximum",
        "oneOf", "anyOf", "allOf", "minLength", "maxLength", "pattern",
    }
)


#: Keywords that check something (besides ``$ref``); the rest only annotate.
_CHECKING = SUPPORTED - {"$schema", "$id", "$defs", "$comment", "title", "description", "examples", "default", "$ref"}


class Unsupported(Exception):
    """The schema uses something this compiler does not handle."""


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


# A Python test of ``{v}`` per JSON type (bool is not an integer; 1.0 is).
_TYPE_TESTS = {
    "object": "type({v}) is dict",
    "array": "type({v}) is list",
    "string": "type({v}) is str",
    "integer": "(type({v}) is int or (type({v}) is float and {v}.is_integer()))",
    "number": "(type({v}) is int or type({v}) is float)",
    "boolean": "type({v}) is bool",
    "null": "{v} is None",
}


class _Compiler:
    """Writes one ``def f<N>(v): ... return True`` per subschema into :attr:`lines`.

    A subschema's checks are statements about one variable that ``return False`` on
    failure, so a small subschema (a point, an integer) is written straight into its
    parent's function under a fresh variable name instead of being called: a Node War
    move is one call instead of eight. References that could recurse stay calls.
    """

    #: Nesting of inlined subschemas before the compiler calls a function instead.
    MAX_INLINE_DEPTH = 4

    def __init__(self, root: Mapping[str, Any], external: Mapping[str, Predicate | None]) -> None:
        self.root = root
        self.lines: list[str] = []
        self.names: dict[str, Any] = {"_json_equal": _json_equal}
        self.refs: dict[str, str] = {}
        self.count = 0
        self.locals = 0
        self.inlining: list[str] = []  # the $ref pointers being written inline (a cycle must call)
        self.anything = {uri for uri, predicate in external.items() if predicate is None}
        for uri, predicate in external.items():
            self.refs[uri] = self.constant(_accept if predicate is None else predicate)

    def constant(self, value: Any) -> str:
        name = f"c{len(self.names)}"
        self.names[name] = value
        return name

    def local(self, stem: str) -> str:
        self.locals += 1
        return f"{stem}{self.locals}"

    def target(self, pointer: str) -> Any:
        if not pointer.startswith("#/"):
            raise Unsupported(f"$ref {pointer!r}")
        target: Any = self.root
        for part in pointer[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(target, dict) or part not in target:
                raise Unsupported(f"$ref {pointer!r}")
            target = target[part]
        return target

    def ref(self, pointer: str) -> str:
        if pointer in self.refs:
            return self.refs[pointer]
        target = self.target(pointer)
        name = self.refs[pointer] = self.new_name()  # named before compiling: refs may recurse
        self.function(target, name)
        return name

    def new_name(self) -> str:
        self.count += 1
        return f"f{self.count}"

    def function(self, schema: Any, name: str | None = None) -> str:
        """Compile ``schema`` into a function; returns its name."""
        if name is None and isinstance(schema, dict) and "$ref" in schema and not set(schema) & _CHECKING:
            return self.ref(schema["$ref"])  # a bare reference: call the target directly
        name = name or self.new_name()
        saved, self.inlining = self.inlining, []  # a new function starts a new inline chain
        body = self.body(schema, "v")
        self.inlining = saved
        self.lines.append(f"def {name}(v):")
        self.lines.extend(f"    {line}" for line in body)
        self.lines.append("    return True")
        return name

    def check(self, schema: Any, var: str) -> list[str]:
        """Statements that ``return False`` unless ``var`` is valid under ``schema``: inline or a call."""
        pointer = schema.get("$ref") if isinstance(schema, dict) and not set(schema) & _CHECKING else None
        if pointer is not None and pointer in self.anything:
            return []
        if pointer is not None and (pointer in self.inlining or not str(pointer).startswith("#/")):
            return [f"if not {self.ref(pointer)}({var}): return False"]  # a cycle, or a linked schema
        if len(self.inlining) >= self.MAX_INLINE_DEPTH:
            return [f"if not {self.function(schema)}({var}): return False"]
        if pointer is not None:
            self.inlining.append(pointer)
            try:
                return self.body(self.target(pointer), var)
            finally:
                self.inlining.pop()
        self.inlining.append("")
        try:
            return self.body(schema, var)
        finally:
            self.inlining.pop()

    def body(self, schema: Any, v: str) -> list[str]:
        if schema is True:
            return []
        if schema is False:
            return ["return False"]
        if not isinstance(schema, dict):
            raise Unsupported("schema is not an object")
        unknown = set(schema) - SUPPORTED
        if unknown:
            raise Unsupported(", ".join(sorted(unknown)))
        out: list[str] = []
        if "$ref" in schema:
            out += self.check({"$ref": schema["$ref"]}, v)
        known = None  # the one JSON type ``v`` is known to have past the type test
        if "type" in schema:
            names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            try:
                tests = [_TYPE_TESTS[n].format(v=v) for n in names]
            except (KeyError, TypeError) as exc:
                raise Unsupported(f"type {exc}") from None
            out.append(f"if not ({' or '.join(tests)}): return False")
            if len(names) == 1:
                known = names[0]
        if "const" in schema:
            out.append(f"if not _json_equal({v}, {self.constant(schema['const'])}): return False")
        if "enum" in schema:
            options = schema["enum"]
            if options and all(type(o) is str for o in options):
                out.append(f"if not (type({v}) is str and {v} in {self.constant(frozenset(options))}): return False")
            else:
                choices = self.constant(tuple(options))
                out.append(f"if not any(_json_equal({v}, o) for o in {choices}): return False")
        out += self.object(schema, v, known)
        out += self.array(schema, v, known)
        out += self.scalar(schema, v, known)
        for keyword, joiner in (("allOf", " and "), ("anyOf", " or ")):
            if keyword in schema:
                parts = [f"{self.function(s)}({v})" for s in schema[keyword]]
                out.append(f"if not ({joiner.join(parts) or ('True' if keyword == 'allOf' else 'False')}): return False")
        if "oneOf" in schema:
            tagged = _tagged(schema["oneOf"])
            if tagged is not None:  # at most one branch can match: run just that one
                key, branches = tagged
                table = {value: self.function(sub) for values, sub in branches for value in values}
                name = self.local("table")
                self.lines.append(f"{name} = {{{', '.join(f'{value!r}: {fn}' for value, fn in table.items())}}}")
                tag, test = self.local("tag"), self.local("fn")
                out += [f"if type({v}) is not dict: return False", f"{tag} = {v}.get({key!r})",
                        f"if type({tag}) is not str: return False", f"{test} = {name}.get({tag})",
                        f"if {test} is None or not {test}({v}): return False"]
            else:
                parts = [f"bool({self.function(s)}({v}))" for s in schema["oneOf"]]
                out.append(f"if ({' + '.join(parts) or '0'}) != 1: return False")
        return out

    @staticmethod
    def _when(test: str, known: bool, lines: list[str]) -> list[str]:
        """``lines`` under ``if test:`` (keywords that ignore other JSON types), or as they are
        when the type test before them already proved it."""
        return lines if known else [f"if {test}:", *(f"    {line}" for line in lines)]

    def object(self, schema: Mapping[str, Any], v: str, known: str | None = None) -> list[str]:
        properties = schema.get("properties", {})
        required = list(schema.get("required", ()))
        extra = schema.get("additionalProperties", True)
        if not properties and not required and extra is True:
            return []
        out = []
        for key in required:
            out.append(f"if {key!r} not in {v}: return False")
        if extra is False:
            out.append(f"if not {v}.keys() <= {self.constant(frozenset(properties))}: return False")
        for key, sub in properties.items():
            out += self._member(sub, f"{v}[{key!r}]", None if key in required else f"{key!r} in {v}")
        if extra is not True and extra is not False:
            key, item = self.local("k"), self.local("x")
            checks = self.check(extra, item)
            if checks:
                names = self.constant(frozenset(properties))
                out.append(f"for {key}, {item} in {v}.items():")
                out.append(f"    if {key} not in {names}:")
                out.extend(f"        {line}" for line in checks)
        return self._when(f"type({v}) is dict", known == "object", out)

    def _member(self, schema: Mapping[str, Any], access: str, present: str | None) -> list[str]:
        """Checks of one property or item read as ``access``; ``present`` is the test that it
        exists (None: the schema already made sure it does)."""
        item = self.local("x")
        checks = self.check(schema, item)
        if not checks:
            return []
        if present is None:
            return [f"{item} = {access}", *checks]
        return [f"if {present}:", f"    {item} = {access}", *(f"    {line}" for line in checks)]

    def array(self, schema: Mapping[str, Any], v: str, known: str | None = None) -> list[str]:
        prefix = list(schema.get("prefixItems", ()))
        rest = schema.get("items")
        low, high = schema.get("minItems", 0), schema.get("maxItems")
        if not prefix and rest is None and low == 0 and high is None:
            return []
        n = self.local("n")
        out: list[str] = []  # the checks; ``n = len(v)`` goes first when one of them reads n
        if high is not None and low == high:
            out.append(f"if {n} != {int(low)}: return False")
        else:
            if low:
                out.append(f"if {n} < {int(low)}: return False")
            if high is not None:
                out.append(f"if {n} > {int(high)}: return False")
        for index, sub in enumerate(prefix):  # shorter arrays are allowed
            out += self._member(sub, f"{v}[{index}]", None if index < int(low) else f"{n} > {index}")
        if rest is False:
            if high is None or int(high) > len(prefix):  # else maxItems has said it
                out.append(f"if {n} > {len(prefix)}: return False")
        elif rest is not None and rest is not True:
            item = self.local("x")
            checks = self.check(rest, item)
            items = f"{v}[{len(prefix)}:]" if prefix else v
            call = _called(checks, item)
            if call:  # items that are one call each (a game's moves): the loop runs in C
                out.append(f"if not all(map({call}, {items})): return False")
            elif checks:
                out.append(f"for {item} in {items}:")
                out.extend(f"    {line}" for line in checks)
        if any(_reads(line, n) for line in out):
            out.insert(0, f"{n} = len({v})")
        return self._when(f"type({v}) is list", known == "array", out)

    def scalar(self, schema: Mapping[str, Any], v: str, known: str | None = None) -> list[str]:
        out: list[str] = []
        number = "" if known in ("integer", "number") else f"(type({v}) is int or type({v}) is float) and "
        string = "" if known == "string" else f"type({v}) is str and "
        for keyword, op in (("minimum", ">="), ("maximum", "<=")):
            if keyword in schema:
                bound = schema[keyword]
                if type(bound) not in (int, float):
                    raise Unsupported(f"{keyword} {bound!r}")
                out.append(f"if {number}not {v} {op} {bound!r}: return False")
        for keyword, op in (("minLength", ">="), ("maxLength", "<=")):
            if keyword in schema:
                out.append(f"if {string}not len({v}) {op} {int(schema[keyword])}: return False")  # code points
        if "pattern" in schema:
            try:  # ECMA-262 and Python agree on the simple patterns schemas use; anything else falls back
                search = re.compile(schema["pattern"]).search
            except (re.error, TypeError):
                raise Unsupported(f"pattern {schema['pattern']!r}") from None
            out.append(f"if {string}{self.constant(search)}({v}) is None: return False")
        return out


def _called(checks: list[str], var: str) -> str | None:
    """The function name when ``checks`` is the one line ``if not NAME(var): return False``."""
    if len(checks) != 1:
        return None
    head, tail = "if not ", f"({var}): return False"
    line = checks[0]
    name = line[len(head):-len(tail)] if line.startswith(head) and line.endswith(tail) else ""
    return name if name.isidentifier() else None


def _reads(line: str, name: str) -> bool:
    """Whether the generated ``line`` reads the variable ``name`` (a whole word of it)."""
    start = line.find(name)
    while start >= 0:
        end = start + len(name)
        if (start == 0 or not _word(line[start - 1])) and (end == len(line) or not _word(line[end])):
            return True
        start = line.find(name, end)
    return False


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _tagged(branches: Any) -> tuple[str, list[tuple[list[str], Any]]] | None:
    """A ``oneOf`` whose branches are objects told apart by one required string property.

    Returns (key, [(values, branch), ...]) when every branch has ``"type": "object"``,
    requires ``key`` and pins it with a ``const`` or an ``enum`` of strings, no two branches
    sharing a value: a value then matches at most the one branch that lists its tag, and
    nothing without a string tag matches any branch. Otherwise None.
    """
    if not isinstance(branches, list) or not branches or not all(isinstance(b, dict) for b in branches):
        return None
    if any(b.get("type") != "object" or not isinstance(b.get("properties"), dict) for b in branches):
        return None
    required = [set(r) if isinstance(r := b.get("required"), list) else set() for b in branches]
    for key in sorted(set.intersection(*required)):
        out: list[tuple[list[str], Any]] = []
        seen: set[str] = set()
        for branch in branches:
            prop = branch["properties"].get(key)
            if not isinstance(prop, dict) or ("const" in prop) == ("enum" in prop):
                break
            values = [prop["const"]] if "const" in prop else prop["enum"]
            if not isinstance(values, list) or not values or not all(type(x) is str for x in values) or seen & set(values):
                break
            seen.update(values)
            out.append((values, branch))
        else:
            return key, out
    return None


def _accept(value: Any) -> bool:
    return True


def compile_predicate(schema: Mapping[str, Any], external: Mapping[str, Predicate | None] | None = None) -> Predicate | None:
    """A fast validity test for ``schema``, or None when the schema needs full ``jsonschema``.

    ``external`` maps absolute ``$ref`` URIs to predicates already compiled (the
    match envelope's links to the current game's schemas), or to None for "any
    value passes there" (what is checked elsewhere); any other ref that does
    not start with ``#/`` makes the schema unsupported.
    """
    try:
        compiler = _Compiler(schema, external or {})
        entry = compiler.function(schema)
    except Unsupported:
        return None
    namespace = dict(compiler.names)
    # compiling is most of the cost; the code is cached on disk like a module's .pyc
    exec(compile_cached("\n".join(compiler.lines), "<pegboard.records.fastschema>"), namespace)  # noqa: S102 - our own generated code
    predicate: Predicate = namespace[entry]
    return predicate
