#!/usr/bin/env python
"""Whole-process random-bot matches: ``pegboard match`` against python-chess random playouts.

    .venv/bin/python tools/bench_match_cli.py              # 20 games, best of 3
    .venv/bin/python tools/bench_match_cli.py --games 5 --runs 1 --game starfall

Times ``pegboard match GAME --<seat> random ... -j 1 --games N`` as a separate
process (start-up, plugins, N seeded games, the results table) and one Python
process that imports python-chess and plays random games (a uniformly random
legal move each ply, as python-chess users write it) until it has made as many
plies. Each is run ``--runs`` times, alternating; the best CPU time counts
(user + system of the child, so a busy machine slows both alike). Prints plies
per second of each and the ratio. Needs python-chess (in the test extra).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_validate_cli import pegboard_command, timed  # noqa: E402

CHESS_PLAYOUTS = """
import random
import sys
import chess

target = int(sys.argv[1])
rng = random.Random(1)
plies = 0
while plies < target:
    board = chess.Board()
    while not board.is_game_over() and plies < target:
        board.push(rng.choice(list(board.legal_moves)))
        plies += 1
print(plies)
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="nodewar")
    parser.add_argument("--games", type=int, default=20, help="games in the match (default 20)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each process; the best counts (default 3)")
    args = parser.parse_args(argv)
    pegboard = pegboard_command()
    from pegboard.plugins.manager import get_plugins

    seats = get_plugins().game(args.game).seats
    command = [*pegboard, "match", args.game, *[a for seat in seats for a in (f"--{seat.lower()}", "random")], "-j", "1", "--games", str(args.games)]
    ours: list[float] = []
    theirs: list[float] = []
    plies = 0
    timed([*command[:-1], "1"])  # warm-up: writes any missing byte-code caches
    for _ in range(args.runs):
        cpu, _wall, out = timed(command)
        found = re.search(r"average length ([0-9.]+)", out)
        if found is None:
            sys.exit(f"error: no average length in the match output: {out[-300:]}")
        plies = round(float(found.group(1)) * args.games)
        ours.append(cpu)
        cpu, _wall, out = timed([sys.executable, "-c", CHESS_PLAYOUTS, str(plies)])
        theirs.append(cpu)
    print(f"{' '.join(command[-9:])}: {args.games} games, {plies:,} plies; load average {os.getloadavg()[0]:.1f}")
    print(f"pegboard match           best {min(ours):.2f} s CPU ({plies / min(ours):,.0f} plies/s); runs {', '.join(f'{c:.2f}' for c in ours)}")
    print(f"python-chess playouts    best {min(theirs):.2f} s CPU ({plies / min(theirs):,.0f} plies/s); runs {', '.join(f'{c:.2f}' for c in theirs)}")
    print(f"ratio (pegboard plies/s over python-chess plies/s): {min(theirs) / min(ours):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
