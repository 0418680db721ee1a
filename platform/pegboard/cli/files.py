"""Match files: ``validate`` and ``convert``."""


import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pegboard.cli.common import EXIT_INVALID, AddressOption, ExecutorOption, error_line, executor_for, plugins, progress_bar

if TYPE_CHECKING:  # records, runner and process pools are imported by the commands that use them
    from pegboard.records.validate import Report

PARALLEL_FROM = 16  # fewer files than this are checked in-process (a pool costs more than it saves)


def _describe(report: "Report") -> str:
    result = report.result
    if result is None:
        ending = "unfinished"
    elif result.get("winner") is None:
        ending = f"draw ({result['reason']})"
    else:
        seats = plugins().game(str(report.game)).seats
        ending = f"{seats[result['winner']]} wins ({result['reason']})"
    return f"{report.game}, {report.moves} moves, {ending}"


def validate(
    paths: Annotated[list[Path], typer.Argument(metavar="FILE...", help="Match files (.match.json or a game's text format).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON report per file.")] = False,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, help="Worker processes for many files.")] = None,
    executor: ExecutorOption = "local",
    address: AddressOption = None,
) -> None:
    """Validate match files. Syntax, then schema, then replay, then the declared result.

    Exit 0 when every file is valid, 1 when any is not. With --executor ray the files
    are checked as Ray tasks (in batches) on a local Ray instance or the cluster at --address.
    """
    from pegboard.records.validate import validate_file

    # One process for a few files or -j 1: no executor (and no runner import, ~10 ms of start-up).
    in_process = executor == "local" and address is None and (jobs == 1 or len(paths) < PARALLEL_FROM)
    runner = None if in_process else executor_for(executor, jobs, address)
    if jobs is None and not in_process:
        from pegboard.batch.runner import default_jobs

        jobs = default_jobs()
    reports: list[Report] = []
    with progress_bar("validating", len(paths)) as advance:
        parallel = runner is not None and (executor != "local" or (jobs or 1) > 1)
        # the first file warms this process's caches (schemas, games); forked workers inherit them
        for path in paths[:1] if parallel else paths:
            reports.append(validate_file(path))
            advance()
        if parallel and len(paths) > 1:
            assert runner is not None and jobs is not None
            rest = paths[1:]
            size = max(1, len(rest) // (jobs * 4))
            chunks = [(start, rest[start:start + size]) for start in range(0, len(rest), size)]
            done: list[tuple[int, list[Report]]] = []
            for start, batch in runner.run(_validate_chunk, chunks):
                done.append((start, batch))
                advance(len(batch))
            for _, batch in sorted(done, key=lambda item: item[0]):
                reports.extend(batch)
    invalid = [r for r in reports if not r.ok]
    if as_json:
        print(json.dumps([r.to_json() for r in reports], indent=2))
    else:
        for report in reports:
            if report.ok:
                print(f"ok: {report.path} ({_describe(report)})")
            else:
                more = len(report.errors) - 1  # one line per file; --json lists every error
                error_line(str(report.errors[0]) + (f" [+{more} more; --json lists them]" if more else ""))
        if len(reports) > 1:
            print(f"{len(reports)} files: {len(reports) - len(invalid)} valid, {len(invalid)} invalid")
    if invalid:
        raise typer.Exit(EXIT_INVALID)


def _validate_chunk(start: int, paths: list[Path]) -> "tuple[int, list[Report]]":
    from pegboard.records.validate import validate_files

    return start, validate_files(paths)


def convert_command(
    source: Annotated[Path, typer.Argument(metavar="IN", help="The match file to read.")],
    target: Annotated[Path, typer.Argument(metavar="OUT", help="The file to write; its suffix picks the format.")],
    force: Annotated[bool, typer.Option(help="Replace OUT if it exists (never IN).")] = False,
) -> None:
    """Convert a match file to another format. JSON or a game's text format; the file is validated first."""
    from pegboard.records.validate import convert

    report = convert(source, target, force=force)
    print(f"wrote {target} ({report.game}, {report.moves} moves)")


def register(app: typer.Typer) -> None:
    app.command("validate")(validate)
    app.command("convert")(convert_command)
