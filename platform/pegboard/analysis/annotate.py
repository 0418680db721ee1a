"""Annotated records: a review written into the record's ``annotations`` (docs/formats.md).

Every move gets its evaluation (seat 0's win chance after it and the score behind it); a
marked move also gets its mark, its drop, the better move with the line after it, and, unless
the record already had a comment there (a person's comment is never replaced), the
explanation as its comment. ``meta.analysis`` says who analysed, with what budget, and each
side's accuracy. The result is an ordinary record: ``pegboard validate`` checks it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pegboard.game import JSON

if TYPE_CHECKING:
    from pegboard.analysis.analyse import Analysis


def annotated_record(analysis: Analysis) -> dict[str, JSON]:
    """A copy of the analysed record with the review's annotations (see the module docstring)."""
    if analysis.record is None:
        raise ValueError("only an analysis of a record can be written as one")
    record: dict[str, Any] = copy.deepcopy(dict(analysis.record))
    kept = _comments(record)
    notes: list[JSON] = []
    review = analysis.review
    for row in review.rows:
        chance = row.after if row.seat == 0 else 1.0 - row.after
        evaluation: dict[str, JSON] = {"win_chance": round(min(1.0, max(0.0, chance)), 4)}
        score = row.score_after if row.seat == 0 or row.score_after is None else -row.score_after
        if score is not None:
            evaluation["score"] = round(score, 3)
        note: dict[str, JSON] = {"move": row.number, "eval": evaluation}
        if row.mark is not None:
            note["mark"] = row.mark
            note["drop"] = round(min(100.0, row.drop), 2)
            if row.line_moves:
                note["better"] = row.line_moves[0]
                if len(row.line_moves) > 1:
                    note["line"] = list(row.line_moves[1:])
        comment = kept.get(row.number) or "; ".join(row.explanation)
        if comment:
            note["comment"] = comment
        notes.append(note)
    record["annotations"] = notes
    meta = dict(record.get("meta") or {})
    meta["analysis"] = {
        "generator": "pegboard analyse",
        "bot": analysis.analyst,
        "budget": analysis.settings.budget,
        "accuracy": [None if s.accuracy is None else round(s.accuracy, 1) for s in review.sides()],
    }
    record["meta"] = meta
    return record


def _comments(record: Mapping[str, Any]) -> dict[int, str]:
    """The comments the record already carries, by move number."""
    return {int(note["move"]): str(note["comment"]) for note in record.get("annotations") or [] if note.get("comment")}
