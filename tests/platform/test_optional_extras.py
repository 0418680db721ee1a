"""Pegboard without its optional extras (OpenSpiel, PettingZoo, Ray): the tests still collect, and
the commands that need an extra say which one, with the usage exit code."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXTRAS = ("numpy", "pyspiel", "open_spiel", "pettingzoo", "gymnasium", "ray")

# Run Python as if the extras were not installed: a None in sys.modules makes `import name` fail.
WITHOUT_EXTRAS = f"import sys\nfor name in {EXTRAS!r}:\n    sys.modules[name] = None\n"


def run_without_extras(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", WITHOUT_EXTRAS + code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYGLET_HEADLESS": "1"})


def test_the_interop_tests_skip_without_the_extras_instead_of_failing_to_collect() -> None:
    done = run_without_extras("import pytest\nsys.exit(pytest.main(['-q', '--collect-only', '-p', 'no:cacheprovider', 'tests/interop']))")
    assert done.returncode == 0, done.stdout[-2000:]
    assert "error" not in done.stdout.lower()
    assert done.stdout.count("extra is not installed") == 3  # openspiel, pettingzoo, ray: skipped, each saying why
