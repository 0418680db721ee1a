"""The contract between the match window and a game's board view.

A game plugin registers a :class:`~pegboard.specs.RendererSpec` from its
``pegboard_renderers(game)`` hook. The window calls ``spec.factory(game,
session)`` and talks to the returned object only through :class:`BoardView`.
The view reads ``session.state`` to draw, and plays moves with
``session.play(move)``; it never changes the state itself.

Coordinates: :meth:`BoardView.layout` receives the board's rectangle in
window pixels (origin bottom-left). Mouse positions passed to the view are
*board coordinates*: pixels relative to that rectangle's bottom-left corner.

Order of calls: ``layout`` first (and again on every resize), then every
frame ``update(dt)`` and ``draw()``; ``on_session_change`` after every
session change (the state is already updated), and after a move ``sound_cues``
with the events the person may know; ``delete`` once at the end.
When a new game replaces the old one (New game with another ruleset, an
import), the window deletes the view and builds a fresh one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pegboard.game import Event, Game, IllegalMove, Move, Refusal
from pegboard.support.sentences import as_sentence
from pegboard.ui import cues
from pegboard.ui.rect import Rect

if TYPE_CHECKING:
    from pegboard.match.session import Change, Session
    from pegboard.ui.settings import Setting, SettingsStore
    from pegboard.ui.widgets import Dialog, Widget


class ViewHost(Protocol):
    """What a board view may ask of the window hosting it (given by :meth:`BoardView.attach`)."""

    #: Where the game's settings persist (the local profile, or memory).
    settings_store: SettingsStore

    def open_dialog(self, dialog: Dialog) -> Dialog:
        """Show ``dialog`` modally (replacing any open one)."""

    def close_dialog(self, dialog: Dialog) -> None:
        """Close ``dialog`` if it is the one shown."""

    def confirm(self, title: str, message: str, on_yes: Callable[[], Any], *, yes_label: str = "Yes",
                no_label: str = "Cancel") -> Dialog:
        """Ask a yes/no question; ``on_yes`` runs only after Yes."""

    def say(self, text: str | None) -> None:
        """Show ``text`` in the status line until the position changes."""

    def play_friend(self) -> Dialog | None:
        """Open the Play a friend panel (online play against another program, for any game)."""


@runtime_checkable
class BoardView(Protocol):
    """What the window needs from a game's board view."""

    #: Colour of each seat (RGB 0-255), used by the evaluation bar and the history.
    seat_colors: Sequence[tuple[int, int, int]]

    def layout(self, area: Rect) -> None:
        """The board's rectangle (window pixels) was set or changed; recompute geometry."""

    def draw(self) -> None:
        """Draw the board now, inside the last ``area``. Called every frame in ``on_draw``
        with the GL context current, after the background and before the panels."""

    def update(self, dt: float) -> None:
        """Advance animations by ``dt`` seconds (called every frame; may do nothing)."""

    def on_session_change(self, change: Change) -> None:
        """The session changed (a move, undo, jump, restart ...); refresh what is drawn."""

    def on_mouse_motion(self, x: float, y: float) -> None:
        """The pointer moved over the board (board coordinates)."""

    def on_mouse_leave(self) -> None:
        """The pointer left the board: drop hover highlights."""

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        """A click on the board (board coordinates). Play with ``session.play``; when a
        click cannot be played, say why through :meth:`status_text`."""

    def on_mouse_scroll(self, x: float, y: float, scroll_x: float, scroll_y: float) -> None:
        """The wheel turned over the board (board coordinates); zoom or scroll, or ignore it."""

    def set_hints(self, enabled: bool) -> None:
        """Show or hide move hints (the H key toggles them)."""

    def status_text(self) -> str | None:
        """A line for the status bar (why the last click failed, what is selected), or
        None to let the window show whose turn it is."""

    def delete(self) -> None:
        """Release pyglet resources; the view is not used afterwards."""

    def attach(self, host: ViewHost) -> None:
        """The window hosting the view (called once, right after the factory)."""

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float, buttons: int) -> None:
        """The pointer moved with a button held, after a press on the board (board coordinates)."""

    def on_mouse_release(self, x: float, y: float, button: int) -> None:
        """The button of a press on the board was released (board coordinates, maybe off the board)."""

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """A key the window did not use (no dialog open); True when the view used it (Escape
        cancelling a selection, say)."""

    def settings(self) -> Sequence[Setting]:
        """The game's entries in the Settings panel (none: the window offers no Settings)."""

    def apply_settings(self, changed: Mapping[str, Any]) -> None:
        """Settings the person saved (already stored); the view puts them into effect. When a
        ``rule`` setting changed during a game the window has already asked to restart."""

    def allows_undo(self) -> bool:
        """False while undo/redo must not be offered (a rated game, where it would reveal refills)."""

    def end_note(self) -> str:
        """An extra paragraph for the end-of-game dialog (a rating change), or ""."""

    def busy(self) -> bool:
        """True while the view animates a move; the window then lets a click skip it first."""

    def history_note(self, record: Any) -> str:
        """The whole explanation of one played move (a :class:`~pegboard.match.session.PlyRecord`)
        as the person at this screen may know it (``record.events_for(session.viewer)``), one
        paragraph per line; "" for none. The History shows it when the move's entry is open."""

    def history_summary(self, record: Any) -> str:
        """The explanation of one played move at a glance (at most about two lines), or "" when
        the whole note is short enough. The History shows it while the move's entry is closed."""

    def new_game(self) -> bool:
        """New game was pressed: start it the game's own way and return True (after a guided
        game Starfall starts a game with the stored settings), or return False to let the
        window restart the session with the same players and rules."""

    def sound_cues(self, events: Sequence[Event]) -> Sequence[str]:
        """The sounds a move makes: names from :data:`pegboard.ui.cues.MOVE_CUES` (``move``,
        ``line``, ``drone``, ``take``, ``missile``, ``asteroid``, ``cut``), in the order to play
        them; () for silence. ``events`` are the move's events the person's seat may know (the
        window filters them with :func:`pegboard.game.events_for`), so a cue cannot tell what
        fog hides. The window plays at most three, a moment apart, unless sound is off."""

    def tooltip_at(self, x: float, y: float) -> str | None:
        """The tooltip for what lies under the pointer at board coordinates (x, y) — a button of
        the view's own panel, say — or None. The window floats it up after a short rest."""

    def panel_widgets(self) -> Sequence[Widget]:
        """The shell widgets the view lays out beside its board (a side panel, an explain line).
        The window checks that none of them overlaps another or leaves the window, and floats up
        their buttons' tooltips."""

    def board_rect(self) -> Rect:
        """Where the board itself is drawn (window pixels, inside the area the view was given):
        the window keeps it clear of every other widget and centred in the space left for it."""

    def show_better_move(self, move: Move | None) -> None:
        """Review: draw ``move`` over the position shown, translucent (an arrow, a ring: see
        :mod:`pegboard.ui.arrows`), until the next call; None removes it. ``move`` is a move of
        the game (decoded): the better move the analysis found where the move that led to the
        position shown was played, so it starts from the position before. The window calls it
        after every change of the ply shown; keep drawing it across ``layout`` and refreshes.
        The default draws nothing: a game without it still reviews, with the graph and marks."""


class BoardViewBase:
    """A convenient base for board views: holds the game, session, area, a batch and a status.

    Subclasses override :meth:`rebuild` (recreate drawables from
    ``session.state`` into ``self.batch``) and the mouse handlers; everything
    else has a sensible default.
    """

    seat_colors: Sequence[tuple[int, int, int]] = ((59, 130, 246), (239, 68, 68))

    def __init__(self, game: Game, session: Session) -> None:
        import pyglet

        self.game = game
        self.session = session
        self.area = Rect(0, 0, 0, 0)
        self.batch = pyglet.graphics.Batch()
        self.hints = True
        self.status: str | None = None
        self.host: ViewHost | None = None
        self._items: list[Any] = []

    def attach(self, host: ViewHost) -> None:
        self.host = host

    # -- drawing ------------------------------------------------------------------------------

    def layout(self, area: Rect) -> None:
        self.area = area
        self.refresh()

    def refresh(self) -> None:
        """Throw away the drawables and build them again."""
        for item in self._items:
            item.delete()
        self._items = list(self.rebuild())

    def rebuild(self) -> list[Any]:
        """Create drawables for the current position; return them (they are deleted on refresh)."""
        return []

    def draw(self) -> None:
        self.batch.draw()

    def update(self, dt: float) -> None:
        pass

    # -- session and input ---------------------------------------------------------------------

    def on_session_change(self, change: Change) -> None:
        if change.kind not in ("thinking", "paused", "resumed"):
            self.status = None
        self.refresh()

    def on_mouse_motion(self, x: float, y: float) -> None:
        pass

    def on_mouse_leave(self) -> None:
        pass

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        pass

    def on_mouse_scroll(self, x: float, y: float, scroll_x: float, scroll_y: float) -> None:
        pass

    def play(self, move: Move) -> bool:
        """Play ``move`` through the session; on refusal keep the reason as the status, with the
        rule id when the rules refused it (not when it is simply not the person's turn)."""
        try:
            self.session.play(move)
        except IllegalMove as exc:
            shown = exc.reason if exc.rule == "not_your_turn" else Refusal(exc.rule, exc.reason).shown()
            self.status = as_sentence(shown)  # a refusal by the rules names its rule
            return False
        self.status = None
        return True

    def set_hints(self, enabled: bool) -> None:
        self.hints = enabled
        self.refresh()

    def status_text(self) -> str | None:
        return self.status

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float, buttons: int) -> None:
        pass

    def on_mouse_release(self, x: float, y: float, button: int) -> None:
        pass

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        return False

    def settings(self) -> Sequence[Setting]:
        return ()

    def apply_settings(self, changed: Mapping[str, Any]) -> None:
        pass

    def allows_undo(self) -> bool:
        return True

    def end_note(self) -> str:
        return ""

    def busy(self) -> bool:
        return False

    def history_note(self, record: Any) -> str:
        return ""

    def tooltip_at(self, x: float, y: float) -> str | None:
        """The tooltip of the panel button under the pointer (see :meth:`panel_widgets`)."""
        from pegboard.ui.widgets import Button

        gx, gy = x + self.area.x, y + self.area.y
        for widget in self.panel_widgets():
            if isinstance(widget, Button) and widget.tooltip and widget.contains(gx, gy):
                return widget.tooltip
        return None

    def panel_widgets(self) -> Sequence[Widget]:
        return ()

    def board_rect(self) -> Rect:
        return self.area

    def show_better_move(self, move: Move | None) -> None:
        """Draws nothing (see :meth:`BoardView.show_better_move`)."""

    def sound_cues(self, events: Sequence[Event]) -> Sequence[str]:
        return (cues.MOVE,)  # any move clicks; a game maps its events to the other cues

    def history_summary(self, record: Any) -> str:
        return ""

    def new_game(self) -> bool:
        return False

    def delete(self) -> None:
        for item in self._items:
            item.delete()
        self._items = []


class MoveListView(BoardViewBase):
    """The fallback board for games without a renderer: a clickable list of legal moves.

    It lets a person play any installed game in the window, just without a picture.
    """

    def __init__(self, game: Game, session: Session) -> None:
        super().__init__(game, session)
        from pegboard.ui import widgets

        self.ui = widgets.Ui(self.batch)
        self.caption = widgets.Label(f"{game.name or game.id}: no board view installed; pick a move", color=(148, 163, 184))
        self.list = widgets.ListView(on_select=self._pick)
        self._moves: list[Move] = []

    def _pick(self, index: int) -> None:
        if 0 <= index < len(self._moves):
            self.play(self._moves[index])

    def rebuild(self) -> list[Any]:
        state = self.session.state
        self._moves = [] if self.session.is_over else list(state.legal_moves())
        a = self.area
        self.caption.set_rect(Rect(a.x + 10, a.top - 30, a.width - 20, 24))
        self.list.set_rect(Rect(a.x + 10, a.y + 10, min(a.width - 20, 420), max(0, a.height - 50)))
        self.list.set_rows([state.move_text(m) for m in self._moves])
        self.list.select(None)
        self.caption.sync(self.ui)
        self.list.sync(self.ui)
        return []

    def draw(self) -> None:
        self.caption.sync(self.ui)
        self.list.sync(self.ui)
        self.batch.draw()

    def on_mouse_motion(self, x: float, y: float) -> None:
        gx, gy = x + self.area.x, y + self.area.y
        self.list.set_hover(self.list.contains(gx, gy))
        self.list.on_mouse_motion(gx, gy)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        gx, gy = x + self.area.x, y + self.area.y
        if self.list.contains(gx, gy):
            self.list.on_mouse_press(gx, gy, button, modifiers)

    def delete(self) -> None:
        self.caption.clear()
        self.list.clear()
        super().delete()


__all__ = ["BoardView", "BoardViewBase", "MoveListView", "Rect", "ViewHost", "as_sentence"]
