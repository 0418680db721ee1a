"""The Elo table of ``pegboard tournament --plot``: each bot's rating with its 95 % error bar.

Bots are drawn top to bottom in the table's order (strongest first), each as a point at its
Elo with a horizontal bar of ± its 95 % interval, around the mean of 0. Written as PNG or SVG
with matplotlib (:mod:`pegboard.support.plotting`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from pegboard.support.plotting import pyplot, save


class Rated(Protocol):
    """A row of the standings: a bot's id, Elo, the half-width of its 95 % interval, games."""

    bot: str
    elo: float
    error: float
    games: int


def draw_elo(standings: Sequence[Rated], title: str, path: str | Path) -> Path:
    """Draw the standings into ``path`` (PNG or SVG); returns the path."""
    plt = pyplot()
    rows = list(standings)
    figure, ax = plt.subplots(figsize=(8, 1.2 + 0.45 * max(1, len(rows))))
    ys = list(range(len(rows)))[::-1]  # the strongest on top
    ax.errorbar(
        [row.elo for row in rows], ys, xerr=[row.error for row in rows],
        fmt="o", color="#3b6fd8", ecolor="#3b6fd8", capsize=4, elinewidth=1.4,
    )
    ax.axvline(0, color="#888888", linewidth=0.6)
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{row.bot} ({row.games} games)" for row in rows])
    for y, row in zip(ys, rows, strict=True):
        ax.annotate(f"{row.elo:+.0f} ± {row.error:.0f}", (row.elo, y), textcoords="offset points", xytext=(0, 7), ha="center", fontsize=8)
    ax.set_xlabel("Elo (mean 0), bars: 95 % interval")
    ax.set_title(title, fontsize=10)
    ax.margins(y=0.3)
    figure.tight_layout()
    return save(figure, path)
