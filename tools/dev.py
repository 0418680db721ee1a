#!/usr/bin/env python3
"""Set up a local virtual environment (once) and run Pegboard or its tests.

    python3 tools/dev.py run     # the main job: open the window, or a headless demo match
    python3 tools/dev.py test    # the whole test suite (extra arguments go to pytest)

Needs only Python >= 3.11 with pip. The environment lives in .venv/ at the
top of the repository and is reinstalled only when pyproject.toml changes.
`run` installs Pegboard and its dependencies only; `test` also installs the
test extra (pytest, mypy, ruff and the OpenSpiel, PettingZoo and Ray packages).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
STAMP = VENV / ".pegboard-installed"


def venv_python() -> Path:
    scripts = "Scripts" if os.name == "nt" else "bin"
    return VENV / scripts / ("python.exe" if os.name == "nt" else "python")


def install_fingerprint() -> str:
    digest = hashlib.sha256()
    for name in ("pyproject.toml", "setup.py"):
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def ensure_environment(test: bool) -> Path:
    """Create .venv and install what the command needs, unless already current.

    ``run`` needs Pegboard and its dependencies only; ``test`` adds the test extra (pytest,
    mypy, ruff and the optional OpenSpiel, PettingZoo and Ray adapters' packages). The stamp
    file remembers which was installed for which pyproject.toml, so ``run`` after ``test``
    installs nothing and ``test`` after ``run`` adds the extra.
    """
    if sys.version_info < (3, 11):  # noqa: UP036 - this script may be started by an older python3
        sys.exit(f"error: Pegboard needs Python 3.11 or newer (this is {sys.version.split()[0]})")
    python = venv_python()
    if not python.exists():
        print("setting up .venv (first run only) ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    fingerprint = install_fingerprint()
    installed = STAMP.read_text().split() if STAMP.exists() else []
    if len(installed) == 1:  # a stamp from before `run` installed less: that install had the test extra
        installed.append("test")
    current = installed[:1] == [fingerprint]
    if not current or (test and "test" not in installed):
        what = "with the test extra " if test else ""
        print(f"installing pegboard and its dependencies {what}into .venv ...", flush=True)
        pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
        subprocess.run([*pip, "-e", f"{ROOT}[test]" if test else str(ROOT)], check=True)
        kept_test = test or (current and "test" in installed)
        STAMP.write_text(f"{fingerprint} {'test' if kept_test else 'main'}")
    return python


def has_display() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("run", "test"):
        print(__doc__.strip())
        return 2
    command, rest = argv[0], argv[1:]
    try:
        python = ensure_environment(test=command == "test")
    except subprocess.CalledProcessError as exc:
        print(f"error: setting up .venv failed ({exc})", file=sys.stderr)
        return 1
    pegboard = [str(python), "-m", "pegboard"]
    if command == "test":
        env = dict(os.environ, PYGLET_HEADLESS=os.environ.get("PYGLET_HEADLESS", "1"))
        return subprocess.run([str(python), "-m", "pytest", *rest], cwd=ROOT, env=env).returncode
    if has_display() and not rest:
        return subprocess.run([*pegboard, "play"], cwd=ROOT).returncode  # the game chooser
    return subprocess.run([*pegboard, "demo", "nodewar", *rest], cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
