"""Win chances, move marks and accuracy: the numbers that make an analysis mean the same in every game.

A score in evaluator units becomes seat 0's chance of winning through the evaluator's
:meth:`~pegboard.specs.Evaluator.win_chance` (a logistic with the game's declared constant).
A move's *drop* is how many percentage points of win chance its mover gave away against
the best move; the drop sets the move's mark, and the average drop of a side sets its
accuracy. docs/cli.md ("pegboard analyse") lists the thresholds and the formula.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from pegboard.game import Result

#: Marks by the smallest drop (in win-chance percentage points) that earns them, worst first.
MARKS: tuple[tuple[str, float], ...] = (("blunder", 30.0), ("mistake", 20.0), ("inaccuracy", 10.0))
MARK_NAMES: tuple[str, ...] = tuple(name for name, _ in MARKS)
#: PGN's move-quality glyphs for the marks (NAG $6, $2, $4), for tables and plots.
MARK_GLYPHS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}

# Accuracy from the average drop D: A = 103.1668 e^(-0.04354 D) - 3.1668, clamped to 0..100.
# The curve is the one lichess fitted to its players' moves (shifted by 0.0001 so D = 0 gives
# exactly 100); it gives about 64 for D = 10 and 0 from D = 80.
_ACCURACY_SCALE, _ACCURACY_RATE, _ACCURACY_SHIFT = 103.1668, 0.04354, 3.1668


def logistic(score: float, scale: float) -> float:
    """``1 / (1 + e^(-score / scale))`` without overflow for huge scores (a forced win)."""
    x = score / scale
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def result_chance(result: Result, seat: int) -> float:
    """``seat``'s win chance in a finished game: 1 won, 0 lost, 0.5 a draw or another seat's win
    among more than two (it is not lost outright)."""
    if result.winner is None:
        return 0.5
    return 1.0 if result.winner == seat else 0.0


def mark_for(drop: float) -> str | None:
    """The mark a move with this drop (percentage points) earns, or None for a good move."""
    for name, threshold in MARKS:
        if drop >= threshold:
            return name
    return None


def accuracy(drops: Sequence[float]) -> float | None:
    """A side's accuracy (0-100) from the average drop of its moves; None without moves."""
    if not drops:
        return None
    average = sum(drops) / len(drops)
    value = _ACCURACY_SCALE * math.exp(-_ACCURACY_RATE * average) - _ACCURACY_SHIFT
    return min(100.0, max(0.0, value))


def count_marks(marks: Iterable[str | None]) -> dict[str, int]:
    """How many of each mark, every mark named (0 when absent)."""
    counts = dict.fromkeys(MARK_NAMES, 0)
    for mark in marks:
        if mark is not None:
            counts[mark] += 1
    return counts
