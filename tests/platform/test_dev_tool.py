"""tools/dev.py: `run` installs only what the main job uses, `test` everything (the stamp remembers which)."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def dev(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ModuleType, list[list[str]]]:
    """tools/dev.py with its .venv in a temporary folder and pip calls recorded, not run."""
    spec = importlib.util.spec_from_file_location("pegboard_dev_tool", ROOT / "tools" / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")  # the environment exists: only the install step runs
    monkeypatch.setattr(module, "VENV", venv)
    monkeypatch.setattr(module, "STAMP", venv / ".pegboard-installed")
    calls: list[list[str]] = []

    def fake_run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        calls.append([str(part) for part in command])
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(module.subprocess, "run", fake_run)
    return module, calls


def installs(calls: list[list[str]]) -> list[str]:
    return [call[-1] for call in calls if "pip" in call]


def test_run_installs_the_project_without_the_test_extra(dev: tuple[ModuleType, list[list[str]]]) -> None:
    module, calls = dev
    module.ensure_environment(test=False)
    assert installs(calls) == [str(ROOT)]  # not ROOT[test]: no pytest, Ray, OpenSpiel or PettingZoo
    module.ensure_environment(test=False)
    assert len(installs(calls)) == 1  # current: nothing to install the second time


def test_test_installs_the_extra_once_and_run_then_keeps_it(dev: tuple[ModuleType, list[list[str]]]) -> None:
    module, calls = dev
    module.ensure_environment(test=False)
    module.ensure_environment(test=True)
    assert installs(calls) == [str(ROOT), f"{ROOT}[test]"]
    module.ensure_environment(test=False)
    module.ensure_environment(test=True)
    assert len(installs(calls)) == 2
    assert module.STAMP.read_text().split()[1] == "test"


def test_a_changed_pyproject_installs_again(dev: tuple[ModuleType, list[list[str]]], monkeypatch: pytest.MonkeyPatch) -> None:
    module, calls = dev
    module.ensure_environment(test=True)
    monkeypatch.setattr(module, "install_fingerprint", lambda: "changed")
    module.ensure_environment(test=False)
    assert installs(calls) == [f"{ROOT}[test]", str(ROOT)]
    assert module.STAMP.read_text() == "changed main"
