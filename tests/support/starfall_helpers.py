"""Hand-built Starfall positions for rule tests.

``blank()`` gives an empty sky: no owners, no asteroids, both Commands on their back-row
middles (South (5,0), North (5,10)) and a background of stars coloured (c + 2r) % 4, in
which no two neighbours (8 directions) share a colour, so it never matches. Colour 4 is
kept for the lines a test paints.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType

from pegboard_starfall.game import StarfallGame
from pegboard_starfall.pieces import (
    ALL_STARS,
    KIND_BY_LETTER,
    RED_SQUARES,
    WHITE_SQUARES,
)
from pegboard_starfall.shapes import find_shapes
from pegboard_starfall.state import StarfallState

LINE = 4  # the colour tests paint lines with


def make_game(**tables: dict) -> StarfallGame:
    """A game with the standard rules, some tables overridden: make_game(fog={"mode": "seam"})."""
    return StarfallGame({"game": "starfall", "id": "test", **tables})


def random_positions(game: StarfallGame, seed: int, every: int, max_ply: int) -> Iterator[StarfallState]:
    """Every ``every``-th position of one seeded random game up to ``max_ply`` (a pick from the
    full legal list each ply, so the positions never depend on the random-move sampler)."""
    st = game.new_state(seed)
    rng = random.Random(seed)
    while st.result is None and st.ply < max_ply:
        if st.ply % every == 0:
            yield st
        st.push(rng.choice(st.legal_moves()))


def load_tool(name: str) -> ModuleType:
    """The module of ``tools/<name>.py``, loaded by path (tools/ is not a package)."""
    path = Path(__file__).resolve().parents[2] / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def blank(game: StarfallGame, to_move: int = 0) -> StarfallState:
    st = StarfallState(game, seed=12345)
    geo = game.geo
    for sq in range(geo.size):
        st.star[sq] = (geo.col[sq] + 2 * geo.row[sq]) % 4
    st.current = to_move
    st.turn = to_move
    mid = geo.width // 2
    put(st, mid, 0, "M", 0)
    put(st, mid, geo.height - 1, "M", 1)
    return st


def sq(st: StarfallState, c: int, r: int) -> int:
    return st.geo.sq(c, r)


def put(st: StarfallState, c: int, r: int, letter: str, side: int, power: int = 1,
        ride: int | str | None = None, missiles: int = 0) -> int:
    """Place a drone and return its square.

    ``ride`` is a mask, "white"/"red" (checker squares), "all", or None: a scout, warp or
    bomb then rides the colour of the star under it, other kinds nothing.
    """
    s = st.geo.sq(c, r)
    st.memo.forget()  # hand edits change what each side sees
    kind = KIND_BY_LETTER[letter]
    st.kind[s], st.side[s], st.power[s], st.miss[s], st.shots[s] = kind, side, power, missiles, 0
    if ride is None:
        mask = 1 << st.star[s] if st.star[s] >= 0 and letter in "SWB" else 0
    elif ride == "white":
        mask = WHITE_SQUARES
    elif ride == "red":
        mask = RED_SQUARES
    elif ride == "all":
        mask = ALL_STARS
    else:
        mask = int(ride)
    st.ride[s] = mask
    if letter == "M":
        st.cmd[side] = s
    return s


def paint(st: StarfallState, cells: Iterable[tuple[int, int]], color: int = LINE) -> None:
    for c, r in cells:
        st.star[st.geo.sq(c, r)] = color


def own(st: StarfallState, cells: Iterable[tuple[int, int]], side: int) -> None:
    st.memo.forget()
    for c, r in cells:
        st.owner[st.geo.sq(c, r)] = side


def rock(st: StarfallState, c: int, r: int) -> int:
    s = st.geo.sq(c, r)
    st.ast[s] = 1
    st.star[s] = -1
    return s


def quiet(st: StarfallState) -> bool:
    """True when no match stands on the board."""
    return not find_shapes(st.star, st.geo.width, st.geo.height)


def kinds(st: StarfallState, side: int) -> list[str]:
    from pegboard_starfall.pieces import LETTERS

    return sorted(LETTERS[st.kind[s]] for s in range(st.geo.size) if st.kind[s] and st.side[s] == side)
