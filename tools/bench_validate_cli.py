#!/usr/bin/env python
"""Whole-process ``pegboard validate`` against python-chess replaying PGN files.

    .venv/bin/python tools/bench_validate_cli.py              # 150 records, best of 3
    .venv/bin/python tools/bench_validate_cli.py --records 30 --runs 1

Makes ``--records`` random Node War match records (seeded random games played
to their end, written as ``pegboard match -o`` writes them) and as many PGN
files of random chess games with the same number of plies each, then times two
separate processes, alternating, ``--runs`` times each:

- ``pegboard validate -j 1 FILE...`` (start-up, plugin and schema loading,
  reading, schema checks, replay and result of every file);
- one Python process that imports python-chess, reads every PGN file with
  ``chess.pgn.read_game`` and replays its moves on a board.

Both figures are CPU seconds of the child process (user + system, from
``resource.getrusage``), so a busy machine slows both alike; wall seconds are
printed too. Needs python-chess (``pip install chess``, in the test extra).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHESS_REPLAY = """
import sys
import chess.pgn

moves = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as handle:
        game = chess.pgn.read_game(handle)
    board = game.board()
    for move in game.mainline_moves():
        board.push(move)
        moves += 1
print(moves)
"""


def make_records(folder: Path, count: int, seed: int) -> list[int]:
    """Write ``count`` random Node War records; returns each one's number of moves."""
    from pegboard.records.files import record_from_moves, write_record
    from pegboard.rules.rulesets import build_game, load_ruleset

    ruleset = load_ruleset("standard", game="nodewar")
    game = build_game(ruleset)
    rng = random.Random(seed)
    lengths = []
    for index in range(count):
        state = game.new_state(index)
        moves = []
        while state.result is None:
            move = rng.choice(state.legal_moves())
            state.push(move)
            moves.append(move)
        record = record_from_moves(game, ruleset, index, ["random", "random"], moves, state.result, {"generator": "bench_validate_cli"})
        write_record(record, folder / f"game{index:04d}.match.json")
        lengths.append(len(moves))
    return lengths


def make_pgns(folder: Path, lengths: list[int], seed: int) -> None:
    """One PGN file of a random chess game per length, exactly that many plies long."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    for index, plies in enumerate(lengths):
        while True:  # a random game that ends early is thrown away
            board = chess.Board()
            while len(board.move_stack) < plies and not board.is_game_over():
                board.push(rng.choice(list(board.legal_moves)))
            if len(board.move_stack) == plies:
                break
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = "bench_validate_cli"
        (folder / f"game{index:04d}.pgn").write_text(str(game) + "\n", encoding="utf-8")


def child_env() -> dict[str, str]:
    """The environment for timed children: as a user's shell has it, minus ``PYTHONDONTWRITEBYTECODE``.

    With that variable set (some sandboxes set it) every module of a source checkout is
    compiled from source on every start, while python-chess, installed by pip, has its
    byte code: the comparison would charge pegboard for compiling itself.
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def pegboard_command() -> list[str]:
    """The ``pegboard`` console script next to this Python (as a user runs it), else ``python -m pegboard``."""
    bindir = Path(sys.executable).parent
    if (bindir / "pegboard").is_file():
        return [str(bindir / "pegboard")]
    return [sys.executable, "-m", "pegboard"]


def timed(command: list[str], *, check: bool = True) -> tuple[float, float, str]:
    """(CPU seconds, wall seconds, stdout) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=child_env())
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if check and done.returncode != 0:
        sys.exit(f"error: {' '.join(command[:3])} ... failed ({done.returncode}): {done.stderr.strip()[:400]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=150, help="number of records and PGN files (default 150)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each process; the best counts (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", metavar="DIR", help="write the files here and keep them")
    args = parser.parse_args(argv)
    try:
        import chess  # noqa: F401
    except ImportError:
        sys.exit("error: python-chess is needed (pip install chess; it is in the test extra)")
    pegboard = pegboard_command()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(args.keep or temp)
        folder.mkdir(parents=True, exist_ok=True)
        lengths = make_records(folder, args.records, args.seed)
        make_pgns(folder, lengths, args.seed)
        total = sum(lengths)
        records = sorted(str(p) for p in folder.glob("*.match.json"))
        pgns = sorted(str(p) for p in folder.glob("*.pgn"))
        ours_cmd = [*pegboard, "validate", "-j", "1", *records]
        chess_cmd = [sys.executable, "-c", CHESS_REPLAY, *pgns]
        ours: list[tuple[float, float]] = []
        theirs: list[tuple[float, float]] = []
        timed([*pegboard, "validate", "-j", "1", records[0]])  # warm-up: writes any missing byte-code caches
        for _ in range(args.runs):
            cpu, wall, out = timed(ours_cmd)
            if f"{len(records)} valid" not in out:
                sys.exit(f"error: not every record validated: {out.strip().splitlines()[-1:]}")
            ours.append((cpu, wall))
            cpu, wall, out = timed(chess_cmd)
            if int(out.strip()) != total:
                sys.exit(f"error: python-chess replayed {out.strip()} moves, expected {total}")
            theirs.append((cpu, wall))
    load = os.getloadavg()[0]
    best_ours, best_theirs = min(ours), min(theirs)
    print(f"{len(lengths)} Node War records and {len(lengths)} PGN files, {total:,} moves each side; load average {load:.1f}")
    for name, runs, best in (("pegboard validate -j 1", ours, best_ours), ("python-chess PGN replay", theirs, best_theirs)):
        cpus = ", ".join(f"{c:.2f}" for c, _ in runs)
        print(f"{name:<26} best {best[0]:.2f} s CPU ({total / best[0]:,.0f} moves/s); runs {cpus} s CPU; wall best {min(w for _, w in runs):.2f} s")
    print(f"ratio (pegboard moves/s over python-chess moves/s): {best_theirs[0] / best_ours[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
