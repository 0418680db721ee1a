"""Synthesise the window's sound cues into platform/pegboard/ui/sounds/<cue>.wav.

Every sound is made here from sine tones, pitch sweeps and seeded noise with the standard
library only (``math``, ``random``, ``struct``, ``wave``): no recordings, no downloads. The
files are 16-bit mono PCM at 22 050 Hz, a fraction of a second each, and ship as package data
(pyproject.toml's ``[tool.setuptools.package-data]``). Run it again after changing a recipe and
commit the files; ``--check`` reports files that differ from what the recipes make now
(tests/platform/test_sound_files.py runs it).

    python3 tools/make_sounds.py            # write the files
    python3 tools/make_sounds.py --check    # exit 1 when a file is missing or out of date
    python3 tools/make_sounds.py --out DIR  # write somewhere else
"""

from __future__ import annotations

import argparse
import math
import random
import struct
import sys
import wave
from collections.abc import Callable, Sequence
from pathlib import Path

RATE = 22050
PEAK = 0.8  # the loudest sample, as a fraction of full scale (headroom for the mixer)
TOLERANCE = 2  # --check allows this many steps per sample (libm may round a sine differently)
SOUNDS = Path(__file__).resolve().parents[1] / "platform" / "pegboard" / "ui" / "sounds"

Signal = list[float]


def silence(seconds: float) -> Signal:
    return [0.0] * int(seconds * RATE)


def tone(freq: float, seconds: float, *, end_freq: float | None = None, attack: float = 0.005,
         decay: float = 8.0, harmonics: Sequence[float] = (1.0,), vibrato: float = 0.0) -> Signal:
    """A tone from ``freq`` (sliding to ``end_freq``) with a short attack and an exponential decay
    (``decay`` per second); ``harmonics`` are the weights of the 1st, 2nd, ... partials."""
    n = int(seconds * RATE)
    end = freq if end_freq is None else end_freq
    out: Signal = []
    phase = 0.0
    for i in range(n):
        t = i / RATE
        f = freq + (end - freq) * (i / n) + vibrato * math.sin(2 * math.pi * 7.0 * t)
        phase += 2 * math.pi * f / RATE
        value = sum(w * math.sin(k * phase) for k, w in enumerate(harmonics, start=1))
        envelope = min(1.0, t / attack) * math.exp(-decay * t)
        out.append(value * envelope)
    return out


def noise(seconds: float, *, seed: int, decay: float = 10.0, smooth: float = 0.0) -> Signal:
    """Seeded white noise with an exponential decay; ``smooth`` (0..1) low-passes it (a rumble)."""
    rng = random.Random(seed)
    out: Signal = []
    last = 0.0
    for i in range(int(seconds * RATE)):
        last = smooth * last + (1.0 - smooth) * rng.uniform(-1.0, 1.0)
        out.append(last * math.exp(-decay * i / RATE))
    return out


def mix(*parts: tuple[float, float, Signal]) -> Signal:
    """Add signals, each ``(start seconds, gain, signal)``."""
    length = max(int(start * RATE) + len(sig) for start, _gain, sig in parts)
    out = [0.0] * length
    for start, gain, sig in parts:
        offset = int(start * RATE)
        for i, value in enumerate(sig):
            out[offset + i] += gain * value
    return out


def notes(freqs: Sequence[float], step: float, length: float, **kw: float) -> Signal:
    """A little arpeggio: each frequency ``step`` seconds after the last, ``length`` seconds long."""
    return mix(*((i * step, 1.0, tone(f, length, harmonics=(1.0, 0.3, 0.1), **kw)) for i, f in enumerate(freqs)))


# -- the recipes: one per cue of pegboard.ui.cues.CUES --------------------------------------------

def move() -> Signal:  # a soft wooden tock
    return mix((0, 1.0, tone(520, 0.09, end_freq=440, decay=45, harmonics=(1.0, 0.4))),
               (0, 0.25, noise(0.02, seed=1, decay=200)))


def line() -> Signal:  # a bright rising chime
    return notes((1046.5, 1318.5, 1568.0), 0.05, 0.2, decay=14)


def drone() -> Signal:  # a whirr that powers up
    return mix((0, 1.0, tone(220, 0.3, end_freq=660, decay=4, harmonics=(1.0, 0.5, 0.25), vibrato=12)),
               (0.22, 0.5, tone(880, 0.12, decay=20)))


def take() -> Signal:  # a thud with a crack
    return mix((0, 1.0, tone(160, 0.2, end_freq=90, decay=18, harmonics=(1.0, 0.3))),
               (0, 0.6, noise(0.06, seed=2, decay=60)))


def missile() -> Signal:  # a falling whoosh
    return mix((0, 0.7, tone(1400, 0.32, end_freq=300, decay=6, harmonics=(1.0, 0.2))),
               (0, 0.45, noise(0.32, seed=3, decay=6, smooth=0.6)))


def asteroid() -> Signal:  # a low rumble and a boom
    return mix((0, 1.0, noise(0.5, seed=4, decay=5, smooth=0.93)),
               (0, 0.7, tone(70, 0.5, end_freq=45, decay=5, harmonics=(1.0, 0.5))))


def cut() -> Signal:  # a sharp snap
    return mix((0, 0.8, tone(1800, 0.05, decay=60)),
               (0.02, 1.0, tone(900, 0.14, end_freq=420, decay=20, harmonics=(1.0, 0.3))))


def your_turn() -> Signal:  # a friendly two-note chime
    return notes((783.99, 1046.5), 0.12, 0.3, decay=9)


def clock_low() -> Signal:  # two quick ticks
    return mix((0, 1.0, tone(1000, 0.06, decay=50, harmonics=(1.0, 0.2))),
               (0.16, 1.0, tone(1000, 0.06, decay=50, harmonics=(1.0, 0.2))))


def win() -> Signal:  # a rising major arpeggio
    return notes((523.25, 659.25, 783.99, 1046.5), 0.1, 0.45, decay=5)


def loss() -> Signal:  # a falling minor line
    return notes((392.0, 311.13, 261.63), 0.16, 0.45, decay=5)


RECIPES: dict[str, Callable[[], Signal]] = {
    "move": move, "line": line, "drone": drone, "take": take, "missile": missile, "asteroid": asteroid,
    "cut": cut, "your_turn": your_turn, "clock_low": clock_low, "win": win, "loss": loss,
}


def samples(cue: str) -> list[int]:
    """The cue's 16-bit samples: the recipe normalised to ``PEAK`` and faded out at the end."""
    signal = RECIPES[cue]()
    loudest = max(abs(v) for v in signal) or 1.0
    fade = min(len(signal), int(0.01 * RATE))
    out = []
    for i, value in enumerate(signal):
        tail = min(1.0, (len(signal) - i) / fade)
        out.append(round(value / loudest * PEAK * tail * 32767))
    return out


def write(path: Path, data: Sequence[int]) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(struct.pack(f"<{len(data)}h", *data))


def read(path: Path) -> list[int]:
    """The samples of a file this script wrote (ValueError when it is not 16-bit mono at RATE)."""
    with wave.open(str(path), "rb") as w:
        if (w.getnchannels(), w.getsampwidth(), w.getframerate()) != (1, 2, RATE):
            raise ValueError(f"{path.name}: not 16-bit mono at {RATE} Hz")
        frames = w.readframes(w.getnframes())
    return list(struct.unpack(f"<{len(frames) // 2}h", frames))


def out_of_date(folder: Path) -> list[str]:
    """The cues whose file in ``folder`` is missing or differs from what its recipe makes now."""
    stale = []
    for cue in RECIPES:
        path = folder / f"{cue}.wav"
        try:
            shipped = read(path)
        except (OSError, EOFError, ValueError, wave.Error, struct.error):
            stale.append(cue)
            continue
        made = samples(cue)
        if len(made) != len(shipped) or any(abs(a - b) > TOLERANCE for a, b in zip(made, shipped, strict=True)):
            stale.append(cue)
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=SOUNDS, help="folder to write (default: the package's)")
    parser.add_argument("--check", action="store_true", help="only report files that are missing or out of date")
    args = parser.parse_args(argv)
    if args.check:
        stale = out_of_date(args.out)
        for cue in stale:
            print(f"{args.out / (cue + '.wav')}: missing or out of date (run tools/make_sounds.py)")
        return 1 if stale else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for cue in RECIPES:
        data = samples(cue)
        write(args.out / f"{cue}.wav", data)
        print(f"{cue}.wav  {len(data) / RATE:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
