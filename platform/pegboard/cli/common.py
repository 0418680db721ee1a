"""Shared pieces of the CLI: exit codes, errors, consoles, progress bars, seat options."""


import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:  # rich is imported by the commands that print a table or a progress bar, not by `pegboard --help`
    from rich.console import Console
    from rich.table import Table

    from pegboard.batch.runner import Executor

from pegboard.errors import MatchFileError, UsageProblem
from pegboard.game import PegboardError
from pegboard.plugins.manager import Plugins, get_plugins

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2

HUMAN = "human"


def exit_code_for(error: BaseException) -> int:
    """2 for usage errors, else 1 (invalid input). Usage errors: an unknown id typed on the
    command line, a missing optional extra (:class:`~pegboard.errors.MissingExtra`) and an
    output path that cannot be written (a file of the ``output`` stage: it exists without
    --force, is the input or a folder, its folder is missing, its suffix names no format)."""
    if isinstance(error, UsageProblem) or (isinstance(error, PegboardError) and isinstance(error, LookupError)):
        return EXIT_USAGE
    if isinstance(error, MatchFileError) and error.stage == "output":
        return EXIT_USAGE
    return EXIT_INVALID


def plugins() -> Plugins:
    return get_plugins()


ExecutorOption = Annotated[
    str,
    typer.Option("--executor", metavar="local|ray", help="Where the work runs: local processes, or Ray tasks (pegboard[ray])."),
]
AddressOption = Annotated[
    str | None,
    typer.Option("--address", metavar="ADDR", help="The Ray cluster to join (default: start a local instance)."),
]


def executor_for(kind: str, jobs: int | None, address: str | None) -> "Executor":
    """The executor a command's --executor/--jobs/--address options name (usage errors on bad input)."""
    from pegboard.batch.runner import EXECUTORS, make_executor

    if kind not in EXECUTORS:
        raise UsageProblem(f"unknown executor {kind!r} (choose from {', '.join(EXECUTORS)})")
    if address is not None and kind != "ray":
        raise UsageProblem("--address needs --executor ray")
    return make_executor(kind, jobs=jobs, address=address, plugin_files=local_plugin_files())


def err_console() -> "Console":
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def new_table(title: str) -> "Table":
    """An empty rich table with a title (print it with :func:`print_table`)."""
    from rich.table import Table

    return Table(title=title)


def print_table(table: "Table", file: Any = None) -> None:
    """Print a rich table on stdout (or ``file``), fitted to ``COLUMNS``, the terminal, or 120 columns for a pipe.

    Cell text prints as it is: rich markup is off, so a ``[section]`` in a description stays visible.
    """
    from rich.console import Console

    stream = file or sys.stdout
    Console(file=stream, width=_width(stream), highlight=False, markup=False, soft_wrap=False).print(table)


def _width(stream: Any) -> int | None:
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    return None if stream.isatty() else 120


def error_line(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)


def warning_line(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


@contextmanager
def progress_bar(description: str, total: int) -> Iterator[Any]:
    """A transient progress bar on stderr, shown only when stderr is a terminal.

    Yields a function ``advance(n=1)``.
    """
    if not sys.stderr.isatty():  # nothing to show: skip importing rich's progress machinery (~40 ms)
        yield lambda n=1: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = err_console()
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
    with progress:
        task = progress.add_task(description, total=total)
        yield lambda n=1: progress.advance(task, n)


def seconds(value: float) -> str:
    """A short human time: 40 µs, 12.5 ms, 1.20 s."""
    if value < 0.001:
        return f"{value * 1e6:.0f} µs"
    if value < 1.0:
        return f"{value * 1000:.1f} ms"
    return f"{value:.2f} s"


def parse_seat_args(seats: Sequence[str], extra: Sequence[str], pairs: Sequence[str] = ()) -> dict[int, str]:
    """Seat choices from ``--<seat> VALUE`` extra arguments and ``--seat NAME=VALUE`` pairs.

    Seat names match case-insensitively. Raises :class:`UsageProblem` naming the
    valid seat options.
    """
    by_name = {seat.lower(): index for index, seat in enumerate(seats)}
    options = ", ".join(f"--{seat.lower()}" for seat in seats)
    chosen: dict[int, str] = {}

    def put(name: str, value: str) -> None:
        index = by_name.get(name.lower())
        if index is None:
            raise UsageProblem(f"unknown seat {name!r}: the seats are {options}")
        if not value:
            raise UsageProblem(f"--{name} needs a value (a bot id or human)")
        if index in chosen:
            raise UsageProblem(f"seat {seats[index]} given twice")
        chosen[index] = value

    tokens = list(extra)
    position = 0
    while position < len(tokens):
        token = tokens[position]
        if not token.startswith("--") or len(token) == 2:
            raise UsageProblem(f"unexpected argument {token!r} (seat options are {options})")
        name, equals, value = token[2:].partition("=")
        if not equals:
            if position + 1 >= len(tokens) or tokens[position + 1].startswith("--"):
                raise UsageProblem(f"--{name} needs a value" if name.lower() in by_name else f"no such option: --{name} (seat options are {options})")
            value = tokens[position + 1]
            position += 1
        if name.lower() not in by_name:
            raise UsageProblem(f"no such option: --{name} (seat options are {options})")
        put(name, value)
        position += 1
    for pair in pairs:
        name, equals, value = pair.partition("=")
        if not equals:
            raise UsageProblem(f"--seat expects NAME=BOT, got {pair!r}")
        put(name, value)
    return chosen


def seat_choice(game_id: str, value: str) -> str:
    """A seat option's value as the game spells it: ``human``, or the id of one of its bots.

    Both match case-insensitively, as the seat options do (``--red Easy`` is ``--red easy``);
    an unknown bot is an :class:`~pegboard.errors.UnknownId` listing the known ones."""
    if value.casefold() == HUMAN:
        return HUMAN
    return plugins().bot(game_id, value).id


def local_plugin_files() -> list[str]:
    """The ``--plugin``/``PEGBOARD_PLUGINS`` files loaded, for worker processes that start fresh."""
    return [info.source for info in plugins().info() if info.version == "local"]


def default_bot(game_id: str) -> str:
    """The strongest bot a game offers (:meth:`~pegboard.plugins.manager.Plugins.strongest_bot`)."""
    return plugins().strongest_bot(game_id)


def skill_bot(game_id: str, skill: int) -> str:
    """The bot id ``--skill S`` stands for: the game's ``skill-S`` bot (UnknownId if it has none)."""
    bots = plugins().bots(game_id)
    bot_id = f"skill-{skill}"
    if bot_id not in bots:
        levels = sorted(int(b[6:]) for b in bots if b.startswith("skill-") and b[6:].isdigit())
        if not levels:
            raise UsageProblem(f"--skill: {game_id} has no skill-S bots")
        raise UsageProblem(f"--skill {skill}: {game_id}'s bots have skills {', '.join(map(str, levels))}")
    return bot_id
