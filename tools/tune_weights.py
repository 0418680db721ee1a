#!/usr/bin/env python3
"""Fit a game's evaluator weights to self-play outcomes (Texel tuning).

Plays ``--games`` games of ``--bot`` against itself (``pegboard match``'s seeds and colours),
or reads the match files given with ``--records``, and takes every ``--every``-th position
of the finished games that is not itself decided. Each position gives one row: each term's
seat-0-minus-seat-1 raw value (the evaluator's breakdown) and how the game ended for seat 0
(1 won, 0.5 drawn, 0 lost). The weights are then fitted so that
``1 / (1 + exp(-sum(w * x) / win_scale))`` predicts the outcomes best: the mean log-loss,
plus a ridge pull (``--ridge``) toward the current weights, relative to each weight's size,
so that a term the games barely exercise keeps its value. scipy's L-BFGS-B does the
minimising. Terms that never differ between the seats, and ``--keep`` terms, are not fitted.

Games are split by number: even games fit the weights, odd games test them, so the printed
held-out log-loss says whether the fit generalises or only memorises.

    .venv/bin/python tools/tune_weights.py starfall --bot skill-80 --games 120 -j 2 --every 4 --keep won
    .venv/bin/python tools/tune_weights.py nodewar --records 'matches/*.match.json'

Prints each term's current and fitted weight and the log-losses, and with ``--toml FILE``
writes the fitted weights as an ``[evaluator]`` table a ruleset mod can take. Needs scipy
(installed by the test extra, through OpenSpiel).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "platform"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import selfplay_records  # noqa: E402  (a sibling in tools/)

Row = tuple[tuple[float, ...], float]


def rows_of(records: list[dict[str, Any]], every: int) -> tuple[list[str], list[float], float, list[Row], list[Row]]:
    """Term names, current weights, the evaluator's win-chance constant, and the (features,
    outcome) rows of the fitting and testing games."""
    names: list[str] = []
    weights: list[float] = []
    fit: list[Row] = []
    test: list[Row] = []
    evaluator = None
    for number, outcome, evaluator, state in selfplay_records.positions(records, every):
        terms = evaluator.evaluate(state).terms
        if not names:
            names = [t.name for t in terms]
            weights = [t.weight for t in terms]
        into = fit if number % 2 == 0 else test
        into.append((tuple(t.values[0] - t.values[1] for t in terms), outcome))
    scale = selfplay_records.win_scale(evaluator) if evaluator is not None else 1.0
    return names, weights, scale, fit, test


def log_loss(rows: list[Row], weights: list[float], scale: float) -> float:
    """Mean negative log-likelihood of the outcomes under the logistic of the weighted sum."""
    total = 0.0
    for x, outcome in rows:
        z = sum(w * v for w, v in zip(weights, x, strict=True)) / scale
        p = 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))
        p = min(1 - 1e-12, max(1e-12, p))
        total -= outcome * math.log(p) + (1 - outcome) * math.log(1 - p)
    return total / len(rows)


def fit_weights(rows: list[Row], start: list[float], free: list[int], scale: float, ridge: float) -> list[float]:
    """The weights minimising the log-loss plus the ridge pull, the ``free`` ones moved only."""
    import numpy as np
    from scipy.optimize import minimize

    x = np.array([r[0] for r in rows], dtype=float)
    y = np.array([r[1] for r in rows], dtype=float)
    w0 = np.array(start, dtype=float)
    size = np.maximum(np.abs(w0[free]), 1.0)
    fixed = x @ w0 - x[:, free] @ w0[free]

    def objective(v: Any) -> tuple[float, Any]:
        z = np.clip((fixed + x[:, free] @ v) / scale, -60, 60)
        p = np.clip(1 / (1 + np.exp(-z)), 1e-12, 1 - 1e-12)
        loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
        gap = (v - w0[free]) / size
        grad = x[:, free].T @ (p - y) / (len(y) * scale) + 2 * ridge * gap / size
        return float(loss + ridge * np.sum(gap * gap)), grad

    found = minimize(objective, w0[free], jac=True, method="L-BFGS-B")
    out = list(start)
    for i, value in zip(free, found.x, strict=True):
        out[i] = float(value)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    selfplay_records.add_arguments(parser, every="take every N-th position")
    parser.add_argument("--ridge", type=float, default=0.01, help="pull toward the current weights")
    parser.add_argument("--keep", action="append", default=[], help="a term left at its weight (repeatable)")
    parser.add_argument("--toml", type=Path, help="write the fitted weights here as an [evaluator] table")
    args = parser.parse_args(argv)

    records = selfplay_records.load(args, parser)
    names, start, scale, fit, test = rows_of(records, max(1, args.every))
    if not fit or not test:
        print("error: need finished games on both sides of the split (two at least)", file=sys.stderr)
        return 1
    unknown = set(args.keep) - set(names)
    if unknown:
        print(f"error: no term {', '.join(sorted(unknown))}; the terms are {', '.join(names)}", file=sys.stderr)
        return 1
    free = [i for i, name in enumerate(names)
            if name not in args.keep and any(row[0][i] for row in fit)]
    fitted = fit_weights(fit, start, free, scale, args.ridge)
    print(f"{args.game}: {len(records)} games, {len(fit)} positions fit, {len(test)} test (every {args.every}), "
          f"win_scale {scale:g}, ridge {args.ridge:g}")
    for i, name in enumerate(names):
        mark = "" if i in free else "  (kept)"
        print(f"  {name:<20} {start[i]:>9.3f} -> {fitted[i]:>9.3f}{mark}")
    for label, rows in (("fit", fit), ("held-out", test)):
        print(f"log-loss on the {label} games: current {log_loss(rows, start, scale):.4f}, fitted {log_loss(rows, fitted, scale):.4f}")
    if args.toml:
        lines = ["[evaluator]"] + [f"{name} = {fitted[i]:.3f}" for i, name in enumerate(names)]
        args.toml.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {args.toml}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
