"""Print the Starfall engine benchmarks.

    .venv/bin/python tools/bench_starfall.py           # full run (about 10 seconds)
    .venv/bin/python tools/bench_starfall.py --quick   # a few seconds
    .venv/bin/python tools/bench_starfall.py --ruleset fog_seam
"""

from __future__ import annotations

import argparse

from pegboard.rulesets import load_ruleset
from pegboard_starfall.bench import run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="short run (proves the bench works, not a measurement)")
    parser.add_argument("--ruleset", default="standard", help="Starfall ruleset id (default: standard)")
    args = parser.parse_args()
    ruleset = dict(load_ruleset(args.ruleset, game="starfall").data)
    for fig in run(args.quick, ruleset):
        note = f"  ({fig.note})" if fig.note else ""
        print(f"{fig.name:45s} {fig.value:12.1f} {fig.unit}{note}")


if __name__ == "__main__":
    main()
