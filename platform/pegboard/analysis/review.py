"""A review of one line of play: a row per move and a summary per side, filled verdict by verdict.

Move ``n`` (1-based) is judged from two verdicts: position ``n - 1`` (before it: the best
move and its win chance) and position ``n`` (after it, valued at the same horizon as the best
move when the analysis search judged both). The mover's *drop* is the win chance (in
percentage points) the best move kept and the move played did not; a move the analysis would
have played itself drops nothing. :class:`Review` accepts verdicts in any order, so a
window can fill its graph while the analysis runs; a row appears as soon as both of its
verdicts are in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pegboard.analysis.engine import Verdict
from pegboard.analysis.winchance import accuracy, count_marks, mark_for
from pegboard.game import JSON
from pegboard.records.replay import plain


@dataclass
class MoveRow:
    """One move of the line with its verdict.

    ``before`` and ``after`` are the mover's win chances (0-1) before the move (with the best
    move) and after it; ``score_before`` / ``score_after`` the same in evaluator units from the
    mover's side (None when a bot measured win chances itself). ``drop`` is in percentage
    points, ``mark`` "inaccuracy", "mistake", "blunder" or None. ``best`` is the better move
    (encoded) when it differs from the move played, with ``best_text``, and the principal line
    from it as ``line`` (the game's notation) and ``line_moves`` (encoded). ``work`` is what
    judging the position before the move cost and ``by`` who judged it. ``explanation`` says, for
    marked moves, what the move cost in the evaluator's terms.
    """

    number: int
    seat: int
    move: JSON
    text: str
    before: float
    after: float
    score_before: float | None
    score_after: float | None
    drop: float
    mark: str | None
    best: JSON | None
    best_text: str
    line: tuple[str, ...]
    line_moves: tuple[JSON, ...]
    work: int
    by: str
    explanation: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, JSON]:
        return {
            "move": self.number,
            "seat": self.seat,
            "played": self.move,
            "text": self.text,
            "before": round(self.before, 4),
            "after": round(self.after, 4),
            "score_before": self.score_before,
            "score_after": self.score_after,
            "drop": round(self.drop, 2),
            "mark": self.mark,
            "better": self.best,
            "better_text": self.best_text or None,
            "line": list(self.line),
            "work": self.work,
            "by": self.by,
            "explanation": list(self.explanation),
        }


@dataclass
class SideSummary:
    """One seat's figures: its moves, average drop, accuracy (0-100) and marks counted."""

    seat: int
    name: str
    moves: int
    average_drop: float
    accuracy: float | None
    marks: dict[str, int]

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "name": self.name,
            "moves": self.moves,
            "average_drop": round(self.average_drop, 2),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            **self.marks,
        }


class Review:
    """The review of a line of ``len(moves)`` moves, filled by :meth:`add` (see the module docstring).

    ``moves`` are the encoded moves, ``texts`` their notation and ``movers`` the seat that
    played each; ``seats`` the game's seat names.
    """

    def __init__(self, seats: Sequence[str], moves: Sequence[JSON], texts: Sequence[str], movers: Sequence[int]) -> None:
        self.seats = tuple(seats)
        self.moves = [plain(move) for move in moves]
        self.texts = list(texts)
        self.movers = list(movers)
        self.verdicts: list[Verdict | None] = [None] * (len(self.moves) + 1)
        self._rows: dict[int, MoveRow] = {}

    # -- filling ------------------------------------------------------------------------------

    def add(self, verdicts: Iterable[Verdict]) -> list[MoveRow]:
        """Take verdicts (any order, repeats replace); returns the rows they completed."""
        completed: list[MoveRow] = []
        for verdict in verdicts:
            self.verdicts[verdict.ply] = verdict
            for number in (verdict.ply, verdict.ply + 1):
                if 1 <= number <= len(self.moves):
                    row = self._row(number)
                    if row is not None:
                        self._rows[number] = row
                        completed.append(row)
        return completed

    @property
    def total(self) -> int:
        """Positions to judge: one per move, and the last."""
        return len(self.verdicts)

    @property
    def done(self) -> int:
        """Positions judged so far."""
        return sum(1 for v in self.verdicts if v is not None)

    @property
    def complete(self) -> bool:
        return self.done == self.total

    # -- reading ------------------------------------------------------------------------------

    @property
    def rows(self) -> list[MoveRow]:
        """The rows known so far, in move order."""
        return [self._rows[number] for number in sorted(self._rows)]

    def row(self, number: int) -> MoveRow | None:
        """Move ``number``'s row (1-based), or None while either of its positions is unjudged."""
        return self._rows.get(number)

    def curve(self) -> list[float | None]:
        """Seat 0's win chance in every position (index 0: the start), None where not judged yet:
        the evaluation graph."""
        return [None if v is None else v.chance for v in self.verdicts]

    def sides(self) -> list[SideSummary]:
        """Each seat's summary over the rows known so far."""
        out = []
        rows = self.rows
        for seat, name in enumerate(self.seats):
            own = [row for row in rows if row.seat == seat]
            drops = [row.drop for row in own]
            average = sum(drops) / len(drops) if drops else 0.0
            out.append(SideSummary(seat, name, len(own), average, accuracy(drops), count_marks(row.mark for row in own)))
        return out

    def worst(self, count: int = 3) -> list[MoveRow]:
        """The ``count`` marked rows with the biggest drops, biggest first."""
        marked = [row for row in self.rows if row.mark is not None]
        return sorted(marked, key=lambda row: (-row.drop, row.number))[:count]

    def judged_by(self) -> dict[str, int]:
        """How many positions each judge (a bot id, the analysis search, a result) decided."""
        counts: dict[str, int] = {}
        for verdict in self.verdicts:
            if verdict is not None:
                counts[verdict.by] = counts.get(verdict.by, 0) + 1
        return counts

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": [row.to_json() for row in self.rows],
            "sides": [side.to_json() for side in self.sides()],
            "curve": [None if c is None else round(c, 4) for c in self.curve()],
            "judged_by": self.judged_by(),
        }

    # -- one row --------------------------------------------------------------------------------

    def _row(self, number: int) -> MoveRow | None:
        before, after = self.verdicts[number - 1], self.verdicts[number]
        if before is None or after is None:
            return None
        seat = self.movers[number - 1]
        played = self.moves[number - 1]
        chance_before = _for(seat, before.chance)
        score_after, chance_after = _after(before, after)
        chance_after = _for(seat, chance_after)
        is_best = before.best is not None and before.best == played
        drop = 0.0 if is_best else max(0.0, (chance_before - chance_after) * 100.0)
        # A move that loses on the spot when the best move did not is a blunder however little
        # chance was left (chess sites mark a move that allows mate so).
        lost_at_once = after.by == "result" and chance_after == 0.0 and drop > 0.0
        return MoveRow(
            number=number,
            seat=seat,
            move=played,
            text=self.texts[number - 1],
            before=chance_before,
            after=chance_after,
            score_before=_score_for(seat, before.score),
            score_after=_score_for(seat, score_after),
            drop=drop,
            mark="blunder" if lost_at_once else mark_for(drop),
            best=None if is_best else before.best,
            best_text="" if is_best or not before.texts else before.texts[0],
            line=() if is_best else before.texts,
            line_moves=() if is_best else before.line,
            work=before.work,
            by=before.by,
        )


def _after(before: Verdict, after: Verdict) -> tuple[float | None, float]:
    """The move's (score, chance) at the horizon its position was judged at.

    Searched ``d`` plies deep, the position before the move valued the best move ``d - 1``
    plies below it; the position after, searched at least that deep, holds the move's value
    at that same horizon in its ladder. Without a ladder (a bot judged, or the game is over)
    the next position's own judgement stands.
    """
    if before.depth > 0 and after.ladder:
        return after.ladder[min(before.depth - 1, len(after.ladder) - 1)]
    return after.score, after.chance


def _for(seat: int, chance: float) -> float:
    """Seat 0's win chance seen from ``seat`` (seats other than 0 share the rest)."""
    return chance if seat == 0 else 1.0 - chance


def _score_for(seat: int, score: float | None) -> float | None:
    if score is None:
        return None
    return score if seat == 0 else -score
