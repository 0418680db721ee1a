"""Where the shipped data (rulesets/ and schemas/) lives.

In a source checkout (editable install) the data is at the top of the
repository; a built wheel carries a copy under ``pegboard/data/``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent.parent  # support/ -> the pegboard package


@cache
def data_root() -> Path:
    """The folder that holds ``rulesets/`` and ``schemas/``."""
    installed = _PACKAGE_DIR / "data"
    if (installed / "schemas").is_dir():
        return installed
    source_tree = _PACKAGE_DIR.parent.parent  # platform/pegboard -> repository root
    if (source_tree / "schemas").is_dir():
        return source_tree
    raise FileNotFoundError("Pegboard's data folders (rulesets/, schemas/) are missing from this install")


def data_dir(kind: str, *parts: str) -> Path:
    """``data_dir("rulesets", "nodewar")`` -> the folder of Node War's shipped rulesets."""
    return data_root().joinpath(kind, *parts)
