#!/usr/bin/env python3
"""Time ``pegboard analyse``'s engine: CPU per record, and how -j spreads the work.

    .venv/bin/python tools/bench_analysis.py RECORD...              # -j 1, CPU seconds per record
    .venv/bin/python tools/bench_analysis.py RECORD... --jobs 1 2   # and the same records on 2 workers
    .venv/bin/python tools/bench_analysis.py --bot hard --budget 4000 RECORD...

Every run judges each record's positions exactly as ``pegboard analyse`` does (the same
spans, the same executor) and checks that every ``-j`` gives the same review. Because the
development machine is shared, wall time says little; what it prints is CPU time: the whole
run's (this process and its workers), and for ``-j N`` the busiest worker's, whose ratio to
the ``-j 1`` CPU is the speed-up the spread allows on N idle cores. ``uptime``'s load is
printed with each run.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "platform"))


def _timed_task(number: int, source: object, settings: object, start: int, stop: int) -> tuple[int, list[object], int, float]:
    """The executors' task, with the worker's pid and the CPU seconds the span took."""
    from pegboard.analysis.analyse import judge_task

    began = time.process_time()
    found = judge_task(number, source, settings, start, stop)  # type: ignore[arg-type]
    return found[0], found[1], os.getpid(), time.process_time() - began


def run(paths: list[str], jobs: int, bot: str | None, budget: int) -> tuple[list[object], float, float, float]:
    """(reviews as JSON, total CPU, busiest worker's CPU, wall) for one -j."""
    from pegboard.analysis.analyse import analyse_all, read_analysis, spans
    from pegboard.analysis.engine import Settings
    from pegboard.batch.runner import LocalExecutor

    settings = Settings(bot=bot, budget=budget)
    analyses = [read_analysis(path, settings) for path in paths]
    per_worker: dict[int, float] = {}
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    began_cpu, began_wall = time.process_time(), time.perf_counter()
    if jobs > 1:  # analyse_all's spans on its executor, each span timed where it runs
        for number, verdicts, pid, cpu in LocalExecutor(jobs).run(_timed_task, spans(analyses, jobs)):
            analyses[number].review.add(verdicts)  # type: ignore[arg-type]
            per_worker[pid] = per_worker.get(pid, 0.0) + cpu
        for analysis in analyses:
            analysis.finish()
    else:
        analyse_all(analyses)
    wall = time.perf_counter() - began_wall
    own = time.process_time() - began_cpu
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
    busiest = (max(per_worker.values()) if per_worker else 0.0) + own
    return [a.to_json() for a in analyses], own + workers, busiest, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1])
    parser.add_argument("--bot", default=None)
    parser.add_argument("--budget", type=int, default=4000)
    args = parser.parse_args()
    baseline = None
    first_cpu = None
    for jobs in args.jobs:
        load = os.getloadavg()[0]
        reviews, cpu, busiest, wall = run(args.records, jobs, args.bot, args.budget)
        busiest = busiest if jobs > 1 else cpu
        moves = sum(int(r["moves"]) for r in reviews)  # type: ignore[index]
        same = "" if baseline is None else ("; the same reviews as -j 1" if reviews == baseline else "; DIFFERENT reviews from -j 1")
        baseline = baseline or reviews
        first_cpu = first_cpu or cpu
        print(f"-j {jobs}: {len(reviews)} record(s), {moves} moves: CPU {cpu:.1f} s ({1000 * cpu / max(1, moves):.0f} ms a move), "
              f"busiest worker {busiest:.1f} s -> speed-up {first_cpu / busiest:.2f}; wall {wall:.1f} s at load {load:.1f}{same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
