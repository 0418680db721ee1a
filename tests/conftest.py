"""Fixtures shared by every test folder.

The platform tests use a tiny test-only Nim game (tests/platform/toygame.py)
registered on a private plugin manager, so they never depend on which real
games are installed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import toygame  # tests/platform is on pytest's pythonpath (pyproject.toml)
from pegboard.plugins import Plugins, set_plugins

TESTS = Path(__file__).resolve().parent
TOYGAME_FILE = TESTS / "platform" / "toygame.py"

# Test modules must not import from conftest (several conftest.py files exist):
# shared helpers live in tests/platform/toygame.py.


@pytest.fixture(autouse=True)
def private_profile_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own empty PEGBOARD_HOME, so none touches the user's profile."""
    home = tmp_path_factory.mktemp("pegboard_home")
    monkeypatch.setenv("PEGBOARD_HOME", str(home))
    return home


@pytest.fixture(scope="session")
def _code_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pegboard_cache")


@pytest.fixture(autouse=True)
def private_code_cache(_code_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """One PEGBOARD_CACHE_DIR for the whole run, so no test writes to the user's cache folder."""
    monkeypatch.setenv("PEGBOARD_CACHE_DIR", str(_code_cache))
    return _code_cache


@pytest.fixture
def toy_plugins() -> Iterator[Plugins]:
    """The toy plugin manager, also installed as the process-wide one for the test."""
    plugins = toygame.make_plugins()
    set_plugins(plugins)
    yield plugins
    set_plugins(None)


@dataclass
class CliResult:
    code: int
    out: str
    err: str

    @property
    def err_lines(self) -> list[str]:
        return [line for line in self.err.splitlines() if line.strip()]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., CliResult]:
    """Run ``pegboard ARGS`` in-process with only the toy game loaded; returns code, stdout, stderr."""
    from pegboard.cli.app import run

    monkeypatch.setenv("PEGBOARD_PLUGINS", str(TOYGAME_FILE))
    monkeypatch.setenv("COLUMNS", "200")

    def invoke(*args: str, entry_points: bool = False) -> CliResult:
        capsys.readouterr()
        code = run([str(a) for a in args], load_entry_points=entry_points)
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return invoke
