#!/usr/bin/env python3
"""Throughput of `pegboard validate` and `pegboard match` on each executor.

    .venv/bin/python tools/scale_bench.py --files 300 --games 40

Writes FILES Node War records (random bots) to a temporary folder, then times, in this
process, `validate` over them and a `match` of GAMES games (easy vs easy, 0.01 s a move)
with 1 and 2 local worker processes and on a local Ray instance with 2 CPUs. Ray's
start-up is timed on its own and left out of the per-run figures (a cluster is started
once and serves many commands).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import os
import sys
import tempfile
import time
from pathlib import Path


def timed(argv: list[str]) -> float:
    from pegboard.cli.app import run

    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = run(argv)
    elapsed = time.perf_counter() - started
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(argv[:3])} ... failed with exit code {code}")
    return elapsed


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args(argv)
    import ray

    print(f"load average at start: {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)")
    with tempfile.TemporaryDirectory(prefix="pegboard-scale-") as tmp:
        folder = Path(tmp)
        timed(["match", "nodewar", "--games", str(args.files), "--out", str(folder), "-j", "2"])
        files = sorted(str(p) for p in folder.glob("*.match.json"))
        started = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
        print(f"Ray local instance start: {time.perf_counter() - started:.1f} s")
        timed(["validate", "--executor", "ray", "-j", "2", *files[:20]])  # warm the Ray workers
        match = ["match", "nodewar", "--blue", "easy", "--red", "easy", "--budget", "0.01", "--games", str(args.games)]
        rows = [("local -j 1", ["-j", "1"]), ("local -j 2", ["-j", "2"]), ("ray, 2 CPUs", ["--executor", "ray", "-j", "2"])]
        print(f"{'executor':<14} {'validate files/s':>17} {'match games/s':>14}")
        for label, options in rows:
            v = timed(["validate", *options, *files])
            m = timed([*match, *options])
            print(f"{label:<14} {len(files) / v:>17.1f} {args.games / m:>14.2f}")
        ray.shutdown()
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
