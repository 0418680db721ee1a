"""What is installed: ``games``, ``plugins``, ``rulesets``, ``ruleset show|check``, ``schema``."""


import json
from pathlib import Path
from typing import Annotated, Any

import typer

from pegboard.cli.common import EXIT_INVALID, error_line, new_table, plugins, print_table
from pegboard.errors import UsageProblem
from pegboard.game import PegboardError

ruleset_app = typer.Typer(name="ruleset", help="Show or check one ruleset.", no_args_is_help=True)


def games(as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False) -> None:
    """List the installed games."""
    from pegboard.rules.rulesets import list_rulesets

    registry = plugins()
    rows: list[dict[str, Any]] = []
    for game_id, spec in sorted(registry.games().items()):
        rows.append(
            {
                "id": game_id,
                "name": spec.name,
                "seats": list(spec.seats),
                "default_ruleset": spec.default_ruleset,
                "rulesets": [r.id for r in list_rulesets(game_id, registry)],
                "bots": list(registry.bots(game_id)),
            }
        )
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    table = new_table("Games")
    for column in ("id", "name", "seats", "rulesets", "bots"):
        table.add_column(column)
    for row in rows:
        table.add_row(row["id"], row["name"], ", ".join(row["seats"]), ", ".join(row["rulesets"]), ", ".join(row["bots"]))
    print_table(table)
    if not rows:
        print("no games are installed")


def plugins_command(as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False) -> None:
    """List the loaded plugins. Each with its version, where it came from and the hooks it implements."""
    rows = plugins().info()
    if as_json:
        print(json.dumps([{"name": r.name, "version": r.version, "source": r.source, "hooks": list(r.hooks)} for r in rows], indent=2))
        return
    table = new_table("Plugins")
    for column in ("name", "version", "hooks", "source"):
        table.add_column(column)
    for row in rows:
        table.add_row(row.name, row.version, ", ".join(row.hooks), row.source)
    print_table(table)


def rulesets(
    game: Annotated[str | None, typer.Argument(metavar="GAME", help="Only this game's rulesets.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the shipped rulesets. They come from every plugin's ruleset folders."""
    from pegboard.rules.rulesets import list_rulesets, load_ruleset

    registry = plugins()
    if game is not None:
        registry.game(game)
    rows: list[dict[str, Any]] = []
    for ref in list_rulesets(game, registry):
        row: dict[str, Any] = {"ref": ref.ref, "game": ref.game, "id": ref.id, "file": str(ref.path)}
        try:
            ruleset = load_ruleset(ref.path, game=ref.game, plugins=registry)
            row.update(name=ruleset.name, description=str(ruleset.data.get("description", "")), mods=list(ruleset.mods))
        except PegboardError as exc:
            row["error"] = str(exc)
        rows.append(row)
    if as_json:
        print(json.dumps(rows, indent=2))
    else:
        table = new_table("Rulesets")
        for column in ("ruleset", "name", "description", "mods", "file"):
            table.add_column(column)
        for row in rows:
            name = f"(broken: {row['error']})" if "error" in row else row["name"]
            table.add_row(row["ref"], name, row.get("description", ""), ", ".join(row.get("mods", [])), row["file"])
        print_table(table)
    if any("error" in row for row in rows):
        raise typer.Exit(EXIT_INVALID)


@ruleset_app.command("show")
def ruleset_show(
    ref: Annotated[str, typer.Argument(metavar="ID|FILE", help='"<game>/<id>" or a path to a .toml file.')],
    game: Annotated[str | None, typer.Option(help="The game, when ID is a bare ruleset id.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the resolved ruleset as JSON.")] = False,
) -> None:
    """Print a ruleset with `extends` resolved. As TOML, or JSON with --json."""
    from pegboard.rules.rulesets import dumps_toml, load_ruleset

    ruleset = load_ruleset(ref, game=game, plugins=plugins())
    if as_json:
        print(json.dumps(dict(ruleset.data), indent=2, ensure_ascii=False))
        return
    print(f"# {ruleset.ref}: resolved from {ruleset.source}")
    print(f"# digest sha256:{ruleset.digest}")
    print(dumps_toml(ruleset.data), end="")


@ruleset_app.command("check")
def ruleset_check(
    files: Annotated[list[str], typer.Argument(metavar="FILE|ID...", help="Ruleset files (or ids) to check.")],
) -> None:
    """Load, resolve and check rulesets. Builds each game too; exit 1 if any is invalid."""
    from pegboard.rules.rulesets import build_game, load_ruleset

    bad = 0
    for item in files:
        try:
            ruleset = load_ruleset(item, plugins=plugins())
        except PegboardError as exc:
            bad += 1
            error_line(str(exc))
            continue
        try:
            build_game(ruleset, plugins())  # the engine may refuse values the schema allows
        except PegboardError as exc:
            bad += 1
            error_line(f"{exc} ({item})")
            continue
        mods = f", mods: {', '.join(ruleset.mods)}" if ruleset.mods else ""
        print(f"ok: {item}: {ruleset.ref} ({ruleset.name}{mods}) sha256:{ruleset.digest[:16]}")
    if bad:
        raise typer.Exit(EXIT_INVALID)


def schema(name: Annotated[str, typer.Argument(metavar="NAME", help='"match", or "<game>/<kind>" with kind ruleset, move or position.')]) -> None:
    """Print a JSON Schema (Draft 2020-12)."""
    from pegboard.records.schemas import core_schema_path, game_schema_path, load_schema, schema_names

    registry = plugins()
    known = schema_names((game_id, Path(spec.schema_dir)) for game_id, spec in sorted(registry.games().items()))
    if name not in known:
        raise UsageProblem(f"unknown schema {name!r} (known: {', '.join(known)})")
    if name == "match":
        path = core_schema_path("match")
    else:
        game_id, _, kind = name.partition("/")
        path = game_schema_path(registry.game(game_id).schema_dir, kind)
    print(json.dumps(load_schema(path), indent=2, ensure_ascii=False))


def register(app: typer.Typer) -> None:
    app.command("games")(games)
    app.command("plugins")(plugins_command)
    app.command("rulesets")(rulesets)
    app.add_typer(ruleset_app, name="ruleset")
    app.command("schema")(schema)
