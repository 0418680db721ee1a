"""The example game package (plugins/examples/connect4) as a separate distribution.

It is installed the way a user installs a third-party game: pip builds it from
its own pyproject.toml into a private folder (``--target``; no index, no build
isolation, so it works offline), and a fresh interpreter with that folder on
its path finds the game only through the ``pegboard`` entry point. The
package's own tests (the one-line conformance run included) then run against
that installed copy.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "plugins" / "examples" / "connect4"


def run(args: list[str], cwd: Path, site: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PEGBOARD_PLUGINS", "PYTHONPATH")}
    env["PYTHONPATH"] = str(site)
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_main_distribution_does_not_include_the_example() -> None:
    pegboard = importlib.metadata.distribution("pegboard")
    assert "connect4" not in {ep.name for ep in pegboard.entry_points}
    assert "pegboard" not in importlib.metadata.packages_distributions().get("pegboard_connect4", [])
    if importlib.util.find_spec("pegboard_connect4") is None:  # unless someone installed the example on purpose
        assert "connect4" not in {ep.name for ep in importlib.metadata.entry_points(group="pegboard")}


def test_installed_as_its_own_distribution_it_passes_its_tests_and_conformance(tmp_path: Path) -> None:
    source = tmp_path / "connect4"  # a copy: building writes build/ and *.egg-info next to the sources
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    site = tmp_path / "site"
    pip = [
        "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
        "--disable-pip-version-check", "-q", "--target", str(site), str(source),
    ]  # fmt: skip
    installed = run(pip, tmp_path, site)
    assert installed.returncode == 0, installed.stderr[-2000:]
    assert (site / "pegboard_connect4" / "schemas" / "move.schema.json").is_file(), "schemas ship in the wheel"
    assert (site / "pegboard_connect4" / "rulesets" / "standard.toml").is_file(), "rulesets ship in the wheel"
    shutil.rmtree(source / "pegboard_connect4")  # only the installed copy is left to import

    where = run(["-c", "import pegboard_connect4; print(pegboard_connect4.__file__)"], tmp_path, site)
    assert Path(where.stdout.strip()).is_relative_to(site), where.stdout + where.stderr

    games = run(["-m", "pegboard", "games"], tmp_path, site)
    assert games.returncode == 0, games.stderr
    assert "connect4" in games.stdout and "Connect Four" in games.stdout

    tests = run(["-m", "pytest", "-q", "-p", "no:cacheprovider", str(source / "tests")], tmp_path, site)
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-2000:]
    assert " passed" in tests.stdout and "failed" not in tests.stdout
