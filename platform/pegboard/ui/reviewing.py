"""Review in the window: a finished game's analysis, run in the background, read ply by ply.

:class:`Reviewing` owns one :class:`~pegboard.analysis.analyse.Analysis` of the session's line
and the :class:`~pegboard.analysis.background.BackgroundAnalysis` judging it on the session's
kind of bot worker. The window polls it every frame and asks it, for the ply shown, the status
sentence, the better move to draw on the board and the History's marks; it draws nothing itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pegboard.analysis.analyse import Analysis
from pegboard.analysis.background import BackgroundAnalysis
from pegboard.analysis.engine import Settings
from pegboard.analysis.winchance import MARK_GLYPHS
from pegboard.game import JSON, Move
from pegboard.records.replay import plain
from pegboard.ui.history import compact_move_text

if TYPE_CHECKING:
    from pegboard.analysis.review import MoveRow, Review
    from pegboard.match.session import Session
    from pegboard.plugins.manager import Plugins

#: Work units (the analysis search's nodes) per position in the window: about 0.07 s of Node War
#: and 0.16 s of Starfall on a free core, judged beside the window's own (docs/window.md, "Review");
#: ``pegboard analyse`` defaults to 4000.
REVIEW_BUDGET = 1500


def line_key(session: Session) -> tuple[int, int, tuple[JSON, ...]]:
    """What identifies the line a review judged: the game, its seed and every move."""
    encode = session.game.encode_move
    return id(session.game), session.seed, tuple(plain(encode(r.move)) for r in session.history)


class Reviewing:
    """The review of ``session``'s whole line (see the module docstring).

    Raises :class:`~pegboard.errors.AnalysisRefused` for a hidden-information game that is not
    over (the analysis would see through the fog) and :class:`~pegboard.errors.MatchFileError`
    for a line the records cannot check. ``workers`` is a bot worker kind (the session's).
    """

    def __init__(self, session: Session, plugins: Plugins, *, budget: int = REVIEW_BUDGET, workers: str = "process") -> None:
        self.session = session
        self.key = line_key(session)
        if session.cursor != len(session.history):
            raise ValueError("a review starts from the end of the line")
        record = session.to_record()
        self.analysis = Analysis.of_record(record, Settings(budget=budget), plugins)
        self.runner = BackgroundAnalysis(self.analysis, workers)

    @property
    def review(self) -> Review:
        return self.analysis.review

    def resume(self) -> None:
        """Go on judging after :meth:`stop` (positions judged already are kept)."""
        if self.runner.closed and not self.review.complete:
            self.runner = BackgroundAnalysis(self.analysis, self.runner.workers)

    def poll(self) -> bool:
        """One frame's share: take the verdicts that arrived, start the next position. True when
        the review changed."""
        return bool(self.runner.poll())

    def stop(self) -> None:
        """Stop judging (leaving the review, closing the window)."""
        self.runner.close()

    # -- what the window shows ----------------------------------------------------------------

    def header(self) -> str:
        """The graph's header: the progress, then each side's accuracy once done."""
        review = self.review
        if self.runner.error is not None:
            return f"Analysis stopped: {self.runner.error}"
        if not review.complete:
            return f"Analysing {review.done}/{review.total}"
        sides = [f"{side.name} {side.accuracy:.0f}%" for side in review.sides() if side.accuracy is not None]
        marks = len([row for row in review.rows if row.mark is not None])
        return f"Accuracy: {', '.join(sides) or 'no moves'} · {marks} marked move{'s' if marks != 1 else ''}"

    def marks(self) -> dict[int, str]:
        """Marked moves so far: move number -> mark name."""
        return {row.number: row.mark for row in self.review.rows if row.mark is not None}

    def better_move(self, ply: int) -> Move | None:
        """The better move for the move that led to ply ``ply`` (the game's own move value), when
        the analysis found one that keeps more win chance than the move played; else None."""
        row = self.review.row(ply) if ply > 0 else None
        if row is None or row.best is None or row.drop <= 0:
            return None
        move: Move = self.session.game.decode_move(row.best)
        return move

    def status(self, ply: int) -> str:
        """The status line's sentence for ply ``ply``: the move that led there and its verdict."""
        total = len(self.review.moves)
        if ply == 0:
            return f"Review: the start position, {total} moves to go. ← → step, Home and End jump, Esc leaves."
        row = self.review.row(ply)
        seat = self.session.seat_name(self.review.movers[ply - 1])
        played = f"Move {ply} of {total}, {seat} {compact_move_text(self.review.texts[ply - 1])}"
        if row is None:
            return f"{played}: not analysed yet."
        return f"{played}: {verdict_words(row)}"


def verdict_words(row: MoveRow) -> str:
    """``"a mistake (?), 24 points of win chance lost; better was c5."``: one move's verdict."""
    if row.best is None or row.drop <= 0:
        return "as good as the analysis's own choice."
    points = round(row.drop)
    lost = ("less than a point" if points < 1 else f"{points} point{'s' if points != 1 else ''}") + " of win chance lost"
    better = f"; better was {compact_move_text(row.best_text)} (drawn on the board)." if row.best_text else "."
    if row.mark is None:
        return f"{lost}{better}"
    article = "an" if row.mark[0] in "aeiou" else "a"
    return f"{article} {row.mark} ({MARK_GLYPHS[row.mark]}), {lost}{better}"


__all__ = ["REVIEW_BUDGET", "Reviewing", "line_key", "verdict_words"]
