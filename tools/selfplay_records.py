"""The games the fitting tools learn from: a bot's self-play, or match files already written.

tools/calibrate_win_scale.py and tools/tune_weights.py share these options, this loader and
the walk over the positions they fit to.
"""

from __future__ import annotations

import argparse
import glob
from collections.abc import Iterator
from typing import Any


def add_arguments(parser: argparse.ArgumentParser, every: str) -> None:
    """The game, where its games come from (``--bot`` or ``--records``) and how they are played."""
    parser.add_argument("game")
    parser.add_argument("--bot", help="the bot that plays itself (or give --records)")
    parser.add_argument("--records", help="a glob of match files to read instead of playing")
    parser.add_argument("--every", type=int, default=1, help=every)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=None, help="seconds per move (default: the bot's own)")
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--plugin", action="append", default=[])


def load(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[dict[str, Any]]:
    """The match records: ``--records`` read from disk, else ``--bot`` played against itself
    as ``pegboard match`` plays it (after loading each ``--plugin``)."""
    import pegboard

    for plugin in args.plugin:
        pegboard.load_plugin(plugin)
    if args.records:
        return [pegboard.read_record(path) for path in sorted(glob.glob(args.records))]
    if args.bot:
        return pegboard.play_match(args.game, [args.bot, args.bot], games=args.games, seed=args.seed,
                                   budget=args.budget, jobs=args.jobs).records
    parser.error("give --bot or --records")


def positions(records: list[dict[str, Any]], every: int) -> Iterator[tuple[int, float, Any, Any]]:
    """``(game number, seat 0's outcome, evaluator, position)`` for every ``every``-th position
    of each finished record that is not itself decided (outcome 1 won, 0.5 drawn, 0 lost).
    The game's evaluator is looked up once; a game without one stops the tool with one line."""
    from pegboard.analysis.engine import LineSource, evaluator_for, walk
    from pegboard.plugins import resolve
    from pegboard.records.replay import game_for_record

    evaluator = None
    for number, record in enumerate(records):
        result = record.get("result")
        if result is None:
            continue
        winner = result.get("winner")
        outcome = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
        game = game_for_record(record)
        evaluator = evaluator or evaluator_for(game, None, resolve())
        if evaluator is None:
            raise SystemExit(f"error: {record.get('game')} has no evaluator")
        source = LineSource(record["ruleset"], int(record["seed"]), tuple(record["moves"]))
        for ply, state in enumerate(walk(source, game)):
            if state.result is None and ply % every == 0:
                yield number, outcome, evaluator, state


def win_scale(evaluator: Any) -> float:
    """The evaluator's win-chance constant (half its display scale when it declares none)."""
    return float(evaluator.win_scale if evaluator.win_scale is not None else evaluator.scale / 2)
