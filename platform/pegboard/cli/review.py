"""``pegboard analyse``: post-game analysis of match records (marks, better moves, accuracy)."""


import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pegboard.cli.common import EXIT_INVALID, AddressOption, ExecutorOption, error_line, executor_for, new_table, print_table, progress_bar
from pegboard.errors import UsageProblem

if TYPE_CHECKING:
    from pegboard.analysis.analyse import Analysis

#: Rows of explanation printed under each record's table.
WORST_SHOWN = 3


def analyse(
    records: Annotated[list[Path], typer.Argument(metavar="RECORD...", help="Match records (.match.json or a game's text format).")],
    bot: Annotated[str | None, typer.Option("--bot", "-b", metavar="BOT", help="The bot whose search judges each position (default: the analysis's own alpha-beta; for a game with chance, its strongest bot).")] = None,
    budget: Annotated[int | None, typer.Option(min=1, metavar="N", help="Work units per position: the analysis search's nodes, or the bot's own units (default 4000).")] = None,
    evaluator: Annotated[str | None, typer.Option(metavar="ID", help="Evaluator id (default: the game's first).")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, metavar="N", help="Worker processes (default: min(2, CPUs)); the results are the same for any N.")] = None,
    executor: ExecutorOption = "local",
    address: AddressOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print every record's rows and summary as JSON.")] = False,
    out_dir: Annotated[Path | None, typer.Option("--out", "-o", metavar="DIR", help="Write each record, annotated, to DIR/<name>.match.json.")] = None,
    plot: Annotated[Path | None, typer.Option("--plot", metavar="FILE", help="Draw the evaluation graph into FILE (.png or .svg; needs pegboard[plot]).")] = None,
) -> None:
    """Analyse finished games move by move. Every move's win-chance drop, its mark, the better move, each side's accuracy.

    Each position is judged by --bot's search (or the analysis's own alpha-beta; a game with
    chance by its strongest bot) under --budget work units, so two runs give the same answer
    on any machine. Marks: inaccuracy (a drop of 10 points of win chance or more), mistake (20),
    blunder (30, or a move that loses on the spot). A record of a
    hidden-information game that is still running is refused. See docs/cli.md.
    """
    from pegboard.analysis.analyse import analyse_all, read_analysis
    from pegboard.analysis.engine import DEFAULT_BUDGET, Settings
    from pegboard.game import PegboardError

    if plot is not None:
        from pegboard.support.plotting import check_target

        check_target(plot)
    if out_dir is not None and out_dir.exists() and not out_dir.is_dir():
        raise UsageProblem(f"--out must be a folder ({out_dir})")
    settings = Settings(bot=bot, budget=budget or DEFAULT_BUDGET, evaluator=evaluator)
    analyses: list[Analysis] = []
    failed: list[tuple[Path, str]] = []
    for path in records:
        try:
            analyses.append(read_analysis(path, settings))
        except (UsageProblem, LookupError):
            raise  # an unknown bot or evaluator: the command line is wrong, not the file
        except PegboardError as exc:
            failed.append((path, str(exc)))
            error_line(str(exc))
    from pegboard.batch.runner import default_jobs

    jobs = jobs or default_jobs()
    parallel = executor != "local" or address is not None or jobs > 1
    runner = executor_for(executor, jobs, address) if parallel and analyses else None
    with progress_bar("analysing", sum(a.review.total for a in analyses)) as advance:
        analyse_all(analyses, executor=runner, jobs=jobs, progress=advance)
    written = _write(analyses, out_dir) if out_dir is not None else []
    if plot is not None and analyses:
        from pegboard.analysis.graph import draw_graph

        draw_graph(analyses, plot)
    if as_json:
        items = [{"ok": True, **analysis.to_json()} for analysis in analyses]
        for item, path in zip(items, written, strict=False):
            item["written"] = str(path)
        items += [{"ok": False, "record": str(path), "error": reason} for path, reason in failed]
        print(json.dumps(items, indent=2))
    else:
        for analysis in analyses:
            _print(analysis)
        for path in written:
            print(f"wrote {path}")
        if plot is not None and analyses:
            print(f"wrote {plot}")
    if failed:
        raise typer.Exit(EXIT_INVALID)


def _write(analyses: "list[Analysis]", folder: Path) -> list[Path]:
    from pegboard.analysis.annotate import annotated_record
    from pegboard.records.files import MATCH_SUFFIX, check_output, write_record

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for analysis in analyses:
        source = Path(analysis.label)
        stem = source.name[: -len(MATCH_SUFFIX)] if source.name.endswith(MATCH_SUFFIX) else source.stem
        target = folder / f"{stem}{MATCH_SUFFIX}"
        check_output(target, source, force=True)  # replaces an older analysis, never the record analysed
        written.append(write_record(annotated_record(analysis), target))
    return written


def _percent(chance: float) -> str:
    return f"{100.0 * chance:.0f}"


def _print(analysis: "Analysis") -> None:
    from pegboard.analysis.winchance import MARK_GLYPHS

    review = analysis.review
    seats = analysis.game.seats
    ending = analysis.result.sentence(seats) if analysis.result is not None else "unfinished"
    table = new_table(f"{analysis.label}: {analysis.game.name}, {len(review.rows)} moves, {ending}")
    for column, justify in (("#", "right"), ("seat", "left"), ("move", "left"), ("mark", "left"), ("drop", "right"),
                            ("better move", "left"), (f"{seats[0]} win %", "right")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for row in review.rows:
        chance_after = row.after if row.seat == 0 else 1.0 - row.after
        mark = f"{row.mark} {MARK_GLYPHS[row.mark]}" if row.mark else ""
        table.add_row(str(row.number), seats[row.seat], row.text, mark, f"{row.drop:.1f}" if row.drop >= 0.05 else "",
                      row.best_text if row.mark else "", _percent(chance_after))
    judged = ", ".join(f"{who} {count}" for who, count in review.judged_by().items())
    table.caption = f"judged by {analysis.analyst}, {analysis.settings.budget} work units a position ({judged}); drop: win-chance points lost"
    print_table(table)
    summary = new_table("accuracy")
    for column in ("seat", "player", "accuracy", "average drop", "inaccuracies", "mistakes", "blunders"):
        summary.add_column(column, justify="left" if column in ("seat", "player") else "right")
    for side, player in zip(review.sides(), analysis.players(), strict=True):
        accuracy = "" if side.accuracy is None else f"{side.accuracy:.1f}"
        summary.add_row(side.name, player, accuracy, f"{side.average_drop:.1f}", str(side.marks["inaccuracy"]),
                        str(side.marks["mistake"]), str(side.marks["blunder"]))
    print_table(summary)
    for row in review.worst(WORST_SHOWN):
        line = " ".join(row.line)
        print(f"move {row.number} ({seats[row.seat]}, {row.mark}, -{row.drop:.0f}): {row.text}; better {row.best_text}"
              + (f" (line: {line})" if len(row.line) > 1 else ""))
        for sentence in row.explanation:
            print(f"    {sentence}")


def register(app: typer.Typer) -> None:
    app.command("analyse")(analyse)
