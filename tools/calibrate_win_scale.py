#!/usr/bin/env python3
"""Fit a game's win-chance constant (``Evaluator.win_scale``) from bot self-play.

Plays ``--games`` games of ``--bot`` against itself (``pegboard match``'s seeds and colours),
or reads the match files given with ``--records``, scores every ``--every``-th position and
finds the constant ``k`` that makes ``1 / (1 + exp(-score / k))`` the most likely predictor of
how each game ended (seat 0's result: 1 won, 0 lost, 0.5 drawn; a game stopped unfinished is
left out): a one-parameter logistic regression by maximum likelihood, as chess sites fit their
centipawn-to-win-chance curves. Positions are scored by the analysis search with ``--search
NODES`` (what ``pegboard analyse`` turns into win chances; decided lines are left out, any
constant gets them right), else by the static evaluation.

    .venv/bin/python tools/calibrate_win_scale.py nodewar --bot hard --games 40 -j 2 --search 4000 --every 3
    .venv/bin/python tools/calibrate_win_scale.py nodewar --records 'matches/*.match.json' --search 4000
    .venv/bin/python tools/calibrate_win_scale.py --plugin plugins/examples/connect4/pegboard_connect4 connect4 --bot minimax

Prints the fitted constant, the log-loss at it and at the evaluator's current constant, and
the positions used. Needs scipy (installed by the test extra, through OpenSpiel).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "platform"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import selfplay_records  # noqa: E402  (a sibling in tools/)


def log_loss(pairs: list[tuple[float, float]], scale: float) -> float:
    """Mean negative log-likelihood of the outcomes under the logistic with constant ``scale``."""
    from pegboard.analysis.winchance import logistic

    total = 0.0
    for score, outcome in pairs:
        p = min(1 - 1e-12, max(1e-12, logistic(score, scale)))
        total -= outcome * math.log(p) + (1 - outcome) * math.log(1 - p)
    return total / len(pairs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    selfplay_records.add_arguments(parser, every="score every N-th position")
    parser.add_argument("--search", type=int, default=0, metavar="NODES", help="score with the analysis search (default: static)")
    args = parser.parse_args(argv)

    from scipy.optimize import minimize_scalar

    from pegboard.analysis.search import DECIDED, AlphaBeta

    records = selfplay_records.load(args, parser)
    pairs: list[tuple[float, float]] = []
    evaluator = search = None
    for _, outcome, evaluator, state in selfplay_records.positions(records, args.every):
        if args.search:
            search = search or AlphaBeta(evaluator)
            score = search.search(state, args.search).score
        else:
            score = evaluator.score(state)
        if score is not None and abs(score) < DECIDED:
            pairs.append((score, outcome))
    if not pairs or evaluator is None:
        print("error: no finished game to fit", file=sys.stderr)
        return 1
    fit = minimize_scalar(lambda k: log_loss(pairs, k), bounds=(0.1, 10_000.0), method="bounded")
    current = selfplay_records.win_scale(evaluator)
    finished = sum(1 for r in records if r.get("result") is not None)
    scored = f"the analysis search at {args.search} nodes" if args.search else "the static evaluation"
    print(f"{args.game}: {finished} finished games, {len(pairs)} positions scored by {scored}")
    print(f"fitted win_scale {fit.x:.1f} (log-loss {fit.fun:.4f}); current {current:g} (log-loss {log_loss(pairs, current):.4f})")
    print("log-loss by constant: " + ", ".join(f"{k:g}: {log_loss(pairs, k):.4f}" for k in (10, 20, 30, 60, 120, 250, 500)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
