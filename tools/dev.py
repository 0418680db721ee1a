#!/usr/bin/env python3
"""Set up a local virtual environment (once) and run Pegboard or its tests.

    python3 tools/dev.py run     # the main job: open the window, or a headless demo match
    python3 tools/dev.py test    # the whole test suite (extra arguments go to pytest)

Needs only Python >= 3.11 with pip. The environment lives in .venv/ at the
top of the repository and is reinstalled only when pyproject.toml changes.
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


def ensure_environment() -> Path:
    """Create .venv and install the project with its test extra, unless already current."""
    if sys.version_info < (3, 11):  # noqa: UP036 - this script may be started by an older python3
        sys.exit(f"error: Pegboard needs Python 3.11 or newer (this is {sys.version.split()[0]})")
    python = venv_python()
    if not python.exists():
        print("setting up .venv (first run only) ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    fingerprint = install_fingerprint()
    if not STAMP.exists() or STAMP.read_text() != fingerprint:
        print("installing pegboard and its dependencies into .venv ...", flush=True)
        pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
        subprocess.run([*pip, "-e", f"{ROOT}[test]"], check=True)
        STAMP.write_text(fingerprint)
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
        python = ensure_environment()
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
