"""The evaluation graph of ``pegboard analyse --plot``: seat 0's win chance over the game.

One panel per record: the win chance after every move, shaded towards the side it favours,
with each marked move drawn in its mark's colour at the chance its move left. Written as PNG
or SVG with matplotlib (:mod:`pegboard.support.plotting`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard.analysis.winchance import MARK_GLYPHS, MARK_NAMES
from pegboard.support.plotting import pyplot, save

if TYPE_CHECKING:
    from pegboard.analysis.analyse import Analysis

MARK_COLOURS = {"inaccuracy": "#e6b800", "mistake": "#f07800", "blunder": "#d62020"}
SIDE_COLOURS = ("#3b6fd8", "#c84040")


def draw_graph(analyses: Sequence[Analysis], path: str | Path) -> Path:
    """Draw one panel per analysis (each complete) into ``path``; returns the path."""
    plt = pyplot()
    count = max(1, len(analyses))
    figure, axes = plt.subplots(count, 1, figsize=(10, 3.2 * count), squeeze=False)
    for panel, analysis in zip(axes[:, 0], analyses, strict=False):
        _panel(panel, analysis)
    figure.tight_layout()
    return save(figure, path)


def _panel(ax: Any, analysis: Analysis) -> None:
    """Draw one analysis on the matplotlib Axes ``ax``."""
    review = analysis.review
    seats = analysis.game.seats
    curve = [100.0 * (c if c is not None else 0.5) for c in review.curve()]
    plies = list(range(len(curve)))
    ax.fill_between(plies, curve, 50, where=[c >= 50 for c in curve], color=SIDE_COLOURS[0], alpha=0.25, interpolate=True)
    ax.fill_between(plies, curve, 50, where=[c <= 50 for c in curve], color=SIDE_COLOURS[1 % len(SIDE_COLOURS)], alpha=0.25, interpolate=True)
    ax.plot(plies, curve, color="#333333", linewidth=1.2)
    ax.axhline(50, color="#888888", linewidth=0.6)
    for mark in MARK_NAMES:
        rows = [row for row in review.rows if row.mark == mark]
        if rows:
            xs = [row.number for row in rows]
            ys = [100.0 * (row.after if row.seat == 0 else 1.0 - row.after) for row in rows]
            ax.scatter(xs, ys, color=MARK_COLOURS[mark], s=26, zorder=3, label=f"{mark} ({MARK_GLYPHS[mark]})")
    ax.set_xlim(0, max(1, len(curve) - 1))
    ax.set_ylim(0, 100)
    ax.set_xlabel("move")
    ax.set_ylabel(f"{seats[0]} win chance %")
    sides = ", ".join(
        f"{side.name} {side.accuracy:.0f}%" for side in review.sides() if side.accuracy is not None
    )
    ax.set_title(f"{Path(analysis.label).name}: {analysis.game.name}, accuracy {sides}", fontsize=10)
    if any(row.mark for row in review.rows):
        ax.legend(loc="upper right", fontsize=8)
