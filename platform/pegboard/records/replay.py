"""The one replay path: a record's moves played again from its seed.

Every command that reads a record's moves (``validate``, ``convert``, the window's
import, positions, analysis) goes through :func:`_replay` here. Games and rulesets
are built once per distinct embedded ruleset and remembered.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from pegboard.errors import MatchFileError
from pegboard.game import ADJUDICATED_REASONS, Event, Game, IllegalMove, InvalidMoveEncoding, Move, Result, State
from pegboard.plugins import resolve as _plugins
from pegboard.rules.rulesets import Ruleset, build_game, ruleset_from_data

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins


_RULESETS: dict[tuple[int, str], Ruleset] = {}


def cached_ruleset(data: Mapping[str, Any], plugins: Plugins) -> Ruleset:
    """:func:`~pegboard.rules.rulesets.ruleset_from_data`, remembered per distinct ruleset.

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


def positions(state: State, moves: Sequence[Move]) -> Iterator[State]:
    """Walk a record's moves again: ``state`` before each move, then after the last (``len(moves) + 1`` yields).

    The same ``state`` object is yielded each time, moved on with ``push`` in between; the
    moves must already have passed a replay (:func:`load_record
    <pegboard.records.validate.load_record>`). A finished game that the moves continue is
    extended first, as :func:`replay` does, so each yielded position is the one its move was
    played in. Analysis and the annotation checks revisit positions this way.
    """
    for move in moves:
        if state.result is not None:
            state.extend()
        yield state
        state.push(move)
    yield state


def _move_lines(record: Mapping[str, Any]) -> list[int]:
    """Source line of each move, when a text format recorded them in ``meta.lines``."""
    meta = record.get("meta")
    lines = meta.get("lines") if isinstance(meta, Mapping) else None
    return [int(n) for n in lines] if isinstance(lines, list) else []


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


