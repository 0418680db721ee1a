"""Plots as files, with matplotlib's Agg backend (the optional extra ``pegboard[plot]``).

matplotlib draws the evaluation graph of ``pegboard analyse --plot`` and the Elo table of
``pegboard tournament --plot``: a well-kept library that writes PNG and SVG without a display.
It is imported only when a plot is drawn (it costs ~0.3 s); without it, :func:`check_target`
raises :class:`~pegboard.errors.MissingExtra` before any work starts.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

from pegboard.errors import MissingExtra, UsageProblem

#: The file types a plot can be written as, by suffix.
SUFFIXES = (".png", ".svg")


def check_target(path: str | Path, option: str = "--plot") -> Path:
    """Fail early, before the work, if ``path`` cannot take a plot: matplotlib missing
    (:class:`MissingExtra`), an unknown suffix, a missing folder or a directory (:class:`UsageProblem`)."""
    target = Path(path)
    if target.suffix.lower() not in SUFFIXES:
        raise UsageProblem(f"{option} {target}: the file must end in {' or '.join(SUFFIXES)}")
    if target.is_dir():
        raise UsageProblem(f"{option} {target}: is a directory")
    if not target.parent.is_dir():
        raise UsageProblem(f"{option} {target}: the folder {target.parent} does not exist")
    if importlib.util.find_spec("matplotlib") is None:
        raise MissingExtra("plot", option)
    return target


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend (raises :class:`MissingExtra` without matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingExtra("plot", "plotting") from None
    return plt


def save(figure: Any, path: str | Path) -> Path:
    """Write ``figure`` to ``path`` (PNG or SVG by its suffix) through a temporary file and a
    rename, so a failure never leaves half a file; the figure is closed."""
    import tempfile

    target = Path(path)
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=target.suffix)
    os.close(fd)
    try:
        figure.savefig(temp, format=target.suffix.lower().lstrip("."), bbox_inches="tight")
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    finally:
        pyplot().close(figure)
    return target
