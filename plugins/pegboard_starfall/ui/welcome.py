"""The Welcome: the guided first game, offered once, when a window first shows Starfall.

It is owed when a window opens on a local Starfall game and the profile does not yet say
``welcomed``; it is offered by the board view that finishes opening (the first view may
start a new game from the stored settings, and the window then builds another one), and
the profile records ``welcomed`` as soon as it is shown, so it is never asked again. A
window that first shows an online match, or comes back to its own game afterwards, owes
nothing.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

WELCOMED = "welcomed"
TITLE = "Welcome to Starfall"
MESSAGE = ("New here? The guided first game walks you through a move, a claim and a match on a dark board, one lit "
           "square at a time. (It is in Settings any time.)")

_SEEN: WeakKeyDictionary[Any, bool] = WeakKeyDictionary()  # window -> a welcome is owed


def first_look(host: Any, game: str, online: bool) -> None:
    """A board view was attached to ``host``: on the window's first one, note whether a welcome is owed."""
    if host in _SEEN:
        return
    _SEEN[host] = not online and not host.settings_store.get_setting(game, WELCOMED, False)


def take(host: Any, game: str) -> bool:
    """True once, when a welcome is owed to ``host``; the profile then records it as given."""
    if not _SEEN.get(host, False):
        return False
    _SEEN[host] = False
    host.settings_store.set_setting(game, WELCOMED, True)
    return True


__all__ = ["MESSAGE", "TITLE", "WELCOMED", "first_look", "take"]
