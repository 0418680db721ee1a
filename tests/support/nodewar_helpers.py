"""Helpers for Node War tests: build positions from nodes and lines, or by random play."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from pegboard_nodewar import Move, NodeWarGame, NodeWarState

Point = tuple[int, int]


def build(
    game: NodeWarGame,
    blue: Iterable[Point] = (),
    red: Iterable[Point] = (),
    lines: Sequence[tuple[Point, Point] | tuple[Point, Point, str]] = (),
    *,
    to_move: int = 0,
    turn: int = 1,
    turn_limit: int | None = None,
) -> NodeWarState:
    """A position with both Bases where the ruleset puts them, plus the given nodes and lines.

    Each line is ``(a, b)`` or ``(a, b, "cut")``; its owner is the owner of its ends.
    """
    doc = position_doc(game, blue, red, lines, to_move=to_move, turn=turn, turn_limit=turn_limit)
    return game.state_from_json(doc)


def position_doc(
    game: NodeWarGame,
    blue: Iterable[Point] = (),
    red: Iterable[Point] = (),
    lines: Sequence[Any] = (),
    *,
    to_move: int = 0,
    turn: int = 1,
    turn_limit: int | None = None,
) -> dict[str, Any]:
    bases = game.params.bases
    nodes = [{"x": bases[0][0], "y": bases[0][1], "owner": 0, "kind": "base"}]
    nodes.append({"x": bases[1][0], "y": bases[1][1], "owner": 1, "kind": "base"})
    owner_of = {bases[0]: 0, bases[1]: 1}
    for seat, points in ((0, blue), (1, red)):
        for x, y in points:
            nodes.append({"x": x, "y": y, "owner": seat, "kind": "regular"})
            owner_of[(x, y)] = seat
    docs = []
    for item in lines:
        a, b = item[0], item[1]
        state = item[2] if len(item) > 2 else "live"
        docs.append({"owner": owner_of[tuple(a)], "ends": [list(a), list(b)], "state": state})
    return {
        "width": game.width,
        "height": game.height,
        "to_move": to_move,
        "turn": turn,
        "turn_limit": turn_limit if turn_limit is not None else game.params.turn_limit,
        "nodes": nodes,
        "lines": docs,
    }


def random_position(game: NodeWarGame, plies: int, seed: int) -> NodeWarState:
    """The position after ``plies`` seeded random moves (fewer if the game ends first)."""
    rng = random.Random(seed)
    state = game.new_state()
    while state.ply < plies and state.result is None:
        state.push(rng.choice(state.legal_moves()))
    return state


def smother_position(game: NodeWarGame, to_move: int = 0) -> NodeWarState:
    """Blue's Base has five cut lines and one live line 6,2-6,5; Red's 8,5 can cut it.

    Blue to move: that cut would leave Blue a full Base and no other alive
    node (no legal move, a loss); Blue's 6,8 can kill the attacker by cutting
    8,10-9,7. Red to move: the cut wins at once.
    """
    return build(
        game,
        blue=[(2, 2), (10, 2), (3, 4), (9, 4), (4, 0), (6, 5), (6, 8)],
        red=[(8, 13), (8, 10), (9, 7), (8, 5)],
        lines=[
            ((6, 2), (2, 2), "cut"),
            ((6, 2), (10, 2), "cut"),
            ((6, 2), (3, 4), "cut"),
            ((6, 2), (9, 4), "cut"),
            ((6, 2), (4, 0), "cut"),
            ((6, 2), (6, 5)),
            ((6, 5), (6, 8)),
            ((6, 16), (8, 13)),
            ((8, 13), (8, 10)),
            ((8, 10), (9, 7)),
            ((9, 7), (8, 5)),
        ],
        to_move=to_move,
    )


def mv(game: NodeWarGame, kind: str, src: Point, dst: Point) -> Move:
    return game.move(kind, src, dst)


def alive_at(state: NodeWarState, x: int, y: int) -> bool:
    return state.alive[state.game.point(x, y)]


def branches_at(state: NodeWarState, x: int, y: int) -> int:
    return state.branches[state.game.point(x, y)]


def line_set(state: NodeWarState) -> set[tuple[frozenset[tuple[int, int]], int, str]]:
    """Lines of a position as {({a, b}, owner, state)}."""
    out = set()
    for line in state.to_json()["lines"]:
        a, b = (tuple(p) for p in line["ends"])
        out.add((frozenset((a, b)), line["owner"], line["state"]))
    return out


def seg(a: Point, b: Point) -> frozenset[Point]:
    return frozenset((a, b))
