"""Node War positions as JSON (``schemas/nodewar/position.schema.json``) and as ASCII.

A position lists the nodes in placement order and the lines on the board
(split lines are gone, cut lines stay). Aliveness and branch counts are
derived from the lines, so a document cannot contradict itself; the loader
still checks every invariant the engine relies on and raises
:class:`~pegboard.game.InvalidPosition` naming the first problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pegboard.game import JSON, InvalidPosition, Result

from .moves import BASE, CUT, EMPTY, GONE, LIVE, REGULAR
from .rules import SEATS

if TYPE_CHECKING:
    from .engine import NodeWarState

FORMAT = "pegboard.nodewar.position/1"
KIND_NAMES = {REGULAR: "regular", BASE: "base"}


def state_to_json(state: NodeWarState) -> dict[str, JSON]:
    """The position document of ``state`` (the inverse of :func:`state_from_json`)."""
    geo = state._geo
    xs, ys = geo.xs, geo.ys
    nodes = [
        {
            "x": xs[p],
            "y": ys[p],
            "owner": state.owner[p],
            "kind": KIND_NAMES[state.kind[p]],
            "alive": state.alive[p],
        }
        for p in state.order
    ]
    lines = [
        {
            "owner": state.lowner[lid],
            "ends": [[xs[a], ys[a]], [xs[b], ys[b]]],
            "state": "live" if st == LIVE else "cut",
        }
        for lid, (a, b, st) in enumerate(zip(state.la, state.lb, state.lstate, strict=False))
        if st != GONE
    ]
    result = state.result
    return {
        "format": FORMAT,
        "game": "nodewar",
        "width": geo.width,
        "height": geo.height,
        "to_move": state.to_move,
        "turn": state.turn,
        "turn_limit": state.turn_limit,
        "nodes": nodes,
        "lines": lines,
        "result": None if result is None else result.to_json(),
    }


def _int(value: Any, what: str, lo: int, hi: int | None = None) -> int:
    if type(value) is not int or value < lo or (hi is not None and value > hi):
        span = f">= {lo}" if hi is None else f"in {lo}..{hi}"
        raise InvalidPosition(f"{what} must be an integer {span}, got {value!r}")
    return value


def state_from_json(state: NodeWarState, data: Mapping[str, JSON]) -> NodeWarState:
    """Fill an empty state (``NodeWarState(game, empty=True)``) from a position document;
    raises InvalidPosition with the first problem."""
    game = state.game
    if not isinstance(data, Mapping):
        raise InvalidPosition("a position must be a JSON object")
    if data.get("game", "nodewar") != "nodewar":
        raise InvalidPosition(f"position is for the game {data.get('game')!r}, not nodewar")
    geo = game.geo
    if (data.get("width"), data.get("height")) != (geo.width, geo.height):
        raise InvalidPosition(
            f"position board is {data.get('width')}x{data.get('height')}, "
            f"the ruleset's is {geo.width}x{geo.height}"
        )

    def point(value: Any, what: str) -> int:
        if (
            not isinstance(value, (list, tuple))
            or len(value) != 2
            or not all(type(v) is int for v in value)
            or not geo.on_board(value[0], value[1])
        ):
            raise InvalidPosition(f"{what} must be an [x, y] point on the board, got {value!r}")
        return geo.point(value[0], value[1])

    nodes = data.get("nodes")
    if not isinstance(nodes, list):
        raise InvalidPosition("'nodes' must be a list")
    declared_alive: dict[int, bool] = {}
    for i, node in enumerate(nodes):
        where = f"nodes[{i}]"
        if not isinstance(node, Mapping):
            raise InvalidPosition(f"{where} must be an object")
        p = point([node.get("x"), node.get("y")], f"{where} x, y")
        seat = _int(node.get("owner"), f"{where}.owner", 0, 1)
        kind_name = node.get("kind", "regular")
        if kind_name not in ("regular", "base"):
            raise InvalidPosition(f"{where}.kind must be 'regular' or 'base', got {kind_name!r}")
        if state.owner[p] != EMPTY:
            raise InvalidPosition(f"{where}: two nodes on the point {geo.label(p)}")
        kind = BASE if kind_name == "base" else REGULAR
        if kind == BASE and state.base[seat] != -1:
            raise InvalidPosition(f"{where}: {SEATS[seat]} has two Bases")
        state._place(p, seat, kind)
        state.alive[p] = False
        if "alive" in node:
            if not isinstance(node["alive"], bool):
                raise InvalidPosition(f"{where}.alive must be true or false")
            declared_alive[p] = node["alive"]
    for seat in (0, 1):
        if state.base[seat] == -1:
            raise InvalidPosition(f"{SEATS[seat]} has no Base")

    lines = data.get("lines")
    if not isinstance(lines, list):
        raise InvalidPosition("'lines' must be a list")
    live_pairs: set[tuple[int, int]] = set()
    for i, line in enumerate(lines):
        where = f"lines[{i}]"
        if not isinstance(line, Mapping):
            raise InvalidPosition(f"{where} must be an object")
        seat = _int(line.get("owner"), f"{where}.owner", 0, 1)
        ends = line.get("ends")
        if not isinstance(ends, list) or len(ends) != 2:
            raise InvalidPosition(f"{where}.ends must be two [x, y] points")
        a, b = point(ends[0], f"{where}.ends[0]"), point(ends[1], f"{where}.ends[1]")
        if a == b:
            raise InvalidPosition(f"{where} joins {geo.label(a)} to itself")
        for p in (a, b):
            if state.owner[p] != seat:
                raise InvalidPosition(f"{where} ends at {geo.label(p)}, which holds no {SEATS[seat]} node")
        status = line.get("state", "live")
        if status not in ("live", "cut"):
            raise InvalidPosition(f"{where}.state must be 'live' or 'cut', got {status!r}")
        if status == "live":
            pair = (min(a, b), max(a, b))
            if pair in live_pairs:
                raise InvalidPosition(f"{where}: two live lines join {geo.label(a)} and {geo.label(b)}")
            live_pairs.add(pair)
            for q in geo.inside(a, b):
                if state.owner[q] != EMPTY:
                    raise InvalidPosition(f"{where} passes through the node at {geo.label(q)}")
            for c in geo.cells(a, b):
                for other in state.cell_lines[1 - seat][c]:
                    if geo.touch(a, b, state.la[other], state.lb[other]):
                        raise InvalidPosition(f"{where} touches the live {SEATS[1 - seat]} line lines[{other}]; one must be cut")
            state._add_line(a, b, seat, LIVE)
        else:
            state._add_line(a, b, seat, CUT)
    for p in state.order:
        limit = game.limit_of[state.kind[p]]
        if state.branches[p] > limit:
            raise InvalidPosition(f"the node at {geo.label(p)} has {state.branches[p]} branches (limit {limit})")
    for seat in (0, 1):
        state._flood(state.base[seat], True)
    for p, flag in declared_alive.items():
        if state.alive[p] != flag:
            raise InvalidPosition(
                f"the node at {geo.label(p)} is declared {'alive' if flag else 'dead'} "
                f"but is {'alive' if state.alive[p] else 'dead'} by its lines"
            )

    state._to_move = _int(data.get("to_move"), "to_move", 0, 1)
    state.turn = _int(data.get("turn", 1), "turn", 1)
    state.turn_limit = _int(data.get("turn_limit", game.params.turn_limit), "turn_limit", 1)
    if state.turn - 1 > state.turn_limit:
        raise InvalidPosition(f"turn {state.turn} is past the turn limit {state.turn_limit}")
    computed = state._decide()
    # An absent "result" is computed; a present one (null included) must agree with the position.
    declared = data.get("result")
    if declared is not None:
        if not isinstance(declared, Mapping):
            raise InvalidPosition("'result' must be an object or null")
        declared_result = Result.from_json(declared)
        if not declared_result.same_outcome(computed):
            found = "the game is not over" if computed is None else f"{computed.reason}, winner {computed.winner}"
            raise InvalidPosition(f"declared result ({declared_result.reason}, winner {declared_result.winner}) does not match the position: {found}")
    elif "result" in data and computed is not None:
        raise InvalidPosition(f"the position is over ({computed.reason}) but no result is declared")
    state._result = computed
    return state


def ascii_board(state: NodeWarState, bottom: int = 0) -> str:
    """A small text picture: B/R Bases, b/r alive nodes, x/y dead nodes (Blue/Red), '.' empty.

    Blue's side is at the bottom; with ``bottom=1`` the picture turns half a circle (Red's)."""
    geo = state._geo
    rows = []
    xs = list(range(geo.width)) if bottom == 0 else list(reversed(range(geo.width)))
    for y in (range(geo.height - 1, -1, -1) if bottom == 0 else range(geo.height)):
        row = []
        for x in xs:
            p = geo.point(x, y)
            o = state.owner[p]
            if o < 0:
                row.append("+" if state.through[p] else ".")
            elif state.kind[p] == BASE:
                row.append("BR"[o])
            else:
                row.append(("br" if state.alive[p] else "xy")[o])
        rows.append(f"{y:2d} " + " ".join(row))
    rows.append("   " + " ".join(str(x % 10) for x in xs))
    return "\n".join(rows)
