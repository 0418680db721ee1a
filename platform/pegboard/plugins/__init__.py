"""Plugins: the manager (:mod:`.manager`), entry-point discovery (:mod:`.entrypoints`) and the
platform's own built-in bots (:mod:`.builtins`).

:func:`resolve` is the one place a function that takes ``plugins=None`` turns it into
the process-wide manager; it imports the manager (and pluggy) only when first asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins


def resolve(plugins: Plugins | None = None) -> Plugins:
    """``plugins``, or the process-wide :class:`~pegboard.plugins.manager.Plugins` when it is None."""
    if plugins is not None:
        return plugins
    from pegboard.plugins.manager import get_plugins

    return get_plugins()
