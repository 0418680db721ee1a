"""Annotations on a record's moves: the checks the schema cannot make.

A record may carry ``annotations`` (schemas/match.schema.json, docs/formats.md): per move, a
comment, a mark, an evaluation, a better move and the line after it. The schema checks their
shape; :func:`check_annotations` checks what needs the game: each names a move the record
has, at most once, and its better move and line are legal where they would be played.
It is the last stage of validation (``annotations``), run only for records that have them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pegboard.errors import MatchFileError
from pegboard.game import JSON, Game, InvalidMoveEncoding, State
from pegboard.records.replay import positions

STAGE = "annotations"


def check_annotations(record: Mapping[str, Any], game: Game, path: str | Path | None = None) -> None:
    """Raise an ``annotations``-stage :class:`MatchFileError` (with the move number) at the
    first annotation that names a missing move, repeats one, or gives an illegal better move
    or line. ``record`` has passed every other stage."""
    notes = record.get("annotations") or []
    total = len(record["moves"])
    seen: dict[int, int] = {}
    lines: dict[int, int] = {}
    for index, note in enumerate(notes):
        number = int(note["move"])
        if number > total:
            raise _error(f"annotates a move the record does not have (it has {total})", path, number, index, "move")
        if number in seen:
            raise _error(f"is annotated twice ($.annotations[{seen[number]}] and [{index}])", path, number, index, "move")
        seen[number] = index
        if "line" in note and "better" not in note:
            raise _error("has a line but no better move to start it", path, number, index, "line")
        if "better" in note:
            lines[number] = index
    if not lines:
        return
    moves = [game.decode_move(move) for move in record["moves"]]
    last = max(lines)
    for number, state in enumerate(positions(game.new_state(int(record["seed"])), moves), 1):
        if number in lines:
            index = lines[number]
            _check_line(state, game, [notes[index]["better"], *notes[index].get("line", [])], path, number, index)
        if number >= last:
            break


def _check_line(state: State, game: Game, line: Sequence[JSON], path: str | Path | None, number: int, index: int) -> None:
    """Each move of ``line`` legal in turn from ``state`` (left as found)."""
    pushed = 0
    try:
        for step, encoded in enumerate(line):
            field = "better" if step == 0 else f"line[{step - 1}]"
            what = "the better move" if step == 0 else f"move {step} of the line after the better move"
            try:
                move = game.decode_move(encoded)
            except InvalidMoveEncoding as exc:
                raise _error(f"{what} cannot be read: {exc}", path, number, index, field) from None
            if state.result is not None:
                raise _error(f"{what} comes after the end of the game", path, number, index, field)
            reason = state.check(move)
            if reason is not None:
                raise _error(f"{what} {_text(state, move)} is illegal here: {reason}", path, number, index, field)
            state.push(move)
            pushed += 1
    finally:
        for _ in range(pushed):
            state.undo()


def _text(state: State, move: Any) -> str:
    try:
        return state.move_text(move)
    except Exception:  # noqa: BLE001 - a move the engine cannot render is named by its value
        return repr(move)


def _error(reason: str, path: str | Path | None, number: int, index: int, field: str) -> MatchFileError:
    return MatchFileError(reason, path=path, stage=STAGE, move=number, json_path=f"$.annotations[{index}].{field}")

