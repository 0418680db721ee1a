"""Starfall match detection and shape classification.

Pure functions over a flat board of star colours: ``colors[r * width + c]`` is a star colour
(``0``-``4``) or ``-1`` for "no star" (a hole or an asteroid; neither ever matches). Geometry
tables are built once per ``(width, height)`` and cached.

* :func:`has_match` / :func:`matches_through` are the hot paths (swap legality, dealing).
* :func:`find_shapes` lists every shape on the board with the payout row it earns; it tests
  every window at once on the board packed into one integer (see :class:`_Bits`).
* :func:`find_shapes_through` finds the same shapes from the windows through a few squares.

How the seed's table and the rulings ("Lines and shapes") are read here:

=====================  =====================================================================
question               reading
=====================  =====================================================================
match                  a set of same-colour stars filling one window: 3 in a row across or
                       down, 4 in a row on either diagonal, a 2x2 block, a V (a corner and
                       2 stars along each of two perpendicular diagonals) or an X (a centre
                       and its 4 diagonal neighbours). Longer runs are overlapping windows.
hook                   a same-colour star beside an end of a run of *exactly* 3 (maximal),
                       at a right angle to it, joins that run. A run of 4+ takes no hook.
                       A hook is not a match on its own: :func:`matches_through` ignores it.
shape                  matches of one colour merge when they share a square or a square of
                       one shares an edge with a square of the other; a shape is a maximal
                       merged group. Touching only at a corner does not merge.
payout row             the highest row (``SHAPE_ROWS`` order) with a template that fits
                       inside the shape's squares after a rotation, reflection and shift.
                       Adding stars to a shape therefore never lowers what it pays.
"N in a line"          across, down or diagonal; a longer line contains the shorter ones,
                       so 8 in a line pays the 7-in-a-line row.
L / T / crossing       two orthogonal runs, one across and one down, sharing a square s.
                       L: s is an end of both. T: s ends one and is inside the other.
                       Plus / "crossing": s is an end of neither. Templates use the stated
                       lengths exactly; a longer run contains them, so "or bigger" holds.
V / X                  diagonal only (the V is the L of two 3-lines turned 45 degrees).
blocks                 2x2 pays block2x2; any 2x3 or 3x2 pays the 5-crossing-4 row unless
                       the shape also holds a 3x3, which pays block3x3.
row order              the seed's table read bottom-up (it lists rows lowest first, the
                       3x3 block last). So the T of two 3-lines, listed after the L of
                       two 3-lines, ranks higher than it.
=====================  =====================================================================

What that gives for common bigger or mixed shapes:

=============================================  ==========================================
shape                                          pays
=============================================  ==========================================
lone 3 in a row                                nothing (``row=None``; it still clears)
4-run with a star beside one end               line4; the star does not join or clear
3-run hooked at both ends (U, S or Z)          hook4
L 3+3                                          L33
L 4+3, 5+3, 4+4, ...                           L43 (holds an L of 4 and 3)
T with a bar of 3, stem 3+                     T33
T with bar 4+, stem 4+                         L43 (bar half + stem form an L of 4 and 3)
T with bar 4+, stem 3                          T33 (holds an L33 too; T33 ranks higher)
crossing 3x3, 4x3                              plus_or_X (a 4x3 holds no 4x4 or 5x3)
crossing 4x4, 5x3, 6x3                         cross44_53_or_line7
crossing 5x4 and bigger                        cross54_or_block2x3
two diagonal 4-runs sharing a square           V (they always hold a V)
4-run with a 2x2 touching its side             one shape: a 2x3 block (row cross54) or,
                                               under an end, an L of 4 and 3 (L43)
4-run and a 2x2 touching only at a corner      two shapes: line4 and block2x2
=============================================  ==========================================
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import compress
from typing import Any

from pegboard.diskcache import cached_by_code

__all__ = ["SHAPE_ROWS", "Shape", "classify_shape", "find_shapes", "find_shapes_through", "has_match", "matches_through"]

#: Payout row ids, highest row of the seed's table first (3x3 block) down to 4 in a line.
SHAPE_ROWS: tuple[str, ...] = (
    "block3x3",
    "cross54_or_block2x3",
    "cross44_53_or_line7",
    "L43",
    "V",
    "plus_or_X",
    "T33",
    "L33",
    "line6",
    "hook4",
    "line5",
    "block2x2",
    "line4",
)


@dataclass(frozen=True, init=False)
class Shape:
    """One group of same-colour stars that clears together.

    ``squares`` is every star that clears as part of it; ``row`` is the payout row id from
    :data:`SHAPE_ROWS`, or ``None`` for a lone 3 in a row (clears, pays nothing). ``mask``
    holds the same squares as bits (bit ``s`` for square ``s``); equality ignores it.
    """

    color: int
    squares: frozenset[int]
    row: str | None
    mask: int = field(default=0, compare=False, repr=False)

    def __init__(self, color: int, squares: frozenset[int], row: str | None, mask: int = 0) -> None:
        # one dict update instead of the frozen dataclass's four object.__setattr__ calls
        # (a fresh validate process makes ~6,400 shapes)
        self.__dict__.update(color=color, squares=squares, row=row, mask=mask)


#: ROW_RANK[row]: a payout row's place in SHAPE_ROWS (highest first); a plain 3-line (row None) ranks last.
ROW_RANK: dict[str | None, int] = {row: i for i, row in enumerate(SHAPE_ROWS)} | {None: len(SHAPE_ROWS)}

Offsets = tuple[tuple[int, int], ...]


def _grid(*lines: str) -> Offsets:
    """Offsets (dc, dr) of the ``#`` cells in a little picture, row r = line index."""
    return tuple((c, r) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch == "#")


def _normal(cells: Iterable[tuple[int, int]]) -> Offsets:
    cells = list(cells)
    mc = min(c for c, _ in cells)
    mr = min(r for _, r in cells)
    return tuple(sorted((c - mc, r - mr) for c, r in cells))


def _symmetries(cells: Offsets) -> tuple[Offsets, ...]:
    """The distinct images of a template under the 8 rotations/reflections of the square."""
    seen: dict[Offsets, None] = {}
    for swap in (False, True):
        for sc in (1, -1):
            for sr in (1, -1):
                seen[_normal(((r if swap else c) * sc, (c if swap else r) * sr) for c, r in cells)] = None
    return tuple(seen)


def _line(n: int) -> tuple[Offsets, ...]:
    return (
        tuple((i, 0) for i in range(n)),
        tuple((0, i) for i in range(n)),
        tuple((i, i) for i in range(n)),
        tuple((n - 1 - i, i) for i in range(n)),
    )


def _crossings(a: int, b: int) -> tuple[Offsets, ...]:
    """Runs of a (across) and b (down) sharing a square that is an end of neither, all turns."""
    out: dict[Offsets, None] = {}
    for i in range(1, a - 1):
        for j in range(1, b - 1):
            cells = {(x, j) for x in range(a)} | {(i, y) for y in range(b)}
            for t in _symmetries(_normal(cells)):
                out[t] = None
    return tuple(out)


def _all(*templates: Offsets) -> tuple[Offsets, ...]:
    out: dict[Offsets, None] = {}
    for t in templates:
        for s in _symmetries(_normal(t)):
            out[s] = None
    return tuple(out)


_PLUS = _grid(".#.", "###", ".#.")
_X = _grid("#.#", ".#.", "#.#")
_V = _grid("#...#", ".#.#.", "..#..")

#: Templates per payout row, same order as SHAPE_ROWS.
_ROW_TEMPLATES: tuple[tuple[Offsets, ...], ...] = (
    _all(_grid("###", "###", "###")),
    _crossings(5, 4) + _all(_grid("##", "##", "##")),
    _crossings(4, 4) + _crossings(5, 3) + _line(7),
    _all(_grid("####", "#...", "#...")),
    _all(_V),
    _all(_PLUS, _X),
    _all(_grid("###", ".#.", ".#.")),
    _all(_grid("###", "#..", "#..")),
    _line(6),
    _all(_grid("###", "#..")),
    _line(5),
    _all(_grid("##", "##")),
    _line(4),
)

#: The match windows as (dc, dr) offsets (a longer run is several overlapping windows):
#: the one definition of "a match" that move generation and the classifier share.
MATCH_WINDOWS: tuple[Offsets, ...] = (
    ((0, 0), (1, 0), (2, 0)),
    ((0, 0), (0, 1), (0, 2)),
    *_line(4)[2:],
    _grid("##", "##"),
    *_all(_V),
    _X,
)


class _Tables:
    """Per-board-size tables of match windows and hooks (flat square ids)."""

    __slots__ = ("size", "width", "height", "_first", "_through", "trees", "runs", "not_first", "not_last",
                 "on_board", "near", "shapes", "cells", "bits")

    def __init__(self, width: int, height: int) -> None:
        n = self.size = width * height
        self.width = width
        self.height = height

        def at(c: int, r: int) -> int:
            return r * width + c if 0 <= c < width and 0 <= r < height else -1

        # For each orthogonal 3-window (as bits): the squares just past its ends (neither may
        # share the colour for the run to be exactly 3), the (hook square, end and hook as bits)
        # pairs at right angles, and the window's bits.
        runs: dict[int, tuple[tuple[int, ...], tuple[tuple[int, int], ...], int]] = {}
        for (dc, dr), (pc, pr) in (((1, 0), (0, 1)), ((0, 1), (1, 0))):
            step = dr * width + dc
            for r0 in range(height - 2 * dr):
                for c0 in range(width - 2 * dc):
                    s = r0 * width + c0
                    beyond = (at(c0 - dc, r0 - dr), at(c0 + 3 * dc, r0 + 3 * dr))
                    hooks = [
                        (s + k * step, at(c0 + k * dc + sgn * pc, r0 + k * dr + sgn * pr))
                        for k in (0, 2)
                        for sgn in (1, -1)
                    ]
                    window = 1 << s | 1 << (s + step) | 1 << (s + 2 * step)
                    runs[window] = (
                        tuple([x for x in beyond if x >= 0]),
                        tuple([(h, 1 << end | 1 << h) for end, h in hooks if h >= 0]),
                        window,
                    )
        self.runs = runs

        # Per square s, the windows through s grouped by a neighbour nb of s in the window (the
        # first in reading order around s), so a scan only looks further when colors[nb] ==
        # colors[s]; each window as its other squares padded with s to three, its bits and, for
        # an orthogonal 3-window, its run information. Worked out once per window shape and cell.
        slots: list[list[Any]] = [[] for _ in range(9 * n)]  # 9 * s + the neighbour's rank around s
        seen: set[int] = set()
        for cells in MATCH_WINDOWS:
            offsets = [r * width + c for c, r in cells]
            # per cell s of the window: its slot, then the offsets of the other cells (padded to three)
            roles = [(9 * offsets[i] + rank, *[offsets[k] for k in rest]) for i, rank, rest in _roles(cells)]
            pattern = sum(1 << o for o in offsets)
            hi_c = max(c for c, _ in cells)
            hi_r = max(r for _, r in cells)
            for r0 in range(height - hi_r):
                for c0 in range(width - hi_c):
                    base = r0 * width + c0
                    bits = pattern << base
                    if bits in seen:
                        continue
                    seen.add(bits)
                    run = runs.get(bits)
                    nine = 9 * base
                    for slot, a, b, c in roles:
                        slots[nine + slot].append((base + a, base + b, base + c, bits, run))
        around = [dr * width + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)]  # a rank's neighbour, from s
        #: per square s, the windows through it as (nb, tree) per neighbour nb (see :func:`_tree`)
        self.trees: tuple[Any, ...] = tuple(
            tuple([(s + around[k], _tree(s, slots[9 * s + k])) for k in range(9) if slots[9 * s + k]]) for s in range(n)
        )
        # has_match's and matches_through's tables are built on first use: a replay needs neither.
        self._first: tuple[Any, ...] | None = None
        self._through: tuple[Any, ...] | None = None
        #: bit masks of the squares off the first column, off the last column, on the board
        row = (1 << width) - 1
        self.on_board = (1 << n) - 1
        every_row = self.on_board // row  # bit r * width for every row r
        not_first = self.not_first = every_row * (row ^ 1)
        not_last = self.not_last = every_row * (row >> 1)
        #: each match window and (run end, hook) pair (as bits) with the squares beside it across
        #: and down: what another window of its colour must meet to merge with it
        self.near = {
            m: m | (m << 1 & not_first) | (m >> 1 & not_last) | (m << width & self.on_board) | (m >> width)
            for m in [*seen, *[pair for _, hooks, _ in runs.values() for _, pair in hooks]]
        }
        #: shapes already made, by (squares as bits, colour): a Shape is immutable, so one serves every repeat
        self.shapes: dict[tuple[int, int], Shape] = {}
        #: the squares and payout row of each mask in ``shapes``
        self.cells: dict[int, tuple[frozenset[int], str | None]] = {}
        self._common_cells()
        #: find_shapes' tables (:class:`_Bits`), built on first use
        self.bits: _Bits | None = None

    @classmethod
    def cached(cls, width: int, height: int) -> _Tables:
        """The tables of a board size, read from the disk cache (:mod:`pegboard.diskcache`) when
        an earlier process built them with this module's code."""
        values = cached_by_code([sys.modules[__name__]], "starfall-shapes", (width, height), lambda: cls(width, height)._values())
        t = cls.__new__(cls)
        for name, value in zip(cls.__slots__, values, strict=True):
            setattr(t, name, value)
        return t

    def _values(self) -> tuple[Any, ...]:
        """Every slot's value, in ``__slots__`` order (what the disk cache keeps)."""
        return tuple([getattr(self, name) for name in self.__slots__])

    def _common_cells(self) -> None:
        """Fill ``cells`` for the commonest shapes wherever they fit (a match window, a 3-run
        and one hook, a 4-run across or down): one classification per pattern."""
        width, height, cells = self.width, self.height, self.cells
        for pattern in (*MATCH_WINDOWS, *_all(_grid("###", "#..")), *_line(4)[:2]):
            across = width - max(c for c, _ in pattern)
            down = height - max(r for _, r in pattern)
            if across <= 0 or down <= 0:
                continue
            offsets = [r * width + c for c, r in pattern]
            bits = sum(1 << o for o in offsets)
            row = _cells(bits, width, height)[1]  # placed at the top left corner
            cells.update({
                bits << base: (frozenset([base + o for o in offsets]), row)
                for base in [r0 * width + c0 for r0 in range(down) for c0 in range(across)]
            })

    @property
    def first(self) -> tuple[Any, ...]:
        """Per square s, the match windows whose lowest square is s, grouped by a neighbour of s
        in the window; each as its other squares padded with s to three."""
        if self._first is None:
            self._first = tuple(
                tuple([(nb, rests) for nb, rests in (
                    (nb, tuple([e[:3] for e in _windows(s, tree) if e[3] & -e[3] == 1 << s])) for nb, tree in groups
                ) if rests])
                for s, groups in enumerate(self.trees)
            )
        return self._first

    @property
    def through(self) -> tuple[Any, ...]:
        """Per square, the match windows through it grouped as in ``first`` (cells padded to three)."""
        if self._through is None:
            self._through = tuple(
                tuple([(nb, tuple([e[:3] for e in _windows(s, tree)])) for nb, tree in groups])
                for s, groups in enumerate(self.trees)
            )
        return self._through


def _tree(s: int, entries: list[tuple[int, int, int, int, Any]]) -> tuple[Any, ...]:
    """The windows through square ``s`` and one neighbour ``nb`` of it, given as (other squares
    padded with ``s`` to three, bits, run information), as a tree of same-colour tests so that
    windows sharing a square test it once: entries ``(a, run, more)`` where ``run`` is the run
    information of the 3-run {s, nb, a} (None if that is no window) and ``more`` entries
    ``(b, bits, more2)`` for the windows {s, nb, a, b} (``bits`` 0 if none) and beyond, ``more2``
    entries ``(c, bits)`` for {s, nb, a, b, c}. The squares most windows share come first."""
    rests = [([q for q in (a, b, c) if q != s], bits, run) for a, b, c, bits, run in entries]
    often: dict[int, int] = {}
    for cells, _, _ in rests:
        for q in cells:
            often[q] = often.get(q, 0) + 1
    top: dict[int, list[Any]] = {}
    for cells, bits, run in rests:
        cells.sort(key=lambda q: (-often[q], q))
        node = top.setdefault(cells[0], [None, {}])
        if len(cells) == 1:
            node[0] = run
            continue
        node = node[1].setdefault(cells[1], [0, {}])
        if len(cells) == 2:
            node[0] = bits
            continue
        node[1][cells[2]] = bits
    return tuple([
        (a, run, tuple([(b, bits, tuple(more2.items())) for b, (bits, more2) in more.items()]))
        for a, (run, more) in top.items()
    ])


def _windows(s: int, tree: tuple[Any, ...]) -> list[tuple[int, int, int, int]]:
    """The windows of one neighbour's tree (see :func:`_tree`) as (other squares padded with s to three, bits)."""
    out = []
    for a, run, more in tree:
        if run is not None:
            out.append((a, s, s, run[2]))
        for b, bits, more2 in more:
            if bits:
                out.append((a, b, s, bits))
            for c, bits3 in more2:
                out.append((a, b, c, bits3))
    return out


def _roles(cells: Offsets) -> list[tuple[int, int, list[int]]]:
    """Per cell i of a window: (i, the reading-order rank of its first neighbour j around it, the
    cells other than i and j in window order, padded with i to three)."""
    out = []
    for i, (ci, ri) in enumerate(cells):
        rank, j = min(((dr + 1) * 3 + dc + 1, k) for k, (c, r) in enumerate(cells)
                      for dc, dr in [(c - ci, r - ri)] if k != i and abs(dc) <= 1 and abs(dr) <= 1)
        rest = [k for k in range(len(cells)) if k != i and k != j]
        out.append((i, rank, rest + [i] * (3 - len(rest))))
    return out


#: the tables of each board size met so far, by (width, height)
_BUILT: dict[tuple[int, int], _Tables] = {}


def _tables(width: int, height: int) -> _Tables:
    t = _BUILT.get((width, height))
    if t is None:
        if width < 1 or height < 1:
            raise ValueError(f"board must be at least 1x1, got {width}x{height}")
        t = _BUILT[width, height] = _Tables.cached(width, height)
    return t


def _checked(colors: Sequence[int], width: int, height: int) -> _Tables:
    t = _BUILT.get((width, height)) or _tables(width, height)  # the dict alone on the hot path
    if len(colors) != t.size:
        raise ValueError(f"expected {t.size} colours for a {width}x{height} board, got {len(colors)}")
    return t


def has_match(colors: Sequence[int], width: int, height: int) -> bool:
    """True if any match (see the module docstring) is on the board.

    Fast path of ``bool(find_shapes(...))``, held equal by
    tests/starfall/test_fast_path_twins.py::test_has_match_is_whether_the_shape_finder_finds_anything.
    """
    for x, groups in zip(colors, _checked(colors, width, height).first, strict=False):
        if x >= 0:
            for nb, rests in groups:
                if colors[nb] == x:
                    for a, b, c in rests:
                        if colors[a] == x and colors[b] == x and colors[c] == x:
                            return True
    return False


def matches_through(colors: Sequence[int], width: int, height: int, squares: Iterable[int]) -> bool:
    """True if a match contains one of ``squares`` (square ids on the board).

    After swapping two stars on a board with no match, a match exists iff one passes through
    one of the two swapped squares, so this is the cheap swap-legality test.

    Its slow twin is ``brute_windows`` in tests/starfall/test_shapes.py, held equal by
    test_shapes.py::test_matches_through_agrees_with_brute_force.
    """
    through = _checked(colors, width, height).through
    for s in squares:
        x = colors[s]
        if x < 0:
            continue
        for nb, rests in through[s]:
            if colors[nb] == x:
                for a, b, c in rests:
                    if colors[a] == x and colors[b] == x and colors[c] == x:
                        return True
    return False


@lru_cache(maxsize=1 << 14)
def _row_index(width: int, cells: int) -> int:
    """Index in SHAPE_ROWS of the best row a shape holds (len(SHAPE_ROWS) if none).

    ``cells`` is the shape moved to its bounding box's top-left corner, one bit ``r * width + c``
    per square: containment does not depend on where the shape sits, so equal shapes share
    one entry. ANDing a template's possible starts with the shape shifted down by each of
    the template's cells leaves bit ``p`` set where the template placed at ``p`` lies wholly
    inside the shape: every placement is tested at once.
    """
    size = cells.bit_count()
    row = (1 << width) - 1
    cols, m = 0, cells
    while m:
        cols |= m & row
        m >>= width
    for ri, t_size, offsets, starts in _candidates(width, cols.bit_length(), (cells.bit_length() - 1) // width + 1):
        if t_size <= size:
            for k in offsets:
                starts &= cells >> k
                if not starts:
                    break
            else:
                return ri
    return len(SHAPE_ROWS)


@cache
def _candidates(width: int, box_w: int, box_h: int) -> tuple[tuple[int, int, tuple[int, ...], int], ...]:
    """The templates that fit in a ``box_w`` x ``box_h`` box, in row order, as (row index,
    cells, cells as ``r * width + c``, starts): the starts are bits ``r * width + c`` for
    every place the template's box fits inside the shape's (one further right would wrap
    its cells into the next row)."""
    return tuple(
        (ri, len(offsets), offsets, _starts(width, box_w - t_w + 1, box_h - t_h + 1))
        for ri, templates in enumerate(_template_masks(width))
        for offsets, t_w, t_h in templates
        if t_w <= box_w and t_h <= box_h
    )


@cache
def _starts(width: int, across: int, down: int) -> int:
    """Bits ``r * width + c`` for c < across and r < down."""
    return sum(((1 << across) - 1) << (r * width) for r in range(down))


@cache
def _template_masks(width: int) -> tuple[tuple[tuple[tuple[int, ...], int, int], ...], ...]:
    """Per payout row, its templates that fit ``width`` columns as (cells as ``r * width + c``,
    farthest first: its shift leaves the fewest starts, so a template that does not fit is
    usually dropped after an AND or two; width, height)."""
    out = []
    for templates in _ROW_TEMPLATES:
        row = []
        for template in templates:
            t = _normal(template)
            t_w = max(c for c, _ in t) + 1
            if t_w > width:
                continue
            row.append((tuple(sorted((r * width + c for c, r in t), reverse=True)), t_w, max(r for _, r in t) + 1))
        out.append(tuple(row))
    return tuple(out)


def _row_of(squares: frozenset[int], mask: int, width: int, height: int) -> str | None:
    """The row id of one same-colour shape given as its squares and as bits ``1 << square``."""
    # its lowest row and leftmost column moved to row 0 and column 0
    left = min(map(_columns(width, height).__getitem__, squares))
    ri = _row_index(width, mask >> (min(squares) // width * width + left))
    return SHAPE_ROWS[ri] if ri < len(SHAPE_ROWS) else None


@cache
def _columns(width: int, height: int) -> tuple[int, ...]:
    """Each square's column."""
    return tuple(range(width)) * height


def classify_shape(squares: Iterable[int], width: int, height: int) -> str | None:
    """The payout row id a set of same-colour squares earns, or None if it holds no row.

    Its slow twin moves each row's templates over the cells, held equal by
    tests/starfall/test_shapes.py::test_classify_shape_equals_moving_each_template_over_the_cells.
    """
    sqs = frozenset(squares)
    if not sqs:
        return None
    if min(sqs) < 0 or max(sqs) >= width * height:
        raise ValueError(f"square out of a {width}x{height} board")
    return _row_of(sqs, sum(1 << s for s in sqs), width, height)


class _Bits:
    """Per-board-size tables for the bit-parallel search in :func:`find_shapes`.

    The board is packed one byte per square into one integer, a star of colour ``x`` as the
    byte ``1 << x`` and no star as 0 (``struct``, then :data:`_ONE_HOT`); bit 7 of byte
    ``s`` is the flag for square ``s``. AND with the board shifted by ``k`` squares and a
    carry-free nonzero-byte test give, for every square at once, "this square and the one
    ``k`` further hold the same star"; ANDs of those shifted along a window's cells give
    every window's matches at once.
    """

    __slots__ = ("pack", "m80", "m7f", "steps", "h3_runs", "v3_runs", "kinds")

    def __init__(self, t: _Tables, width: int, height: int) -> None:
        import struct

        n = width * height
        self.pack = struct.Struct(f"<{n}b").pack
        self.m80 = int.from_bytes(b"\x80" * n, "little")
        self.m7f = int.from_bytes(b"\x7f" * n, "little")

        def flags(ok: Any) -> int:
            return int.from_bytes(bytes([0x80 if ok(s % width, s // width) else 0 for s in range(n)]), "little")

        # (shift in bits, squares whose neighbour that many squares on lies in the direction):
        # across, down, down-right, down-left
        self.steps = (
            (8, flags(lambda c, r: c < width - 1)),
            (8 * width, flags(lambda c, r: r < height - 1)),
            (8 * (width + 1), flags(lambda c, r: c < width - 1 and r < height - 1)),
            (8 * (width - 1), flags(lambda c, r: c > 0 and r < height - 1)),
        )
        runs = t.runs
        self.h3_runs: tuple[Any, ...] = tuple([runs.get(7 << s) for s in range(n)])
        down3 = 1 | 1 << width | 1 << (2 * width)
        self.v3_runs: tuple[Any, ...] = tuple([runs.get(down3 << s) for s in range(n)])
        w = width
        #: per window kind (2x2, the two diagonal 4s, X, the four Vs): each square's window
        #: starting there as bits (its cells are offsets from the flagged square; see find_shapes)
        self.kinds = tuple(
            tuple([pattern << s for s in range(n)])
            for pattern in (
                sum(1 << o for o in offsets)
                for offsets in (
                    (0, 1, w, w + 1),
                    (0, w + 1, 2 * w + 2, 3 * w + 3),
                    (0, w - 1, 2 * w - 2, 3 * w - 3),
                    (0, w + 1, 2 * w + 2, 2, 2 * w),
                    (0, w + 1, 2 * w + 2, 4, w + 3),
                    (0, w - 1, 2 * w - 2, w + 1, 2 * w + 2),
                    (0, w + 1, 2 * w + 2, 3 * w + 1, 4 * w),
                    (0, w - 1, 2 * w - 2, 3 * w - 1, 4 * w),
                )
            )
        )


#: Byte of a packed square: colours 0-6 one-hot, no star (-1, packed as 0xFF) 0; any other
#: value 0x80, which sends find_shapes to the window tables.
_ONE_HOT = bytes(1 << b if b < 7 else 0 if b == 0xFF else 0x80 for b in range(256))


def _bits(t: _Tables) -> _Bits:
    """``t.bits``, built on first use."""
    if t.bits is None:
        t.bits = _Bits(t, t.width, t.height)
    return t.bits


def _squares(mask: int) -> list[int]:
    """The squares flagged in ``mask`` (bit 7 of byte ``s``), highest first."""
    out = []
    while mask:
        top = mask.bit_length() - 1  # the top bit needs no negated copy of the mask
        out.append(top >> 3)
        mask ^= 1 << top
    return out


def find_shapes(colors: Sequence[int], width: int, height: int) -> list[Shape]:
    """Every shape on the board, highest payout row first, then by lowest square.

    A shape's squares are all the stars that clear with it, hooks included. Shapes that pay
    nothing (``row=None``, lone 3-runs) come last. Raises ValueError if ``len(colors)`` is
    not ``width * height``.

    Fast path (bit-parallel); its slow twins are the window-by-window scan
    (:func:`find_shapes_through` over every square) and ``brute_shapes`` in
    tests/starfall/test_shapes.py (the rule text), held equal by
    test_shapes.py::test_bit_parallel_search_equals_the_window_scan and
    ::test_find_shapes_agrees_with_the_rule_text.
    """
    t = _checked(colors, width, height)
    b = t.bits or _bits(t)
    v = int.from_bytes(b.pack(*colors).translate(_ONE_HOT), "little")
    m7f = b.m7f
    if v & b.m80:  # a colour the bytes cannot hold
        return find_shapes_through(colors, width, height, range(t.size))
    # a byte of v & (v >> k) is at most 0x40, so adding 0x7f sets its bit 7 iff it is not zero
    e1, ew, ed, ea = [((v & (v >> k)) + m7f) & ok for k, ok in b.steps]
    w = width
    h3 = e1 & (e1 >> 8)
    v3 = ew & (ew >> 8 * w)
    b22 = e1 & ew & (ew >> 8)
    d3 = ed & (ed >> 8 * (w + 1))
    a3 = ea & (ea >> 8 * (w - 1))
    if not (h3 or v3 or b22 or d3 or a3):
        return []
    found: set[int] = set()  # matched windows, and (run end, hook) pairs, as bits
    kinds = b.kinds
    if b22:
        found.update(map(kinds[0].__getitem__, _squares(b22)))
    if d3:
        d4 = d3 & (ed >> 16 * (w + 1))
        if d4:
            found.update(map(kinds[1].__getitem__, _squares(d4)))
    if a3:
        a4 = a3 & (ea >> 16 * (w - 1))
        if a4:
            found.update(map(kinds[2].__getitem__, _squares(a4)))
        if d3:
            for i, mask in enumerate((
                d3 & (a3 >> 16),  # X
                d3 & (a3 >> 32),  # V, corner below
                a3 & d3,  # V, corner above
                d3 & (a3 >> 8 * (2 * w + 2)),  # V, corner right
                a3 & (d3 >> 8 * (2 * w - 2)),  # V, corner left
            ), 3):
                if mask:
                    found.update(map(kinds[i].__getitem__, _squares(mask)))
    # 3-runs; one that is exactly 3 long (no same star just past either end) takes hooks
    for mask, runs, exact in ((h3, b.h3_runs, h3 & ~((e1 << 8) | (e1 >> 16))),
                              (v3, b.v3_runs, v3 & ~((ew << 8 * w) | (ew >> 16 * w)))):
        for s in _squares(mask):
            _beyond, hooks, window = runs[s]
            found.add(window)
            if exact >> 8 * s & 0x80:
                x = colors[s]
                for hk, pair in hooks:
                    if colors[hk] == x:
                        found.add(pair)
    if not found:
        return []
    return _grouped(colors, t, found)


def find_shapes_through(colors: Sequence[int], width: int, height: int, squares: Iterable[int]) -> list[Shape]:
    """:func:`find_shapes` for a board whose every match holds one of ``squares``.

    The same list :func:`find_shapes` gives, found from the match windows through those
    squares only: use it when the board had no match before just those squares changed
    (a swap on a quiet board, a flow's refilled squares after a clear).

    Fast path of :func:`find_shapes` after a change, held equal to it by
    tests/starfall/test_shapes.py::test_find_shapes_through_matches_the_full_search_after_a_change.
    """
    t = _checked(colors, width, height)
    trees = t.trees
    found: set[int] = set()  # matched windows, and (run end, hook) pairs, as bits
    for s in squares:
        x = colors[s]
        if x < 0:
            continue
        for nb, tree in trees[s]:
            if colors[nb] != x:
                continue
            for a, run, more in tree:
                if colors[a] != x:
                    continue
                if run is not None:
                    found.add(run[2])
                    for q in run[0]:
                        if colors[q] == x:
                            break  # the run is longer than 3: no hooks
                    else:
                        for h, pair in run[1]:
                            if colors[h] == x:
                                found.add(pair)
                for b, bits, more2 in more:
                    if colors[b] != x:
                        continue
                    if bits:
                        found.add(bits)
                    for c, bits in more2:
                        if colors[c] == x:
                            found.add(bits)
    if not found:
        return []
    return _grouped(colors, t, found)


def _grouped(colors: Sequence[int], t: _Tables, found: set[int]) -> list[Shape]:
    """The shapes made by matched windows and (run end, hook) pairs (as bits): by payout row, then lowest square."""
    if len(found) == 1:
        (only,) = found
        return [_shape(t, only, colors[only.bit_length() - 1])]
    if len(found) == 2:  # the next commonest: one shape or two
        m, n = found
        x, y = colors[m.bit_length() - 1], colors[n.bit_length() - 1]
        if x == y and t.near[m] & n:
            return [_shape(t, m | n, x)]
        a, b = _shape(t, m, x), _shape(t, n, y)
        rank = ROW_RANK
        if (rank[a.row], (m & -m)) > (rank[b.row], (n & -n)):
            return [b, a]
        return [a, b]
    # Windows of one colour merge when they share a square or a square of one is beside (across
    # or down) a square of the other. Each colour's groups stay pairwise apart, so a window
    # merges with every group that meets it or its orthogonal neighbours.
    near_of = t.near
    groups: dict[int, list[int]] = {}
    for m in found:
        x = colors[m.bit_length() - 1]  # its highest square; every square has its colour
        apart = groups.get(x)
        if apart is None:
            groups[x] = [m]
            continue
        near = near_of[m]
        kept = []
        for g in apart:
            if g & near:
                m |= g
            else:
                kept.append(g)
        kept.append(m)
        groups[x] = kept
    if len(groups) == 1:
        ((x, masks),) = groups.items()
        if len(masks) == 1:
            return [_shape(t, masks[0], x)]
    keyed = []
    size = t.size
    for x, masks in groups.items():
        for m in masks:
            shape = _shape(t, m, x)
            # by row, then lowest square: no two shapes share a lowest square, so the shapes are never compared
            keyed.append((ROW_RANK[shape.row] * size + (m & -m).bit_length() - 1, shape))
    keyed.sort()
    return [k[1] for k in keyed]


def _shape(t: _Tables, mask: int, color: int) -> Shape:
    """The shape of colour ``color`` on the squares of ``mask`` (made once per board size)."""
    shape = t.shapes.get((mask, color))
    if shape is None:
        if len(t.shapes) >= 1 << 15:
            t.shapes.clear()
            t.cells.clear()
        cells = t.cells.get(mask)
        if cells is None:  # the squares and row do not depend on the colour: half the shapes repeat a mask
            cells = t.cells[mask] = _cells(mask, t.width, t.height)
        shape = t.shapes[mask, color] = Shape(color, cells[0], cells[1], mask)
    return shape


def _cells(mask: int, width: int, height: int) -> tuple[frozenset[int], str | None]:
    """The squares of ``mask`` and the row id they pay.

    Three squares are one 3-run (every other match window is bigger), which pays nothing.
    """
    low = (mask & -mask).bit_length() - 1
    digits = bin(mask >> low)  # "0b", then the bits from the highest down to ``low``: picked out in C
    squares = frozenset(compress(range(low + len(digits) - 1, low - 1, -1), digits.encode().translate(_ONES)))
    return squares, None if len(squares) == 3 else _row_of(squares, mask, width, height)


#: ``bytes.translate`` table: the digit "1" to 1, anything else to 0
_ONES = bytes(b == ord("1") for b in range(256))
