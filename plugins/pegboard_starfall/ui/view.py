"""Starfall's board view for the match window (see :mod:`pegboard.ui.board`).

Layout inside the board area: the explain line across the top, the 11x11 board
(your side at the bottom), and a side panel on the right (ratings, squares,
clocks, the selected drone and its actions).

Input: drag a star onto its neighbour, or click one star and then the other,
to swap (a swap that makes no line snaps back). Click any drone to see where
it can go and what it can take; for one of your drones on your turn the side
panel shows its actions (Move, Fire missile, Claim, Warp, Strike, Ram, and on
the Command Build a turret) and the board marks their targets: click one to
play it. Escape or a right click cancels. A click during an animation skips it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import pyglet
from pyglet import shapes
from pyglet.window import key, mouse

from pegboard.game import events_for
from pegboard.view import (
    AnimationQueue,
    BoardViewBase,
    Button,
    Label,
    Rect,
    Setting,
    Transform,
    Ui,
    ViewHost,
    arrow_shapes,
    as_sentence,
    clock_text,
    current_values,
    fit_wrapped,
    line_height,
    ring_shapes,
    text_width,
    theme,
    wrapped_height,
)

from .. import fog
from .. import moves as mv
from ..pieces import COLOR_NAMES, COMMAND, KIND_NAMES, RED_SQUARES, SIDE_NAMES, WHITE_SQUARES
from ..state import StarfallState
from . import explaining, guided, look, match, motion, options, picking, rated, sounds, welcome
from .explainline import ExplainLine
from .hinting import QuietHand
from .motion import Scene
from .painter import Frame, Groups, Painter

PANEL_WIDTH = 250
SHORT_LABELS = {"fire": "Fire", "build": "Turret"}  # a narrow panel's button words
EXPLAIN_HEIGHT = 46
DRAG_START = 0.3  # of a cell: a press that moves further is a drag


class StarfallView(BoardViewBase):
    """The Starfall board, its side panel and the explain line."""

    seat_colors = (look.GOLD, look.DISC_THEIRS)

    def __init__(self, game: Any, session: Any, *, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(game, session)
        self.sf = game
        self.painter = Painter(game.geo.width, game.geo.height)
        self.now = clock
        self.ground = pyglet.graphics.Batch()
        self.pieces = pyglet.graphics.Batch()
        self.moving = pyglet.graphics.Batch()
        self.overlay = pyglet.graphics.Batch()
        self._ground_items: list[Any] = []
        self._cells: dict[int, tuple[Any, list[Any]]] = {}  # square -> (what it shows, its drawables)
        self._moving: dict[Any, tuple[Transform, dict[Any, list[Any]]]] = {}  # what moves together -> drawables
        self._flashes: dict[int, Any] = {}  # square -> its ring while a clear flashes
        self._painted: Any = None  # (frame, which squares move, geometry) the static layers were last painted for
        self._flash_group = pyglet.graphics.Group(order=2)  # over every moving square
        self._overlay_items: list[Any] = []
        #: Review: the better move drawn over the board (None: none), and its shapes.
        self.better: mv.SfMove | None = None
        self.better_items: list[Any] = []
        self._ground_key: Any = None
        self._pieces_key: Any = None
        self.anims = AnimationQueue()
        self.explain_enabled = True
        self.explain = ExplainLine()
        self._told_cache: dict[int, tuple[Any, int | None, str, str]] = {}
        # selection state
        self.selected: int | None = None  # a drone square (ours to act with, or inspected)
        self.mode: str | None = None
        self.acts: dict[str, dict[int, mv.SfMove]] = {}
        self.reach: dict[str, list[int]] = {}
        self.swap_from: int | None = None
        self._press: tuple[int, float, float] | None = None  # (square, x, y) of a press on the board
        self._dragging = False
        self._drag_at: tuple[float, float] | None = None
        self.highlight: tuple[int, ...] = ()  # squares lit green (the quieter hand's hint)
        self.guide_squares: tuple[int, ...] = ()  # what the guided game asks to tap
        self.guide_text = ""
        self._guide_key: Any = None
        # the side panel
        self.panel_ui = Ui(self.batch)
        self.panel_rect = Rect(0, 0, 0, 0)
        self.info = Label("", wrap=True, size=theme.SMALL_FONT_SIZE)
        self.title = Label("", bold=True)
        self.scores = Label("", size=theme.SMALL_FONT_SIZE, wrap=True)
        self.clocks = Label("", size=theme.FONT_SIZE, bold=True)
        self.mode_buttons: dict[str, Button] = {}
        for mode in (*picking.MODES, "claim"):
            self.mode_buttons[mode] = Button(picking.MODE_LABELS[mode], self._mode_action(mode),
                                             short_text=SHORT_LABELS.get(mode), tooltip=picking.MODE_TIPS[mode])
        self.pass_button = Button("Pass", self._pass,
                                  tooltip="Pass: end your turn without an action; no other action is open to you.")
        self.aims: dict[int, mv.SfMove] = {}  # where an owed asteroid may be placed now
        self.aim_anywhere: mv.SfMove | None = None
        self.fall_button = Button("Let it fall at random", lambda: self._play(self.aim_anywhere) if self.aim_anywhere else None,
                                  short_text="Random",
                                  tooltip="Let it fall at random: your asteroid drops on a random square the other side owns.")
        self.cancel_button = Button("Cancel (Esc)", self.cancel, short_text="Cancel",
                                    tooltip="Cancel (Esc): put down the drone or star you picked up.")
        self.widgets = [self.title, self.scores, self.clocks, self.info, *self.explain.widgets, *self.mode_buttons.values(),
                        self.pass_button, self.fall_button, self.cancel_button]
        self.quiet = QuietHand(lambda: self.now())
        self.values: dict[str, Any] = dict(options.DEFAULTS)
        self.profile: Any = None
        self.notice: str | None = None  # a line about ratings (an abandoned game) until the next move
        self.frame = self._frame_now()
        self.scene = Scene(self.frame)

    @property
    def guide(self) -> guided.Guide | None:
        return match.info(self.session).guide  # type: ignore[no-any-return]

    # -- whose eyes ---------------------------------------------------------------------------

    @property
    def st(self) -> StarfallState:
        """The session's position (always a Starfall state: this view draws only Starfall)."""
        return cast(StarfallState, self.session.state)

    @property
    def me(self) -> int:
        """"You": the side drawn at the bottom in gold, the person's seat (South when two people
        share the screen, or nobody plays)."""
        humans = [i for i, c in enumerate(self.session.seats) if c.is_human]
        return humans[0] if len(humans) == 1 else 0

    @property
    def viewer(self) -> int:
        """Whose sight the board shows under fog: the person's, or the side to move's when two
        people share the screen."""
        humans = [i for i, c in enumerate(self.session.seats) if c.is_human]
        return humans[0] if len(humans) == 1 else self.st.to_move

    def view_state(self) -> Any:
        """The position as the viewer may know it (its player view under fog)."""
        st = self.st
        return st.player_view(self.viewer) if st.rules.fogged else st

    def _frame_now(self) -> Frame:
        st = self.st
        if not st.rules.fogged:
            return Frame.of(st)
        return Frame.of(self.view_state(), fog.visible(st, self.viewer))

    # -- layout -------------------------------------------------------------------------------

    def layout(self, area: Rect) -> None:
        self.area = area
        panel_w = min(PANEL_WIDTH, max(150.0, area.width * 0.3))
        self.panel_rect = Rect(area.right - panel_w, area.y, panel_w, area.height)
        # the board and its explain line share what the panel leaves, centred in it
        free = Rect(area.x + 6, area.y + 6, max(0.0, area.width - panel_w - 12), max(0.0, area.height - 12))
        board = Rect(free.x, free.y, free.width, max(0.0, free.height - EXPLAIN_HEIGHT))
        self.painter.bottom = self.me
        self.painter.fit(board.x, board.y, board.width, board.height)
        ox, oy, bw, bh = self.painter.rect
        lift = (board.top - (oy + bh)) / 2  # split the spare height above and below the pair
        self.painter.origin = (self.painter.origin[0], self.painter.origin[1] + lift)
        ox, oy, bw, bh = self.painter.rect
        self.explain.layout(Rect(ox, oy + bh + 6, bw, EXPLAIN_HEIGHT - 6), Rect(ox, oy, bw, bh))
        self._layout_panel()
        self._ground_key = None
        self.refresh()

    def _layout_panel(self) -> None:
        """Stack the panel from the top, each part as tall as its text: title, scores, clocks,
        the selection's description, then the action buttons. When the window is short the
        buttons get slimmer and the description gives up its last lines: nothing overlaps."""
        r = self.panel_rect
        p = Rect(r.x + 10, r.y + 8, max(0.0, r.width - 20), max(0.0, r.height - 16))
        buttons = [b for b in (*self.mode_buttons.values(), self.pass_button, self.fall_button, self.cancel_button)
                   if b.visible]
        small = p.height < 440
        button_h, gap = (26.0, 4.0) if small else (30.0, 4.0)
        # the title and the clock line wrap rather than lose their ends in a narrow panel
        for line in (self.title, self.clocks):
            line.wrap = text_width(line.text, line.size, bold=line.bold) > p.width
        title_h = max(24.0, wrapped_height(self.title.text, p.width, self.title.size, bold=True) + 4)
        scores_h = wrapped_height(self.scores.text, p.width, self.scores.size)
        clocks_h = max(24.0, wrapped_height(self.clocks.text, p.width, self.clocks.size, True) + 4) if self.clocks.text else 0.0
        fixed = title_h + scores_h + clocks_h + len(buttons) * (button_h + gap) + 4 * gap
        info_room = max(0.0, p.height - fixed)
        lines = int(info_room // line_height(self.info.size))
        self.info.set_text(fit_wrapped(self.info.text, p.width, lines, self.info.size))
        info_h = wrapped_height(self.info.text, p.width, self.info.size)
        y = p.top
        for widget, height in ((self.title, title_h), (self.scores, scores_h), (self.clocks, clocks_h),
                               (self.info, info_h)):
            widget.set_rect(Rect(p.x, y - height, p.width, height))
            y -= height + (gap if height else 0.0)
        y -= gap
        for button in (*self.mode_buttons.values(), self.pass_button, self.fall_button, self.cancel_button):
            if button.visible:
                button.set_fit("full" if button.natural_width("full") <= p.width else "short")
                button.set_rect(Rect(p.x, y - button_h, p.width, button_h))
                y -= button_h + gap
            else:
                button.set_rect(Rect(p.x, -100, p.width, button_h))

    def panel_widgets(self) -> Sequence[Any]:
        """The side panel's widgets and the explain line, as laid out now (shown ones only)."""
        return [w for w in self.widgets if w.visible and w.rect.width > 0 and w.rect.height > 0
                and not (isinstance(w, Label) and not w.text)]

    def board_rect(self) -> Rect:
        return Rect(*self.painter.rect)

    # -- drawing -------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Redraw everything from the current position (no animation)."""
        self.painter.bottom = self.me
        self.frame = self._frame_now()
        st = self.st
        aims = [m for m in st.legal_moves() if m.kind == mv.AIM] if self._can_act() else []
        self.aims = {m.a: m for m in aims if m.a >= 0}
        self.aim_anywhere = next((m for m in aims if m.a < 0), None)
        if not self.anims.busy:
            self.scene = Scene(self.frame)
        self._paint()
        self._refresh_panel()
        self._rebuild_overlay()

    def show(self, scene: Scene) -> None:
        """Draw ``scene`` (called by the animation steps every frame)."""
        self.scene = scene
        self._paint()

    def _paint(self) -> None:
        scene, p = self.scene, self.painter
        geometry = (p.cell, p.origin, p.bottom, self.me)
        which = {sq: shift[3] for sq, shift in scene.moving.items()}
        last = self._painted
        if last is not None and last[0] is scene.frame and last[1] == which and last[2] == geometry:
            self._paint_moving(scene)  # the same squares moving over the same frame: only they change
            return
        self._painted = (scene.frame, which, geometry)
        ground_key = (tuple(scene.frame.owner), scene.frame.visible, p.cell, p.origin, p.bottom, self.me)
        if ground_key != self._ground_key:
            for item in self._ground_items:
                item.delete()
            self._ground_items = p.ground(scene.frame, self.me, self.ground)
            self._ground_key = ground_key
        if geometry != self._pieces_key:  # everything moved: drop every square's drawables
            self._drop_moving()
            for _key, items in self._cells.values():
                for item in items:
                    item.delete()
            self._cells = {}
            self._pieces_key = geometry
        f = scene.frame
        for sq in range(p.size):
            shift = scene.moving.get(sq)
            if shift is not None and not shift[3]:
                cell_key: Any = None  # drawn whole in the moving batch
            else:
                cell_key = (f.star[sq], f.ast[sq], f.kind[sq], f.side[sq], f.power[sq], f.ride[sq], f.miss[sq],
                            f.wreck[sq], f.seen(sq), shift is not None)
            old = self._cells.get(sq)
            if old is not None and old[0] == cell_key:
                continue
            if old is not None:
                for item in old[1]:
                    item.delete()
            if cell_key is None:
                self._cells.pop(sq, None)
                continue
            # a square whose star moves keeps only its drone here; the star is drawn apart
            items = self._drone_only(f, sq) if shift is not None else p.contents(f, sq, self.me, self.pieces)
            self._cells[sq] = (cell_key, items)
        self._paint_moving(scene)

    def _paint_moving(self, scene: Scene) -> None:
        """What moves this frame. Things that move alike (every falling star of a fall) share one
        :class:`Transform`; each is built once and from then on only moved, scaled or faded."""
        f = scene.frame
        wanted: dict[Any, tuple[float, float, float]] = {}  # what -> (dx, dy, scale)
        for sq, (dx, dy, scale, star_only) in scene.moving.items():
            content = (f.star[sq], f.ast[sq], f.wreck[sq], f.seen(sq)) if star_only else (
                f.star[sq], f.ast[sq], f.kind[sq], f.side[sq], f.power[sq], f.ride[sq], f.miss[sq], f.wreck[sq], f.seen(sq))
            wanted["square", sq, star_only, content] = (dx, dy, scale)
        self._paint_flashes(scene)
        if scene.shot is not None:
            wanted["shot",] = (scene.shot[0], scene.shot[1], 1.0)
        if self._drag_at is not None and self._press is not None and f.star[self._press[0]] >= 0:
            sq = self._press[0]
            wanted["drag", sq, f.star[sq]] = (*self._drag_offset(), 1.0)
        classes: dict[Any, list[Any]] = {}
        for what, (dx, dy, scale) in wanted.items():
            # a plain shift is shared; a scale is about the item's own centre, so it stays alone
            shared = scale == 1.0
            classes.setdefault((dx, dy) if shared else what, []).append(what)
        keep = {frozenset(members): members for members in classes.values()}
        for gone in [k for k in self._moving if k not in keep]:
            for items in self._moving.pop(gone)[1].values():
                for item in items:
                    item.delete()
        for members_key, members in keep.items():
            entry = self._moving.get(members_key)
            if entry is None:
                entry = self._moving[members_key] = self._build_moving(f, members, wanted[members[0]][2] != 1.0)
            transform, built = entry
            dx, dy, scale = wanted[members[0]]
            transform.set(dx, dy, scale)

    def _paint_flashes(self, scene: Scene) -> None:
        """The white rings of a clear: one circle per square, grown and faded in place (no
        transform of their own: a transform costs a state change and a draw call each)."""
        p = self.painter
        for sq in [sq for sq in self._flashes if sq not in scene.flash]:
            self._flashes.pop(sq).delete()
        for sq in scene.flash:
            ring = self._flashes.get(sq)
            if ring is None:
                ring = self._flashes[sq] = shapes.Circle(*p.center(sq), p.cell * 0.3, color=(255, 255, 255, 230),
                                                         batch=self.moving, group=self._flash_group)
            ring.radius = p.cell * (0.3 + 0.3 * scene.flash_t)
            ring.opacity = int(230 * (1.0 - scene.flash_t))

    def _build_moving(self, frame: Frame, members: list[Any], scaled: bool) -> tuple[Transform, dict[Any, list[Any]]]:
        """The drawables of things that move together, under one new transform (scaled about the
        centre of the square when ``scaled``: then ``members`` is that one square's)."""
        p = self.painter
        first = members[0]
        cx, cy = p.center(first[1]) if scaled and len(first) > 1 else (0.0, 0.0)
        transform = Transform(cx, cy, order=0 if first[0] == "square" else 1)  # shots and drags on top
        groups = Groups(transform)
        built: dict[Any, list[Any]] = {}
        for what in members:
            kind = what[0]
            if kind == "square":
                built[what] = p.contents(frame, what[1], self.me, self.moving, star_only=what[2], groups=groups)
            elif kind == "shot":
                built[what] = [shapes.Circle(0.0, 0.0, p.cell * 0.14, color=look.MISSILE, batch=self.moving,
                                             group=groups.over)]
            else:  # a dragged star
                built[what] = look.star_glyph(what[2], *p.center(what[1]), p.cell * 0.33, self.moving, groups.over)
        return transform, built

    def _drop_moving(self) -> None:
        for _transform, built in self._moving.values():
            for items in built.values():
                for item in items:
                    item.delete()
        for ring in self._flashes.values():
            ring.delete()
        self._moving, self._flashes = {}, {}

    def _drone_only(self, frame: Frame, sq: int) -> list[Any]:
        if not frame.kind[sq] or not frame.seen(sq):
            return []
        x, y = self.painter.center(sq)
        return self.painter.drone(frame, sq, self.me, x, y, self.pieces)

    def _drag_offset(self) -> tuple[float, float]:
        """How far the dragged star follows the pointer: at most one cell, along one axis."""
        assert self._press is not None and self._drag_at is not None
        _sq, px, py = self._press
        dx, dy = self._drag_at[0] - px, self._drag_at[1] - py
        cell = self.painter.cell
        if abs(dx) >= abs(dy):
            return max(-cell, min(cell, dx)), 0.0
        return 0.0, max(-cell, min(cell, dy))

    def _update_guide(self) -> None:
        """What the guided game lights now (cached per position and selection)."""
        guide = self.guide
        st = self.st
        key_now = (guide.step if guide else None, st.version, self.selected, self.session.cursor)
        if key_now == self._guide_key:
            return
        self._guide_key = key_now
        if guide is None:
            self.guide_squares, self.guide_text = (), ""
            return
        sq, text = guide.target(st, self.me, self.selected)
        squares = [] if sq is None else [sq]
        if guide.step == "match" and sq is not None:
            other = guide.second_square(st)
            if other is not None:
                squares.append(other)
        self.guide_squares, self.guide_text = tuple(squares), text
        if guide.step == "done" and self.session.cursor and self.guide_text == "":
            self.guide_text = ""

    def guide_button(self) -> str | None:
        """The action button the guided game lights now: Claim, once the scout is selected at step 2."""
        guide = self.guide
        if guide is None or guide.step != "claim" or self.selected is None:
            return None
        return "claim" if self.selected == guide.scout(self.st, self.me) else None

    def status_text(self) -> str | None:
        if self.status:
            return self.status
        if self.guide is not None:
            self._update_guide()
            if self.guide.step == "done":
                return "Guided game done: you moved, claimed and matched. Play on, or start a New game."
            return self.guide_text or None
        return self.notice

    def play(self, move: Any) -> bool:
        guide = self.guide
        if guide is not None and not guide.allows(self.st, self.me, move):
            self._update_guide()
            self.status = "Guided game: " + (self.guide_text.split(": ", 1)[-1] or "tap the lit square.")
            return False
        self.notice = None
        if self.session.check(move) is None:
            rated.register(self.session, self.profile)  # before the move: it may end the game
        played = super().play(move)
        if played and guide is not None:
            guide.advance(move)
        return played

    def _rebuild_overlay(self) -> None:
        self._update_guide()
        for item in self._overlay_items:
            item.delete()
        p, g = self.painter, self.painter.groups
        s = p.cell
        items: list[Any] = []

        def ring(sq: int, color: tuple[int, int, int], width: float = 0.08, radius: float = 0.44, alpha: int = 255) -> None:
            x, y = p.center(sq)
            items.append(shapes.Arc(x, y, s * radius, segments=32, thickness=max(2.0, s * width), color=(*color, alpha),
                                    batch=self.overlay, group=g.over))

        def dot(sq: int, color: tuple[int, int, int]) -> None:
            """A reachable square: tinted, with a white-rimmed dot that shows on any star."""
            x, y = p.center(sq)
            items.append(shapes.Rectangle(x - s / 2, y - s / 2, s, s, color=(*color, 60), batch=self.overlay, group=g.over))
            items.append(shapes.Circle(x, y, s * 0.15, color=(255, 255, 255), batch=self.overlay, group=g.over))
            items.append(shapes.Circle(x, y, s * 0.11, color=color, batch=self.overlay, group=g.over))

        def cross(sq: int, color: tuple[int, int, int]) -> None:
            x, y = p.center(sq)
            k = s * 0.4
            for ax, ay, bx, by in ((x - k, y, x - k * 0.4, y), (x + k * 0.4, y, x + k, y), (x, y - k, x, y - k * 0.4),
                                   (x, y + k * 0.4, x, y + k)):
                items.append(shapes.Line(ax, ay, bx, by, thickness=max(2.0, s * 0.06), color=color, batch=self.overlay,
                                         group=g.over))
            ring(sq, color, 0.05, 0.3)

        if not self.anims.busy:
            if self.selected is not None:
                ring(self.selected, look.SELECT, 0.1, 0.47)
                if self.mode is not None and self.mode in self.acts:
                    targets = self.acts[self.mode]
                    for sq in targets:
                        if self.mode == "fire":
                            cross(sq, look.TARGET)
                        elif self.mode in ("ram", "strike"):
                            ring(sq, look.TARGET, 0.08, 0.4)
                        elif self.mode == "claim":
                            pass
                        elif self.frame.kind[sq] and self.frame.side[sq] != self.me:
                            ring(sq, look.TAKE_RING, 0.1, 0.44)
                        elif self.frame.kind[sq]:
                            ring(sq, look.MOVE_DOT, 0.06, 0.44)  # a stack
                        else:
                            dot(sq, look.MOVE_DOT)
                elif self.reach:  # an inspected drone (the other side's, or ours off-turn)
                    for sq in self.reach.get("moves", []):
                        if sq in self.reach.get("takes", []):
                            ring(sq, look.TAKE_RING, 0.07, 0.44, 200)
                        else:
                            dot(sq, look.INSPECT)
                    for sq in self.reach.get("fires", []):
                        cross(sq, look.INSPECT)
                    for sq in (*self.reach.get("strikes", []), *self.reach.get("rams", [])):
                        ring(sq, look.INSPECT, 0.06, 0.36)
                    for sq in self.reach.get("sweeps", []):
                        ring(sq, look.TAKE_RING, 0.05, 0.3, 200)
            if self.swap_from is not None:
                x, y = p.center(self.swap_from)
                items.append(shapes.Box(x - s / 2 + 2, y - s / 2 + 2, s - 4, s - 4, thickness=max(2.0, s * 0.07),
                                        color=look.SELECT, batch=self.overlay, group=g.over))
            for sq in self.highlight:
                x, y = p.center(sq)
                items.append(shapes.Box(x - s / 2 + 2, y - s / 2 + 2, s - 4, s - 4, thickness=max(3.0, s * 0.09),
                                        color=look.HINT, batch=self.overlay, group=g.over))
            for sq in self.aims:
                ring(sq, look.TARGET, 0.09, 0.42)
            for sq in self.guide_squares:
                x, y = p.center(sq)
                items.append(shapes.Rectangle(x - s / 2, y - s / 2, s, s, color=(*look.GUIDE, 70), batch=self.overlay,
                                              group=g.over))
                items.append(shapes.Box(x - s / 2 + 1, y - s / 2 + 1, s - 2, s - 2, thickness=max(3.0, s * 0.1),
                                        color=look.GUIDE, batch=self.overlay, group=g.over))
        self.better_items = self._better_marks()
        self._overlay_items = items + self.better_items

    def show_better_move(self, move: Any) -> None:
        """Review: the better move as an arrow between its two squares, or a ring on its one."""
        self.better = move if isinstance(move, mv.SfMove) else None
        self._rebuild_overlay()

    def _better_marks(self) -> list[Any]:
        move, p = self.better, self.painter
        if move is None or not 0 <= move.a < p.size:
            return []  # a pass, or an asteroid left to fall anywhere: nothing on the board
        s, group = p.cell, p.groups.over
        ax, ay = p.center(move.a)
        two_squares = move.kind in (mv.SWAP, mv.FIRE, mv.MOVE, mv.WARP, mv.STRIKE) and 0 <= move.b < p.size
        if not two_squares:
            return ring_shapes(ax, ay, s * 0.36, width=max(3.0, s * 0.1), batch=self.overlay, group=group)
        bx, by = p.center(move.b)
        return arrow_shapes(ax, ay, bx, by, width=max(4.0, s * 0.16), batch=self.overlay, group=group)

    def draw(self) -> None:
        for w in self.widgets:
            w.sync(self.panel_ui)
        self.ground.draw()
        self.pieces.draw()
        self.moving.draw()
        self.overlay.draw()
        self.batch.draw()

    # -- the side panel -----------------------------------------------------------------------------

    def title_text(self) -> str:
        return f"Starfall — you are {SIDE_NAMES[self.me]}"

    def score_lines(self) -> list[str]:
        """Lines under the title: squares, stocks, drones (views add ratings). Under fog the other
        side's figures count only what the viewer sees ("12 in sight")."""
        st = self.st
        me = self.me
        target = st.rules.target
        lines = []
        skill = match.skill_of(self.session)
        if match.info(self.session).guided:
            lines.append("Guided first game (not rated)")
        elif skill is not None:
            rated_word = ("not rated: imported" if match.imported(self.session) else
                          "rated" if self.profile is not None else "not rated: no profile")
            lines.append(f"You {rated.rating(self.profile):.0f} · bot skill {skill}: {options.bot_rating(skill)} ({rated_word})")
        known = self.view_state()
        hidden = self.viewer ^ 1 if st.rules.fogged else None
        owned = known.territory()

        def who(seat: int) -> str:
            return "you" if seat == me else SIDE_NAMES[seat]

        def count(seat: int, value: int) -> str:
            return f"{value} in sight" if seat == hidden else str(value)

        def stock(seat: int) -> str:
            if seat == hidden and known.cmd[seat] < 0:
                return "out of sight"
            return str(known.command_stock(seat))

        def drones(seat: int) -> str:
            n = known.drone_count(seat)
            return count(seat, n) if seat == hidden else f"{n}/{st.rules.drone_cap}" if seat == me else str(n)

        first, second = me, me ^ 1
        return lines + [
            f"Squares: {who(first)} {count(first, owned[first])}, {who(second)} {count(second, owned[second])} "
            f"(win at {target})",
            f"Missiles in stock: {who(first)} {stock(first)}, {who(second)} {stock(second)}",
            f"Drones: {who(first)} {drones(first)}, {who(second)} {drones(second)}",
        ]

    def _refresh_panel(self) -> None:
        self.title.set_text(self.title_text())
        self.scores.set_text("\n".join(self.score_lines()))
        self.clocks.set_text(self._clock_line())
        self.info.set_text(self._selection_text())
        self.explain.set_enabled(self.explain_enabled)
        self.explain.set_texts(*self.explain_texts())
        own_turn = self._can_act()
        for mode, button in self.mode_buttons.items():
            offered = own_turn and self.selected is not None and mode in self.acts
            if mode == "build" and own_turn and self.selected is not None and self.frame.kind[self.selected] == COMMAND:
                offered = True  # always on the Command's menu; disabled below 10 missiles
                button.set_enabled("build" in self.acts)
            else:
                button.set_enabled(True)
            button.show(offered)
            button.set_toggled(offered and (mode == self.mode or mode == self.guide_button()))
            if mode == "fire" and offered:
                sq = self.selected
                assert sq is not None
                button.set_text(f"Fire missile ({self.st.miss[sq]} carried)", f"Fire ({self.st.miss[sq]})")
        legal = self.st.legal_moves() if own_turn else []
        self.pass_button.show(own_turn and len(legal) > 0 and all(m.kind in (mv.PASS, mv.FIRE) for m in legal))
        self.fall_button.show(own_turn and self.aim_anywhere is not None)
        self.cancel_button.show(self.selected is not None or self.swap_from is not None)
        self._layout_panel()

    def _clock_line(self) -> str:
        """The clocks as the status bar shows them (the session's, read every frame), with "You"."""
        names = ["You" if seat == self.me else SIDE_NAMES[seat] for seat in range(2)]
        return clock_text(self.session, names, move_timer=False)

    def _selection_text(self) -> str:
        st = self.frame
        sq = self.selected
        if self.aims or self.aim_anywhere is not None:
            return ("Your shape pays an asteroid onto the other side's land: click a ringed square to drop it there"
                    + (", or let it fall at random." if self.aim_anywhere is not None else "."))
        if sq is None:
            if self.swap_from is not None:
                return "Star picked: click a neighbour to swap with it, or click it again to drop it."
            return ("Drag a star onto its neighbour (or click both) to swap. Click any drone to see where it can "
                    "go and what it can take.")
        kind = KIND_NAMES[st.kind[sq]]
        whose = "Your" if st.side[sq] == self.me else f"{SIDE_NAMES[st.side[sq]]}'s"
        rides = _ride_words(st.ride[sq])
        parts = [f"{whose} {kind} at {self.sf.geo.name(sq)}, power {st.power[sq]}"]
        if st.miss[sq] or st.kind[sq] == COMMAND:
            parts.append(f"{st.miss[sq]} missile{'s' * (st.miss[sq] != 1)}" + (" in stock" if st.kind[sq] == COMMAND else ""))
        if rides:
            parts.append(f"rides {rides}")
        text = ", ".join(parts) + "."
        if self.mode is not None and self.mode in self.acts:
            n = len(self.acts[self.mode])
            text += f" {picking.MODE_LABELS[self.mode]}: {n} target{'s' * (n != 1)} marked."
        elif self.reach:
            text += f" It can reach {len(self.reach.get('moves', []))} squares and take {len(self.reach.get('takes', []))}."
        if st.kind[sq] == COMMAND and st.side[sq] == self.me:
            cost = self.sf.rules.turret_cost
            if st.miss[sq] < cost:
                text += f" A turret takes {cost} missiles."
        return text

    # -- session changes ------------------------------------------------------------------------------

    def on_session_change(self, change: Any) -> None:
        if change.kind in ("thinking", "paused", "resumed"):
            self._refresh_panel()
            self._rebuild_overlay()
            return
        self.status = None
        self._clear_selection()
        self.highlight = ()
        old = match.previous(self.session)
        if old is not None:  # New game (or an import) while a rated game was under way: a loss
            self.notice = rated.abandon(old, self.profile) or None
            match.info(self.session)
        before = self.frame
        if change.kind == "move" and change.move is not None and not self.anims.busy:
            self.painter.bottom = self.me
            after = self._frame_now()
            viewer = self.session.viewer
            events = list(change.events) if viewer is None else events_for(change.events, viewer)
            sign = 1.0 if change.seat == self.me else -1.0
            steps = motion.move_steps(self.show, before, after, change.move, events, self.painter.center,
                                      self.painter.cell, sign)
            self.frame = after
            self.anims.extend(steps)
        else:
            self.anims.skip()
        self.refresh()

    def explained(self) -> list[Any]:
        """The moves the explain line tells: since the person last acted (their own move, with
        the missiles fired before it, and the answer)."""
        s = self.session
        if s.cursor == 0:
            return []
        first = s.cursor - 1
        while first > 0 and not (s.seats[s.history[first].seat].is_human and cast(mv.SfMove, s.history[first].move).kind != mv.FIRE):
            first -= 1
        while first > 0 and s.history[first - 1].seat == s.history[first].seat:
            first -= 1  # the missiles fired before that action belong with it
        return s.history[first:s.cursor]

    def explain_texts(self) -> tuple[str, str]:
        """The explain line at a glance and in full, as the person at the screen may know it."""
        s, viewer = self.session, self.session.viewer
        records = self.explained()
        short = " ".join(explaining.summary(r, viewer, s.seat_name(r.seat), self.sf.geo.name) for r in records)
        full = "\n".join(line for r in records for line in explaining.detail(r, viewer, s.seat_name(r.seat)))
        return short, full

    def history_note(self, record: Any) -> str:
        return self._told(record)[0]

    def history_summary(self, record: Any) -> str:
        return self._told(record)[1]

    def _told(self, record: Any) -> tuple[str, str]:
        """A played move's History note and summary ("" each when the row says it all), worked
        out once per move and viewer: the History asks for every move after every change."""
        viewer = self.session.viewer
        hit = self._told_cache.get(id(record))
        if hit is not None and hit[0] is record and hit[1] == viewer:
            return hit[2], hit[3]
        name = self.session.seat_name(record.seat)
        lines = explaining.detail(record, viewer, name)
        note = "" if lines == [explaining.headline(record, viewer, name)] else "\n".join(lines)  # the row says it all
        short = explaining.summary(record, viewer, name, self.sf.geo.name)
        summary = "" if short == " ".join(lines) else short
        if len(self._told_cache) > 4096:
            self._told_cache.clear()
        self._told_cache[id(record)] = (record, viewer, note, summary)
        return note, summary

    def sound_cues(self, events: Sequence[Any]) -> list[str]:
        return sounds.move_cues(events)

    # -- input --------------------------------------------------------------------------------------

    def busy(self) -> bool:
        return self.anims.busy

    def update(self, dt: float) -> None:
        session = self.session
        self.clocks.set_text(self._clock_line())  # every frame, as the status bar does
        if self.quiet.poll(session, match.info(session).guided):
            self.highlight = self.quiet.squares
            self._rebuild_overlay()
        if self.anims.busy:
            self.anims.update(dt)
            if not self.anims.busy:
                self.scene = Scene(self.frame)
                self._paint()
                self._rebuild_overlay()

    def _can_act(self) -> bool:
        return self.session.input_block() is None and not self.anims.busy

    def _panel_press(self, gx: float, gy: float, button: int, modifiers: int) -> bool:
        for w in self.widgets:
            if isinstance(w, Button) and w.visible and w.enabled and w.contains(gx, gy):
                w.on_mouse_press(gx, gy, button, modifiers)
                return True
        return self.panel_rect.contains(gx, gy)

    def on_mouse_motion(self, x: float, y: float) -> None:
        gx, gy = x + self.area.x, y + self.area.y
        self.explain.set_hover(gx, gy)
        for w in self.widgets:
            if isinstance(w, Button):
                w.set_hover(w.visible and w.enabled and w.contains(gx, gy))

    def on_mouse_leave(self) -> None:
        self.explain.leave()
        for w in self.widgets:
            w.set_hover(False)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        if self.anims.skip():  # a click first finishes the animation
            self.scene = Scene(self.frame)
            self._paint()
            self._rebuild_overlay()
            return
        gx, gy = x + self.area.x, y + self.area.y
        if self.explain.press(gx, gy):  # the explain line opens (or closes) its whole text
            return
        if self._panel_press(gx, gy, button, modifiers):
            self._refresh_panel()
            self._rebuild_overlay()
            return
        sq = self.painter.square_at(gx, gy)
        if sq is None or button == mouse.RIGHT:
            self.cancel()
            return
        self.click_square(sq, gx, gy)

    def click_square(self, sq: int, gx: float | None = None, gy: float | None = None) -> None:
        """A left click on square ``sq`` (window point gx, gy; a drag may follow)."""
        frame = self.frame
        if gx is None or gy is None:
            gx, gy = self.painter.center(sq)
        self._press = (sq, gx, gy)
        self._dragging = False
        can_act = self._can_act()
        if can_act and (self.aims or self.aim_anywhere is not None):  # an owed asteroid first
            self._press = None
            if sq in self.aims:
                self._play(self.aims[sq])
            else:
                self.status = "Place the asteroid you are owed first: click a ringed square."
            return
        # a target of the selected drone's mode: play it
        if can_act and self.selected is not None and self.mode is not None and sq in self.acts.get(self.mode, {}):
            self._press = None
            self._play_target(sq)
            return
        # a second click of a two-click swap
        if can_act and self.swap_from is not None and sq != self.swap_from and self._adjacent(self.swap_from, sq):
            a = self.swap_from
            self._press = None
            self.try_swap(a, sq)
            return
        if frame.seen(sq) and frame.kind[sq]:
            if self.selected == sq:
                self._clear_selection()
                self.status = None
            else:
                self.select(sq)
        elif can_act:
            if self.swap_from == sq:
                self._clear_selection()
            else:
                self._clear_selection()
                if frame.seen(sq) and frame.star[sq] >= 0:
                    self.swap_from = sq
                    self.status = None
                elif not frame.seen(sq):
                    self.status = "That square is dark: you cannot see it."
        else:
            self._clear_selection()
            self.status = self.session.input_block() or "Wait for the move to finish."
        self._refresh_panel()
        self._rebuild_overlay()

    def select(self, sq: int) -> None:
        """Select the drone on ``sq``: ours on our turn shows its actions, any other shows its reach."""
        self._clear_selection()
        self.selected = sq
        st = self.st
        if self._can_act() and self.frame.side[sq] == st.to_move:
            self.acts = picking.actions(st, sq)
            self.mode = picking.default_mode(st, sq, self.acts)
            if self.guide_button() == "claim":
                self.mode = None  # step 2 asks for Claim: the lit button, not the scout's moves
                self.status = None
            elif self.mode is None and self.frame.kind[sq] != COMMAND:
                self.reach = self.view_state().reach(sq)
                self.status = f"That {KIND_NAMES[self.frame.kind[sq]]} has no move now."
            else:
                self.status = None
        else:
            self.reach = self.view_state().reach(sq)
            self.status = None

    def _clear_selection(self) -> None:
        self.selected = None
        self.mode = None
        self.acts = {}
        self.reach = {}
        self.swap_from = None

    def cancel(self) -> None:
        """Drop the selection (Escape, a right click, a click off the board)."""
        self._clear_selection()
        self._press = None
        self._drag_at = None
        self.status = None
        self._refresh_panel()
        self._rebuild_overlay()

    def _mode_action(self, mode: str) -> Callable[[], None]:
        def run() -> None:
            if mode == "claim":
                targets = self.acts.get("claim", {})
                if targets:
                    self._play(next(iter(targets.values())))
                return
            if mode in self.acts:
                self.mode = mode
            elif mode == "build":
                cost = self.sf.rules.turret_cost
                self.status = f"A turret costs {cost} missiles from the Command's stock."
        return run

    def _pass(self) -> None:
        self._play(mv.PASS_MOVE)

    def _play_target(self, sq: int) -> None:
        assert self.mode is not None
        move = self.acts[self.mode][sq]
        frame = self.frame
        if move.kind == mv.MOVE and frame.kind[sq] and frame.side[sq] == frame.side[move.a] and self.host is not None:
            mover, host = KIND_NAMES[frame.kind[move.a]], KIND_NAMES[frame.kind[sq]]
            power = min(self.sf.rules.max_power, frame.power[sq] + frame.power[move.a])
            self.host.confirm(
                "Stack these drones?",
                f"Move your {mover} onto your {host}? They become one {host} of power {power} that rides both "
                "drones' colours and carries both drones' missiles.",
                lambda: self._play(move), yes_label="Stack")
            return
        self._play(move)

    def _play(self, move: mv.SfMove) -> None:
        keep = self.selected if move.kind == mv.FIRE else None
        self._clear_selection()
        if self.play(move) and keep is not None and self.st.kind[keep]:
            self.select(keep)  # keep firing: the same drone stays selected
            if "fire" in self.acts:
                self.mode = "fire"
            self._refresh_panel()
            self._rebuild_overlay()

    def _adjacent(self, a: int, b: int) -> bool:
        geo = self.st.geo
        return geo.chebyshev(a, b) == 1 and (geo.col[a] == geo.col[b] or geo.row[a] == geo.row[b])

    def try_swap(self, a: int, b: int) -> bool:
        """Swap the stars on ``a`` and ``b``; a swap that makes no line snaps back. True if played."""
        self._clear_selection()
        outcome, reason = picking.swap_outcome(self.st, a, b)
        if outcome == "play":
            return self.play(mv.swap(a, b))
        if outcome == "snap":
            self.status = "No line: the stars snap back (that costs nothing)."
            self.anims.extend(motion.snap_steps(self.show, self.frame, a, b, self.painter.center))
        else:
            self.status = as_sentence(reason) if reason else "That swap is not possible."
        self._refresh_panel()
        self._rebuild_overlay()
        return False

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float, buttons: int) -> None:
        if self._press is None or not self._can_act():
            return
        gx, gy = x + self.area.x, y + self.area.y
        sq, px, py = self._press
        if not self._dragging and max(abs(gx - px), abs(gy - py)) < DRAG_START * self.painter.cell:
            return
        if not self._dragging:
            self._dragging = True
            self._clear_selection()
        self._drag_at = (gx, gy)
        self._paint()

    def on_mouse_release(self, x: float, y: float, button: int) -> None:
        press, dragging = self._press, self._dragging
        self._press, self._dragging, self._drag_at = None, False, None
        if press is None or not dragging:
            return
        gx, gy = x + self.area.x, y + self.area.y
        sq, px, py = press
        dx, dy = gx - px, gy - py
        self._paint()
        if max(abs(dx), abs(dy)) < 0.5 * self.painter.cell:
            self._refresh_panel()
            self._rebuild_overlay()
            return  # dropped near its own square: nothing happens
        # screen direction to board direction (the board is turned half a turn for North)
        sc, sr = (1 if dx > 0 else -1, 0) if abs(dx) >= abs(dy) else (0, 1 if dy > 0 else -1)
        if self.painter.bottom == 1:
            sc, sr = -sc, -sr
        other = picking.neighbour(self.st, sq, sc, sr)
        if other is None:
            self.cancel()
            return
        self.try_swap(sq, other)

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol == key.ESCAPE and (self.selected is not None or self.swap_from is not None or self.status):
            self.cancel()
            return True
        return False

    def set_hints(self, enabled: bool) -> None:
        self.hints = enabled
        self._rebuild_overlay()

    # -- settings and the rest of the contract (Starfall's own in StarfallPlay) ------------------------

    def attach(self, host: ViewHost) -> None:
        self.host = host
        self.profile = rated.open_profile()
        self.values = current_values(host.settings_store, options.GAME, self.settings())
        self.explain_enabled = bool(self.values[options.EXPLAIN])
        old = match.previous(self.session)
        if old is not None:
            self.notice = rated.abandon(old, self.profile) or None
        welcome.first_look(host, options.GAME, self.session.online)
        info = match.info(self.session)
        if not info.guided and self.session.cursor == 0 and not self.session.online:  # an online match is the host's
            match.configure(self.session, self.session.plugins, self.values, self._ratings())
            if self.session.game is not self.game:
                return  # the window built a new view for the new game; that one greets
        if welcome.take(host, options.GAME):
            host.confirm(welcome.TITLE, welcome.MESSAGE, self.start_guided, yes_label="Guided game", no_label="Just play")
        self.refresh()

    def _ratings(self) -> tuple[float, float] | None:
        """(South, North) ratings for the handicap: the person's and the bot's."""
        skill = match.skill_of(self.session)
        seat = match.human_seat(self.session)
        if skill is None or seat is None:
            return None
        mine, bot = rated.rating(self.profile), float(options.bot_rating(int(self.values[options.SKILL])))
        return (mine, bot) if seat == 0 else (bot, mine)

    def settings(self) -> Sequence[Setting]:
        return options.settings(self.start_guided, self.play_friend)

    def apply_settings(self, changed: Mapping[str, Any]) -> None:
        self.values.update(changed)
        self.explain_enabled = bool(self.values[options.EXPLAIN])
        if any(k in options.RULE_KEYS for k in changed) and not self.session.online:
            info = match.info(self.session)
            if info.guided:
                match.drop_guide(self.session)
            match.configure(self.session, self.session.plugins, self.values, self._ratings(), force=True)
            return
        self.refresh()

    def start_guided(self) -> None:
        """Start the guided first game (fixed seed, dark board, no clock, the scripted bot)."""
        game, ref = guided.guided_game(self.session.plugins)
        seat = match.human_seat(self.session)
        seats: list[Any] = [guided.GUIDE_BOT, guided.GUIDE_BOT]
        seats[0 if seat is None else seat] = "human"
        session = self.session
        old = match.info(session)
        if old.registered and not old.finished:
            self.notice = rated.abandon(old, self.profile) or None
        host = self.host
        match.guide_next(session, guided.Guide())
        session.restart(game=game, seed=guided.SEED, seats=seats, ruleset=ref)
        if host is not None:
            host.say("Guided first game: follow the lit squares.")

    def new_game(self) -> bool:
        """After the guided game, New starts a normal game: the stored settings and bot skill."""
        session = self.session
        if session.online or not match.info(session).guided:
            return False
        match.drop_guide(session)
        match.configure(session, session.plugins, self.values, self._ratings(), force=True)
        return True

    def play_friend(self) -> None:
        """Settings → Play a friend: the window's panel (the same for every game)."""
        if self.host is not None:
            self.host.play_friend()

    def allows_undo(self) -> bool:
        return not match.is_rated(self.session)

    def end_note(self) -> str:
        return rated.finish(self.session, self.profile)

    def delete(self) -> None:
        self.anims.clear()
        self._drop_moving()
        for item in (*self._ground_items, *self._overlay_items):
            item.delete()
        for _key, items in self._cells.values():
            for item in items:
                item.delete()
        self._ground_items, self._overlay_items, self._cells = [], [], {}
        for w in self.widgets:
            w.clear()
        super().delete()


def _ride_words(mask: int) -> str:
    words = [COLOR_NAMES[c] for c in range(5) if mask >> c & 1]
    if len(words) == 5:
        return "every colour"
    if mask & RED_SQUARES:
        words.append("red squares")
    if mask & WHITE_SQUARES:
        words.append("white squares")
    return ", ".join(words)


__all__ = ["StarfallView"]
