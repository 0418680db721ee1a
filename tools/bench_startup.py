#!/usr/bin/env python
"""Start-up time of short ``pegboard`` commands, best of N, as separate processes.

    .venv/bin/python tools/bench_startup.py               # --help, games; best of 15
    .venv/bin/python tools/bench_startup.py --runs 7 --command "rulesets" --command "--version"

Each command runs ``--runs`` times (after one warm-up run that also writes any
missing byte-code caches); the best CPU time of the child process (user +
system, from ``resource.getrusage``) and the best wall time are printed, next
to two floors measured the same way: a bare ``python -c pass`` and a process
that only imports typer (the command-line library). The target is 0.15 s for
``pegboard --help`` and ``pegboard games``.

The children run without ``PYTHONDONTWRITEBYTECODE``: with it set, every
project module is compiled from source on every start, which is not what a
user's installed copy does.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_validate_cli import child_env, pegboard_command, timed  # noqa: E402

TARGET = 0.15
TARGETED = ("--help", "games")  # the commands the 0.15 s target names


def best_of(command: list[str], runs: int) -> tuple[float, float]:
    """(best CPU seconds, best wall seconds) of ``runs`` runs after one warm-up."""
    timed(command, check=False)
    cpus, walls = [], []
    for _ in range(runs):
        cpu, wall, _out = timed(command, check=False)
        cpus.append(cpu)
        walls.append(wall)
    return min(cpus), min(walls)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="timed runs of each command; the best counts (default 15)")
    parser.add_argument("--command", action="append", metavar="ARGS", help='a pegboard command line to time (repeatable; default "--help" and "games")')
    args = parser.parse_args(argv)
    commands = args.command or ["--help", "games"]
    rows: list[tuple[str, float, float, str]] = []
    for label, command in (
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("python -c 'import typer'", [sys.executable, "-c", "import typer"]),
    ):
        cpu, wall = best_of(command, args.runs)
        rows.append((label, cpu, wall, "floor"))
    for text in commands:
        cpu, wall = best_of([*pegboard_command(), *text.split()], args.runs)
        verdict = "" if text not in TARGETED else "met" if cpu < TARGET else f"MISSED (target < {TARGET:.2f} s)"
        rows.append((f"pegboard {text}", cpu, wall, verdict))
    assert "PYTHONDONTWRITEBYTECODE" not in child_env()
    print(f"best of {args.runs} runs each; load average {os.getloadavg()[0]:.1f}")
    for label, cpu, wall, verdict in rows:
        print(f"{label:<28} {cpu:.3f} s CPU   {wall:.3f} s wall   {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
