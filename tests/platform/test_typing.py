"""The platform and the built-in games type-check under ``mypy --strict`` (pyproject.toml's [tool.mypy]).

Run as part of the suite so the promise keeps holding as code is added. mypy keeps its
cache in .mypy_cache, so after the first run this takes a few seconds.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_platform_and_the_games_pass_mypy_strict() -> None:
    pytest.importorskip("mypy", reason="mypy comes with the test extra: pip install -e '.[test]'")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-color-output", "--no-error-summary"],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, f"mypy --strict found problems:\n{done.stdout}{done.stderr}"
