#!/usr/bin/env python3
"""Fuzz Pegboard's file inputs and print what happened, per kind of input.

    python3 tools/fuzz.py --cases 10000            # all kinds, 10 000 cases in total
    python3 tools/fuzz.py --cases 2000 --kind ruleset --seed 3

Mutates valid match records (JSON and Node War .txt), rulesets and positions of every
installed game (see tests/support/fuzzing.py) and runs each through what `pegboard validate`,
`convert`, `ruleset check` and `legal`/`eval` run. Prints the counts of valid inputs,
cleanly refused ones and bugs (unexpected exceptions, hangs past the time limit, files
written where they were not asked for), then one line per distinct bug. Exit 1 when any
bug was found. Run it with the project's environment: .venv/bin/python tools/fuzz.py.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from pegboard.plugins.manager import Plugins, set_plugins  # noqa: E402
from support import fuzzing  # noqa: E402

warnings.filterwarnings("ignore", message="Generating overly large repr")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000, help="total cases, split evenly over the kinds")
    parser.add_argument("--kind", choices=fuzzing.KINDS, action="append", help="only this kind (repeatable)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=fuzzing.TIME_LIMIT, help="seconds before a case counts as a hang")
    args = parser.parse_args(argv)
    kinds = args.kind or list(fuzzing.KINDS)
    plugins = Plugins()
    set_plugins(plugins)
    corpus = fuzzing.build_corpus(plugins)
    counts: dict[str, Counter[str]] = {kind: Counter() for kind in kinds}
    bugs: Counter[str] = Counter()
    started = time.perf_counter()
    per_kind = max(1, args.cases // len(kinds))
    with tempfile.TemporaryDirectory(prefix="pegboard-fuzz-") as tmp:
        folder = Path(tmp)
        for kind in kinds:
            run_kind(kind, fuzzing.mutated(kind, corpus), per_kind, args.seed, folder, plugins, args.limit, counts[kind], bugs)
            c = counts[kind]
            print(f"  done {kind}: {sum(c.values())} cases, {c['bug']} bugs ({time.perf_counter() - started:.0f} s)", flush=True)
    elapsed = time.perf_counter() - started
    total = sum(sum(c.values()) for c in counts.values())
    print(f"{total} cases in {elapsed:.1f} s ({total / elapsed:.0f} cases/s), seed {args.seed}")
    print(f"{'kind':<12} {'cases':>7} {'valid':>7} {'refused':>8} {'bugs':>6}")
    for kind, c in counts.items():
        print(f"{kind:<12} {sum(c.values()):>7} {c['valid']:>7} {c['refused']:>8} {c['bug']:>6}")
    for line, n in bugs.most_common():
        print(f"bug x{n}: {line}")
    return 1 if bugs else 0


def run_kind(kind: str, strategy: Any, cases: int, seed: int, folder: Path, plugins: Plugins, limit: int, counts: Counter[str], bugs: Counter[str]) -> None:
    """Let hypothesis generate ``cases`` inputs of one kind (never failing), counting outcomes."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as fix_seed

    @fix_seed(seed)
    @settings(max_examples=cases, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def one(text: str) -> None:
        outcome = fuzzing.run_case(kind, text, folder, plugins, limit=limit)
        counts[outcome.verdict] += 1
        if outcome.verdict == "bug":
            bugs[f"{kind}: {outcome.detail}"] += 1

    one()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
