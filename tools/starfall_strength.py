#!/usr/bin/env python3
"""Starfall bot strength: run ``pegboard match`` batches and tabulate them.

    python tools/starfall_strength.py run [--games N] [--seed S] [--out DIR] [PAIR ...]
    python tools/starfall_strength.py report DIR [DIR ...]
    python tools/starfall_strength.py think [--games N] [--skill S] [--against S2]

``run`` plays each pairing ("100v80": skill-100 against skill-80) with
``nice -n 19 pegboard match starfall --south skill-A --north skill-B -n N -j 2 --seed S
--out DIR/AvB --json`` (colours alternate game by game). ``report`` reads the match
records of one or more such folders (several seeds of one pairing add up) and prints, per
pairing, the stronger bot's score (draws count half), how the games ended (territory,
siege, asteroid, turn limit) and each bot's think time per move (median and longest,
from the records' ``meta.think_seconds``, wall-clock, so they grow with the machine's load).
``think`` plays games in this process and times every move of the first bot both on the
wall clock and in CPU seconds (``time.process_time``: what the move costs, whatever else
runs). Results go in docs/performance.md.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

PAIRS = ("20v0", "40v20", "60v40", "80v60", "100v80", "30v10", "50v30", "70v50", "90v70", "100v50")
REASONS = ("territory", "siege", "asteroid", "turn_limit")


def run(args: argparse.Namespace) -> int:
    pegboard = str(Path(sys.executable).with_name("pegboard"))
    for pair in args.pairs or PAIRS:
        a, b = pair.split("v")
        out = Path(args.out) / f"s{args.seed}" / pair
        out.mkdir(parents=True, exist_ok=True)
        cmd = ["nice", "-n", "19", pegboard, "match", "starfall", "--south", f"skill-{a}", "--north", f"skill-{b}",
               "-n", str(args.games), "-j", "2", "--seed", str(args.seed), "--out", str(out), "--json"]
        print(" ".join(cmd), flush=True)
        with open(out / "summary.json", "w") as summary:
            code = subprocess.call(cmd, stdout=summary)
        if code:
            return code
    return 0


def tally(folders: list[Path]) -> dict[tuple[str, str], dict]:
    """Per pairing (stronger bot, weaker bot): scores, end reasons, think times."""
    from pegboard.records.replay import game_for_record
    from pegboard.records.validate import read_record

    rows: dict[tuple[str, str], dict] = {}
    for folder in folders:
        for path in sorted(folder.glob("*.match.json")):
            record = read_record(path)
            bots = [p["bot"] for p in record["players"]]
            skills = [int(b.split("-")[1]) for b in bots]
            strong = 0 if skills[0] > skills[1] else 1
            key = (bots[strong], bots[1 - strong])
            row = rows.setdefault(key, {"games": 0, "score": 0.0, "wins": 0, "draws": 0, "losses": 0,
                                        "reasons": Counter(), "think": defaultdict(list), "plies": []})
            result = record.get("result")
            row["games"] += 1
            row["plies"].append(len(record["moves"]))
            if result is None:
                row["reasons"]["unfinished"] += 1
            else:
                row["reasons"][result["reason"]] += 1
                if result["winner"] is None:
                    row["draws"] += 1
                    row["score"] += 0.5
                elif result["winner"] == strong:
                    row["wins"] += 1
                    row["score"] += 1
                else:
                    row["losses"] += 1
            game = game_for_record(record)
            state = game.new_state(record["seed"])
            for move, seconds in zip(record["moves"], record.get("meta", {}).get("think_seconds", []), strict=False):
                row["think"][bots[state.to_move]].append(seconds)
                state.push(game.decode_move(move))
    return rows


def report(args: argparse.Namespace) -> int:
    rows = tally([Path(f) for f in args.folders])
    print("| pairing | games | wins-draws-losses | score | " + " | ".join(REASONS) + " | mean moves |")
    print("|---|---|---|---|" + "---|" * len(REASONS) + "---|")
    def order(item: tuple[tuple[str, str], dict]) -> tuple[int, int]:
        strong, weak = item[0]
        return (int(strong.split("-")[1]) == 100, int(weak.split("-")[1]))

    for (strong, weak), row in sorted(rows.items(), key=order):
        pct = 100 * row["score"] / row["games"]
        reasons = " | ".join(str(row["reasons"][r]) for r in REASONS)
        extra = f" (+{row['reasons']['unfinished']} unfinished)" if row["reasons"]["unfinished"] else ""
        print(f"| {strong} v {weak} | {row['games']} | {row['wins']}-{row['draws']}-{row['losses']} | "
              f"{pct:.0f}%{extra} | {reasons} | {statistics.mean(row['plies']):.0f} |")
    print()
    print("| bot (in pairing) | moves | median think | longest think |")
    print("|---|---|---|---|")
    for (strong, weak), row in sorted(rows.items(), key=order):
        for bot in (strong, weak):
            times = row["think"][bot]
            if times:
                print(f"| {bot} ({strong} v {weak}) | {len(times)} | {statistics.median(times) * 1000:.0f} ms | "
                      f"{max(times):.2f} s |")
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
    p_run.add_argument("pairs", nargs="*", help=f"pairings like 100v80 (default: {' '.join(PAIRS)})")
    p_run.add_argument("--games", type=int, default=100)
    p_run.add_argument("--seed", type=int, default=1)
    p_run.add_argument("--out", default="starfall-strength")
    p_rep = sub.add_parser("report", help="tabulate finished batches")
    p_rep.add_argument("folders", nargs="+")
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
