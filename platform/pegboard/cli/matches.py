"""Headless matches: ``match`` (bot vs bot, many games) and ``demo`` (one game, validated)."""


import json
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pegboard.cli.common import (
    EXIT_INVALID,
    AddressOption,
    ExecutorOption,
    default_bot,
    error_line,
    executor_for,
    local_plugin_files,
    new_table,
    parse_seat_args,
    plugins,
    print_table,
    progress_bar,
    seat_choice,
    seconds,
    skill_bot,
)
from pegboard.errors import UsageProblem

if TYPE_CHECKING:  # the runner and records are imported by the commands, not by `pegboard --help`
    from rich.table import Table

    from pegboard.batch.runner import Executor, GameOutcome, MatchPlan, MatchReport


def record_name(index: int) -> str:
    return f"match-{index + 1:04d}.match.json"


def results_table(report: "MatchReport", title: str) -> "Table":
    has_unfinished = any(row.unfinished for row in report.stats)
    table = new_table(title)
    table.add_column("bot")
    for column in ("wins", "draws", "losses", *(["unfinished"] if has_unfinished else []), "moves", "mean think", "max think"):
        table.add_column(column, justify="right")
    for row in report.stats:
        cells = [row.label, str(row.wins), str(row.draws), str(row.losses)]
        if has_unfinished:
            cells.append(str(row.unfinished))
        cells += [str(row.moves), seconds(row.think_mean), seconds(row.think_max)]
        table.add_row(*cells)
    table.caption = f"{len(report.outcomes)} game(s), average length {report.average_length:.1f} moves"
    return table


def _out_folder(out_dir: Path) -> Path:
    """``--out DIR``, created if needed; a file there is a usage error (before any game is played)."""
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageProblem(f"--out must be a folder ({out_dir})")
    out_dir.mkdir(parents=True, exist_ok=True)
    return out_dir


def _play(plan: "MatchPlan", jobs: int, out_dir: Path | None, executor: "Executor | None" = None) -> "tuple[MatchReport, list[Path]]":
    from pegboard.batch.runner import run_match
    from pegboard.records.files import write_record

    if out_dir is not None:
        _out_folder(out_dir)
    written: list[Path] = []
    with progress_bar(f"{plan.game}: playing", plan.games) as advance:

        def finished(outcome: "GameOutcome") -> None:
            if out_dir is not None:
                written.append(write_record(outcome.record, out_dir / record_name(outcome.index)))
            advance()

        report = run_match(plan, jobs=jobs, progress=finished, executor=executor)
    return report, sorted(written)


def match(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game id (see pegboard games).")],
    seat: Annotated[list[str] | None, typer.Option("--seat", metavar="NAME=BOT", help="A seat's bot (repeatable).")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games to play.")] = 1,
    seed: Annotated[int, typer.Option(help="The match seed; game and bot seeds derive from it.")] = 0,
    ruleset: Annotated[str | None, typer.Option("--ruleset", "-r", help="Ruleset id or .toml file.")] = None,
    out_dir: Annotated[Path | None, typer.Option("--out", "-o", metavar="DIR", help="Write match-0001.match.json ... here.")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, help="Worker processes (default: min(2, CPUs)).")] = None,
    extend: Annotated[bool, typer.Option(help="Play on past turn limits when the game allows it.")] = False,
    budget: Annotated[float | None, typer.Option(min=0.0, help="Seconds per move for every bot (default: each bot's own).")] = None,
    max_plies: Annotated[int, typer.Option(min=1, help="Stop a game after this many moves (recorded as unfinished).")] = 20_000,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    skill: Annotated[int | None, typer.Option("--skill", metavar="S", help="Seats not given play the game's skill-S bot (instead of random).")] = None,
    executor: ExecutorOption = "local",
    address: AddressOption = None,
) -> None:
    """Play bot-vs-bot games headless. Prints a results table.

    Choose each seat's bot with --<seat> BOT using the game's seat names
    (pegboard games lists them), e.g. --blue expert --red random, or
    --seat NAME=BOT. Seats not given play the random bot (or --skill S's bot). Entrants change
    seats every game (with two seats, colours alternate). --executor ray plays
    each game as a Ray task (a local instance, or the cluster at --address).
    """
    from pegboard.batch.runner import MatchPlan, default_jobs

    runner = executor_for(executor, jobs, address)
    registry = plugins()
    spec = registry.game(game)
    chosen = parse_seat_args(spec.seats, ctx.args, seat or ())
    fallback = "random" if skill is None else skill_bot(game, skill)
    bots = tuple(seat_choice(game, chosen.get(index, fallback)) for index in range(len(spec.seats)))
    for bot in bots:
        if bot == "human":
            raise UsageProblem("match plays bots only; use pegboard play for a human seat")
    plan = MatchPlan(
        game=game,
        bots=bots,
        ruleset=ruleset or spec.default_ruleset,
        games=games,
        seed=seed,
        extend=extend,
        budget=budget,
        max_plies=max_plies,
        plugin_files=tuple(local_plugin_files()),
    )
    report, written = _play(plan, jobs or default_jobs(), out_dir, runner if executor != "local" else None)
    if as_json:
        summary = {**report.summary(), "records": [str(p) for p in written]}
        print(json.dumps(summary, indent=2))
        return
    title = f"{spec.name} ({plan.ruleset}), seed {seed}: " + " vs ".join(f"{spec.seats[i]}={b}" for i, b in enumerate(bots))
    print_table(results_table(report, title))
    if written:
        print(f"records: {written[0]}" + (f" ... {written[-1].name}" if len(written) > 1 else ""))


def demo(
    game: Annotated[str | None, typer.Argument(metavar="GAME", help="The game id (default: the first installed game).")] = None,
    out_dir: Annotated[Path | None, typer.Option("--out", "-o", metavar="DIR", help="Keep the record in DIR (default: a temporary folder, removed at the end).")] = None,
    seed: Annotated[int, typer.Option(help="The match seed.")] = 0,
    budget: Annotated[float, typer.Option(min=0.0, help="Seconds per move for the bots.")] = 0.05,
    ruleset: Annotated[str | None, typer.Option("--ruleset", "-r", help="Ruleset id or .toml file.")] = None,
) -> None:
    """Play one game between the top bots. Headless: writes its record and validates it."""
    registry = plugins()
    installed = sorted(registry.games())
    if not installed:
        raise UsageProblem("no games are installed")
    game = game or installed[0]
    spec = registry.game(game)
    bot = default_bot(game)
    from pegboard.batch.runner import MatchPlan

    plan = MatchPlan(
        game=game,
        bots=tuple(bot for _ in spec.seats),
        ruleset=ruleset or spec.default_ruleset,
        seed=seed,
        budget=budget,
        plugin_files=tuple(local_plugin_files()),
    )
    kept = _out_folder(out_dir) if out_dir is not None else None  # refused before anything is played
    print(f"{spec.name}: {bot} vs {bot}, ruleset {plan.ruleset}, seed {seed}, {budget:g} s per move ...")
    if kept is not None:
        _demo_game(spec.name, spec.seats, plan, kept, keep=True)
        return
    with tempfile.TemporaryDirectory(prefix="pegboard-demo-") as scratch:  # nothing is left behind
        _demo_game(spec.name, spec.seats, plan, Path(scratch), keep=False)


def _demo_game(name: str, seats: tuple[str, ...], plan: "MatchPlan", folder: Path, *, keep: bool) -> None:
    """Play the demo's game into ``folder``, print the result table and validate the record."""
    from pegboard.records.validate import validate_file

    report, written = _play(plan, 1, folder)
    outcome = report.outcomes[0]
    for seat, row in enumerate(report.stats):  # one game: entrant i sits in seat i
        row.label = f"{seats[seat]}: {row.bot}"
    result = outcome.record.get("result")
    if result:
        winner = result["winner"]
        who = "a draw" if winner is None else f"{seats[winner]} wins"
        print(f"result: {who} ({result['reason']}) after {outcome.plies} moves")
    else:
        print(f"result: unfinished after {outcome.plies} moves")
    print_table(results_table(report, f"{name} demo"))
    check = validate_file(written[0])
    if not check.ok:
        error_line(str(check.errors[0]))
        raise typer.Exit(EXIT_INVALID)
    if keep:
        print(f"record: {written[0]} (valid: syntax, schema, replay and result checked)")
    else:
        print("record: valid (syntax, schema, replay and result checked); not kept: --out DIR keeps it")


def register(app: typer.Typer) -> None:
    app.command(
        "match",
        context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    )(match)
    app.command("demo")(demo)
