"""How the window's Review runs: a seeded finished game reviewed in a headless window.

    .venv/bin/python tools/bench_review.py                       # Node War, process workers
    .venv/bin/python tools/bench_review.py --game starfall --workers thread

Plays a game (Blue random, Red the first bot; Starfall: both random), exports it, imports it
into a window whose bots think the way the window's do (``--workers``), starts Review and runs
frames at 60 per second until the analysis is done: prints the moves, the wall time, the
frames with their mean and longest duration (tick and draw), and the window's own CPU time.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="nodewar")
    parser.add_argument("--ruleset", default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", default="process", choices=("process", "thread", "inline"))
    parser.add_argument("--budget", type=int, default=None, help="work units per position (default: the window's)")
    args = parser.parse_args(argv)
    os.environ.setdefault("PYGLET_HEADLESS", "1")
    os.environ["PEGBOARD_HOME"] = tempfile.mkdtemp(prefix="pegboard-bench-")  # never the user's profile
    from pegboard.plugins.manager import Plugins
    from pegboard.ui import make_session, open_window
    from pegboard.ui.settings import MemorySettings

    plugins = Plugins()
    bots = list(plugins.bots(args.game))
    played = make_session(args.game, args.ruleset, ["random", bots[0] if args.game == "nodewar" else "random"],
                          plugins, seed=args.seed, threaded=False)
    played.run_bots()
    record = Path(tempfile.mkdtemp(prefix="pegboard-bench-")) / "game.json"
    played.export(record)
    store = MemorySettings()
    store.set_setting(args.game, "welcomed", True)
    if args.ruleset:
        store.set_setting(args.game, "rules", args.ruleset)
    session = make_session(args.game, args.ruleset, ["human", "human"], plugins, seed=args.seed, workers=args.workers)
    window = open_window(session, plugins, schedule=False, settings_store=store)
    if args.budget is not None:
        window.review_budget = args.budget
    window._import(record)
    window.start_review()
    frames: list[float] = []
    wall, cpu = time.perf_counter(), time.process_time()
    while window.reviewing is not None and window.reviewing.runner.running:
        start = time.perf_counter()
        window.tick(1 / 60)
        window.render()
        frames.append(time.perf_counter() - start)
        time.sleep(max(0.0, 1 / 60 - frames[-1]))
    header = window.graph.header
    window.close()
    print(f"{args.game}: {len(session.history)} moves, review {time.perf_counter() - wall:.1f} s, {len(frames)} frames "
          f"(mean {1000 * sum(frames) / max(1, len(frames)):.1f} ms, longest {1000 * max(frames, default=0):.0f} ms), "
          f"window CPU {time.process_time() - cpu:.1f} s; {header}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
