"""Values a process would otherwise recompute, kept between processes the way Python keeps ``.pyc`` files.

A fresh ``pegboard validate`` spends much of its start-up on work whose result depends
only on our own code and data: compiling the Python that :mod:`pegboard.records.fastschema`
writes for a schema, and the per-board-size tables a game engine builds. This module
keeps such results in the user's cache folder:

- ``$PEGBOARD_CACHE_DIR`` when set (the test suite points it at a temporary folder),
- else ``$XDG_CACHE_HOME/pegboard``, else ``~/.cache/pegboard`` (every platform).

Each file holds a *stamp* next to the value: the interpreter's bytecode magic number and
whatever the value was computed from (the generated source, the builder's source code and
the board size). A file is used only when its stamp equals the caller's, so an edited
schema or builder or another Python never reuses one. Anything wrong (no home folder, a
read-only or missing folder, a corrupt, truncated or foreign file) costs only the
computation: a bad file is rewritten, an unwritable folder is left alone. Deleting the
folder is always safe. Values must be :mod:`marshal`-able (code, numbers, strings, bytes
and tuples, lists, sets, frozensets and dicts of them).
"""

from __future__ import annotations

import marshal
import os
import zlib
from collections.abc import Callable, Iterable
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any, TypeVar

T = TypeVar("T")


def cache_dir() -> Path:
    """The folder cached values go to: ``$PEGBOARD_CACHE_DIR``, else ``$XDG_CACHE_HOME/pegboard``
    (``~/.cache/pegboard``)."""
    override = os.environ.get("PEGBOARD_CACHE_DIR")
    if override:
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "pegboard"
    home = Path.home()
    if not home.is_absolute():  # no home folder known ("~" left as it is): not the current folder either
        raise RuntimeError("no home folder for a cache")
    return home / ".cache" / "pegboard"


def cached(name: str, stamp: Any, build: Callable[[], T]) -> T:
    """``build()``, or the value an earlier process stored under ``name`` with an equal ``stamp``.

    ``stamp`` (marshal-able) must hold everything the value depends on; the file is named
    ``name`` plus a checksum of it, so values of other stamps live side by side.
    """
    stamp = (MAGIC_NUMBER, stamp)
    try:
        blob = marshal.dumps(stamp)
        path = cache_dir() / f"{name}-{zlib.crc32(blob):08x}.bin"
    except (OSError, RuntimeError, ValueError):  # no home folder, or a stamp marshal cannot write
        return build()
    found = _read(path, stamp)
    if found is not None:
        return found[0]  # type: ignore[no-any-return]
    value = build()
    _write(path, stamp, value)
    return value


def cached_by_code(modules: Iterable[ModuleType], name: str, key: Any, build: Callable[[], T]) -> T:
    """:func:`cached` for a value computed by the code of ``modules`` from ``key`` (a board size, say):
    the stamp is their source and ``key``. Modules without a readable source file mean no caching."""
    stamp = source_stamp(modules)
    return build() if stamp is None else cached(name, (stamp, key), build)


def compile_cached(source: str, filename: str) -> CodeType:
    """``compile(source, filename, "exec")``, read from the cache when an earlier process compiled it."""
    return cached("code", (source, filename), lambda: compile(source, filename, "exec"))


def source_stamp(modules: Iterable[ModuleType]) -> tuple[bytes, ...] | None:
    """The source code of ``modules``, for the stamp of a value they compute (None when a
    module has no readable source file: such a value is not cached)."""
    sources = []
    try:
        for module in modules:
            if not module.__file__:
                return None
            sources.append(Path(module.__file__).read_bytes())
    except (OSError, AttributeError):  # no file, or no __file__ at all (a built-in module)
        return None
    return tuple(sources)


def _read(path: Path, stamp: Any) -> tuple[Any] | None:
    try:
        with open(path, "rb") as handle:
            kept, value = marshal.loads(handle.read())
    except (OSError, EOFError, ValueError, TypeError):  # missing, unreadable or not ours
        return None
    return (value,) if kept == stamp else None


def _write(path: Path, stamp: Any, value: Any) -> None:
    """Write through a temporary file, so a process never reads a half-written one."""
    temp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        data = marshal.dumps((stamp, value))
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temp, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except (OSError, ValueError):  # a read-only or full disk, or a value marshal cannot write
        try:
            os.unlink(temp)
        except OSError:
            pass
