"""The shell's typeface: Inter (SIL Open Font License, the licence is ``fonts/OFL.txt``).

Shipping the font makes the window look the same on every machine instead of taking
whatever sans font the system offers. :func:`register` hands the files to pyglet once;
every label the shell and the built-in games draw names :data:`pegboard.ui.theme.FONT_NAME`.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

FONT_DIR = Path(__file__).resolve().with_name("fonts")
FONT_FILES = ("Inter-Regular.otf", "Inter-Bold.otf")

_registered: bool | None = None


def register() -> bool:
    """Make the shipped font files known to pyglet (once); False when they cannot be read, in
    which case pyglet falls back to the system's sans font and the reason is logged."""
    global _registered
    if _registered is None:
        import pyglet

        try:
            for name in FONT_FILES:
                pyglet.font.add_file(str(FONT_DIR / name))
            _registered = True
        except Exception as exc:  # noqa: BLE001 - a missing or broken file must not stop the window
            log.warning("the shipped font could not be loaded (%s); using the system's sans font", exc)
            _registered = False
    return _registered


def has_glyph(character: str, bold: bool = False) -> bool:
    """True when the shipped font draws ``character`` itself (no fallback box)."""
    import pyglet

    from pegboard.ui import theme

    register()
    font: Any = pyglet.font.load(theme.FONT_NAME, theme.FONT_SIZE, weight="bold" if bold else "normal", dpi=96)
    return bool(font.face.get_character_index(character))  # FreeType fonts (Linux) have a face


__all__ = ["FONT_DIR", "FONT_FILES", "has_glyph", "register"]
