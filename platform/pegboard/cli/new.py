"""The game author's kit on the command line: ``new game``, ``new bot``, ``new rulemod``."""


from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pegboard.cli.common import plugins

if TYPE_CHECKING:  # the kit is imported only when a command runs
    from pegboard.kit.writer import Written

new_app = typer.Typer(name="new", help="Write a new game, bot or rule mod.", no_args_is_help=True)


def _report(written: "Written", next_steps: list[str]) -> None:
    print(f"wrote {len(written.files)} file(s) in {written.folder}:")
    for path in written.files:
        print(f"  {path}")
    print("next:")
    for step in next_steps:
        print(f"  {step}")


def game(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The game id: a lowercase Python identifier (the package is pegboard_NAME).")],
    folder: Annotated[Path | None, typer.Option("--dir", metavar="DIR", help="Where to write it: a missing or empty folder (default: ./NAME).")] = None,
) -> None:
    """Write a new game distribution. A playable take-away game with rulesets, schemas, a bot, an evaluator, a board view and tests, ready for pip install -e."""
    from pegboard.kit.writer import new_game

    target = folder if folder is not None else Path(name)
    written = new_game(name, target, taken=plugins().games())
    _report(written, [f"pip install -e {target}", f"pytest {target}", f"pegboard match {name} --games 10", f"pegboard play {name}"])


def bot(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="The game the bot plays (see pegboard games).")],
    name: Annotated[str, typer.Argument(metavar="NAME", help="The bot id and file name: a lowercase Python identifier.")],
    folder: Annotated[Path, typer.Option("--dir", metavar="DIR", help="Where to write NAME.py (default: here).")] = Path("."),
) -> None:
    """Write a one-file bot plugin. NAME.py, with a bot for GAME that looks one move ahead."""
    from pegboard.kit.writer import new_bot

    registry = plugins()
    spec = registry.game(game_id)
    written = new_bot(spec, name, folder, taken=registry.bots(game_id))
    plugin = written.files[0]
    seat = spec.seats[0].lower()
    _report(written, [f"pegboard --plugin {plugin} match {game_id} --{seat} {name} --games 10"])


def rulemod(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="The game the mod changes (see pegboard games).")],
    name: Annotated[str, typer.Argument(metavar="NAME", help="The mod id and file name: a lowercase Python identifier.")],
    folder: Annotated[Path, typer.Option("--dir", metavar="DIR", help="Where to write NAME.py and NAME.toml (default: here).")] = Path("."),
) -> None:
    """Write a rule mod plugin and its ruleset. NAME.py, a one-file rule mod for GAME, and NAME.toml, a ruleset that turns it on."""
    from pegboard.kit.writer import new_rulemod

    registry = plugins()
    spec = registry.game(game_id)
    written = new_rulemod(spec, name, folder, taken=registry.rule_mods(game_id))
    plugin, ruleset = written.files
    _report(written, [f"pegboard --plugin {plugin} match {game_id} --ruleset {ruleset} --games 4"])


def register(app: typer.Typer) -> None:
    new_app.command("game")(game)
    new_app.command("bot")(bot)
    new_app.command("rulemod")(rulemod)
    app.add_typer(new_app, name="new")
