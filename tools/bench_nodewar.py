#!/usr/bin/env python
"""Benchmark the Node War engine from the command line.

    .venv/bin/python tools/bench_nodewar.py            # ~10 s of CPU time
    .venv/bin/python tools/bench_nodewar.py --quick    # about a second
    .venv/bin/python tools/bench_nodewar.py --ruleset skirmish

The same figures as ``pegboard bench`` for nodewar. When python-chess is
installed (it is not a dependency) the validation figure is compared with
python-chess replaying the same number of moves from PGN in the same run.
"""

from __future__ import annotations

import sys
import warnings

if __name__ == "__main__":
    warnings.simplefilter("ignore")  # a sibling plugin that fails to import is not our business here
    from pegboard_nodewar.bench import main

    sys.exit(main())
