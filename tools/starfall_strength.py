#!/usr/bin/env python3
"""Starfall bot strength: the skill ladder as resumable tools/duel.py batches, and think times.

    nice -n 10 python tools/starfall_strength.py run [--games N] [--seed S] [--out DIR] [-j J] [PAIR ...]
    python tools/starfall_strength.py report FILE [FILE ...]
    python tools/starfall_strength.py think [--games N] [--skill S] [--against S2]

``run`` plays each pairing ("100v80": skill-100 against skill-80, each at its own budget) as a
tools/duel.py batch written to ``DIR/s<seed>/<pair>.json`` (colours alternate game by game;
run it again and it plays only the missing games). The default pairs are the issue-29 ladder:
S+20 against S for S = 0, 10, ... 80, 100 games each, and 100 against 50, 40 games.
``report`` prints one table row per batch file: the stronger bot's score with its 95 %
interval, the Elo difference (``pegboard tournament``'s fit) with its interval, the SPRT
log-likelihood ratio of H1 "20 Elo stronger" against H0 "equal" (decided at +-2.94 with
alpha = beta = 0.05), think times and how the games ended. ``think`` plays games in this
process and times every move of the first bot both on the wall clock and in CPU seconds
(``time.process_time``: what the move costs, whatever else runs). Results go in
docs/balance.md and docs/rules/starfall.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
from pathlib import Path
from types import ModuleType

#: (pair, games): the ladder of issue 29.
PAIRS = tuple((f"{s + 20}v{s}", 100) for s in range(0, 81, 10)) + (("100v50", 40),)
#: The SPRT the report computes: H0 equal strength, H1 20 Elo stronger.
SPRT = (0.0, 20.0)


def duel() -> ModuleType:
    """tools/duel.py as a module (tools/ is not a package)."""
    path = Path(__file__).with_name("duel.py")
    spec = importlib.util.spec_from_file_location("duel", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["duel"] = module
    spec.loader.exec_module(module)
    return module


def run(args: argparse.Namespace) -> int:
    tool = duel()
    wanted = dict(PAIRS)
    for pair in args.pairs or list(wanted):
        a, b = pair.split("v")
        games = args.games or wanted.get(pair, 100)
        out = Path(args.out) / f"s{args.seed}"
        out.mkdir(parents=True, exist_ok=True)
        argv = ["starfall", f"skill-{a}", f"skill-{b}", "--games", str(games), "--seed", str(args.seed),
                "-j", str(args.jobs), "--json", str(out / f"{pair}.json"), "--markdown"]
        print("tools/duel.py " + " ".join(argv), flush=True)
        code = tool.main(argv)
        if code:
            return int(code)
    return 0


def report(args: argparse.Namespace) -> int:
    tool = duel()
    print(tool.HEADER.replace("| median plies |", "| median plies | SPRT LLR |") + "---|")
    for name in args.files:
        data = tool.load(Path(name))
        summary = tool.summary(data, SPRT)
        print(tool.markdown(summary, data["a"], data["b"]) + f" {summary['llr']:+.2f} |")
    return 0


def think(args: argparse.Namespace) -> int:
    import time

    from pegboard.batch.runner import derive_seed
    from pegboard.rules.rulesets import load_game
    from pegboard_starfall.bots import SkillBot

    game = load_game("starfall", "standard")
    wall: list[float] = []
    cpu: list[float] = []
    for index in range(args.games):
        state = game.new_state(derive_seed(args.seed, index, "game"))
        mine = index % 2  # colours alternate
        bots = {mine: SkillBot(game, index + 1, args.skill), 1 - mine: SkillBot(game, index + 101, args.against)}
        while state.result is None:
            seat = state.to_move
            view = state.player_view(seat)
            w0, c0 = time.perf_counter(), time.process_time()
            move = bots[seat].choose(view, args.budget)
            if seat == mine:
                wall.append(time.perf_counter() - w0)
                cpu.append(time.process_time() - c0)
            state.apply(move)
    print(f"skill-{args.skill} against skill-{args.against}, {args.games} games, budget {args.budget} s: {len(wall)} moves")
    for name, times in (("wall", wall), ("cpu", cpu)):
        times.sort()
        p95 = times[int(0.95 * (len(times) - 1))]
        print(f"  {name}: median {statistics.median(times) * 1000:.0f} ms, 95th percentile {p95 * 1000:.0f} ms, "
              f"longest {times[-1]:.2f} s")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p_run = sub.add_parser("run", help="play the batches")
    p_run.add_argument("pairs", nargs="*", help=f"pairings like 100v80 (default: {' '.join(p for p, _ in PAIRS)})")
    p_run.add_argument("--games", type=int, default=None, help="games a pairing (default: the ladder's)")
    p_run.add_argument("--seed", type=int, default=1)
    p_run.add_argument("--out", default="starfall-strength")
    p_run.add_argument("-j", "--jobs", type=int, default=2)
    p_rep = sub.add_parser("report", help="tabulate batch files")
    p_rep.add_argument("files", nargs="+")
    p_think = sub.add_parser("think", help="time one bot's moves (wall and CPU)")
    p_think.add_argument("--games", type=int, default=4)
    p_think.add_argument("--skill", type=int, default=100)
    p_think.add_argument("--against", type=int, default=50)
    p_think.add_argument("--budget", type=float, default=0.2, help="seconds per move (skill-100's default)")
    p_think.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    return {"run": run, "report": report, "think": think}[args.command](args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
