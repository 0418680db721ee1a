"""Render the kit's templates into new files: a game distribution, a one-file bot, a rule mod.

Each ``*.tmpl`` file under ``templates/<kind>/`` becomes one file (the suffix
dropped; a folder named ``package`` becomes the game's package). Fields are
``%%{name}``; :class:`KitTemplate` raises on an unknown one, so a template and
its fields cannot drift apart unnoticed.
"""

from __future__ import annotations

import importlib.util
import keyword
import re
import string
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from pegboard.errors import UsageProblem
from pegboard.specs import GameSpec
from pegboard.version import __version__

SUFFIX = ".tmpl"
PACKAGE_FOLDER = "package"
_NAME = re.compile(r"[a-z][a-z0-9_]*")


class KitTemplate(string.Template):
    """``string.Template`` with ``%%`` as the delimiter: ``$`` is common in JSON Schemas."""

    delimiter = "%%"


@dataclass(frozen=True)
class Written:
    """What one ``pegboard new`` command wrote: the folder and the files, in writing order."""

    folder: Path
    files: tuple[Path, ...]


def check_name(name: str, what: str) -> None:
    """Refuse a name that is not a lowercase Python identifier (it becomes a module and an id)."""
    if not _NAME.fullmatch(name) or keyword.iskeyword(name):
        raise UsageProblem(f"{what} name {name!r} must be a lowercase Python identifier (a-z, 0-9, _; a letter first), e.g. mygame")


def title_of(name: str) -> str:
    """``"my_game"`` -> ``"My Game"``: the human name the templates start with."""
    return " ".join(part.capitalize() for part in name.split("_") if part)


def class_prefix(name: str) -> str:
    """``"my_game"`` -> ``"MyGame"``: the prefix of the generated class names."""
    return "".join(part.capitalize() for part in name.split("_"))


def _templates(kind: str) -> Traversable:
    return files("pegboard.kit").joinpath("templates", kind)


def _walk(folder: Traversable, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Traversable]]:
    found: list[tuple[tuple[str, ...], Traversable]] = []
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if entry.is_dir():
            found += _walk(entry, (*prefix, entry.name))
        elif entry.name.endswith(SUFFIX):
            found.append(((*prefix, entry.name[: -len(SUFFIX)]), entry))
    return found


def render(text: str, fields: Mapping[str, str]) -> str:
    """One template's text with its fields filled in (KeyError for a field not given)."""
    return KitTemplate(text).substitute(fields)


def _write(target: Path, text: str) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("x", encoding="utf-8", newline="\n") as handle:  # "x": never overwrite
        handle.write(text)
    return target


def _empty_or_missing(folder: Path) -> None:
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UsageProblem(f"{folder} already exists and is not an empty folder; choose another --dir")


def new_game(name: str, folder: Path, *, taken: Collection[str] = ()) -> Written:
    """Write a game distribution for ``name`` into ``folder`` (missing or empty).

    ``taken`` holds the game ids already installed; ``name`` may not be one of them.
    """
    check_name(name, "game")
    if name in taken:
        raise UsageProblem(f"a game with id {name!r} is already installed; choose another name")
    package = f"pegboard_{name}"
    if importlib.util.find_spec(package) is not None:  # the new game's package would hide it, or be hidden
        raise UsageProblem(f"a package named {package} is already installed; choose another name")
    _empty_or_missing(folder)
    fields = {
        "name": name,
        "package": package,
        "dist": f"pegboard-{name.replace('_', '-')}",
        "title": title_of(name),
        "cls": class_prefix(name),
        "pegboard_version": __version__,
    }
    written = []
    for parts, template in _walk(_templates("game")):
        relative = Path(*(package if part == PACKAGE_FOLDER and index == 0 else part for index, part in enumerate(parts)))
        written.append(_write(folder / relative, render(template.read_text(encoding="utf-8"), fields)))
    return Written(folder, tuple(written))


def _one_file_fields(spec: GameSpec, name: str) -> dict[str, str]:
    return {
        "game": spec.id,
        "game_name": spec.name,
        "name": name,
        "title": title_of(name),
        "cls": class_prefix(name),
        "seat0": spec.seats[0].lower() if spec.seats else "seat",
        "base": spec.default_ruleset,
    }


def _write_one_file(kind: str, spec: GameSpec, name: str, folder: Path, taken: Collection[str]) -> Written:
    check_name(name, kind)
    if name in taken:
        raise UsageProblem(f"{spec.id} already has a {kind} with id {name!r}; choose another name")
    if folder.exists() and not folder.is_dir():
        raise UsageProblem(f"{folder} is not a folder")
    templates = _walk(_templates(kind))
    targets = [folder / f"{name}{Path(parts[-1]).suffix}" for parts, _ in templates]
    for target in targets:
        if target.exists():
            raise UsageProblem(f"{target} already exists; choose another name or --dir")
    fields = _one_file_fields(spec, name)
    written = [_write(target, render(template.read_text(encoding="utf-8"), fields)) for target, (_, template) in zip(targets, templates, strict=True)]
    return Written(folder, tuple(written))


def new_bot(spec: GameSpec, name: str, folder: Path, *, taken: Collection[str] = ()) -> Written:
    """Write ``<name>.py``, a one-file plugin with a bot for the game of ``spec``.

    ``taken`` holds the bot ids the game already has.
    """
    return _write_one_file("bot", spec, name, folder, taken)


def new_rulemod(spec: GameSpec, name: str, folder: Path, *, taken: Collection[str] = ()) -> Written:
    """Write ``<name>.py`` (a one-file plugin with a rule mod for the game of ``spec``) and
    ``<name>.toml`` (a ruleset that extends the game's default one and turns the mod on).

    ``taken`` holds the rule mod ids the game already has.
    """
    return _write_one_file("rulemod", spec, name, folder, taken)
