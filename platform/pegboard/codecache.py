"""Compiled generated code kept between processes, the way Python keeps ``.pyc`` files.

:mod:`pegboard.fastschema` writes a few hundred lines of Python per schema; compiling
them is most of what a fresh ``pegboard validate`` pays for its fast schema check.
:func:`compile_cached` keeps each compiled code object in the user's cache folder:

- ``$PEGBOARD_CACHE_DIR`` when set (the test suite points it at a temporary folder),
- else ``$XDG_CACHE_HOME/pegboard``, else ``~/.cache/pegboard`` (every platform).

A file is named by a checksum of the source and holds the interpreter's bytecode magic
number and the whole source next to the code: it is used only when both are equal, so an
edited schema or another Python version never reuses it. Anything wrong (no home folder,
a read-only or missing folder, a corrupt, truncated or foreign file) costs only a compile:
a bad file is rewritten, an unwritable folder is left alone. Deleting the folder is always
safe.
"""

from __future__ import annotations

import marshal
import os
import zlib
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType


def cache_dir() -> Path:
    """The folder cached code goes to: ``$PEGBOARD_CACHE_DIR``, else ``$XDG_CACHE_HOME/pegboard``
    (``~/.cache/pegboard``)."""
    override = os.environ.get("PEGBOARD_CACHE_DIR")
    if override:
        return Path(override).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pegboard"


def compile_cached(source: str, filename: str) -> CodeType:
    """``compile(source, filename, "exec")``, read from the cache when an earlier process compiled it."""
    try:
        path = cache_dir() / f"code-{zlib.crc32(source.encode()):08x}-{len(source)}.bin"
    except (OSError, RuntimeError):  # no home folder to put a cache in
        return compile(source, filename, "exec")
    code = _read(path, source, filename)
    if code is None:
        code = compile(source, filename, "exec")
        _write(path, source, filename, code)
    return code


def _read(path: Path, source: str, filename: str) -> CodeType | None:
    try:
        with open(path, "rb") as handle:
            magic, kept_source, kept_name, code = marshal.loads(handle.read())
    except (OSError, EOFError, ValueError, TypeError):  # missing, unreadable or not ours
        return None
    if magic != MAGIC_NUMBER or kept_source != source or kept_name != filename or type(code) is not CodeType:
        return None
    return code


def _write(path: Path, source: str, filename: str, code: CodeType) -> None:
    """Write through a temporary file, so a process never reads a half-written one."""
    temp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temp, "wb") as handle:
            handle.write(marshal.dumps((MAGIC_NUMBER, source, filename, code)))
        os.replace(temp, path)
    except OSError:  # a read-only or full disk: the next process compiles again
        try:
            os.unlink(temp)
        except OSError:
            pass
