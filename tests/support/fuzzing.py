"""Fuzzing Pegboard's inputs: hypothesis strategies that mutate valid files, and the checks.

Used by tests/fuzz/test_fuzz.py (a few thousand cases in the normal run) and by
``tools/fuzz.py --cases N`` (longer runs that print counts).

Each *kind* of input starts from valid files of both games (match records as JSON and
Node War ``.txt``, rulesets, positions), mutates them (structurally: replace, delete or
duplicate parts of the parsed document; or as text: cut, splice, nest, garble bytes) and
feeds the result to what the command behind it runs (``validate``, ``convert``,
``ruleset check``, ``legal``/``eval``). A case is

* ``valid`` or ``refused`` (a clean, one-line error: a :class:`PegboardError`), or
* ``bug``: any other exception (the CLI would print "unexpected ..."), a file written
  anywhere but the output the command was given, or a case slower than the time limit.
"""

from __future__ import annotations

import json
import random
import signal
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from pegboard.game import PegboardError
from pegboard.plugins.manager import Plugins
from pegboard.records.files import dumps_record, read_position, record_from_moves
from pegboard.records.validate import convert, validate_file
from pegboard.rules.rulesets import build_game, dumps_toml, load_ruleset

KINDS = ("record_json", "record_txt", "ruleset", "position")
TIME_LIMIT = 20  # seconds a single case may take before it counts as a hang


# -- the valid starting points ---------------------------------------------------------------------


@dataclass(repr=False)
class Corpus:
    """Valid files of every kind, made once from the installed games."""

    records: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    rulesets: list[str] = field(default_factory=list)
    positions: list[tuple[str, str]] = field(default_factory=list)  # (game id, position JSON)

    def __repr__(self) -> str:
        return f"Corpus({len(self.records)} records, {len(self.texts)} texts, {len(self.rulesets)} rulesets, {len(self.positions)} positions)"

    def bases(self, kind: str) -> list[str]:
        if kind == "record_json":
            return self.records
        if kind == "record_txt":
            return self.texts
        if kind == "ruleset":
            return self.rulesets
        return [text for _, text in self.positions]


def build_corpus(plugins: Plugins) -> Corpus:
    corpus = Corpus()
    rng = random.Random(7)
    for game_id, ruleset_id, plies in (("nodewar", "standard", 24), ("nodewar", "skirmish", 16), ("starfall", "standard", 24), ("starfall", "fog_dark", 16)):
        ruleset = load_ruleset(ruleset_id, game=game_id, plugins=plugins)
        game = build_game(ruleset, plugins)
        state = game.new_state(11)
        moves = []
        while state.result is None and len(moves) < plies:
            move = rng.choice(state.legal_moves())
            state.apply(move)
            moves.append(move)
            if len(moves) == plies // 2 and ruleset_id == "standard":  # `legal GAME` reads it under the standard rules
                corpus.positions.append((game_id, json.dumps(state.to_json())))
        record = record_from_moves(game, ruleset, 11, ["random", "random"], moves, state.result)
        corpus.records.append(json.dumps(record, indent=1))
        if ".txt" in plugins.game(game_id).text_formats:
            corpus.texts.append(dumps_record(record, ".txt", plugins))
        if ruleset.source is not None:
            corpus.rulesets.append(Path(ruleset.source).read_text(encoding="utf-8"))
    return corpus


# -- mutations -------------------------------------------------------------------------------------

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.integers(min_value=-3, max_value=30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
    | st.sampled_from(["nodewar", "starfall", "standard", "grow", "swap", "Blue", "South", "pegboard.match/1", ""])
)
json_values = st.recursive(
    _scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=8
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*prefix, index))


def _mutate_tree(draw: Callable[..., Any], data: Any) -> Any:
    paths = list(_paths(data))
    path = draw(st.sampled_from(paths))
    op = draw(st.sampled_from(["replace", "replace", "delete", "duplicate", "nest", "number"]))
    if not path:
        return draw(json_values) if op == "replace" else [data] if op == "nest" else data
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if op == "replace":
        parent[key] = draw(json_values)
    elif op == "delete":
        del parent[key]
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(key, json.loads(json.dumps(parent[key])))
    elif op == "nest":
        parent[key] = [parent[key]] if draw(st.booleans()) else {"x": parent[key]}
    elif op == "number" and isinstance(parent[key], int) and not isinstance(parent[key], bool):
        parent[key] += draw(st.sampled_from([-1, 1, -1000, 10**6, -(2**40)]))
    return data


@st.composite
def _text_mutation(draw: Callable[..., Any], text: str) -> str:
    op = draw(st.sampled_from(["truncate", "splice", "garble", "deep", "duplicate_line", "drop_line", "token"]))
    if op == "truncate":
        return text[: draw(st.integers(0, len(text)))]
    if op == "splice":
        at = draw(st.integers(0, len(text)))
        return text[:at] + draw(st.text(max_size=20)) + text[at:]
    if op == "garble":
        data = bytearray(text.encode("utf-8", errors="surrogateescape"))
        for _ in range(draw(st.integers(1, 4))):
            if data:
                data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        return data.decode("utf-8", errors="surrogateescape")
    if op == "deep":
        depth = draw(st.sampled_from([50, 900, 3000, 100_000]))
        return "[" * depth + "]" * depth if draw(st.booleans()) else text.replace("{", "{\"deep\": " + "[" * depth + "]" * depth + ",", 1)
    lines = text.splitlines(keepends=True)
    if not lines:
        return text
    index = draw(st.integers(0, len(lines) - 1))
    if op == "duplicate_line":
        lines.insert(index, lines[index])
    elif op == "drop_line":
        del lines[index]
    else:  # change one token of a line: a number, a word
        words = lines[index].split(" ")
        at = draw(st.integers(0, len(words) - 1))
        words[at] = draw(st.sampled_from(["-1", "0", "99999999999", "x", "", "nan", "1.5", "grow", "[", "]", "=", '"']))
        lines[index] = " ".join(words)
    return "".join(lines)


def _parse(kind: str, text: str) -> Any:
    return tomllib.loads(text) if kind == "ruleset" else json.loads(text)


def _dump(kind: str, data: Any) -> str:
    if kind == "ruleset":
        return dumps_toml(data)
    return json.dumps(data)


@st.composite
def mutated(draw: Callable[..., Any], kind: str, corpus: Corpus) -> str:
    """One mutated file of ``kind``: a valid file with one to three changes."""
    text = draw(st.sampled_from(corpus.bases(kind)))
    for _ in range(draw(st.integers(1, 3))):
        structural = kind != "record_txt" and draw(st.integers(0, 9)) < 7
        if structural:
            try:
                data = _parse(kind, text)
                text = _dump(kind, _mutate_tree(draw, data))
                continue
            except Exception:  # noqa: BLE001 - no longer parses or dumps: mutate it as text instead
                pass
        text = draw(_text_mutation(text))
    return text


# -- running one case --------------------------------------------------------------------------------


@dataclass
class Outcome:
    verdict: str  # "valid", "refused" or "bug"
    detail: str = ""


class Hang(Exception):
    pass


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Raise :class:`Hang` in this (main) thread after ``seconds``."""

    def alarm(signum: int, frame: Any) -> None:
        raise Hang(f"took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _files(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*")}


def run_case(kind: str, text: str, folder: Path, plugins: Plugins, *, limit: int = TIME_LIMIT) -> Outcome:
    """Feed one input to what its command runs; classify the result."""
    suffix = {"record_json": ".match.json", "record_txt": ".txt", "ruleset": ".toml", "position": ".json"}[kind]
    source = folder / f"case{suffix}"
    source.write_bytes(text.encode("utf-8", errors="surrogateescape"))
    before = _files(folder)
    allowed: set[Path] = set()
    try:
        with time_limit(limit):
            outcome = _run(kind, source, folder, plugins, allowed)
    except Hang as exc:
        return Outcome("bug", f"hang: {exc}")
    except PegboardError as exc:
        outcome = Outcome("refused", str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    except Exception as exc:  # noqa: BLE001 - this is what the fuzzer looks for
        return Outcome("bug", f"{type(exc).__name__}: {exc}"[:300])
    finally:
        for path in sorted(_files(folder) - before - allowed, reverse=True):
            outcome = Outcome("bug", f"wrote {path.name}, which it was not asked to write")
        for path in _files(folder) - {source}:
            if path.is_file():
                path.unlink()
        source.unlink(missing_ok=True)
    return outcome


def _run(kind: str, source: Path, folder: Path, plugins: Plugins, allowed: set[Path]) -> Outcome:
    if kind in ("record_json", "record_txt"):
        report = validate_file(source, plugins)
        if not report.ok:
            return Outcome("refused", str(report.errors[0]))
        target = folder / ("out.txt" if kind == "record_json" and report.game == "nodewar" else "out.match.json")
        allowed.add(target)
        convert(source, target, plugins)
        return Outcome("valid")
    if kind == "ruleset":
        ruleset = load_ruleset(source, plugins=plugins)
        game = build_game(ruleset, plugins)
        state = game.new_state(1)
        for _ in range(3):
            moves = state.legal_moves()
            if state.result is not None or not moves:
                break
            state.apply(moves[0])
        return Outcome("valid")
    try:  # only to pick the game, as `pegboard legal GAME` would be told it
        data = json.loads(source.read_text(encoding="utf-8", errors="replace"))
    except (ValueError, RecursionError):
        data = None
    game_id = data.get("game") if isinstance(data, dict) and isinstance(data.get("game"), str) else "nodewar"
    spec = plugins.game(game_id) if game_id in plugins.games() else plugins.game("nodewar")
    game = build_game(load_ruleset(spec.default_ruleset, game=spec.id, plugins=plugins), plugins)
    state = read_position(source, game, spec.schema_dir)
    moves = state.legal_moves()
    for move in moves[:5]:
        state.move_text(move)
    evaluator = next(iter(plugins.evaluators(spec.id).values()), None)
    if evaluator is not None:
        evaluator.factory(game).evaluate(state)
    return Outcome("valid")
