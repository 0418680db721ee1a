"""The pyglet window shell. Importing this package does not import pyglet.

``launch(game_id, ruleset, seats)`` is what ``pegboard play`` calls; it raises
:class:`DisplayUnavailable` (one clear line) when no window can be opened.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pegboard.errors import DisplayUnavailable
from pegboard.game import PegboardError

if TYPE_CHECKING:
    from pegboard.match.session import Session
    from pegboard.ui.window import MatchWindow


def _import_window_module() -> Any:
    try:
        from pegboard.ui import window
    except Exception as exc:  # noqa: BLE001 - pyglet raises display errors at import time
        raise DisplayUnavailable(f"cannot open a window: no usable display ({type(exc).__name__}: {exc})") from exc
    return window


def open_window(session: Session, plugins: Any = None, *, width: int = 1280, height: int = 800, **kwargs: Any) -> MatchWindow:
    """A match window for ``session`` (not yet running an event loop)."""
    if plugins is None:
        from pegboard.plugins.manager import get_plugins

        plugins = get_plugins()
    window = _import_window_module()
    try:
        opened: MatchWindow = window.MatchWindow(session, plugins, width=width, height=height, **kwargs)
        return opened
    except PegboardError:
        raise
    except Exception as exc:  # noqa: BLE001 - pyglet's many display/GL exception types
        name = type(exc).__name__
        if any(word in f"{name} {exc}".lower() for word in ("display", "egl", "glx", "config", "context", "screen")):
            raise DisplayUnavailable(f"cannot open a window: no usable display ({name}: {exc})") from exc
        raise


def make_session(game_id: str, ruleset: str | None, seats: Sequence[str], plugins: Any = None, *, seed: int | None = 0,
                 threaded: bool = True, workers: str | None = None) -> Session:
    """A session for ``game_id`` under ``ruleset`` with seats "human" or bot ids (no pyglet).

    ``seed=None`` is how a person plays: the first game and every new one deal from a fresh seed
    drawn from the operating system (the record keeps it, so each game still replays exactly). A
    number starts from that seed and each new game uses the next number (reproducible on purpose).
    """
    from pegboard.match.session import Session, fresh_seed
    from pegboard.plugins.manager import get_plugins
    from pegboard.ui.catalog import load_game

    plugins = plugins or get_plugins()
    game, ref = load_game(plugins, game_id, ruleset)
    seat_list = list(seats) or ["human"] * len(game.seats)
    return Session(game, seat_list, seed=fresh_seed() if seed is None else seed, ruleset=ref, plugins=plugins,
                   threaded=threaded, workers=workers, fresh_seeds=seed is None)


def launch(game_id: str, ruleset: str | None = None, seats: Sequence[str] = (), *, plugins: Any = None,
           seed: int | None = None) -> int:
    """Open the match window and run until it closes; returns the exit code (0).

    ``seats`` holds "human" or a bot id per seat. ``seed`` None deals every game from a fresh
    seed; a number reproduces that game (see :func:`make_session`). Unknown ids raise
    ``UnknownId``; a missing display raises :class:`DisplayUnavailable`.
    """
    from pegboard.match.session import default_bot_worker

    session = make_session(game_id, ruleset, seats, plugins, seed=seed, workers=default_bot_worker())
    win = open_window(session, plugins)
    import pyglet

    try:
        pyglet.app.run()
    finally:
        session.close()
        if not win.has_exit:
            win.close()
    return 0


__all__ = ["DisplayUnavailable", "launch", "make_session", "open_window"]
