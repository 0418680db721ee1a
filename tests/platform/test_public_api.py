"""The public/internal line: game plugins import only Pegboard's public flat modules.

The public modules are listed in docs/architecture.md; everything in a subpackage of
``pegboard`` (``pegboard.match``, ``pegboard.records`` ...) is internal.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "plugins"

PUBLIC = {
    "pegboard",
    "pegboard.game",
    "pegboard.specs",
    "pegboard.toolspecs",
    "pegboard.hookspecs",
    "pegboard.errors",
    "pegboard.scripting",
    "pegboard.testing",
    "pegboard.view",
    "pegboard.diskcache",
}


def pegboard_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) for every ``pegboard`` module a source imports, ``from pegboard import x`` as ``pegboard.x``
    when ``x`` is a module of the package."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names if alias.name.split(".")[0] == "pegboard"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.split(".")[0] == "pegboard":
            found.append((node.lineno, node.module))
            if node.module == "pegboard":
                package = ROOT / "platform" / "pegboard"
                found += [(node.lineno, f"pegboard.{a.name}") for a in node.names
                          if (package / a.name).is_dir() or (package / f"{a.name}.py").is_file()]
    return found


def internal_imports(source: str) -> list[str]:
    return [f"line {line}: {module}" for line, module in pegboard_imports(source) if module not in PUBLIC]


def test_the_checker_catches_every_spelling_of_an_internal_import() -> None:
    source = (
        "import pegboard.match.session\n"
        "from pegboard.rules.rulesets import load_ruleset\n"
        "from pegboard import ui, game, hookimpl\n"
        "def f():\n    from pegboard.records import files\n"
        "from pegboard.view import Rect\nfrom pegboard.scripting import load_game\nfrom . import rules\n"
    )
    assert internal_imports(source) == [
        "line 1: pegboard.match.session", "line 2: pegboard.rules.rulesets", "line 3: pegboard.ui", "line 5: pegboard.records",
    ]


def test_game_plugins_import_only_public_modules() -> None:
    files = sorted(path for path in PLUGINS.rglob("*.py") if "__pycache__" not in path.parts)
    assert len(files) >= 60  # the two games, the examples and Connect Four: the walk found them
    offenders = [f"{path.relative_to(ROOT)} {where}" for path in files for where in internal_imports(path.read_text(encoding="utf-8"))]
    assert offenders == [], "plugins import internal modules (use the public ones, see docs/architecture.md):\n" + "\n".join(offenders)


def test_every_public_module_and_name_imports() -> None:
    import pegboard.scripting
    import pegboard.view

    for module in sorted(PUBLIC):
        importlib.import_module(module)
    for package in (pegboard.scripting, pegboard.view, importlib.import_module("pegboard")):
        names = package.__all__
        assert len(names) >= 10
        for name in names:
            assert getattr(package, name) is not None, f"{package.__name__}.{name}"


def test_the_public_helpers_are_the_internal_ones() -> None:
    """Re-exports, not copies: one implementation per concern."""
    import pegboard
    import pegboard.scripting as scripting
    import pegboard.view as view
    from pegboard.records.files import record_from_moves
    from pegboard.rules import rulesets
    from pegboard.ui.board import BoardViewBase

    assert pegboard.load_game is scripting.load_game is rulesets.load_game
    assert scripting.load_ruleset is rulesets.load_ruleset and scripting.record_from_moves is record_from_moves
    assert view.BoardViewBase is BoardViewBase


def test_importing_the_public_modules_leaves_the_heavy_ones_alone() -> None:
    """``import pegboard.view`` does not import pyglet, ``import pegboard.scripting`` neither the
    match runner nor the records: both are imported on first use."""
    code = (
        "import sys, pegboard, pegboard.view, pegboard.scripting\n"
        "heavy = [m for m in ('pyglet', 'pegboard.batch.runner', 'pegboard.records.validate', 'pegboard.ratings.profile') if m in sys.modules]\n"
        "print(heavy)\n"
        "pegboard.view.Rect\n"
        "print('pegboard.ui.rect' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == ["[]", "True"]


@pytest.mark.parametrize("module", ["pegboard.view", "pegboard.scripting"])
def test_an_unknown_name_is_an_attribute_error(module: str) -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        assert importlib.import_module(module).nope is None
