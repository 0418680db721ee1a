#!/usr/bin/env python3
"""The Node War bot ladder: each level against the level below, plus Expert vs Easy.

Plays the same seeded, colour-alternating batches as ``pegboard match``
(it calls the same runner with the same plan), then prints per pairing the
score of the stronger bot (a draw counts half), the median and maximum think
time per move of each bot, and the ``pegboard match`` command that replays
the batch. Used to fill the "Node War bots" section of docs/performance.md.

    .venv/bin/python tools/ladder_nodewar.py                     # the full ladder, 100 games each
    .venv/bin/python tools/ladder_nodewar.py --games 10 --pair hard:medium
    .venv/bin/python tools/ladder_nodewar.py --bench-eval        # evaluations per second only

In a pairing with Expert every bot gets ``--expert-budget`` seconds per move
(default 0.3; ``pegboard match --budget`` does the same): Expert's own
default (1.5 s) makes a 100-game batch take hours on a shared machine, and
the other levels do a fixed amount of work whatever their budget (Hard only
uses it for its wall-clock guard). Other pairings use each bot's default.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

LADDER = (("medium", "easy"), ("hard", "medium"), ("expert", "hard"), ("expert", "easy"))


def bench_eval(seconds: float = 1.0) -> None:
    """Print evaluations per second of the standard evaluator on positions from random games."""
    from pegboard_nodewar import load
    from pegboard_nodewar.evaluator import NodeWarEvaluator

    game = load("standard")
    evaluator = NodeWarEvaluator(game)
    rng = random.Random(7)
    for ply in (10, 60, 150, 250):
        state = game.new_state()
        while state.ply < ply and state.result is None:
            state.push(rng.choice(state.legal_moves()))
        score, count = evaluator.score, 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(100):
                score(state)
            count += 100
        rate = count / (time.perf_counter() - start)
        nodes = len(state.nodes[0]) + len(state.nodes[1])
        print(f"evaluator score(): ply {ply:3d}, {nodes:3d} nodes: {rate:9,.0f} evaluations/s")


def run_pair(strong: str, weak: str, games: int, seed: int, jobs: int, expert_budget: float) -> dict:
    from pegboard.batch.runner import MatchPlan, run_match

    budget = expert_budget if expert_budget and "expert" in (strong, weak) else None
    plan = MatchPlan(game="nodewar", bots=(strong, weak), ruleset="standard", games=games, seed=seed, budget=budget)
    started = time.perf_counter()
    done = []

    def progress(_outcome: object) -> None:
        done.append(1)
        if len(done) % 10 == 0:
            print(f"  ... {strong} vs {weak}: {len(done)}/{games} games, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)

    report = run_match(plan, jobs=jobs, progress=progress)
    wall = time.perf_counter() - started
    think: dict[int, list[float]] = {0: [], 1: []}
    for outcome in report.outcomes:
        for entrant, seconds in outcome.think:
            think[entrant].append(seconds)
    s, w = report.stats
    score = (s.wins + 0.5 * s.draws) / max(1, len(report.outcomes))
    reasons: dict[str, int] = {}
    for outcome in report.outcomes:
        result = outcome.record.get("result") or {}
        reason = result.get("reason", "unfinished")
        reasons[reason] = reasons.get(reason, 0) + 1
    return {
        "strong": strong,
        "weak": weak,
        "games": len(report.outcomes),
        "wins": s.wins,
        "draws": s.draws,
        "losses": s.losses,
        "unfinished": s.unfinished,
        "score": score,
        "median": {strong: statistics.median(think[0]), weak: statistics.median(think[1])},
        "max": {strong: max(think[0]), weak: max(think[1])},
        "length": report.average_length,
        "reasons": reasons,
        "wall": wall,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", "-j", type=int, default=2)
    parser.add_argument(
        "--expert-budget", type=float, default=0.3, help="seconds per move in pairings with Expert (0: each bot's default)"
    )
    parser.add_argument("--pair", action="append", metavar="STRONG:WEAK", help="only these pairings (repeatable)")
    parser.add_argument("--bench-eval", action="store_true", help="only print evaluator speed")
    args = parser.parse_args(argv)
    if args.bench_eval:
        bench_eval()
        return 0
    pairs = [tuple(p.split(":", 1)) for p in args.pair] if args.pair else list(LADDER)
    for strong, weak in pairs:
        row = run_pair(strong, weak, args.games, args.seed, args.jobs, args.expert_budget)
        budget = f" (expert {args.expert_budget:g} s/move)" if args.expert_budget and "expert" in (strong, weak) else ""
        print(f"## {strong} vs {weak}{budget}")
        print(
            f"same games: .venv/bin/pegboard match nodewar --blue {strong} --red {weak} --games {args.games} "
            f"--seed {args.seed} -j {args.jobs}" + (f" --budget {args.expert_budget:g}" if budget else "")
        )
        print(
            f"{strong}: {row['wins']} wins, {row['draws']} draws, {row['losses']} losses, "
            f"{row['unfinished']} unfinished of {row['games']} -> score {row['score']:.1%}"
        )
        for bot in (strong, weak):
            print(f"  {bot}: median think {row['median'][bot] * 1000:.1f} ms, max {row['max'][bot] * 1000:.0f} ms")
        print(f"  average length {row['length']:.1f} plies; endings {row['reasons']}; wall {row['wall']:.0f} s")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
