"""The games the fitting tools learn from: a bot's self-play, or match files already written.

tools/calibrate_win_scale.py and tools/tune_weights.py share these options and this loader.
"""

from __future__ import annotations

import argparse
import glob
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
