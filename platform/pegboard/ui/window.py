"""The match window: top bar, board, evaluation bar, history, status line, dialogs.

:class:`MatchWindow` drives a :class:`~pegboard.match.session.Session` (polled every
frame, so bots think in the background while the window keeps drawing) and
hosts the game's :class:`~pegboard.ui.board.BoardView`.
"""

from __future__ import annotations

import logging
from datetime import datetime
from pathlib import Path
from typing import Any

import pyglet
from pyglet import shapes
from pyglet.window import key

from pegboard.errors import AnalysisRefused, MatchImportError, SessionError
from pegboard.game import PegboardError
from pegboard.match.session import Change, Session
from pegboard.rules.rulesets import load_game
from pegboard.support.sentences import as_sentence
from pegboard.ui import catalog, theme
from pegboard.ui.board import BoardView, MoveListView
from pegboard.ui.clockline import clock_text
from pegboard.ui.dialogs import ConfirmDialog, CustomizeDialog, EndGameDialog, FileDialog
from pegboard.ui.endwords import end_words
from pegboard.ui.evalbar import BreakdownPanel, EvalBar
from pegboard.ui.evalgraph import EvalGraph
from pegboard.ui.friend import FriendPlay
from pegboard.ui.history import HistoryPanel
from pegboard.ui.rect import Rect
from pegboard.ui.reviewing import REVIEW_BUDGET, Reviewing, line_key
from pegboard.ui.settings import SettingsDialog, SettingsStore, current_values, default_store
from pegboard.ui.shell import ShellWindow
from pegboard.ui.soundcues import SOUND_SETTING, SoundCues
from pegboard.ui.widgets import (
    Button,
    Dialog,
    Label,
    MessageDialog,
    Panel,
    Tooltip,
    Ui,
    Widget,
    clipboard,
    release_buttons,
    text_width,
)

log = logging.getLogger(__name__)

FRAME = 1 / 60
HISTORY_FOLDS_BELOW = 1000  # layout pixels: a narrower window shows the History only on request
POSITION_CHANGES = {"move", "undo", "redo", "jump", "restart", "import", "extend", "result", "seats"}
#: Changes that end a review: the line it judged is gone, or a bot could play in a past position.
REVIEW_ENDS = {"move", "restart", "import", "seats", "extend"}
ONLINE_BUTTONS = {"resign", "history"}  # the top bar during an online match (its rules and moves are the host's)


class StatusBar(Panel):
    """The status line: a thinking indicator, one sentence, and the clocks on the right."""

    def __init__(self) -> None:
        super().__init__(color=theme.BAR, border=None)
        self.radius = 0
        self.text = self.add(Label(""))
        self.clocks = self.add(Label("", align="right", color=theme.TEXT_DIM))
        self.thinking = False
        self.phase = 0.0
        self.move_fraction: float | None = None

    def on_layout(self) -> None:
        r = self.rect
        clocks_w = text_width(self.clocks.text) + 8 if self.clocks.text else 0.0
        self.clocks.set_rect(Rect(r.right - clocks_w - 10, r.y, clocks_w, r.height))
        room = max(10.0, r.width - 48 - clocks_w - (30 if clocks_w else 10))
        self.text.set_rect(Rect(r.x + 48, r.y, room, r.height))
        # a long sentence steps down to the small font before it is cut short
        small = text_width(self.text.text, theme.FONT_SIZE) > room
        size = theme.SMALL_FONT_SIZE if small else theme.FONT_SIZE
        if size != self.text.size:
            self.text.size = size
            self.text.invalidate()

    def set_status(self, text: str, color: theme.RGB, clocks: str) -> None:
        """Show ``text`` (in ``color``) and the clock line, re-fitting both when they change."""
        changed = text != self.text.text or clocks != self.clocks.text
        self.text.set_text(text, color)
        self.clocks.set_text(clocks)
        if changed:
            self.on_layout()

    def set_move_fraction(self, fraction: float | None) -> None:
        """How much of the move timer is left (0..1), drawn as a bar along the top; None hides it."""
        if fraction is not None:
            fraction = round(max(0.0, min(1.0, fraction)), 3)
        if fraction != self.move_fraction:
            self.move_fraction = fraction
            self.invalidate()

    def set_thinking(self, thinking: bool, phase: float) -> None:
        if thinking != self.thinking or (thinking and int(phase * 6) != int(self.phase * 6)):
            self.invalidate()
        self.thinking = thinking
        self.phase = phase

    def build(self, ui: Ui, layer: int) -> list[Any]:
        items = list(super().build(ui, layer))
        r = self.rect
        if self.thinking:
            step = int(self.phase * 6) % 3
            for i in range(3):
                alpha = 255 if i == step else 110
                items.append(shapes.Circle(r.x + 14 + i * 10, r.y + r.height / 2, 4, color=(*theme.TEXT_WARN, alpha),
                                           batch=ui.batch, group=ui.group(layer, 1)))
        if self.move_fraction is not None:
            color = theme.TEXT_ERROR if self.move_fraction < 0.2 else theme.TEXT_WARN
            items.append(shapes.Rectangle(r.x, r.top - 4, r.width * self.move_fraction, 4, color=color,
                                          batch=ui.batch, group=ui.group(layer, 1)))
        return items


class MatchWindow(ShellWindow, pyglet.window.Window):  # type: ignore[misc]  # pyglet picks the platform's Window class at import: Any to mypy
    """The window of one match. ``plugins`` is the :class:`~pegboard.plugins.manager.Plugins` in use."""

    def __init__(self, session: Session, plugins: Any, *, width: int = 1280, height: int = 800,
                 schedule: bool = True, settings_store: SettingsStore | None = None, ui_scale: float | None = None,
                 **kwargs: Any) -> None:
        kwargs.setdefault("caption", f"Pegboard — {session.game.name or session.game.id}")
        kwargs.setdefault("resizable", True)
        self.hold_events_while_created()
        if "config" not in kwargs:
            # 8 bits per channel (some drivers default to 16-bit colour); fall back if refused
            wanted = pyglet.gl.Config(red_size=8, green_size=8, blue_size=8, alpha_size=8, double_buffer=True)  # type: ignore[abstract]  # the platform's subclass at run time
            try:
                super().__init__(width=width, height=height, config=wanted, **kwargs)
            except pyglet.window.NoSuchConfigException:
                super().__init__(width=width, height=height, **kwargs)
        else:
            super().__init__(width=width, height=height, **kwargs)
        self.setup_shell(ui_scale)
        self.session = session
        self.plugins = plugins
        #: Where board views keep their settings (the local profile unless a test passes one).
        self.settings_store: SettingsStore = settings_store if settings_store is not None else default_store()
        clipboard.use(self)  # text fields copy and paste through this window's (the system's) clipboard
        self.ui = Ui()
        self.backdrop = pyglet.graphics.Batch()
        self._backdrop_items: list[Any] = []
        self.dialog: Dialog | None = None
        self.dialogs_opened: list[Dialog] = []
        self.notice: str | None = None
        #: The answer to a key (M: "Sound off."), shown over the board's status until the next click, key or move.
        self.flash: str | None = None
        self.show_history = width >= HISTORY_FOLDS_BELOW
        self._history_chosen = False  # True once the person opened or closed the History themselves
        self.hints = True
        self._time = 0.0
        self._board_hover = False
        self._board_press = False
        self.board: BoardView | None = None
        self.board_area: Rect | None = None  # set by the first layout
        self._eval_room = True  # False when the top bar leaves the evaluation bar no room
        self._view_game: Any = None
        self.evaluator: Any = None
        self._eval_game: Any = None

        self.top = Panel(color=theme.BAR, border=None)
        self.top.radius = 0
        #: The buttons the top bar shows now, in order (``bar_buttons`` holds them all).
        self.buttons: dict[str, Button] = {}
        self.bar_buttons: dict[str, Button] = {}
        for name, icon, text, short, action, tip in (
            ("undo", "undo", "Undo", "Undo", self.undo, "Undo (Ctrl+Z): take back moves until it is your turn again."),
            ("redo", "redo", "Redo", "Redo", self.redo, "Redo (Ctrl+Y): replay the moves you took back."),
            ("resume", "resume", "Resume bot", "Bot", self.resume, "Resume bot: let a paused bot play its move."),
            ("customize", "customize", "Customize", "Players", self.open_customize,
             "Customize: who plays each side, and the ruleset."),
            ("history", "history", "History", "History", self.toggle_history,
             "History: show or hide every move; click one to jump there."),
            ("export", "export", "Export .txt", "Export", self.open_export, "Export: save this game to a file."),
            ("import", "import", "Import .txt", "Import", self.open_import,
             "Import: load a game from a file; every move is checked."),
            ("new", "new", "New game", "New", self.new_game, "New game: the same players, a fresh deal."),
            ("friend", "online", "Play a friend", "Online", self.play_friend,
             "Play a friend: find someone in a lobby and play them online."),
            ("resign", "resign", "Resign", "Resign", self.resign_online, "Resign: leave this online match as a loss."),
        ):
            self.bar_buttons[name] = self.top.add(Button(text, action, short_text=short, tooltip=tip, icon=icon))
        self.buttons.update((name, b) for name, b in self.bar_buttons.items() if name != "resign")
        self.bar_buttons["resign"].show(False)
        # in the bar (and in self.buttons) only while the board view has settings
        self.settings_button: Button = self.top.add(Button(
            "Settings", self.open_settings, short_text="Settings", icon="settings",
            tooltip="Settings: this game's options, kept in your profile."))
        #: The tooltip of what the pointer rests on (None: nothing), and since when (window time).
        self.tip: str | None = None
        self._tip_since = 0.0
        self._pointer = (0.0, 0.0)
        self.tooltip = Tooltip()
        self.evalbar = self.top.add(EvalBar(self.toggle_breakdown))
        assert isinstance(self.evalbar, EvalBar)
        self.breakdown = BreakdownPanel(session.game.seats)
        self.history = HistoryPanel(self.jump)
        self.status = StatusBar()
        #: Review: the finished game's analysis while it is read (None: no review), the last one
        #: (kept to come back to), the work budget per position and the graph under the board.
        self.reviewing: Reviewing | None = None
        self._last_review: Reviewing | None = None
        self.review_budget = REVIEW_BUDGET
        self._better_shown: tuple[int, Any] | None = None
        self.graph = EvalGraph(self._review_jump, self.leave_review)
        self.graph.show(False)
        self.roots: list[Widget] = [self.top, self.history, self.status, self.breakdown, self.graph]
        #: Play a friend: the lobby panel and, during an online match, the network behind ``session``.
        self.friend = FriendPlay(self)
        #: The sound effects: which cue when, the volume and mute (kept in the settings store).
        self.sound = SoundCues(self.settings_store)
        self.sound.watch(session)

        # the clear paints the board area's colour; _layout frames it with the window's (software
        # OpenGL pays for every pixel drawn, so the board area is not filled a second time)
        red, green, blue = (c / 255 for c in theme.BOARD_BACKGROUND)
        pyglet.gl.glClearColor(red, green, blue, 1.0)
        session.add_listener(self._on_change)
        self._build_view()
        self._refresh_all()
        self.relayout()
        if schedule:
            pyglet.clock.schedule_interval(self.tick, FRAME)
        self.release_held_events()

    # -- the board view --------------------------------------------------------------------

    def _build_view(self) -> None:
        if self.board is not None:
            self.board.delete()
        game = self.session.game
        spec = catalog.renderer_for(self.plugins, game.id)
        view: Any = None
        if spec is not None:
            try:
                view = spec.factory(game, self.session)
            except Exception:  # noqa: BLE001 - a broken renderer falls back to the move list
                log.exception("the %s board view failed to start", game.id)
                self.notice = f"The {game.name or game.id} board view failed to start; showing the move list."
        self.board = view if view is not None else MoveListView(game, self.session)
        self.set_caption(f"Pegboard — {game.name or game.id}")
        self.board.set_hints(self.hints)
        self.settings_button.show(True)  # every game's Settings has at least the sound row
        self.buttons["settings"] = self.settings_button
        self._view_game = game
        colors = self.board.seat_colors or theme.SEAT_COLORS
        self.evalbar.colors = colors
        self.history.set_seat_colors(colors)
        if self.board_area is not None:
            self.board.layout(self.board_area)
        self.board.attach(self)  # last: a view may restart the session from its stored settings

    def _evaluator(self) -> Any:
        game = self.session.game
        if self._eval_game is not game:
            self._eval_game = game
            try:
                self.evaluator = catalog.evaluator_for(self.plugins, game)
            except Exception:  # noqa: BLE001
                log.exception("evaluator failed to start")
                self.evaluator = None
            self.evalbar.scale = self.evaluator.scale if self.evaluator is not None else 10.0
        return self.evaluator

    # -- layout -------------------------------------------------------------------------------

    def relayout(self) -> None:
        """Lay everything out again for the window's size now."""
        self._layout(*self.layout_size)

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self._layout(round(width / self.ui_scale), round(height / self.ui_scale))

    def _layout(self, width: int, height: int) -> None:
        self.ui.width, self.ui.height = width, height
        bar_h, status_h, pad = theme.TOP_BAR_HEIGHT, theme.STATUS_HEIGHT, theme.PADDING
        self.top.set_rect(Rect(0, height - bar_h, width, bar_h))
        self.status.set_rect(Rect(0, 0, width, status_h))
        buttons = list(self.buttons.values())
        eval_w: float = 260 if width >= 1100 else 180 if width >= 760 else 120
        gap = theme.GAP
        room = width - eval_w - 3 * pad - gap * len(buttons)
        # the longest labels that fit: full words, then short ones, then icons alone
        fit = next((f for f in Button.FITS if sum(b.natural_width(f) for b in buttons) <= room), "icon")
        x: float = pad
        for b in buttons:
            b.set_fit(fit)
            w = b.natural_width(fit)
            b.set_rect(Rect(x, height - bar_h + 6, w, bar_h - 12))
            b.invalidate()
            x += w + gap
        eval_w = min(eval_w, width - x - 2 * pad)  # what the buttons leave (they come first)
        self._eval_room = eval_w >= 60
        self.evalbar.set_rect(Rect(width - max(0, eval_w) - pad, height - bar_h + 10, max(0, eval_w), bar_h - 20))
        self.evalbar.show(self._eval_room and self._evaluation_offered())
        bw = min(460, width - 2 * pad)
        bh = min(self.breakdown.wanted_height(), height - bar_h - status_h - 2 * pad)
        self.breakdown.set_rect(Rect(width - bw - pad, height - bar_h - bh - 4, bw, bh))
        hist_w = theme.HISTORY_WIDTH if width >= 1100 else theme.HISTORY_WIDTH - 40 if width >= 900 else 240
        top_y = height - bar_h
        if not self._history_chosen:  # the History folds away in a narrow window, comes back in a wide one
            self.show_history = width >= HISTORY_FOLDS_BELOW
            self.bar_buttons["history"].set_toggled(self.show_history)
        self.history.show(self.show_history)
        self.history.set_rect(Rect(width - hist_w - pad, status_h + pad, hist_w, top_y - status_h - 2 * pad))
        board_right = width - (hist_w + 2 * pad if self.show_history else pad)
        bottom = status_h + pad
        if self.reviewing is not None:  # the evaluation graph under the board
            graph_h = min(theme.EVAL_GRAPH_HEIGHT, max(60, (top_y - status_h) // 3))
            self.graph.set_rect(Rect(pad, bottom, max(10, board_right - pad), graph_h))
            bottom += graph_h + theme.GAP
        self.board_area = Rect(pad, bottom, max(10, board_right - pad), max(10, top_y - bottom - pad))
        for item in self._backdrop_items:
            item.delete()
        a = self.board_area
        self._backdrop_items = [shapes.Rectangle(x, y, w, h, color=theme.BACKGROUND, batch=self.backdrop) for x, y, w, h in (
            (0, 0, width, a.y), (0, a.top, width, height - a.top), (0, a.y, a.x, a.height),
            (a.right, a.y, width - a.right, a.height)) if w > 0 and h > 0]
        if self.board is not None:
            self.board.layout(self.board_area)
        if self.dialog is not None:
            self.dialog.place(width, height)
            self.dialog.invalidate()

    def layout_rects(self) -> list[tuple[str, Rect, Widget | None]]:
        """Every separate thing the window shows now, with its rectangle (layout pixels): the
        top bar's buttons and evaluation bar, the status line's text and clocks, the History,
        the board and the board view's own widgets. None of them may overlap another or leave
        the window (overlays and dialogs float above these and are not listed)."""
        found: list[tuple[str, Rect, Widget | None]] = [(f"button {n}", b.rect, b) for n, b in self.buttons.items()]
        if self.evalbar.visible:
            found.append(("evaluation bar", self.evalbar.rect, self.evalbar))
        found.append(("status text", self.status.text.rect, self.status.text))
        if self.status.clocks.text:
            found.append(("status clocks", self.status.clocks.rect, self.status.clocks))
        if self.history.visible:
            found.append(("history", self.history.rect, self.history))
        if self.graph.visible:
            found.append(("evaluation graph", self.graph.rect, self.graph))
        if self.board is not None:
            found.append(("board", self.board.board_rect(), None))
            found += [(f"view {type(w).__name__} {i}", w.rect, w) for i, w in enumerate(self.board.panel_widgets())]
        return found

    # -- session changes ------------------------------------------------------------------------

    def _on_change(self, change: Change) -> None:
        if self.reviewing is not None and change.kind in REVIEW_ENDS:
            self.leave_review()
        if change.kind in ("restart", "import") and self.session.game is not self._view_game:
            self._build_view()
            self.relayout()
        elif self.board is not None:
            self.board.on_session_change(change)
        self.sound.on_change(change, self.session, self.board)
        if change.kind in POSITION_CHANGES:
            self.flash = None
        if change.kind in POSITION_CHANGES or change.kind == "bot_error":
            self.notice = None if change.kind != "bot_error" else self.notice
        self._refresh_all(position=change.kind in POSITION_CHANGES)
        if change.kind == "result" and self.dialog is None:
            self.open_end_dialog()
        elif change.kind == "import" and self.session.is_over:
            self.open_end_dialog()  # an imported finished game: offer the extension, a new game, a review
        if self.reviewing is not None:
            self._refresh_review()

    def _refresh_all(self, position: bool = True) -> None:
        s = self.session
        self._show_buttons(s.online)
        self.evalbar.show(self._eval_room and self._evaluation_offered())  # no engine help against a friend
        allowed = not s.online and self.reviewing is None and (self.board is None or self.board.allows_undo())
        self.bar_buttons["undo"].set_enabled(allowed and (s.can_undo or s.is_over))
        self.bar_buttons["redo"].set_enabled(allowed and s.can_redo)
        # only while a paused bot is to move: on a person's turn the bots go on after their move anyway
        self.bar_buttons["resume"].set_enabled(s.bots_paused and s.bot_to_move() and self.reviewing is None)
        self.bar_buttons["history"].set_toggled(self.show_history)
        suffix = self._text_suffix()
        self.bar_buttons["export"].set_text(f"Export {suffix}", "Export")
        self.bar_buttons["import"].set_text(f"Import {suffix}", "Import")
        if position:
            self.history.refresh(s, self.board)
            evaluator = self._evaluator()
            evaluation = None
            if evaluator is not None and self._evaluation_offered():
                try:
                    evaluation = evaluator.evaluate(s.state)
                except Exception:  # noqa: BLE001
                    log.exception("evaluation failed")
            self.evalbar.set_evaluation(evaluation)
            self.breakdown.set_evaluation(evaluation, s.game.seats)
            if self.breakdown.visible:
                self.relayout()
        self._refresh_status()

    def _evaluation_offered(self) -> bool:
        """The evaluation bar shows unless it would help or mislead: no engine help against a
        friend online, and none while a person plays a game that hides something from them (it
        would judge the hidden part too, and what they know alone leaves out the other side)."""
        s = self.session
        return not s.online and not (s.game.hidden_information and s.viewer is not None)

    def _show_buttons(self, online: bool) -> None:
        """The top bar for the session shown: the full set, or Resign/Leave and History online."""
        names = [n for n in self.bar_buttons if (n in ONLINE_BUTTONS if online else n != "resign")]
        if not online:
            names.append("settings")
        if names != list(self.buttons):
            self.buttons = {n: self.bar_buttons.get(n, self.settings_button) for n in names}
            for button in (*self.bar_buttons.values(), self.settings_button):
                button.show(any(button is b for b in self.buttons.values()))
            self.relayout()
        if online:
            over = self.session.is_over
            resign = self.bar_buttons["resign"]
            resign.set_text("Leave" if over else "Resign")
            resign.icon = "leave" if over else "resign"
            resign.tooltip = ("Leave: close this finished match." if over
                              else "Resign: leave this online match as a loss.")

    def _text_suffix(self) -> str:
        suffixes = self.session.text_suffixes()
        return ".txt" if ".txt" in suffixes else (suffixes[0] if suffixes else ".json")

    def status_line(self) -> tuple[str, tuple[int, int, int]]:
        """The sentence the status line shows now, and its colour."""
        s = self.session
        if s.last_error:
            return s.last_error + " Bots are paused.", theme.TEXT_ERROR
        if self.flash:
            return self.flash, theme.TEXT
        if self.reviewing is not None:
            return self.reviewing.status(s.cursor), theme.TEXT
        view_text = self.board.status_text() if self.board is not None else None
        if view_text:
            return view_text, theme.TEXT_WARN
        if s.online:  # Connected / Reconnecting… and whose turn
            line = self.friend.status_line()
            return (f"{line} — {self.notice}" if self.notice else line), theme.TEXT
        if self.notice:
            return self.notice, theme.TEXT
        if s.result is not None:
            return s.result.sentence(s.game.seats), theme.TEXT
        seat = s.to_move
        if s.thinking is not None:
            return f"{s.player_label(s.thinking)} is thinking…", theme.TEXT
        if s.bots_paused and not s.seats[seat].is_human:
            return f"{s.player_label(seat)} to move — bots paused: press Resume bot or play the move yourself.", theme.TEXT_WARN
        return f"{s.player_label(seat)} to move (move {s.cursor + 1}).", theme.TEXT

    def _refresh_status(self) -> None:
        text, color = self.status_line()
        self.status.set_status(text, color, self._clock_text())
        self.status.set_thinking(self.session.thinking is not None, self._time)
        s = self.session
        per_move = s.clock_settings.per_move if s.clock_settings is not None else None
        left = s.move_time_left() if per_move else None
        self.status.set_move_fraction(left / per_move if left is not None and per_move else None)

    def _clock_text(self) -> str:
        return clock_text(self.session)

    # -- the frame loop ----------------------------------------------------------------------------

    def tick(self, dt: float) -> None:
        """One frame of work: poll the session (bots, clocks), animate, refresh the status."""
        self._time += dt
        self._hold_clocks()
        self.friend.tick()
        try:
            self.session.poll()
        except PegboardError as exc:
            self.show_error("Error", str(exc))
        if self.reviewing is not None and self.reviewing.poll():
            self._refresh_review()
        if self.board is not None:
            self.board.update(dt)
        self.sound.tick(dt, self.session)
        self._refresh_status()
        self._update_tooltip()

    def _update_tooltip(self) -> None:
        """Float the tooltip up once the pointer has rested on a button for a moment."""
        if self.tip and self._time - self._tip_since >= theme.TOOLTIP_DELAY:
            if not self.tooltip.visible or self.tooltip.text != self.tip:
                self.tooltip.pop_up(self.tip, *self._pointer, *self.layout_size)
        elif self.tooltip.visible:
            self.tooltip.show(False)

    def _point_at_tip(self, tip: str | None, x: float, y: float) -> None:
        """The pointer moved to (x, y) over something with tooltip ``tip`` (None: nothing)."""
        self._pointer = (x, y)
        if tip != self.tip:
            self.tip = tip
            self._tip_since = self._time
            self.tooltip.show(False)

    def on_draw(self) -> None:
        self.clear()
        self.backdrop.draw()
        if self.board is not None:
            self.board.draw()
        for root in self.roots:
            root.sync(self.ui)
        if self.dialog is not None:
            self.dialog.sync(self.ui)
        self.tooltip.sync(self.ui)
        self.ui.draw()

    # -- input -------------------------------------------------------------------------------------

    def _widgets_at(self, x: float, y: float) -> Widget | None:
        for root in reversed(self.roots):
            if root.contains(x, y):
                return root
        return None

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        x, y = x / self.ui_scale, y / self.ui_scale
        self._point_at_tip(None, x, y)  # a click answers the question the tooltip was for
        self.flash = None
        if self.dialog is not None:
            self.dialog.on_mouse_press(x, y, button, modifiers)
            return
        if self.breakdown.visible and not self.breakdown.contains(x, y):
            self.breakdown.show(False)
            self.evalbar.open = False
            self.evalbar.invalidate()
            if self.evalbar.contains(x, y):
                return
        target = self._widgets_at(x, y)
        if target is not None:
            target.on_mouse_press(x, y, button, modifiers)
            self._refresh_status()
            return
        if self.reviewing is not None:
            return  # the board shows a past position: nothing is played on it
        if self.board is not None and self.board_area is not None and self.board_area.contains(x, y):
            if self.board.busy():  # a click first finishes the animation under way
                lx, ly = self.board_area.local(x, y)
                self.board.on_mouse_press(lx, ly, button, modifiers)
                return
            if self.session.is_over:
                self.open_end_dialog()  # the result again, with the extension or a new game
                return
            lx, ly = self.board_area.local(x, y)
            self._board_press = True
            self.board.on_mouse_press(lx, ly, button, modifiers)
            self._refresh_status()

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> None:
        x, y = x / self.ui_scale, y / self.ui_scale
        release_buttons()
        if self.graph.dragging:
            self.graph.on_mouse_release(x, y, button, modifiers)
        if self.dialog is not None:
            self.dialog.on_mouse_release(x, y, button, modifiers)
            self._board_press = False
            return
        if self._board_press and self.board is not None and self.board_area is not None:
            self._board_press = False
            lx, ly = self.board_area.local(x, y)
            self.board.on_mouse_release(lx, ly, button)
            self._refresh_status()

    def on_mouse_motion(self, x: float, y: float, dx: int, dy: int) -> None:
        x, y = x / self.ui_scale, y / self.ui_scale
        if self.dialog is not None:
            self.dialog.on_mouse_motion(x, y)
            self._point_at_tip(self._dialog_tip(self.dialog, x, y), x, y)
            return
        for root in self.roots:
            root.on_mouse_motion(x, y)
        self.evalbar.set_hover(self.evalbar.contains(x, y))
        hovered = next((b for b in self.buttons.values() if b.contains(x, y)), None)  # disabled ones too
        if hovered is None and self.graph.visible and self.graph.close_button.contains(x, y):
            hovered = self.graph.close_button
        tip = hovered.tooltip if hovered is not None else (
            "The evaluation: click for every term behind it." if self.evalbar.hover else None)
        board, area = self.board, self.board_area
        over_board = board is not None and area is not None and area.contains(x, y) and self._widgets_at(x, y) is None
        if over_board and board is not None and area is not None:
            lx, ly = area.local(x, y)
            board.on_mouse_motion(lx, ly)
            tip = board.tooltip_at(lx, ly)
        elif self._board_hover and self.board is not None:
            self.board.on_mouse_leave()
        self._board_hover = over_board
        self._point_at_tip(tip or None, x, y)

    @staticmethod
    def _dialog_tip(dialog: Dialog, x: float, y: float) -> str | None:
        """The tooltip of the dialog button under the pointer, if it has one."""
        for widget in dialog.walk():
            if isinstance(widget, Button) and widget.tooltip and widget.contains(x, y):
                return widget.tooltip
        return None

    def on_mouse_drag(self, x: float, y: float, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        x, y = x / self.ui_scale, y / self.ui_scale
        if self.dialog is not None:
            self.dialog.on_mouse_drag(x, y)  # a text field selects
            return
        if self._board_press and self.board is not None and self.board_area is not None and self.dialog is None:
            lx, ly = self.board_area.local(x, y)
            self.board.on_mouse_drag(lx, ly, dx, dy, buttons)
            return
        if self.graph.dragging and self.graph.on_mouse_drag(x, y):
            return
        self.on_mouse_motion(x * self.ui_scale, y * self.ui_scale, dx, dy)  # back in window pixels

    def on_mouse_scroll(self, x: float, y: float, scroll_x: float, scroll_y: float) -> None:
        x, y = x / self.ui_scale, y / self.ui_scale
        if self.dialog is not None:
            self.dialog.on_mouse_scroll(x, y, scroll_x, scroll_y)
            return
        target = self._widgets_at(x, y)
        if target is not None:
            target.on_mouse_scroll(x, y, scroll_x, scroll_y)
        elif self.board is not None and self.board_area is not None:
            lx, ly = self.board_area.local(x, y)
            self.board.on_mouse_scroll(lx, ly, scroll_x, scroll_y)

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        self.flash = None
        ctrl = modifiers & (key.MOD_CTRL | key.MOD_COMMAND)
        if self.dialog is not None:
            self.dialog.on_key_press(symbol, modifiers)
            return True
        if self.reviewing is not None and not ctrl and self._review_key(symbol):
            return True
        if ctrl and symbol == key.Z and modifiers & key.MOD_SHIFT:
            self.redo()
        elif ctrl and symbol == key.Z:
            self.undo()
        elif ctrl and symbol == key.Y:
            self.redo()
        elif symbol == key.ESCAPE and self.breakdown.visible:
            self.toggle_breakdown()
        elif self.board is not None and self.board.on_key_press(symbol, modifiers):
            self._refresh_status()
        elif symbol == key.ESCAPE:
            pass
        elif symbol == key.H and not ctrl:
            self.hints = not self.hints
            if self.board is not None:
                self.board.set_hints(self.hints)
        elif symbol == key.M and not ctrl:
            self.toggle_sound()
        else:
            return False
        return True  # handled: in particular Escape must not close the window

    def on_text(self, text: str) -> None:
        if self.dialog is not None:
            self.dialog.on_text(text)

    def on_text_motion(self, motion: int) -> None:
        if self.dialog is not None:
            self.dialog.on_text_motion(motion)

    def on_text_motion_select(self, motion: int) -> None:
        if self.dialog is not None:
            self.dialog.on_text_motion(motion, True)

    def on_close(self) -> None:
        pyglet.clock.unschedule(self.tick)
        if self.reviewing is not None:
            self.reviewing.stop()
        self.session.remove_listener(self._on_change)
        local = self.friend.local
        self.friend.close()  # an online match under way stays open to pick up later
        self.session.close()
        if local is not None:
            local.close()
        self.sound.close()
        super().on_close()

    # -- actions -------------------------------------------------------------------------------------

    def say(self, text: str | None) -> None:
        """Show ``text`` in the status line until the position changes."""
        self.notice = text
        self._refresh_status()

    def _paused_note(self) -> str:
        """How to go on when a paused bot is to move (else nothing)."""
        s = self.session
        if s.bots_paused and s.bot_to_move():
            return f" {s.player_label(s.to_move)} is paused: press Resume bot or play its move yourself."
        return ""

    def _bots_paused_note(self) -> str:
        """After undo, redo or import: how the paused bots go on again (nothing without bots, or
        when the position shown is the end of the game)."""
        if all(c.is_human for c in self.session.seats) or self.session.is_over:
            return ""
        return self._paused_note() or " Your move: the bots are paused until you play it."

    def undo(self) -> None:
        if self.reviewing is not None:
            return  # the review steps with the arrow keys; the line stays as it was played
        if self.session.online:
            self.say("Undo is not offered in an online match.")
            return
        if self.board is not None and not self.board.allows_undo():
            self.say("Undo is not offered in a rated game.")
            return
        if self.session.undo():
            self.say("Undone." + self._bots_paused_note())

    def redo(self) -> None:
        if self.reviewing is not None or self.session.online or (self.board is not None and not self.board.allows_undo()):
            return
        if self.session.redo():
            self.say("Redone." + self._bots_paused_note())

    def jump(self, ply: int) -> None:
        if ply != self.session.cursor and not self.session.online:
            self.session.jump(ply)
            where = f"Showing the position after move {ply}." if ply else "Showing the start position."
            self.say(where + self._paused_note())

    def resume(self) -> None:
        self.notice = None
        self.session.last_error = None
        self.session.resume_bots()
        self._refresh_all(position=False)

    def toggle_history(self) -> None:
        self.show_history = not self.show_history
        self._history_chosen = True
        self.relayout()
        self._refresh_all(position=False)

    def toggle_breakdown(self) -> None:
        visible = not self.breakdown.visible
        self.breakdown.show(visible)
        self.evalbar.open = visible
        self.evalbar.invalidate()
        self.relayout()

    def new_game(self) -> None:
        if self.board is None or not self.board.new_game():
            self.session.restart()
        self.say("New game.")

    def toggle_sound(self) -> None:
        """Sound off, or on again at the kept volume (the M key)."""
        self.flash = "Sound on." if self.sound.toggle() else "Sound off."
        self._refresh_status()

    # -- Play a friend ---------------------------------------------------------------------------

    def play_friend(self) -> Dialog | None:
        """Open the Play a friend panel (the top bar's button; Settings entries call it too)."""
        return self.friend.open_panel()

    def resign_online(self) -> None:
        """Resign the online match (after asking), or leave it once it is over."""
        if not self.session.online:
            return
        if self.session.is_over:
            self.friend.leave()
            return
        self.confirm("Resign?", "You leave the match and it counts as a loss.", self.friend.resign, yes_label="Resign")

    def switch_session(self, session: Session) -> None:
        """Show and drive ``session`` from now on (an online match, and back to the window's own game)."""
        if session is self.session:
            return
        self.session.remove_listener(self._on_change)
        self.session = session
        session.add_listener(self._on_change)
        self.sound.watch(session)
        self.notice = None
        self._build_view()
        self.relayout()
        self._refresh_all()
        self._hold_clocks()

    # -- dialogs -------------------------------------------------------------------------------------

    def open_dialog(self, dialog: Dialog) -> Dialog:
        if self.dialog is not None:
            self.close_dialog(self.dialog)
        dialog.host = self
        dialog.place(*self.layout_size)
        self.dialog = dialog
        self._point_at_tip(None, *self._pointer)  # what the pointer rested on is covered now
        self.dialogs_opened.append(dialog)
        self._hold_clocks()
        return dialog

    def close_dialog(self, dialog: Dialog) -> None:
        if self.dialog is dialog:
            dialog.clear()
            self.dialog = None
            self._point_at_tip(None, *self._pointer)
            self._hold_clocks()

    def _hold_clocks(self) -> None:
        """While a dialog covers the board or a review shows a past position nobody can move, so
        the clocks wait (the session never holds an online match's clocks)."""
        self.session.hold_clocks(self.dialog is not None or self.reviewing is not None)

    def show_error(self, title: str, message: str) -> Dialog:
        """An error dialog; the message (often an engine's reason) reads as a sentence."""
        return self.open_dialog(MessageDialog(title, as_sentence(message), error=True))

    def confirm(self, title: str, message: str, on_yes: Any, *, yes_label: str = "Yes",
                no_label: str = "Cancel") -> Dialog:
        return self.open_dialog(ConfirmDialog(title, message, on_yes, yes_label=yes_label, no_label=no_label))

    def open_settings(self) -> Dialog | None:
        """The Settings panel: the board view's settings, then the sound row (None without a view)."""
        if self.board is None:
            return None
        game = self.session.game
        specs = list(self.board.settings())
        values = current_values(self.settings_store, game.id, specs) | self.sound.values()
        note = "Rule settings start a new game." if any(s.rule for s in specs) else ""
        return self.open_dialog(SettingsDialog(f"{game.name or game.id} settings", [*specs, SOUND_SETTING], values,
                                               self._save_settings, note=note))

    def _save_settings(self, changed: dict[str, Any]) -> None:
        if SOUND_SETTING.key in changed:
            self.sound.apply_settings(changed)
            changed = {k: v for k, v in changed.items() if k != SOUND_SETTING.key}
        if not changed or self.board is None:
            return
        rules = {s.key for s in self.board.settings() if s.rule}
        s = self.session

        def store_and_apply() -> None:
            for key_name, value in changed.items():
                self.settings_store.set_setting(s.game.id, key_name, value)
            if self.board is not None:
                self.board.apply_settings(changed)

        if rules & changed.keys() and s.cursor > 0 and not s.is_over:
            self.confirm("Restart the game?", "These settings change the rules, so the game under way ends and a new "
                         "one starts. If the game is rated, leaving it counts as a loss.", store_and_apply,
                         yes_label="Restart")
            return
        store_and_apply()

    def open_customize(self) -> Dialog:
        s = self.session
        bots = [(b.id, b.name) for b in catalog.bot_choices(self.plugins, s.game.id)]
        try:
            rulesets = catalog.ruleset_choices(self.plugins, s.game.id)
        except PegboardError as exc:
            log.warning("cannot list rulesets: %s", exc)
            rulesets = []
        return self.open_dialog(CustomizeDialog(
            s.game.seats, [c.id for c in s.seats], bots, rulesets, s.ruleset, self._apply_seats, self._start_new,
        ))

    def _apply_seats(self, seats: list[str]) -> None:
        try:
            self.session.set_seats(seats)
        except PegboardError as exc:
            self.show_error("Cannot change players", str(exc))
            return
        self.say("Players changed; the game goes on.")

    def _start_new(self, seats: list[str], ruleset: str) -> None:
        s = self.session
        try:
            if ruleset == s.ruleset:
                s.restart(seats=seats)
            else:
                game = load_game(s.game.id, ruleset, plugins=self.plugins)
                s.restart(game=game, seats=seats)
        except PegboardError as exc:
            self.show_error("Cannot start a new game", str(exc))
            return
        self.say("New game.")

    def open_end_dialog(self) -> Dialog | None:
        """The end-of-game screen for the finished game shown (None while it goes on)."""
        s = self.session
        if s.online and self.friend.in_match:
            return self.open_dialog(self.friend.end_dialog()) if s.result is not None else None
        if s.result is None:
            return None
        words = end_words(s.result, s.game.seats, [c.is_human for c in s.seats], s.seat_name)
        extend_label = None
        if s.can_extend():
            turns = s.extension_turns()
            extend_label = f"Play {turns} more turns" if turns else "Play on"
        note = self.board.end_note() if self.board is not None else ""
        return self.open_dialog(EndGameDialog(words.headline, words.reason, score=words.score, outcome=words.outcome,
                                              extend_label=extend_label, on_extend=self._extend,
                                              on_new_game=self.new_game, note=note,
                                              actions=[("Review", self.start_review,
                                                        "Review: the evaluation graph, marked moves and the better move, move by move.")]))

    def _extend(self) -> None:
        try:
            self.session.extend()
        except PegboardError as exc:
            self.show_error("Cannot extend", str(exc))
            return
        self.say("Turn limit extended; play on.")

    def open_export(self, folder: Path | None = None) -> Dialog:
        refusal = self.export_refusal()
        if refusal is not None:
            return self.open_dialog(MessageDialog("Export waits for the end", refusal))
        suffix = self._text_suffix()
        name = f"{self.session.game.id}-{datetime.now():%Y%m%d-%H%M%S}{suffix}"
        return self.open_dialog(FileDialog(f"Export {suffix}", "save", self._export, folder=folder, name=name,
                                           suffixes=(suffix, ".json")))

    def export_refusal(self) -> str | None:
        """Why the game under way may not be saved to a file now (None: it may). A record holds
        the seed and every move, so while a person plays a game that hides something from them
        (fog of war), or one where taking a move back is not offered (a rated game: the seed
        tells the refills to come), the file would tell them what they may not know."""
        s = self.session
        if s.is_over or s.viewer is None:
            return None
        if s.game.hidden_information:
            return ("A saved game holds the seed and every move, both sides', so while the game runs under fog it "
                    "would show what you cannot see. Export it when the game is over.")
        if self.board is not None and not self.board.allows_undo():
            return ("A saved game holds the seed, which tells every star still to fall, so a rated game can be "
                    "exported once it is over.")
        return None

    def _export(self, path: Path) -> str | None:
        try:
            written = self.session.export(path)
        except (PegboardError, OSError) as exc:
            return str(exc)
        self.say(f"Saved {len(self.session.moves)} moves to {written}.")
        return None

    def open_import(self, folder: Path | None = None) -> Dialog:
        suffix = self._text_suffix()
        return self.open_dialog(FileDialog(f"Import {suffix}", "open", self._import, folder=folder,
                                           suffixes=(suffix, ".json")))

    def _import(self, path: Path) -> str | None:
        try:
            self.session.import_file(path)
        except MatchImportError as exc:
            # the file dialog closes; the error dialog names the line and the reason
            self.close_dialog(self.dialog) if self.dialog is not None else None
            self.show_error("Import failed", f"{path.name}: {exc}\n\nThe current game is unchanged.")
            return None
        except (SessionError, OSError) as exc:
            return str(exc)
        self.say(f"Imported {len(self.session.history)} moves from {path.name}.{self._bots_paused_note()}")
        if not self.session.is_over:  # a finished one has the end screen, Review among its buttons
            s = self.session
            self.confirm("Game imported", f"{len(s.history)} moves from {path.name}; {s.player_label(s.to_move)} is to "
                         "move. Play on from here, or review the moves played.", self.start_review,
                         yes_label="Review", no_label="Play on")
        return None

    # -- review ----------------------------------------------------------------------------------

    def start_review(self) -> Dialog | None:
        """Review the game shown: the graph under the board fills while the analysis runs in the
        background. Refused (a dialog says why) for a hidden-information game still running."""
        s = self.session
        if s.online or self.reviewing is not None:
            return None
        if s.cursor != len(s.history):
            s.jump(len(s.history))  # the review judges the whole line
        last = self._last_review
        try:
            reviewing = last if last is not None and last.key == line_key(s) else Reviewing(
                s, self.plugins, budget=self.review_budget, workers=s.workers)
        except AnalysisRefused:
            name = s.game.name or s.game.id
            return self.open_dialog(MessageDialog(
                "Review waits for the end", f"This {name} game is still running, and a review sees everything, the hidden "
                "part included: finish the game, then review it."))
        except PegboardError as exc:
            return self.show_error("Cannot review", str(exc))
        reviewing.resume()
        self.reviewing = reviewing
        self._hold_clocks()
        self._better_shown = None
        self.graph.colors = (self.board.seat_colors if self.board is not None else None) or theme.SEAT_COLORS
        self.graph.show(True)
        if self.dialog is not None:
            self.close_dialog(self.dialog)
        self.relayout()
        self._refresh_review()
        self._refresh_all(position=False)
        return None

    def leave_review(self) -> None:
        """Back to the finished game (its last position), without the graph, marks or better move."""
        reviewing = self.reviewing
        if reviewing is None:
            return
        reviewing.stop()
        self._last_review = reviewing
        self.reviewing = None
        self._hold_clocks()
        self._better_shown = None
        self.graph.show(False)
        self.history.set_marks({})
        if self.board is not None:
            self.board.show_better_move(None)
        end = len(self.session.history)
        if self.session.cursor != end:
            self.session.jump(end)
        self.relayout()
        self._refresh_all()

    def _review_jump(self, ply: int) -> None:
        if self.reviewing is not None and ply != self.session.cursor:
            self.session.jump(ply)

    def _review_key(self, symbol: int) -> bool:
        """The review's keys: ← → a ply, Home and End the ends, Escape leaves."""
        s = self.session
        target = {key.LEFT: s.cursor - 1, key.RIGHT: s.cursor + 1, key.HOME: 0, key.END: len(s.history)}.get(symbol)
        if target is not None:
            self._review_jump(min(len(s.history), max(0, target)))
            return True
        if symbol == key.ESCAPE:
            self.leave_review()
            return True
        return False

    def _refresh_review(self) -> None:
        """Bring the graph, the History's marks and the better move up to date with the review."""
        reviewing = self.reviewing
        if reviewing is None:
            return
        s = self.session
        graph = self.graph
        graph.set_curve(reviewing.review.curve())
        graph.set_marks(reviewing.marks())
        graph.set_header(reviewing.header())
        graph.set_cursor(s.cursor)
        marks = reviewing.marks()
        if marks != self.history.marks:
            self.history.set_marks(marks)
            self.history.refresh(s, self.board)
        better = (s.cursor, reviewing.better_move(s.cursor))
        if better != self._better_shown and self.board is not None:
            self._better_shown = better
            self.board.show_better_move(better[1])
        self._refresh_status()



__all__ = ["MatchWindow", "StatusBar"]
