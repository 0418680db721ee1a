"""``pegboard tournament``: a round robin between bots, with Elo estimates and SPRT stops."""


import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pegboard.cli.common import AddressOption, ExecutorOption, executor_for, local_plugin_files, new_table, plugins, print_table, progress_bar
from pegboard.cli.matches import record_name
from pegboard.errors import UsageProblem

if TYPE_CHECKING:
    from pegboard.batch.runner import GameOutcome
    from pegboard.batch.tournament import TournamentReport


def _sprt(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    parts = text.split(",")
    try:
        elo0, elo1 = (float(p) for p in parts)
    except ValueError:
        raise UsageProblem(f"--sprt expects ELO0,ELO1 (e.g. 0,10), got {text!r}") from None
    if not elo0 < elo1:
        raise UsageProblem(f"--sprt needs ELO0 < ELO1, got {text!r}")
    return elo0, elo1


def tournament(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game id (see pegboard games).")],
    bots: Annotated[list[str], typer.Argument(metavar="BOT BOT...", help="Two or more bot ids (pegboard games lists them).")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games per pair (the most, with --sprt).")] = 2,
    seed: Annotated[int, typer.Option(help="The tournament seed; every pair's and game's seeds derive from it.")] = 0,
    ruleset: Annotated[str | None, typer.Option("--ruleset", "-r", help="Ruleset id or .toml file.")] = None,
    budget: Annotated[float | None, typer.Option(min=0.0, help="Seconds per move for every bot (default: each bot's own).")] = None,
    max_plies: Annotated[int, typer.Option(min=1, help="Stop a game after this many moves (unfinished).")] = 20_000,
    sprt: Annotated[str | None, typer.Option(metavar="ELO0,ELO1", help="Stop each head-to-head when an SPRT of ELO0 against ELO1 decides.")] = None,
    alpha: Annotated[float, typer.Option(min=0.001, max=0.499, help="SPRT false-positive rate.")] = 0.05,
    beta: Annotated[float, typer.Option(min=0.001, max=0.499, help="SPRT false-negative rate.")] = 0.05,
    out_dir: Annotated[Path | None, typer.Option("--out", "-o", metavar="DIR", help="Write each pair's records to DIR/<bot>-vs-<bot>/.")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, help="Worker processes (default: min(2, CPUs)).")] = None,
    executor: ExecutorOption = "local",
    address: AddressOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the standings and pairs as JSON.")] = False,
    plot: Annotated[Path | None, typer.Option("--plot", metavar="FILE", help="Draw the Elo table with its 95 % error bars into FILE (.png or .svg; needs pegboard[plot]).")] = None,
) -> None:
    """Play a round robin between bots and print Elo estimates with 95 % error bars.

    Every pair plays --games games, colours alternating. With --sprt ELO0,ELO1 a pair
    stops as soon as a sequential probability ratio test accepts H0 (the first bot is
    ELO0 stronger) or H1 (ELO1 stronger). --plot FILE draws the Elo table. See docs/cli.md
    for the rating method.
    """
    # Imported here, not at module level: every `pegboard` start-up imports this module.
    from pegboard.batch.tournament import TournamentPlan, run_tournament
    from pegboard.records.files import write_record

    registry = plugins()
    spec = registry.game(game)
    if len(bots) < 2:
        raise UsageProblem("a tournament needs at least two bots")
    if plot is not None:
        from pegboard.support.plotting import check_target

        check_target(plot)  # before the games: a missing extra costs nothing
    plan = TournamentPlan(
        game=game,
        bots=tuple(bots),
        ruleset=ruleset or spec.default_ruleset,
        games=games,
        seed=seed,
        budget=budget,
        max_plies=max_plies,
        plugin_files=tuple(local_plugin_files()),
        sprt=_sprt(sprt),
        alpha=alpha,
        beta=beta,
    )
    runner = executor_for(executor, jobs, address)
    if out_dir is not None:
        if out_dir.exists() and not out_dir.is_dir():
            raise UsageProblem(f"--out must be a folder ({out_dir})")
    pairs = plan.pairs()
    written: list[Path] = []
    with progress_bar(f"{game}: tournament", len(pairs) * games) as advance:

        def finished(pair_index: int, outcome: "GameOutcome") -> None:
            if out_dir is not None:
                a, b = pairs[pair_index]
                folder = out_dir / f"{plan.bots[a]}-vs-{plan.bots[b]}".replace("/", "_")
                folder.mkdir(parents=True, exist_ok=True)
                written.append(write_record(outcome.record, folder / record_name(outcome.index)))
            advance()

        report = run_tournament(plan, executor=runner, plugins=registry, progress=finished)
    if plot is not None:
        from pegboard.ratings.plot import draw_elo

        draw_elo(report.standings, f"{spec.name} ({plan.ruleset}) round robin, seed {plan.seed}", plot)
    if as_json:
        print(json.dumps(_summary(report, written), indent=2))
        return
    _print(report, spec.name)
    if written:
        print(f"records: {len(written)} in {out_dir}")
    if plot is not None:
        print(f"wrote {plot}")


def _summary(report: "TournamentReport", written: list[Path]) -> dict[str, object]:
    bots = report.plan.bots
    return {
        "game": report.plan.game,
        "ruleset": report.plan.ruleset,
        "seed": report.plan.seed,
        "standings": [
            {"bot": s.bot, "games": s.games, "score": s.score, "elo": round(s.elo, 1), "error95": round(s.error, 1)}
            for s in report.standings
        ],
        "pairs": [
            {
                "bots": [bots[p.a], bots[p.b]],
                "wins": p.wins,
                "draws": p.draws,
                "losses": p.losses,
                "unfinished": p.unfinished,
                **({"sprt": p.sprt, "llr": round(p.llr, 3)} if p.sprt is not None else {}),
            }
            for p in report.pairs
        ],
        "records": len(written),
    }


def _print(report: "TournamentReport", game_name: str) -> None:
    plan = report.plan
    table = new_table(f"{game_name} ({plan.ruleset}) round robin, seed {plan.seed}")
    table.add_column("rank", justify="right")
    table.add_column("bot")
    for column in ("Elo", "± 95%", "games", "score", "score %"):
        table.add_column(column, justify="right")
    for rank, row in enumerate(report.standings, 1):
        share = 100.0 * row.score / row.games if row.games else 0.0
        table.add_row(str(rank), row.bot, f"{row.elo:+.0f}", f"{row.error:.0f}", str(row.games), f"{row.score:g}", f"{share:.1f}")
    table.caption = "Elo: maximum likelihood, mean 0 (one virtual draw per pair); ± is the 95 % interval"
    print_table(table)
    pairs = new_table("head to head (wins-draws-losses of the first bot)")
    pairs.add_column("pair")
    pairs.add_column("W-D-L", justify="right")
    if plan.sprt is not None:
        pairs.add_column(f"SPRT [{plan.sprt[0]:g}, {plan.sprt[1]:g}]")
        pairs.add_column("LLR", justify="right")
    for pair in report.pairs:
        cells = [f"{plan.bots[pair.a]} vs {plan.bots[pair.b]}", f"{pair.wins}-{pair.draws}-{pair.losses}" + (f" (+{pair.unfinished} unfinished)" if pair.unfinished else "")]
        if plan.sprt is not None:
            verdict = {"H1": f"H1 accepted (>= {plan.sprt[1]:g})", "H0": f"H0 accepted (<= {plan.sprt[0]:g})"}.get(str(pair.sprt), "undecided")
            cells += [verdict, f"{pair.llr:.2f}"]
        pairs.add_row(*cells)
    print_table(pairs)


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament)
