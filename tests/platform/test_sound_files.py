"""The shipped sound files: one per cue, small, made by tools/make_sounds.py, and in the wheel."""

from __future__ import annotations

import shutil
import subprocess
import sys
import wave
import zipfile
from pathlib import Path

from pegboard.ui import cues
from pegboard.ui.sound import SOUNDS
from support.starfall_helpers import load_tool

ROOT = Path(__file__).resolve().parents[2]


def test_every_cue_has_a_short_file_that_the_script_makes():
    make_sounds = load_tool("make_sounds")
    assert set(make_sounds.RECIPES) == set(cues.CUES)
    assert {p.stem for p in SOUNDS.glob("*.wav")} == set(cues.CUES)
    assert make_sounds.out_of_date(SOUNDS) == [], "run tools/make_sounds.py and commit the files"
    for path in SOUNDS.glob("*.wav"):
        with wave.open(str(path)) as w:
            assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, make_sounds.RATE)
            assert 0.05 < w.getnframes() / w.getframerate() < 1.0, path.name
    assert sum(p.stat().st_size for p in SOUNDS.glob("*.wav")) < 300_000


def test_the_check_finds_a_file_that_differs_from_its_recipe(tmp_path):
    make_sounds = load_tool("make_sounds")
    assert make_sounds.main(["--out", str(tmp_path)]) == 0
    assert make_sounds.main(["--out", str(tmp_path), "--check"]) == 0
    quiet = [v // 2 for v in make_sounds.read(tmp_path / "win.wav")]
    make_sounds.write(tmp_path / "win.wav", quiet)
    (tmp_path / "cut.wav").unlink()
    assert make_sounds.out_of_date(tmp_path) == ["cut", "win"]
    assert make_sounds.main(["--out", str(tmp_path), "--check"]) == 1


def test_a_built_wheel_carries_the_sounds(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    junk = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "examples")
    for name in ("platform", "plugins", "rulesets", "schemas"):
        shutil.copytree(ROOT / name, source / name, ignore=junk)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "--disable-pip-version-check", "-q", "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("pegboard-*.whl")
    with zipfile.ZipFile(wheel) as z:
        for cue in cues.CUES:
            assert z.read(f"pegboard/ui/sounds/{cue}.wav") == (SOUNDS / f"{cue}.wav").read_bytes()
