"""Starfall as users run it: whole ``pegboard`` processes, this checkout against an older one.

    git worktree add /tmp/sf-base <commit>
    nice -n 19 .venv/bin/python tools/bench_starfall_cli.py --baseline /tmp/sf-base -n 40

It makes ``-n`` random-bot Starfall records once (with this checkout), then times, for this
checkout and for the baseline (``BASELINE/platform`` and ``BASELINE/plugins`` first on
PYTHONPATH), alternately and ``--rounds`` times each:

* ``pegboard validate -j 1`` over those records, and
* ``pegboard match starfall --south random --north random -j 1 -n N --seed S``,

each as a fresh child process. A figure is the child's CPU time (user + system, from
``resource.getrusage(RUSAGE_CHILDREN)`` deltas), best of the rounds; the ratio is
baseline / this checkout. Set-up every process pays (interpreter start, imports, table
builds) is counted, which the in-process bench (tools/bench_starfall.py) never sees.

Children run with bytecode caching on (PYTHONDONTWRITEBYTECODE removed), as an installed
package runs; one untimed run of each command first fills the caches.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def _env(checkout: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    paths = [str(checkout / "platform"), str(checkout / "plugins")]
    env["PYTHONPATH"] = os.pathsep.join(paths + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return env


def _cpu(cmd: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one child process running ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _pegboard(*args: str) -> list[str]:
    return [sys.executable, "-m", "pegboard", *args]


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except subprocess.CalledProcessError as exc:
        print(f"error: a child exited with status {exc.returncode}: {' '.join(exc.cmd[:6])} ...", file=sys.stderr)
        return 1


def _main(argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="an older checkout (has platform/ and plugins/)")
    parser.add_argument("-n", "--games", type=int, default=40, help="records to validate; games per match (default 40)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--rounds", type=int, default=5, help="timed runs per side and command (best counts)")
    args = parser.parse_args(argv)
    base = args.baseline.resolve()
    if not (base / "platform" / "pegboard").is_dir():
        print(f"error: {base} has no platform/pegboard (give the checkout's root)", file=sys.stderr)
        return 2
    sides = {"this": _env(HERE), "baseline": _env(base)}
    with tempfile.TemporaryDirectory(prefix="sfcli-") as tmp:
        recs, scratch = Path(tmp) / "records", Path(tmp) / "scratch"
        match = ["match", "starfall", "--south", "random", "--north", "random", "-j", "1",
                 "-n", str(args.games), "--seed", str(args.seed)]
        subprocess.run(_pegboard(*match, "--out", str(recs)), env=sides["this"], check=True, stdout=subprocess.DEVNULL)
        files = sorted(str(p) for p in recs.glob("*.json"))
        commands = {
            f"validate -j 1 ({len(files)} records)": _pegboard("validate", "-j", "1", *files),
            f"match starfall random-random -j 1 -n {args.games}": _pegboard(*match, "--out", str(scratch)),
        }
        print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; best of {args.rounds}; CPU s of the child")
        for label, cmd in commands.items():
            best = {side: float("inf") for side in sides}
            for env in sides.values():
                subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)  # fill bytecode caches
            for _ in range(args.rounds):
                for side, env in sides.items():
                    best[side] = min(best[side], _cpu(cmd, env))
            ratio = best["baseline"] / best["this"]
            print(f"{label:45s} this {best['this']:6.3f} s  baseline {best['baseline']:6.3f} s  ratio {ratio:5.2f}x")
        print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (after)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
