"""``pegboard profile``: show the local profile; ``profile reset`` and ``profile name``."""


import json
from typing import Annotated, Any

import typer

from pegboard.cli.common import EXIT_INVALID, new_table, print_table
from pegboard.ratings import elo as ratings

profile_app = typer.Typer(
    name="profile",
    help="The local player profile. Rating, rated games and settings (in $PEGBOARD_HOME or the user data folder).",
    invoke_without_command=True,
)


def _when(date: str) -> str:
    return date.replace("T", " ")[:16]


def _result(score: float) -> str:
    return {1.0: "win", 0.5: "draw", 0.0: "loss"}.get(score, f"{score:g}")


def _show(data: dict[str, Any]) -> None:
    print(f"{data['name']}: rating {data['rating']:.0f}, {data['games']} rated game{'s' if data['games'] != 1 else ''}")
    print(f"profile: {data['path']}")
    pending = data["pending"]
    if pending:
        print(f"under way: {pending['game']} against {pending['opponent']} since {_when(pending['started'])}"
              " (starting another rated game records it as a loss)")
    if not data["history"]:
        print("no rated games yet")
        return
    table = new_table("Rated games, newest first")
    for column in ("date", "game", "opponent", "skill", "result", "before", "after", "change"):
        table.add_column(column)
    for row in data["history"]:
        change = row["rating_after"] - row["rating_before"]
        result = _result(row["result"]) + (" (abandoned)" if row["reason"] == "abandoned" else "")
        table.add_row(
            _when(row["date"]), row["game"], row["opponent"], "" if row["skill"] is None else str(row["skill"]),
            result, f"{row['rating_before']:.0f}", f"{row['rating_after']:.0f}", f"{change:+.1f}",
        )
    print_table(table)


@profile_app.callback()
def profile_show(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print the profile as JSON.")] = False,
) -> None:
    """Show the player's name, rating and rated games."""
    if ctx.invoked_subcommand is not None:
        return
    from pegboard.ratings import profile as store

    with store.open_profile() as prof:
        data = prof.summary()
    if as_json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        _show(data)


@profile_app.command("reset")
def profile_reset(
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask (for scripts).")] = False,
) -> None:
    """Start again at the first rating. Forgets the rated games; the name and settings stay."""
    from pegboard.ratings import profile as store

    with store.open_profile() as prof:
        games, rating = prof.games, prof.rating
        if not yes:
            question = f"Reset {prof.name}'s rating {rating:.0f} to {ratings.START_RATING:.0f} and forget {games} rated game(s)?"
            try:
                agreed = typer.confirm(question)
            except typer.Abort:  # no answer (stdin closed): do nothing
                print()
                agreed = False
            if not agreed:
                print("cancelled: the profile is unchanged")
                raise typer.Exit(EXIT_INVALID)
        prof.reset()
    print(f"profile reset: rating {ratings.START_RATING:.0f}, no rated games")


@profile_app.command("name")
def profile_name(name: Annotated[str, typer.Argument(metavar="NAME", help="The player's new name.")]) -> None:
    """Set the player's name."""
    from pegboard.ratings import profile as store

    with store.open_profile() as prof:
        prof.set_name(name)
        print(f"name set to {prof.name}")


def register(app: typer.Typer) -> None:
    app.add_typer(profile_app, name="profile")
