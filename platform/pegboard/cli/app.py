"""The root ``pegboard`` command: global options, command groups, plugin commands, error handling.

``main()`` reads the global ``--plugin FILE`` options before the command line is
parsed, so plugins can add commands through the ``pegboard_commands`` hook.
Every error a user can cause ends as one ``error: ...`` line on stderr with
exit code 1 (invalid input) or 2 (usage); there are no tracebacks unless
``PEGBOARD_DEBUG=1``.
"""


import gc
import importlib
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

try:  # typer >= 0.20 vendors click
    from typer._click.exceptions import ClickException, UsageError
except ImportError:  # pragma: no cover - older typer on top of click
    from click.exceptions import ClickException, UsageError  # type: ignore[no-redef,import-not-found,assignment,unused-ignore]  # click is there when an extra (ray) brings it

from pegboard.cli.common import EXIT_INVALID, EXIT_USAGE, error_line, exit_code_for, warning_line
from pegboard.game import PegboardError
from pegboard.plugins.manager import Plugins, env_plugin_files, set_plugins
from pegboard.version import __version__

HELP = """Pegboard: turn-based board games as plugins.

Exit codes: 0 ok, 1 invalid input found, 2 usage error."""


def _root(
    plugin: Annotated[
        list[Path] | None,
        typer.Option("--plugin", metavar="FILE", help="Load a plugin from a .py file or a package folder (repeatable; also PEGBOARD_PLUGINS)."),
    ] = None,
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    # --plugin was already read by main() before parsing (see plugin_files_from_argv)
    if version:
        print(f"pegboard {__version__}")
        raise typer.Exit(0)


#: The modules of pegboard.cli that register the built-in commands, in ``--help`` order.
COMMAND_MODULES = ("info", "matches", "tournament", "files", "analysis", "review", "play", "profiles", "online", "new")

#: Which of :data:`COMMAND_MODULES` registers each built-in command (or command group).
BUILTIN_COMMANDS = {
    "games": "info", "plugins": "info", "rulesets": "info", "schema": "info", "ruleset": "info",
    "match": "matches", "demo": "matches", "tournament": "tournament", "validate": "files", "convert": "files",
    "position": "analysis", "legal": "analysis", "eval": "analysis", "hint": "analysis", "bench": "analysis",
    "analyse": "review",
    "play": "play", "profile": "profiles", "lobby": "online", "online-bot": "online",
    "new": "new",
}


def create_app(registry: Plugins, command: str | None = None) -> typer.Typer:
    """A fresh root app with the built-in commands and the commands plugins add.

    With ``command``, the name of a built-in command, only the module that registers it
    is imported and registered: a command line runs one command, and building the
    others' tree would cost every process ~15 ms (their imports and typer's conversion).
    """
    app = typer.Typer(
        name="pegboard",
        help=HELP,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )
    app.callback(invoke_without_command=True)(_root)
    owner = BUILTIN_COMMANDS.get(command) if command is not None else None
    for name in COMMAND_MODULES if owner is None else (owner,):
        importlib.import_module(f"{__package__}.{name}").register(app)
    registry.extend_cli(app)
    return app


def plugin_files_from_argv(argv: Sequence[str]) -> list[str]:
    """The ``--plugin`` values given before the command name."""
    return _global_options(argv)[0]


def command_from_argv(argv: Sequence[str]) -> str | None:
    """The command a command line names, when only ``--plugin`` options come before it
    (None for ``--help``, ``--version`` or no command: those need the whole tree)."""
    return _global_options(argv)[1]


def _global_options(argv: Sequence[str]) -> tuple[list[str], str | None]:
    found: list[str] = []
    position = 0
    plain = True  # only --plugin options so far
    while position < len(argv) and argv[position].startswith("-"):
        token = argv[position]
        if token == "--plugin":
            if position + 1 >= len(argv):
                raise UsageError("--plugin needs a FILE")
            found.append(argv[position + 1])
            position += 2
            continue
        if token.startswith("--plugin="):
            found.append(token.split("=", 1)[1])
        else:
            plain = False
        position += 1
    return found, argv[position] if plain and position < len(argv) else None


def _show_warning(message: Any, category: Any, filename: str, lineno: int, file: Any = None, line: Any = None) -> None:
    warning_line(str(message).splitlines()[0] if str(message) else category.__name__)


def run(argv: Sequence[str], *, load_entry_points: bool = True) -> int:
    """Run one command line and return its exit code.

    Tests call this with ``load_entry_points=False`` to see only the plugins they name.
    """
    argv = list(argv)
    debug = os.environ.get("PEGBOARD_DEBUG") == "1"
    try:
        with warnings.catch_warnings():  # restores showwarning on the way out
            warnings.showwarning = _show_warning
            registry = Plugins(
                load_entry_points=load_entry_points, plugin_files=[*env_plugin_files(), *plugin_files_from_argv(argv)]
            )
            set_plugins(registry)
            command = typer.main.get_command(create_app(registry, command_from_argv(argv)))
            result = command.main(args=argv, prog_name="pegboard", standalone_mode=False)
        return result if isinstance(result, int) else 0
    except typer.Exit as exc:
        return exc.exit_code
    except (typer.Abort, KeyboardInterrupt):
        error_line("interrupted")
        return EXIT_INVALID
    except UsageError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # `pegboard` or `pegboard ruleset` alone: the help
            print(exc.format_message(), file=sys.stderr)
            return EXIT_USAGE
        command_path = exc.ctx.command_path if exc.ctx is not None else "pegboard"
        error_line(f"{exc.format_message()} (try '{command_path} --help')")
        return EXIT_USAGE
    except ClickException as exc:
        error_line(exc.format_message())
        return exc.exit_code
    except PegboardError as exc:
        if debug:
            raise
        error_line(str(exc))
        return exit_code_for(exc)
    except OSError as exc:
        if debug:
            raise
        where = f" ({exc.filename})" if exc.filename else ""
        error_line(f"{exc.strerror or exc}{where}")
        return EXIT_INVALID
    except Exception as exc:  # noqa: BLE001 - a bug (often in a plugin): one line, not a traceback
        if debug:
            raise
        error_line(f"unexpected {type(exc).__name__}: {exc} (set PEGBOARD_DEBUG=1 for the traceback)")
        return EXIT_INVALID
    finally:
        set_plugins(None)


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point (``pegboard``)."""
    _tune_gc()
    code = run(sys.argv[1:] if argv is None else argv)
    # The process ends here: the teardown frees most objects by reference counting and the
    # OS takes back the rest. Letting the collector scan them all for cycles first (twice,
    # with every table a long command built) costs ~5 ms of every command for nothing.
    gc.freeze()
    sys.exit(code)


def _tune_gc() -> None:
    """Collect cycles less often in a command-line process (10-15 % of a long ``validate`` or ``match``).

    The modules, classes and command tree imported so far live as long as the process:
    ``gc.freeze`` takes them out of every later collection. A replay or a bot match
    allocates many short-lived lists and tuples that reference counting frees, and with
    the default threshold (700) the collector ran thousands of times for little.
    Only the console script does this; ``run`` (what tests call) leaves the collector alone.
    """
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
