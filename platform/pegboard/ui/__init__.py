"""The pyglet window shell. Importing this package does not import pyglet.

``launch(game_id, ruleset, seats)`` is what ``pegboard play`` calls; it raises
:class:`DisplayUnavailable` (one clear line) when no window can be opened.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pegboard.errors import DisplayUnavailable
from pegboard.game import PegboardError
from pegboard.plugins import resolve

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
    plugins = resolve(plugins)
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
    from pegboard.match.seats import fresh_seed
    from pegboard.match.session import Session
    from pegboard.rules.rulesets import load_game

    plugins = resolve(plugins)
    game = load_game(game_id, ruleset, plugins=plugins)
    seat_list = list(seats) or ["human"] * len(game.seats)
    return Session(game, seat_list, seed=fresh_seed() if seed is None else seed, plugins=plugins,
                   threaded=threaded, workers=workers, fresh_seeds=seed is None)


def launch(game_id: str | None = None, ruleset: str | None = None, seats: Sequence[str] = (), *,
           plugins: Any = None, seed: int | None = None) -> int:
    """Open the match window and run until it closes; returns the exit code (0).

    ``game_id`` None opens the game chooser first (every installed game, the last one played
    selected); the match window replaces it once a game is picked, with the default seats.
    ``seats`` holds "human" or a bot id per seat. ``seed`` None deals every game from a fresh
    seed; a number reproduces that game (see :func:`make_session`). Unknown ids raise
    ``UnknownId``; a missing display raises :class:`DisplayUnavailable`.
    """
    from pegboard.match.session import default_bot_worker
    from pegboard.plugins import resolve

    _import_window_module()  # no display: one clear error before anything else
    from pegboard.ui.settings import default_store

    plugins = resolve(plugins)
    store = default_store()
    sessions: list[Session] = []
    opened: list[Any] = []  # pyglet keeps its windows weakly: these keep them alive

    def start(chosen: str, in_place_of: Any = None) -> None:
        """Open the match window for ``chosen`` (where the chooser ``in_place_of`` was, if given)."""
        from pegboard.ui.catalog import default_seats
        from pegboard.ui.chooser import remember_game

        # a game named on the command line keeps its options; one picked in the chooser gets the defaults
        picked = in_place_of is not None
        session = make_session(chosen, None if picked else ruleset, default_seats(plugins, chosen) if picked else seats,
                               plugins, seed=seed, workers=default_bot_worker())
        sessions.append(session)
        remember_game(store, chosen)
        size = {"width": in_place_of.width, "height": in_place_of.height} if picked else {}
        window = open_window(session, plugins, settings_store=store, **size)
        if picked:
            where = in_place_of.get_location()  # None on a headless display
            if where is not None:
                window.set_location(*where)
            in_place_of.close()  # after the match window opened: the event loop ends when no window is left
        opened.append(window)

    if game_id is not None:
        start(game_id)
    else:
        opened.append(open_chooser(plugins, store, start))
    import pyglet

    try:
        pyglet.app.run()
    finally:
        for session in sessions:
            session.close()
        for window in opened:
            if not window.has_exit:
                window.close()
    return 0


def open_chooser(plugins: Any, store: Any, on_choose: Any) -> Any:
    """The game chooser window; ``on_choose(game_id, chooser)`` runs when a game is picked."""
    from pegboard.ui.catalog import game_choices

    _import_window_module()  # the display check (and pyglet's window classes)
    from pegboard.ui.chooser import ChooserWindow

    try:
        chooser: Any = ChooserWindow(game_choices(plugins), store, lambda game_id: on_choose(game_id, chooser))
    except PegboardError:
        raise
    except Exception as exc:  # noqa: BLE001 - pyglet's many display/GL exception types
        raise DisplayUnavailable(f"cannot open a window: no usable display ({type(exc).__name__}: {exc})") from exc
    return chooser


__all__ = ["DisplayUnavailable", "launch", "make_session", "open_chooser", "open_window"]
