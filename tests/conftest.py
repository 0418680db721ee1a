"""Fixtures shared by every test folder.

The platform tests use a tiny test-only Nim game (tests/platform/toygame.py)
registered on a private plugin manager, so they never depend on which real
games are installed.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pegboard.plugins.manager import Plugins, set_plugins
from support import toygame  # tests/platform is on pytest's pythonpath (pyproject.toml)

# No test makes a sound: pyglet plays into its silent driver (read when pyglet.media is imported).
os.environ.setdefault("PYGLET_AUDIO", "silent")

TESTS = Path(__file__).resolve().parent
TOYGAME_FILE = TESTS / "support" / "toygame.py"

# Test modules must not import from conftest (several conftest.py files exist):
# shared helpers live in tests/platform/toygame.py.


@pytest.fixture(autouse=True)
def private_profile_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own empty PEGBOARD_HOME, so none touches the user's profile."""
    home = tmp_path_factory.mktemp("pegboard_home")
    monkeypatch.setenv("PEGBOARD_HOME", str(home))
    return home


def pytest_configure(config: pytest.Config) -> None:
    """One fresh PEGBOARD_CACHE_DIR for the whole run, set before any fixture of any scope runs (and
    inherited by the processes tests start), so no test writes to the user's cache folder."""
    folder = tempfile.mkdtemp(prefix="pegboard_cache_")
    os.environ["PEGBOARD_CACHE_DIR"] = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


@pytest.fixture
def private_code_cache() -> Path:
    """The run's cache folder (see pytest_configure)."""
    return Path(os.environ["PEGBOARD_CACHE_DIR"])


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
