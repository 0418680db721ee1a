"""Finding entry points of one group without importing :mod:`importlib.metadata`.

Every ``pegboard`` command starts by loading the plugins that installed
distributions declare in the ``pegboard`` entry-point group. Importing
``importlib.metadata`` (it pulls in ``email``, ``zipfile``, ``csv`` and more)
and building its distribution objects costs about as much as the rest of a
``pegboard --help``, so this module does the same search directly: it lists
each ``sys.path`` folder once, and for every ``*.dist-info`` / ``*.egg-info``
folder there reads ``entry_points.txt``. The rules follow
``importlib.metadata.entry_points``: ``sys.path`` order (``""`` is the current
folder), the first distribution of a (normalised) name wins, and a value
``module:attr.attr`` loads by importing the module and walking the attributes.

A ``sys.path`` entry that is a file (a zip archive) is beyond this scanner:
then the search falls back to ``importlib.metadata``, whose answer is the same.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

_SUFFIXES = (".dist-info", ".egg-info")
_NORMALISE = re.compile(r"[-_.]+")


class EntryPoint:
    """One entry point: ``name = value`` in ``group`` of a distribution at ``version``."""

    __slots__ = ("name", "value", "group", "version")

    def __init__(self, name: str, value: str, group: str, version: str = "?") -> None:
        self.name = name
        self.value = value
        self.group = group
        self.version = version

    def load(self) -> Any:
        """Import the module the value names and return it, or the attribute after ``:``."""
        import importlib

        module_name, _, attrs = self.value.partition(":")
        target: Any = importlib.import_module(module_name.strip())
        for attr in attrs.split("[", 1)[0].strip().split("."):
            if attr:
                target = getattr(target, attr)
        return target

    def __repr__(self) -> str:
        return f"EntryPoint(name={self.name!r}, value={self.value!r}, group={self.group!r}, version={self.version!r})"


def entry_points(group: str) -> list[EntryPoint]:
    """Every entry point of ``group`` declared by the distributions on ``sys.path``."""
    found: list[EntryPoint] = []
    seen: set[str] = set()
    header = f"[{group}]"
    for entry in sys.path:
        folder = entry or "."
        try:
            names = os.listdir(folder)
        except NotADirectoryError:
            return _from_importlib(group)  # a zip archive on the path
        except OSError:
            continue  # a missing folder, as importlib.metadata skips it
        for name in names:
            lowered = name.lower()
            if not lowered.endswith(_SUFFIXES):
                continue
            stem = name[: name.rfind(".")]
            dist_name, _, version = stem.partition("-")
            key = _NORMALISE.sub("_", dist_name).lower()
            if key in seen:
                continue
            seen.add(key)
            path = os.path.join(folder, name)
            try:
                with open(os.path.join(path, "entry_points.txt"), encoding="utf-8") as handle:
                    text = handle.read()
            except (OSError, UnicodeDecodeError):
                continue
            if header not in text:
                continue
            for ep_name, value in _section(text, group):
                found.append(EntryPoint(ep_name, value, group, version.partition("-")[0] or _version_of(path)))
    return found


def _section(text: str, group: str) -> list[tuple[str, str]]:
    """The ``name = value`` lines of ``[group]`` in an entry_points.txt."""
    pairs: list[tuple[str, str]] = []
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == group
            continue
        if inside and "=" in line:
            name, _, value = line.partition("=")
            pairs.append((name.strip(), value.strip()))
    return pairs


def _version_of(path: str) -> str:
    """The ``Version:`` line of a distribution's METADATA or PKG-INFO (egg-info folders)."""
    for meta in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(path, meta), encoding="utf-8") as handle:
                for line in handle:
                    if line.startswith("Version:"):
                        return line.partition(":")[2].strip()
                    if not line.strip():
                        break  # the headers end at the first blank line
        except (OSError, UnicodeDecodeError):
            continue
    return "?"


def _from_importlib(group: str) -> list[EntryPoint]:
    import importlib.metadata

    found = []
    for ep in importlib.metadata.entry_points(group=group):
        dist = ep.dist
        found.append(EntryPoint(ep.name, ep.value, group, dist.version if dist is not None else "?"))
    return found
