"""Playing the cue sounds with pyglet.media, or silently when there is nothing to play them on.

Importing ``pyglet.media`` is what picks pyglet's audio driver (OpenAL, PulseAudio, XAudio2 or
DirectSound, else its silent driver), and that search can take most of a second. So nothing
here imports it at module level: :meth:`SoundPlayer.load` does, on a background thread (but on
Windows, whose drivers are COM objects), and decodes the little WAV files into memory there too.
Cues asked for before loading is done are dropped rather than making a frame wait.

Every failure on the way (no driver, a driver that breaks, an unreadable file, a device that
goes away mid-game) turns the player silent with one log line and no traceback: the game goes
on without sound.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SOUNDS = Path(__file__).resolve().parent / "sounds"
"""The shipped sounds, ``<cue>.wav`` (package data; ``tools/make_sounds.py`` makes them)."""

MAX_VOICES = 4
"""Sounds playing at once; a fifth stops the oldest (a fast bot game never piles them up)."""


class SoundPlayer:
    """Plays ``<cue>.wav`` from ``folder`` at a volume, through pyglet's audio driver.

    ``state`` is ``"idle"`` (nothing loaded yet), ``"loading"``, ``"ready"`` or ``"silent"``
    (``reason`` says why). ``driver`` names pyglet's driver once loaded: ``"silent"`` means
    pyglet found no audio device and plays into nothing, which is not an error.
    """

    def __init__(self, folder: Path = SOUNDS, *, background: bool = True) -> None:
        self.folder = folder
        self.background = background
        self.state = "idle"
        self.reason = ""
        self.driver = ""
        self._sources: dict[str, Any] = {}
        self._voices: list[tuple[float, Any]] = []  # (when it ends, pyglet Player)
        self._thread: threading.Thread | None = None

    # -- loading ----------------------------------------------------------------------------------

    def load(self) -> None:
        """Start loading (once); on a background thread unless ``background`` is False."""
        if self.state != "idle":
            return
        self.state = "loading"
        if not self.background:
            self._load()
            return
        self._thread = threading.Thread(target=self._load, name="pegboard-sound-load", daemon=True)
        self._thread.start()

    def wait(self, timeout: float = 30.0) -> bool:
        """Block until loading has finished (tests and benchmarks); True when it has."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self.state in ("ready", "silent")

    def _load(self) -> None:
        try:
            import pyglet.media

            driver = pyglet.media.get_audio_driver()  # type: ignore[no-untyped-call]  # untyped in pyglet
            if driver is None:
                self._go_silent("pyglet found no audio driver")
                return
            self.driver = _driver_name(driver)
            sources = {}
            for path in sorted(self.folder.glob("*.wav")):
                sources[path.stem] = pyglet.media.load(str(path), streaming=False)
        except Exception as exc:  # noqa: BLE001 - any driver or decoder failure means no sound, not a crash
            self._go_silent(f"{type(exc).__name__}: {exc}")
            return
        if not sources:
            self._go_silent(f"no sound files in {self.folder}")
            return
        self._sources = sources
        self.state = "ready"
        log.info("sound: %d cues through pyglet's %s driver", len(sources), self.driver)

    def _go_silent(self, reason: str) -> None:
        self.state = "silent"
        self.reason = reason
        log.warning("sound is off: %s", reason)

    # -- playing ------------------------------------------------------------------------------------

    def play(self, cue: str, volume: float) -> bool:
        """Start ``cue`` at ``volume`` (0 to 1); True when it went to the audio driver.

        Nothing plays while loading, when silent or for a cue without a file.
        """
        source = self._sources.get(cue) if self.state == "ready" else None
        if source is None:
            return False
        try:
            import pyglet.media

            self._make_room()
            player = pyglet.media.Player()
            player.volume = max(0.0, min(1.0, volume))
            player.queue(source)
            player.play()
        except Exception as exc:  # noqa: BLE001 - the device went away, the driver broke: go on silently
            self.close()
            self._go_silent(f"{type(exc).__name__}: {exc}")
            return False
        self._voices.append((time.monotonic() + (source.duration or 1.0) + 0.25, player))
        return True

    def voices(self) -> list[Any]:
        """The pyglet Players of the sounds that may still be playing, oldest first."""
        self._drop_finished()
        return [player for _end, player in self._voices]

    def _drop_finished(self) -> None:
        now = time.monotonic()
        for end, player in self._voices:
            if end <= now:
                player.delete()
        self._voices = [(end, player) for end, player in self._voices if end > now]

    def _make_room(self) -> None:
        self._drop_finished()
        while len(self._voices) >= MAX_VOICES:
            self._voices.pop(0)[1].delete()

    def close(self) -> None:
        """Stop and release every sound still playing."""
        voices, self._voices = self._voices, []
        for _end, player in voices:
            try:
                player.delete()
            except Exception:  # noqa: BLE001, S110 - releasing a player of a broken driver
                pass


def _driver_name(driver: Any) -> str:
    """pyglet's driver as a short name: its package (``openal``, ``pulse``, ``silent`` ...)."""
    parts = type(driver).__module__.split(".")
    return parts[3] if len(parts) > 3 and parts[:3] == ["pyglet", "media", "drivers"] else type(driver).__name__


_SHARED: SoundPlayer | None = None


def shared_player() -> SoundPlayer:
    """The process's one player of the shipped sounds (every window uses it: loaded once)."""
    global _SHARED
    if _SHARED is None:
        # Windows's drivers (XAudio2, DirectSound) are COM objects: make them on the window's thread
        # (the search there is quick); elsewhere the search for a library can take most of a second
        _SHARED = SoundPlayer(background=sys.platform != "win32")
    return _SHARED


__all__ = ["MAX_VOICES", "SOUNDS", "SoundPlayer", "shared_player"]
