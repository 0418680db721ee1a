"""``play``: open the desktop window (pegboard.ui is imported only here, lazily)."""


from typing import Annotated

import typer

from pegboard.cli.common import EXIT_USAGE, HUMAN, default_bot, error_line, parse_seat_args, plugins, skill_bot
from pegboard.errors import DisplayUnavailable, UnknownId, UsageProblem
from pegboard.online import DEFAULT_LOBBY


def _is_display_problem(exc: BaseException) -> bool:
    text = f"{type(exc).__name__} {exc}".lower()
    return any(word in text for word in ("display", "egl", "xlib", "glx", "opengl", "canvas", "no screens"))


def play(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game id.")],
    seat: Annotated[list[str] | None, typer.Option("--seat", metavar="NAME=WHO", help="human or a bot id for a seat (repeatable).")] = None,
    ruleset: Annotated[str | None, typer.Option("--ruleset", "-r", help="Ruleset id or .toml file.")] = None,
    skill: Annotated[int | None, typer.Option("--skill", metavar="S", help="Bot seats not given play the game's skill-S bot.")] = None,
    online: Annotated[str | None, typer.Option("--online", metavar="NAME", help="Play a friend online under this name (in the terminal).")] = None,
    lobby: Annotated[str, typer.Option("--lobby", metavar="URL", help="The lobby for --online, ws://HOST:PORT.")] = DEFAULT_LOBBY,
    code: Annotated[str | None, typer.Option("--code", metavar="ABCD", help="With --online: join the player who read you this code.")] = None,
) -> None:
    """Play in the desktop window, or online against a friend with --online NAME.

    Choose who sits where with --<seat> human|BOT using the game's seat names,
    e.g. --red expert. By default seat 1 is human and the others play the
    game's strongest bot (or, with --skill S, its skill-S bot). In the window
    M turns sound off and on; Settings sets its volume.
    """
    if online is not None:
        if ctx.args or seat or skill is not None:
            raise UsageProblem("--online plays one seat yourself: seat and --skill options do not apply")
        from pegboard.cli.online import play_online

        raise typer.Exit(play_online(game, online, lobby, code, ruleset))
    if code is not None:
        raise UsageProblem("--code needs --online NAME")
    registry = plugins()
    spec = registry.game(game)
    chosen = parse_seat_args(spec.seats, ctx.args, seat or ())
    bot = default_bot(game) if skill is None else skill_bot(game, skill)
    seats = [chosen.get(i, HUMAN if i == 0 else bot) for i in range(len(spec.seats))]
    for who in seats:
        if who != HUMAN:
            registry.bot(game, who)
    name = ruleset or spec.default_ruleset
    from pegboard.rules.rulesets import load_ruleset

    load_ruleset(name, game=game, plugins=registry)  # a bad ruleset is an error here, not in the window
    try:
        from pegboard import ui  # noqa: PLC0415 - lazy: the rest of the CLI never needs a display
    except ImportError as exc:
        error_line(f"the window is not available: {exc}")
        raise typer.Exit(EXIT_USAGE) from None
    try:
        exit_code = ui.launch(game, name, seats)
    except UnknownId:
        raise
    except Exception as exc:  # noqa: BLE001
        if isinstance(exc, DisplayUnavailable) or _is_display_problem(exc):
            what = str(exc) if "cannot open a window" in str(exc) else f"cannot open a window: {type(exc).__name__}: {exc}"
            error_line(f"{what} (no display? try pegboard demo)")
            raise typer.Exit(EXIT_USAGE) from None
        raise
    raise typer.Exit(int(exit_code or 0))


def register(app: typer.Typer) -> None:
    app.command("play", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(play)
