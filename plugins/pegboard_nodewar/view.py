"""Node War's board view for the match window (see :mod:`pegboard.ui.board`).

Drawing follows the rules text: live lines in the team colour with a glow
while joined to the Base, dead nodes in dark blue / dark red, cut lines left
on the board, a white X on full nodes. Click one of your alive nodes to
select it: its moves show as hints (green dot: new node, purple dot: split
your own line, green ring: loop, orange ring: revive); click a hint to play
it. Clicking one of your dead nodes inspects its links in dull colours; a
right click (or a click off the lattice) clears the selection.

Two layers: the position (rebuilt when the session changes) and an overlay
for hover, selection and hints (rebuilt when those change), so moving the
mouse never redraws the whole network.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

import pyglet
from pyglet import shapes

from pegboard.game import Event
from pegboard.view import BoardViewBase, Rect, arrow_shapes, as_sentence, cues

from .engine import BASE, CUT, EMPTY, GONE, GROW, LOOP, REVIVE, SPLIT, Move, NodeWarGame, NodeWarState

BLUE, RED = (59, 130, 246), (239, 68, 68)
DEAD = ((0x1D, 0x4E, 0xD8), (0xB9, 0x1C, 0x1C))  # dark blue, dark red (rules text)
CUT_COLOR = (100, 116, 139)
LATTICE = (51, 65, 85)
HINT = {GROW: (34, 197, 94), SPLIT: (168, 85, 247), LOOP: (34, 197, 94), REVIVE: (249, 115, 22)}
SELECT = (253, 230, 138)  # pale gold
LINKED = (249, 115, 22)  # orange
HOVER = (148, 163, 184)
GLOW = ((0.36, 40), (0.2, 70))  # (width in cells, alpha) of the halo around lines joined to a Base
#: The sound of each engine event (the others, a node placed or a line drawn or split, are a move).
CUES_OF_EVENT = {"lines_cut": cues.CUT, "nodes_died": cues.TAKE}


def dull(color: tuple[int, int, int]) -> tuple[int, int, int]:
    grey = sum(color) // 3
    red, green, blue = ((c + 2 * grey) // 3 for c in color)
    return red, green, blue


class NodeWarView(BoardViewBase):
    """The Node War board (lattice, lines, nodes, hints)."""

    seat_colors = (BLUE, RED)

    @property
    def state(self) -> NodeWarState:
        """The position shown: a NodeWarState, or a rule-mod proxy that reads like one."""
        return cast(NodeWarState, self.session.state)

    def __init__(self, game: NodeWarGame, session: Any) -> None:
        super().__init__(game, session)
        self.nw = game
        self.overlay = pyglet.graphics.Batch()
        self._overlay_items: list[Any] = []
        # Explicit draw order: shapes sharing one group may draw in any order after deletions.
        self._glow, self._cut, self._lines, self._ring, self._nodes, self._marks = (
            pyglet.graphics.Group(order=i) for i in range(6)
        )
        self._outline, self._hint, self._select, self._better = (pyglet.graphics.Group(order=i) for i in range(4))
        #: Review: the better move drawn over the board (None: none), and its shapes.
        self.better: Move | None = None
        self.better_items: list[Any] = []
        self.selected: int | None = None
        self.hover: int | None = None
        self.cell = 10.0
        self.origin = (0.0, 0.0)
        self._hints: dict[int, Move] = {}
        self.lattice = pyglet.graphics.Batch()
        self._lattice_items: list[Any] = []
        # each line's and node's shapes with the look they were drawn for (see rebuild)
        self._line_items: dict[int, tuple[Any, list[Any]]] = {}
        self._node_items: dict[int, tuple[Any, list[Any]]] = {}
        self._geometry: Any = None

    # -- geometry ------------------------------------------------------------------------------

    def _fit(self) -> None:
        w, h, a = self.nw.width, self.nw.height, self.area
        self.cell = max(4.0, min(a.width / (w - 1 + 1.6), a.height / (h - 1 + 1.6)))
        self.origin = (a.x + (a.width - self.cell * (w - 1)) / 2, a.y + (a.height - self.cell * (h - 1)) / 2)

    def board_rect(self) -> Rect:
        """The lattice with a half-cell margin (room for the Bases' rings)."""
        w, h = self.nw.width, self.nw.height
        return Rect(self.origin[0] - self.cell / 2, self.origin[1] - self.cell / 2, self.cell * w, self.cell * h)

    @property
    def flipped(self) -> bool:
        """True when the one person at the window plays Red: the board turns half a circle so
        their side is at the bottom (an online match as Red, or Red against a bot)."""
        humans = [i for i, c in enumerate(self.session.seats) if c.is_human]
        return humans == [1]

    def point_xy(self, p: int) -> tuple[float, float]:
        """Window coordinates of board point ``p``."""
        x, y = self.nw.xy(p)
        if self.flipped:
            x, y = self.nw.width - 1 - x, self.nw.height - 1 - y
        return self.origin[0] + x * self.cell, self.origin[1] + y * self.cell

    def point_at(self, bx: float, by: float) -> int | None:
        """The lattice point nearest board coordinates (bx, by), if within half a cell."""
        gx = (bx + self.area.x - self.origin[0]) / self.cell
        gy = (by + self.area.y - self.origin[1]) / self.cell
        x, y = round(gx), round(gy)
        if not (0 <= x < self.nw.width and 0 <= y < self.nw.height):
            return None
        if math.hypot(gx - x, gy - y) > 0.5:
            return None
        if self.flipped:
            x, y = self.nw.width - 1 - x, self.nw.height - 1 - y
        return self.nw.geo.point(x, y)

    def node_radius(self, p: int | None = None) -> float:
        """Drawn radius of the node at ``p`` (a regular node when None); Bases are bigger."""
        base = p is not None and self.state.kind[p] == BASE
        return self.cell * (0.34 if base else 0.23)

    def layout(self, area: Rect) -> None:
        self.area = area
        self._fit()
        for item in self._lattice_items:
            item.delete()
        dot = max(1.0, self.cell * 0.06)
        self._lattice_items = [
            shapes.Circle(*self.point_xy(p), dot, segments=4, color=LATTICE, batch=self.lattice)
            for p in range(self.nw.geo.size)
        ]
        self.refresh()

    # -- drawing the position --------------------------------------------------------------------

    def rebuild(self) -> list[Any]:
        """Bring the drawn position up to date: a line or node whose look is unchanged keeps its
        shapes (a move changes a few; rebuilding all of them stalled the window for a frame)."""
        self._fit()
        state, cell = self.state, self.cell
        geometry = (cell, self.origin, self.flipped)
        if geometry != self._geometry:
            self._drop_cached()
            self._geometry = geometry
        lines = self._line_items
        seen: set[int] = set()
        for lid in range(len(state.la)):
            status = state.lstate[lid]
            if status == GONE:
                continue
            a, b, seat = state.la[lid], state.lb[lid], state.lowner[lid]
            look = (status, a, b, seat, status != CUT and state.alive[a] and state.alive[b])
            seen.add(lid)
            old = lines.get(lid)
            if old is not None and old[0] == look:
                continue
            self._delete(old)
            lines[lid] = (look, self._line(*look))
        for lid in [k for k in lines if k not in seen]:
            self._delete(lines.pop(lid))
        nodes = self._node_items
        limit_of = self.nw.limit_of
        seen = set()
        for p in state.order:
            kind = state.kind[p]
            look = (p, state.owner[p], state.alive[p], kind, state.branches[p] >= limit_of[kind])
            seen.add(p)
            old = nodes.get(p)
            if old is not None and old[0] == look:
                continue
            self._delete(old)
            nodes[p] = (look, self._node(*look))
        for p in [k for k in nodes if k not in seen]:
            self._delete(nodes.pop(p))
        items: list[Any] = []
        if self.session.cursor:
            last = self.session.history[self.session.cursor - 1].move
            if isinstance(last, Move):
                x, y = self.point_xy(last.dst)
                items.append(shapes.Arc(x, y, self.node_radius(last.dst) + cell * 0.2, thickness=2, color=(226, 232, 240, 160),
                                        batch=self.batch, group=self._marks))
        self._rebuild_overlay()
        return items

    def _line(self, status: int, a: int, b: int, seat: int, live: bool) -> list[Any]:
        """The shapes of one line: dashed grey when cut, with a glow while joined to a Base."""
        batch, cell = self.batch, self.cell
        (ax, ay), (bx, by) = self.point_xy(a), self.point_xy(b)
        if status == CUT:
            return self._dashed(ax, ay, bx, by, CUT_COLOR, max(1.5, cell * 0.05))
        color = (BLUE, RED)[seat] if live else DEAD[seat]
        items: list[Any] = []
        if live:
            for width, alpha in GLOW:  # a soft halo: a wide faint band under a narrower brighter one
                items.append(shapes.Line(ax, ay, bx, by, thickness=cell * width, color=(*color, alpha), batch=batch,
                                         group=self._glow))
        items.append(shapes.Line(ax, ay, bx, by, thickness=max(2.0, cell * 0.09), color=color, batch=batch, group=self._lines))
        return items

    def _node(self, p: int, seat: int, alive: bool, kind: int, full: bool) -> list[Any]:
        """The shapes of one node: its disc (a white ring round a Base) and a white X when full."""
        batch, cell = self.batch, self.cell
        x, y = self.point_xy(p)
        color = (BLUE, RED)[seat] if alive else DEAD[seat]
        radius = self.node_radius(p)
        items: list[Any] = []
        if kind == BASE:
            items.append(shapes.Circle(x, y, radius + cell * 0.08, color=(226, 232, 240), batch=batch,
                                       group=self._ring))
        items.append(shapes.Circle(x, y, radius, color=color, batch=batch, group=self._nodes))
        if full:
            k = radius * 0.6
            for sx in (-1, 1):
                items.append(shapes.Line(x - k, y - sx * k, x + k, y + sx * k, thickness=max(1.5, cell * 0.05),
                                         color=(255, 255, 255), batch=batch, group=self._marks))
        return items

    @staticmethod
    def _delete(entry: tuple[Any, list[Any]] | None) -> None:
        if entry is not None:
            for item in entry[1]:
                item.delete()

    def _drop_cached(self) -> None:
        for entry in (*self._line_items.values(), *self._node_items.values()):
            self._delete(entry)
        self._line_items, self._node_items = {}, {}

    def _dashed(self, ax: float, ay: float, bx: float, by: float, color: tuple[int, int, int], thickness: float) -> list[Any]:
        """A dashed line a-b (how cut lines are drawn)."""
        length = math.hypot(bx - ax, by - ay)
        dash = max(4.0, self.cell * 0.18)
        steps = max(1, int(length / (2 * dash)))
        out = []
        for i in range(steps):
            t0, t1 = (2 * i) / (2 * steps), (2 * i + 1) / (2 * steps)
            out.append(shapes.Line(ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1,
                                   thickness=thickness, color=color, batch=self.batch, group=self._cut))
        return out

    # -- the overlay: hover, selection, hints --------------------------------------------------------

    def _rebuild_overlay(self) -> None:
        for item in self._overlay_items:
            item.delete()
        items: list[Any] = []
        batch, cell, state = self.overlay, self.cell, self.state
        self._hints = {}
        s = self.selected
        if s is not None and state.owner[s] != EMPTY:
            inspecting = not state.alive[s]
            x, y = self.point_xy(s)
            ring = self.node_radius(s) + (cell * 0.16 if state.kind[s] == BASE else cell * 0.12)
            items.append(shapes.Arc(x, y, ring, thickness=max(3.0, cell * 0.09), color=dull(SELECT) if inspecting else SELECT,
                                    batch=batch, group=self._select))
            for q, all_cut in self._linked(s).items():
                items += self._outline_node(q, dull(LINKED) if inspecting else LINKED, dashed=all_cut)
            if not inspecting:
                self._hints = {m.dst: m for m in state.legal_moves() if m.src == s}
            if self.hints and self.session.input_block() is None:
                for q, move in self._hints.items():
                    items += self._hint_marker(q, HINT[move.kind], ring=move.kind in (LOOP, REVIVE))
        ringed = self._hover_ring_point()
        if ringed is not None:
            x, y = self.point_xy(ringed)
            items.append(shapes.Arc(x, y, cell * 0.44, thickness=1.5, color=HOVER, batch=batch, group=self._outline))
        self.better_items = self._better_arrow()
        self._overlay_items = items + self.better_items

    def show_better_move(self, move: Any) -> None:
        """Review: an arrow from the better move's node to its target (see ``BoardView``)."""
        self.better = move if isinstance(move, Move) else None
        self._rebuild_overlay()

    def _better_arrow(self) -> list[Any]:
        move = self.better
        if move is None:
            return []
        (ax, ay), (bx, by) = self.point_xy(move.src), self.point_xy(move.dst)
        length = math.hypot(bx - ax, by - ay)
        if length > 0:  # from the source node's rim to just short of the target point
            start, end = self.node_radius(move.src), self.cell * 0.18
            ux, uy = (bx - ax) / length, (by - ay) / length
            ax, ay, bx, by = ax + ux * start, ay + uy * start, bx - ux * end, by - uy * end
        return arrow_shapes(ax, ay, bx, by, width=max(4.0, self.cell * 0.2), batch=self.overlay, group=self._better)

    def _hover_ring_point(self) -> int | None:
        """The point under the pointer when it deserves a hover ring: a node, or a hint of the
        selected node. An empty point gets none (after an undo it looked like a last-move ring)."""
        p = self.hover
        if p is None or p == self.selected:
            return None
        return p if self.state.owner[p] != EMPTY or p in self._hints else None

    def _outline_node(self, q: int, color: tuple[int, int, int], *, dashed: bool) -> list[Any]:
        """An outline hugging the node at ``q`` (eight short arcs when ``dashed``)."""
        x, y = self.point_xy(q)
        radius = self.node_radius(q) + (self.cell * 0.09 if self.state.kind[q] == BASE else 0.0)
        width = max(2.0, self.cell * 0.07)
        if not dashed:
            return [shapes.Arc(x, y, radius + width / 2, thickness=width, color=color, batch=self.overlay, group=self._outline)]
        return [
            shapes.Arc(x, y, radius + width / 2, angle=25.0, start_angle=i * 45.0, thickness=width,
                       color=color, batch=self.overlay, group=self._outline)
            for i in range(8)
        ]

    def _hint_marker(self, q: int, color: tuple[int, int, int], *, ring: bool) -> list[Any]:
        """A hint: a ring around a node (loop, revive) or a dot with a dark rim on a free point."""
        x, y = self.point_xy(q)
        if ring:  # outside the node's linked outline, with a visible gap
            radius = self.node_radius(q) + self.cell * (0.25 if self.state.kind[q] == BASE else 0.17)
            return [shapes.Arc(x, y, radius, thickness=max(2.5, self.cell * 0.08), color=color, batch=self.overlay,
                               group=self._hint)]
        dot = max(3.0, self.cell * 0.12)
        return [
            shapes.Circle(x, y, dot + 1.5, segments=16, color=(15, 23, 42), batch=self.overlay, group=self._outline),
            shapes.Circle(x, y, dot, segments=16, color=color, batch=self.overlay, group=self._hint),
        ]

    def _linked(self, s: int) -> dict[int, bool]:
        """Nodes joined to ``s`` by a line: True when every such line is cut."""
        state = self.state
        found: dict[int, bool] = {}
        for lid in state.ends[s]:
            if state.lstate[lid] == GONE:
                continue
            other = state.lb[lid] if state.la[lid] == s else state.la[lid]
            cut = state.lstate[lid] == CUT
            found[other] = found.get(other, True) and cut
        return found

    def draw(self) -> None:
        self.lattice.draw()
        self.batch.draw()
        self.overlay.draw()

    def sound_cues(self, events: Sequence[Event]) -> list[str]:
        """A cut, then enemy nodes cut off from their Base (a take); "move" for a quiet move."""
        found = [CUES_OF_EVENT[e.kind] for e in events if e.kind in CUES_OF_EVENT]
        return list(dict.fromkeys(found)) or [cues.MOVE]

    # -- input ------------------------------------------------------------------------------------

    def on_session_change(self, change: Any) -> None:
        if change.kind in ("thinking", "paused", "resumed"):
            self._rebuild_overlay()  # hints come and go with whose turn it is
            return
        self.status = None
        if change.kind in ("move", "undo", "redo", "jump", "restart", "import", "extend"):
            self.selected = None
        self.refresh()

    def on_mouse_motion(self, x: float, y: float) -> None:
        p = self.point_at(x, y)
        if p != self.hover:
            self.hover = p
            self._rebuild_overlay()

    def on_mouse_leave(self) -> None:
        if self.hover is not None:
            self.hover = None
            self._rebuild_overlay()

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        p = self.point_at(x, y)
        state = self.state
        if p is None or button == pyglet.window.mouse.RIGHT:  # off the lattice or a right click: deselect
            self.selected = None
            self.status = None
            self._rebuild_overlay()
            return
        blocked = self.session.input_block()
        if blocked:  # a bot's turn or a finished game: say so, whatever was clicked
            self.selected = None
            self.status = blocked
            self._rebuild_overlay()
            return
        seat = state.to_move
        if self.selected is not None and p in self._hints:
            move = self._hints[p]
            self.selected = None
            self.play(move)
            return
        owner = state.owner[p]
        if owner == seat:
            self.selected = None if self.selected == p else p
            self.status = self._describe(p) if self.selected is not None else None
        elif owner != EMPTY:
            self.selected = None
            self.status = f"That is a {self.nw.seats[owner]} node; select one of your own."
        elif self.selected is None:
            self.status = "Select one of your alive nodes first, then click where to grow."
        else:
            self.status = self._why_not(self.selected, p)
        self._rebuild_overlay()

    def _describe(self, p: int) -> str:
        state = self.state
        kind = "Base" if state.kind[p] == BASE else "node"
        used, limit = state.branches[p], self.nw.limit_of[state.kind[p]]
        where = self.nw.geo.label(p)
        if not state.alive[p]:
            return f"Dead {kind} at {where}: {used} of {limit} branches; its links are outlined. Revive it from an alive node."
        moves = sum(1 for m in state.legal_moves() if m.src == p)
        return f"{kind.capitalize()} at {where}: {used} of {limit} branches used, {moves} moves. Click a hint to play."

    def _why_not(self, s: int, t: int) -> str:
        state = self.state
        if not state.alive[s]:
            return "Dead nodes cannot act: revive them from an alive node."
        kind = state.classify(s, t)
        if kind is None:
            return "No move from the selected node goes there."
        refusal = self.session.check(Move(kind, s, t))
        return as_sentence(refusal.shown()) if refusal is not None else "That move is not possible."

    def set_hints(self, enabled: bool) -> None:
        self.hints = enabled
        self._rebuild_overlay()

    def delete(self) -> None:
        self._drop_cached()
        for item in (*self._overlay_items, *self._lattice_items):
            item.delete()
        self._overlay_items = []
        self._lattice_items = []
        super().delete()


def make_view(game: NodeWarGame, session: Any) -> NodeWarView:
    """A renderer factory (``RendererSpec.factory``) for the Node War board."""
    return NodeWarView(game, session)
