"""A command line builds only the module of the command it names (``pegboard.cli.app``)."""

from __future__ import annotations

from typing import Any

import pytest
import typer

import pegboard.cli.app as app_module
from pegboard.cli.app import BUILTIN_COMMANDS, COMMAND_MODULES, command_from_argv, create_app
from pegboard.plugins.manager import Plugins


def _commands(app: typer.Typer) -> set[str]:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    return set(group.commands)


def test_the_table_names_every_builtin_command_and_its_module() -> None:
    registry = Plugins(load_entry_points=False)
    assert _commands(create_app(registry)) == set(BUILTIN_COMMANDS)
    assert set(BUILTIN_COMMANDS.values()) == set(COMMAND_MODULES)
    for name, module in BUILTIN_COMMANDS.items():
        siblings = {other for other, owner in BUILTIN_COMMANDS.items() if owner == module}
        assert _commands(create_app(registry, name)) == siblings, name


def test_an_unknown_command_builds_the_whole_tree() -> None:
    registry = Plugins(load_entry_points=False)
    assert _commands(create_app(registry, "hello")) == set(BUILTIN_COMMANDS)


def test_the_command_comes_after_plugin_options_only() -> None:
    assert command_from_argv(["validate", "a.json"]) == "validate"
    assert command_from_argv(["--plugin", "p.py", "--plugin=q.py", "games", "--json"]) == "games"
    assert command_from_argv(["--help", "validate"]) is None
    assert command_from_argv(["--version"]) is None
    assert command_from_argv([]) is None
    assert command_from_argv(["--plugin", "p.py"]) is None


@pytest.mark.parametrize(
    "argv",
    [("validate", "--help"), ("validate", "--bogus", "x.json"), ("validate",), ("games",), ("ruleset", "show"), ("legal", "--help")],
)
def test_a_subset_app_answers_as_the_whole_tree(cli: Any, monkeypatch: pytest.MonkeyPatch, argv: tuple[str, ...]) -> None:
    subset = cli(*argv)
    monkeypatch.setattr(app_module, "BUILTIN_COMMANDS", {})  # no command is known: the whole tree
    whole = cli(*argv)
    assert (subset.code, subset.out, subset.err) == (whole.code, whole.out, whole.err)
