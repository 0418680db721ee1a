"""Reading user files as text, with the failures a person can act on (missing, folder, binary)."""

from __future__ import annotations

from pathlib import Path

from pegboard.errors import UnreadableFile


def _position(raw: bytes, offset: int) -> tuple[int, int]:
    line = raw[:offset].count(b"\n") + 1
    return line, offset - (raw.rfind(b"\n", 0, offset) + 1) + 1


def read_utf8(path: Path) -> str:
    """The whole file as text; raises :class:`UnreadableFile` for a missing file, a folder or binary data."""
    if not path.exists():
        raise UnreadableFile("file not found")
    if path.is_dir():
        raise UnreadableFile("is a directory, not a file")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UnreadableFile(f"cannot read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFile("not UTF-8 text (a binary file?)", *_position(raw, exc.start)) from None
    if "\x00" in text:
        raise UnreadableFile("contains NUL bytes (a binary file?)", *_position(raw, raw.index(b"\x00")))
    return text
