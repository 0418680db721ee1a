"""Print the Starfall engine benchmarks.

    .venv/bin/python tools/bench_starfall.py           # full run (about 15 seconds)
    .venv/bin/python tools/bench_starfall.py --quick   # a few seconds
    .venv/bin/python tools/bench_starfall.py --ruleset fog_seam

Before and after, side by side: put an older engine somewhere, e.g.

    git worktree add /tmp/sf-base <commit>
    .venv/bin/python tools/bench_starfall.py --baseline /tmp/sf-base/plugins --rounds 3

``--baseline DIR`` runs this checkout's bench code in child processes, alternately against
the ``pegboard_starfall`` package in DIR (put first on the path) and against this
checkout's, ``--rounds`` times each; it prints the best figure of each side and the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path


def _figures(quick: bool, ruleset_id: str) -> list[dict[str, object]]:
    from pegboard.rules.rulesets import load_ruleset
    from pegboard_starfall.bench import run

    ruleset = dict(load_ruleset(ruleset_id, game="starfall").data)
    return [{"name": f.name, "value": f.value, "unit": f.unit, "note": f.note} for f in run(quick, ruleset)]


def _child(args: argparse.Namespace, baseline: Path | None) -> list[dict[str, object]]:
    """One bench run in a fresh process; with ``baseline``, that engine package comes first."""
    env = dict(os.environ)
    cmd = [sys.executable, __file__, "--json", "--ruleset", args.ruleset] + (["--quick"] if args.quick else [])
    if baseline is not None:
        here = Path(__file__).resolve().parents[1] / "plugins"
        # the baseline's engine first; this checkout's bench module is loaded by path (see --bench-from)
        env["PYTHONPATH"] = os.pathsep.join([str(baseline), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        cmd += ["--bench-from", str(here / "pegboard_starfall" / "bench.py")]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    figures: list[dict[str, object]] = json.loads(out)
    return figures


def _load_bench(path: str) -> None:
    """Use the bench module at ``path`` (this checkout's) with whatever engine is on the path."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("pegboard_starfall.bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["pegboard_starfall.bench"] = module
    spec.loader.exec_module(module)


def _compare(args: argparse.Namespace) -> None:
    best: dict[str, dict[str, float]] = {"before": {}, "after": {}}
    units: dict[str, str] = {}
    order: list[str] = []
    for _ in range(args.rounds):
        for side, base in (("before", Path(args.baseline)), ("after", None)):
            for fig in _child(args, base):
                name = str(fig["name"])
                value = float(fig["value"])  # type: ignore[arg-type]
                if name not in units:
                    units[name] = str(fig["unit"])
                    order.append(name)
                best[side][name] = max(best[side].get(name, 0.0), value)
    print(f"{'figure':60s} {'before':>10s} {'after':>10s} {'ratio':>7s}")
    for name in order:
        before, after = best["before"].get(name, 0.0), best["after"].get(name, 0.0)
        ratio = f"{after / before:6.2f}x" if before else "      -"
        print(f"{name:60s} {before:10.1f} {after:10.1f} {ratio}  {units[name]}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="short run (proves the bench works, not a measurement)")
    parser.add_argument("--ruleset", default="standard", help="Starfall ruleset id (default: standard)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--baseline", metavar="DIR", help="folder holding an older pegboard_starfall package to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each side with --baseline (best one counts)")
    parser.add_argument("--bench-from", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.baseline:
        if not (Path(args.baseline) / "pegboard_starfall" / "__init__.py").is_file():
            parser.error(f"--baseline: no pegboard_starfall package in {args.baseline}")
        _compare(args)
        return
    if args.bench_from:
        _load_bench(args.bench_from)
    figures = _figures(args.quick, args.ruleset)
    if args.json:
        print(json.dumps(figures))
        return
    for fig in figures:
        note = f"  ({fig['note']})" if fig["note"] else ""
        print(f"{fig['name']:60s} {fig['value']:12.1f} {fig['unit']}{note}")


if __name__ == "__main__":
    main()
