#!/usr/bin/env python
"""Count the Python bytecodes one ``pegboard`` command line executes, and where.

    .venv/bin/python tools/count_bytecodes.py validate -j 1 records/*.json
    .venv/bin/python tools/count_bytecodes.py --top 40 match starfall -n 5 --out /tmp/m

A gauge that does not drift with the machine's speed, as wall or CPU time does. The
command runs in this process under :func:`sys.settrace` with opcode events on (some 50-100
times slower than normal), so imports done before tracing starts are not counted. It prints,
on standard error, the total bytecodes and Python calls, then the functions that executed the
most bytecodes with their call counts. For this interpreter a bytecode costs about the
same whatever it does, so with CPU time in view this points at the work that is Python-level
(dispatch) rather than inside C builtins, which callgrind's instruction counts weigh instead.
"""

from __future__ import annotations

import sys
from collections import Counter
from types import CodeType, FrameType
from typing import Any


def main(argv: list[str]) -> int:
    top = 25
    if argv[:1] == ["--top"]:
        if len(argv) < 2 or not argv[1].isdigit():
            print("usage: count_bytecodes.py [--top N] PEGBOARD-ARGS...", file=sys.stderr)
            return 2
        top, argv = int(argv[1]), argv[2:]
    if not argv:
        print("usage: count_bytecodes.py [--top N] PEGBOARD-ARGS...", file=sys.stderr)
        return 2
    from pegboard.cli.app import run

    opcodes: Counter[CodeType] = Counter()
    calls: Counter[CodeType] = Counter()

    def trace(frame: FrameType, event: str, _arg: Any) -> Any:
        if event == "opcode":
            opcodes[frame.f_code] += 1
        elif event == "call":
            frame.f_trace_opcodes = True
            calls[frame.f_code] += 1
        return trace

    previous = sys.gettrace()  # e.g. a coverage tool's: put back afterwards
    sys.settrace(trace)
    try:
        code = run(argv)
    finally:
        sys.settrace(previous)
    print(f"bytecodes {sum(opcodes.values()):,}  calls {sum(calls.values()):,}  (exit {code})", file=sys.stderr)
    for func, n in opcodes.most_common(top):
        where = f"{func.co_filename.rsplit('/', 1)[-1]}:{func.co_name}"
        print(f"{n:>13,} {calls[func]:>10,}  {where}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
