"""``play``: open the desktop window (pegboard.ui is imported only here, lazily)."""


from pathlib import Path
from typing import Annotated

import typer

from pegboard.cli.common import EXIT_USAGE, HUMAN, default_bot, error_line, parse_seat_args, plugins, seat_choice, skill_bot
from pegboard.errors import DisplayUnavailable, UnknownId, UsageProblem
from pegboard.online import DEFAULT_LOBBY


def _is_display_problem(exc: BaseException) -> bool:
    text = f"{type(exc).__name__} {exc}".lower()
    return any(word in text for word in ("display", "egl", "xlib", "glx", "opengl", "canvas", "no screens"))


def play(
    ctx: typer.Context,
    game: Annotated[str | None, typer.Argument(metavar="[GAME]", help="The game id; without it the window opens on the game chooser.")] = None,
    seat: Annotated[list[str] | None, typer.Option("--seat", metavar="NAME=WHO", help="human or a bot id for a seat (repeatable).")] = None,
    ruleset: Annotated[str | None, typer.Option("--ruleset", "-r", help="Ruleset id or .toml file.")] = None,
    skill: Annotated[int | None, typer.Option("--skill", metavar="S", help="Bot seats not given play the game's skill-S bot.")] = None,
    online: Annotated[str | None, typer.Option("--online", metavar="NAME", help="Play a friend online under this name (in the terminal).")] = None,
    lobby: Annotated[str, typer.Option("--lobby", metavar="URL", help="The lobby for --online, ws://HOST:PORT (or wss:// with TLS).")] = DEFAULT_LOBBY,
    code: Annotated[str | None, typer.Option("--code", metavar="ABCD", help="With --online: join the player who read you this code.")] = None,
    cafile: Annotated[Path | None, typer.Option("--cafile", metavar="FILE", help="With --online and a wss:// lobby: trust only the certificate authority in this PEM file.")] = None,
    seed: Annotated[int | None, typer.Option("--seed", metavar="N", help="Deal the first game from seed N (New game: N+1, ...); by default every game gets a fresh seed.")] = None,
) -> None:
    """Play in the window, or online. --online NAME plays a friend through a lobby.

    Without GAME the window opens on the game chooser (every installed game,
    the last one played selected). Choose who sits where with --<seat>
    human|BOT using the game's seat names, e.g. --red expert. By default the
    first seat is human and the others play the game's strongest bot (or,
    with --skill S, its skill-S bot). In the window M turns sound off and on;
    Settings sets its volume.
    """
    if seed is not None and seed < 0:
        raise UsageProblem("--seed must be 0 or more")
    if game is None:
        if online is not None or code is not None or cafile is not None:
            raise UsageProblem("--online needs the game: pegboard play GAME --online NAME")
        if ctx.args or seat or skill is not None or ruleset is not None:
            raise UsageProblem("seat, --skill and --ruleset options need the game: pegboard play GAME ...")
        raise typer.Exit(_open_window(None, None, [], seed))
    if online is not None:
        if ctx.args or seat or skill is not None or seed is not None:
            raise UsageProblem("--online plays one seat yourself: seat, --skill and --seed options do not apply (the host deals)")
        from pegboard.cli.online import play_online

        raise typer.Exit(play_online(game, online, lobby, code, ruleset, cafile))
    if code is not None or cafile is not None:
        raise UsageProblem("--code and --cafile need --online NAME")
    registry = plugins()
    spec = registry.game(game)
    chosen = parse_seat_args(spec.seats, ctx.args, seat or ())
    bot = default_bot(game) if skill is None else skill_bot(game, skill)
    seats = [seat_choice(game, chosen.get(i, HUMAN if i == 0 else bot)) for i in range(len(spec.seats))]
    name = ruleset or spec.default_ruleset
    from pegboard.rules.rulesets import load_ruleset

    load_ruleset(name, game=game, plugins=registry)  # a bad ruleset is an error here, not in the window
    raise typer.Exit(_open_window(game, name, seats, seed))


def _open_window(game: str | None, ruleset: str | None, seats: list[str], seed: int | None) -> int:
    """Run the window (the chooser when ``game`` is None) and return the exit code."""
    try:
        from pegboard import ui  # noqa: PLC0415 - lazy: the rest of the CLI never needs a display
    except ImportError as exc:
        error_line(f"the window is not available: {exc}")
        return EXIT_USAGE
    try:
        return int(ui.launch(game, ruleset, seats, seed=seed) or 0)
    except UnknownId:
        raise
    except Exception as exc:  # noqa: BLE001
        if isinstance(exc, DisplayUnavailable) or _is_display_problem(exc):
            what = str(exc) if "cannot open a window" in str(exc) else f"cannot open a window: {type(exc).__name__}: {exc}"
            error_line(f"{what} (no display? try pegboard demo)")
            return EXIT_USAGE
        raise


def register(app: typer.Typer) -> None:
    app.command("play", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(play)
