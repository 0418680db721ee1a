"""Starfall match detection and shape classification (pegboard_starfall.shapes).

Boards are drawn as pictures, row r = line index, column c = character index:
``#`` a colour-0 star that must clear, ``+`` a colour-0 star that must not clear,
``o`` no star, ``1``-``4`` a star of that colour, ``.`` background. The background paints
colour 1 + (c + 2r) % 4 on 1..4: no two of its 8-neighbours share a colour, so it never
matches and never joins a colour-0 shape.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard_starfall.shapes import (
    SHAPE_ROWS,
    Shape,
    classify_shape,
    find_shapes,
    find_shapes_through,
    has_match,
    matches_through,
)

W = H = 11


# --------------------------------------------------------------------------- helpers


def rotate(pic: list[str]) -> list[str]:
    """The picture turned 90 degrees clockwise."""
    width = max(len(line) for line in pic)
    rows = [line.ljust(width, ".") for line in pic]
    return ["".join(row[c] for row in reversed(rows)) for c in range(width)]


def mirror(pic: list[str]) -> list[str]:
    width = max(len(line) for line in pic)
    return [line.ljust(width, ".")[::-1] for line in pic]


def turns(pic: list[str], reflect: bool = True) -> list[list[str]]:
    """Every distinct rotation (and reflection) of a picture."""
    out: list[list[str]] = []
    base = [pic, mirror(pic)] if reflect else [pic]
    for p in base:
        for _ in range(4):
            if p not in out:
                out.append(p)
            p = rotate(p)
    return out


def board(pic: list[str], at: tuple[int, int] = (2, 2), width: int = W, height: int = H, holes: bool = False):
    """(colors, must-clear squares, must-stay squares) for a picture placed at column/row ``at``.

    With ``holes`` the background is empty (-1) instead of the never-matching pattern.
    """
    if holes:
        colors = [-1] * (width * height)
    else:
        colors = [1 + (c + 2 * r) % 4 for r in range(height) for c in range(width)]
    clear, stay = set(), set()
    c0, r0 = at
    for dr, line in enumerate(pic):
        for dc, ch in enumerate(line):
            if ch == ".":
                continue
            s = (r0 + dr) * width + c0 + dc
            if ch == "#":
                colors[s] = 0
                clear.add(s)
            elif ch == "+":
                colors[s] = 0
                stay.add(s)
            elif ch == "o":
                colors[s] = -1
            else:
                colors[s] = int(ch)
    return colors, clear, stay


def corners(pic: list[str]) -> list[tuple[int, int]]:
    """Place a picture in the top-left corner and against the bottom-right edges."""
    pw, ph = max(len(line) for line in pic), len(pic)
    return [(0, 0), (W - pw, H - ph)]


def only_shape(pic: list[str], at: tuple[int, int]) -> Shape:
    colors, clear, stay = board(pic, at)
    shapes = find_shapes(colors, W, H)
    assert len(shapes) == 1, shapes
    (shape,) = shapes
    assert shape.color == 0
    assert shape.squares == frozenset(clear)
    assert not shape.squares & stay
    assert has_match(colors, W, H)
    return shape


def sq(c: int, r: int, width: int = W) -> int:
    return r * width + c


# ----------------------------------------------------------------- the row order


def test_rows_are_the_seed_table_bottom_up():
    seed_table_top_down = [
        "line4",  # 4 in a line
        "block2x2",  # 2 x 2 block
        "line5",  # 5 in a line
        "hook4",  # L of 4: a 3-line with one star hooked
        "line6",  # 6 in a line
        "L33",  # L of two 3-lines
        "T33",  # T of two 3-lines
        "plus_or_X",  # Plus of two 3-lines, or an X of 5 diagonals
        "V",  # V of two diagonals
        "L43",  # L of 4 and 3
        "cross44_53_or_line7",  # 7 in a line, 4 crossing 4, or 5 crossing 3
        "cross54_or_block2x3",  # 5 crossing 4 or bigger, or a 2 x 3 block
        "block3x3",  # 3 x 3 block
    ]
    assert SHAPE_ROWS == tuple(reversed(seed_table_top_down))


# ------------------------------------------------------- one picture per table row

ORTHO_LINE = {4: "line4", 5: "line5", 6: "line6", 7: "cross44_53_or_line7"}

ROW_PICTURES: list[tuple[str, list[str]]] = [
    ("block2x2", ["##", "##"]),
    ("hook4", ["###", "#.."]),
    ("L33", ["###", "#..", "#.."]),
    ("T33", ["###", ".#.", ".#."]),
    ("plus_or_X", [".#.", "###", ".#."]),
    ("plus_or_X", ["#.#", ".#.", "#.#"]),
    ("V", ["#...#", ".#.#.", "..#.."]),
    ("L43", ["####", "#...", "#..."]),
    ("cross44_53_or_line7", [".#..", "####", ".#..", ".#.."]),  # 4 crossing 4
    ("cross44_53_or_line7", ["..#..", "#####", "..#.."]),  # 5 crossing 3
    ("cross44_53_or_line7", [".#...", "#####", ".#..."]),  # 5 crossing 3 off-centre
    ("cross54_or_block2x3", ["..#..", "#####", "..#..", "..#.."]),  # 5 crossing 4
    ("cross54_or_block2x3", [".#...", ".#...", "#####", ".#..."]),  # 5 crossing 4, other joint
    ("cross54_or_block2x3", ["##", "##", "##"]),
    ("block3x3", ["###", "###", "###"]),
]


def _row_cases():
    for row, pic in ROW_PICTURES:
        for k, p in enumerate(turns(pic)):
            for at in corners(p):
                yield pytest.param(row, p, at, id=f"{row}-{'/'.join(pic)}-t{k}-{at}")
    for n, row in ORTHO_LINE.items():
        across = ["#" * n]
        diagonal = ["." * i + "#" + "." * (n - 1 - i) for i in range(n)]
        for p in turns(across) + turns(diagonal):
            for at in corners(p):
                yield pytest.param(row, p, at, id=f"line{n}-{len(p)}x{len(p[0])}-{p[0]}-{at}")


@pytest.mark.parametrize(("row", "pic", "at"), list(_row_cases()))
def test_every_table_row_in_every_turn(row, pic, at):
    assert only_shape(pic, at).row == row


def test_rotations_really_differ():
    # guard for the parametrisation above: an L has 8 distinct images, a T and a V 4, a hook 8
    assert len(turns(["###", "#..", "#.."])) == 4
    assert len(turns(["###", ".#.", ".#."])) == 4
    assert len(turns(["#...#", ".#.#.", "..#.."])) == 4
    assert len(turns(["###", "#.."])) == 8
    assert len(turns(["####", "#...", "#..."])) == 8


# ------------------------------------------------------------------ lone runs, merges


@pytest.mark.parametrize("pic", [["###"], ["#", "#", "#"]])
def test_lone_three_clears_and_pays_nothing(pic):
    assert only_shape(pic, (4, 4)).row is None


def test_diagonal_three_is_no_match():
    colors, _, _ = board(["+..", ".+.", "..+"])
    assert find_shapes(colors, W, H) == []
    assert not has_match(colors, W, H)


@pytest.mark.parametrize("pic", [["###", "###"], ["##", "##", "##"]])
def test_two_side_by_side_threes_merge_into_a_2x3_block(pic):
    assert only_shape(pic, (3, 5)).row == "cross54_or_block2x3"


def test_offset_parallel_threes_merge_through_the_shared_edges():
    # rows 0 and 1 overlap in two columns: one shape holding a 2x2 and a hook
    assert only_shape(["###.", ".###"], (3, 3)).row == "hook4"
    # overlapping in one column: each run hooks the other
    assert only_shape(["###..", "..###"], (3, 3)).row == "hook4"


def test_threes_touching_only_at_a_corner_stay_apart():
    colors, _, _ = board(["###...", "...###"])
    shapes = find_shapes(colors, W, H)
    assert [s.row for s in shapes] == [None, None]
    assert [min(s.squares) for s in shapes] == [sq(2, 2), sq(5, 3)]


def test_same_colour_shapes_apart_are_separate_and_ordered_by_row_then_square():
    colors, _, _ = board(["###.####", "........", "........", "####....", "........", "##......", "##......"])
    shapes = find_shapes(colors, W, H)
    # block2x2 > line4 (two of them, by lowest square) > lone 3-run
    assert [s.row for s in shapes] == ["block2x2", "line4", "line4", None]
    assert [min(s.squares) for s in shapes] == [sq(2, 7), sq(6, 2), sq(2, 5), sq(2, 2)]


def test_two_colours_at_once_ordered_by_row():
    pic = [
        "3.3......",
        ".3...222.",
        "3.3...2..",
        "......2..",
        "1111.....",
        "..0......",
        "..000....",
    ]
    colors, _, _ = board(pic, at=(1, 1), holes=True)
    shapes = find_shapes(colors, W, H)
    assert [(s.color, s.row) for s in shapes] == [(3, "plus_or_X"), (2, "T33"), (0, "hook4"), (1, "line4")]
    assert shapes[0].squares == {sq(1, 1), sq(3, 1), sq(2, 2), sq(1, 3), sq(3, 3)}
    assert shapes[1].squares == {sq(6, 2), sq(7, 2), sq(8, 2), sq(7, 3), sq(7, 4)}
    assert shapes[2].squares == {sq(3, 6), sq(3, 7), sq(4, 7), sq(5, 7)}
    assert shapes[3].squares == {sq(c, 5) for c in range(1, 5)}


def test_holes_around_and_inside():
    pic = [
        "ooooooo",
        "o####oo",
        "oo#o+oo",
        "oo#oooo",
        "ooooooo",
    ]
    # T with a bar of 4 (two past the joint on one side) and a stem of 3: holds T33 and L33
    assert only_shape(pic, (3, 3)).row == "T33"
    colors, _, _ = board(["++o++", "ooooo", "+o+o+", "o+ooo", "++o++"], at=(0, 0))
    assert find_shapes(colors, W, H) == []
    assert not has_match(colors, W, H)


def test_tuple_boards_and_other_sizes():
    colors, clear, _ = board(["#..", "###"], at=(4, 2), width=7, height=5)
    (shape,) = find_shapes(tuple(colors), 7, 5)
    assert (shape.row, shape.squares) == ("hook4", clear)
    assert matches_through(tuple(colors), 7, 5, [7 * 3 + 6])
    assert not matches_through(tuple(colors), 7, 5, [7 * 2 + 4])  # the hook star


def test_no_star_never_matches():
    colors = [-1] * (W * H)
    assert find_shapes(colors, W, H) == []
    assert not has_match(colors, W, H)
    assert not matches_through(colors, W, H, range(W * H))


# ------------------------------------------------------------ documented corner cases


@pytest.mark.parametrize("pic", turns(["####", "+..."]))
def test_four_run_takes_no_hook(pic):
    assert only_shape(pic, (3, 3)).row == "line4"


def test_hook_joins_only_beside_an_end():
    assert only_shape([".+..", "###.", "...+"], (3, 3)).row is None  # beside the middle, off a corner
    assert only_shape(["#.#", "###"], (3, 3)).row == "hook4"  # U: hooks at both ends
    assert only_shape(["#..", "###", "..#"], (3, 3)).row == "hook4"  # Z


def test_hook_on_a_run_of_three_that_is_part_of_an_l():
    # the down run of column 0 is exactly 3, so the star beside its lower end joins too
    assert only_shape(["####", "#...", "##.."], (3, 3)).row == "L43"


@pytest.mark.parametrize(
    ("pic", "row"),
    [
        (["#####", "#....", "#...."], "L43"),  # L 5+3
        (["####", "#...", "#...", "#..."], "L43"),  # L 4+4
        (["####", ".#..", ".#.."], "T33"),  # T, bar 4, stem 3 (also holds an L33)
        (["#####", "..#..", "..#.."], "T33"),  # T, bar 5 centred, stem 3
        (["###", ".#.", ".#.", ".#."], "T33"),  # T, bar 3, stem 4
        (["####", ".#..", ".#..", ".#.."], "L43"),  # T, bar 4, stem 4
        ([".#..", "####", ".#.."], "plus_or_X"),  # 4 crossing 3
        ([".#....", "######", ".#...."], "cross44_53_or_line7"),  # 6 crossing 3
        (["..#..", "..#..", "#####", "..#..", "..#.."], "cross54_or_block2x3"),  # 5 crossing 5
        (["####", "####"], "cross54_or_block2x3"),  # 2x4 block
        (["####", "####", "####"], "block3x3"),  # 3x4 block
        (["#####", "+...."], "line5"),  # no hook on a 5-run, though hook4 ranks higher
        (["#.....#", ".#...#.", "..#.#..", "...#..."], "V"),  # diagonal L of two 4-runs
        (["#..#", ".##.", ".##.", "#..#"], "block2x2"),  # two diagonal 4-runs through a 2x2
        (["#...#", ".#.#.", "..#..", ".#.#."], "V"),  # diagonal 4-runs crossing
        (["#...", ".#.#", "..#.", ".#.#"], "plus_or_X"),  # an X with one diagonal grown to 4
    ],
)
def test_bigger_shapes(pic, row):
    assert only_shape(pic, (2, 3)).row == row


def test_four_run_with_a_touching_2x2():
    assert only_shape(["####", ".##.", ".##."], (2, 2)).row == "cross54_or_block2x3"
    assert only_shape(["####.", "...##", "...##"], (2, 2)).row == "L43"
    colors, _, _ = board(["####..", "....##", "....##"])
    assert [s.row for s in find_shapes(colors, W, H)] == ["block2x2", "line4"]


def test_matches_touching_along_an_edge_merge_without_forming_a_run():
    # an X and a diagonal 4-run: (2,2)-(3,2) share an edge, nothing else joins them
    pic = [
        "#.#....",
        ".#.....",
        "#.##...",
        "....#..",
        ".....#.",
        "......#",
    ]
    shape = only_shape(pic, (1, 1))
    assert len(shape.squares) == 9
    assert shape.row == "plus_or_X"
    # one column further right the run no longer touches the X: two shapes
    colors, _, _ = board(["#.#.....", ".#......", "#.#.#...", ".....#..", "......#.", ".......#"], (1, 1))
    assert [s.row for s in find_shapes(colors, W, H)] == ["plus_or_X", "line4"]


def test_classify_shape_directly():
    assert classify_shape([0, 1, 2], 5, 5) is None
    assert classify_shape([0, 1, 5, 6], 5, 5) == "block2x2"
    assert classify_shape([0, 6, 12, 18], 5, 5) == "line4"
    assert classify_shape(range(25), 5, 5) == "block3x3"
    assert classify_shape([], 5, 5) is None
    with pytest.raises(ValueError):
        classify_shape([24, 25], 5, 5)


def test_wrong_board_size_is_a_value_error():
    with pytest.raises(ValueError):
        find_shapes([0] * 10, 3, 3)
    with pytest.raises(ValueError):
        has_match([0] * 10, 3, 3)
    with pytest.raises(ValueError):
        has_match([], 0, 0)


# -------------------------------------------------------------- has_match, matches_through


@pytest.mark.parametrize(
    "pic",
    [["#.#", ".#.", "#.#"], ["#...#", ".#.#.", "..#.."], ["#...", ".#..", "..#.", "...#"], ["##", "##"], ["###"]],
)
def test_every_match_kind_is_found_through_each_of_its_squares(pic):
    checked = 0
    for p in turns(pic):
        colors, clear, _ = board(p, (3, 3))
        assert has_match(colors, W, H) and clear
        checked += 1
        for s in clear:
            assert matches_through(colors, W, H, [s])
        others = [s for s in range(W * H) if s not in clear]
        assert not matches_through(colors, W, H, others)
    assert checked >= 1


def test_a_hook_alone_is_not_a_match_through_it():
    colors, clear, _ = board(["###", "#.."], (3, 3))
    assert not matches_through(colors, W, H, [sq(3, 4)])
    assert matches_through(colors, W, H, [sq(4, 3)])


# ------------------------------------------------------------- brute-force references
#
# An independent reading of the rules, written from pictures and plain loops, that the
# table-driven module must agree with on random boards.


def _cells(pic: list[str]) -> list[tuple[int, int]]:
    return [(c, r) for r, line in enumerate(pic) for c, ch in enumerate(line) if ch == "#"]


def _all_turns(pics: Iterable[list[str]]) -> list[list[tuple[int, int]]]:
    out = []
    for pic in pics:
        for p in turns(pic):
            cells = sorted(_cells(p))
            if cells not in out:
                out.append(cells)
    return out


def _line_pics(n: int) -> list[list[str]]:
    return [["#" * n], ["." * i + "#" + "." * (n - 1 - i) for i in range(n)]]


def _crossing_pics(a: int, b: int) -> list[list[str]]:
    pics = []
    for i in range(1, a - 1):
        for j in range(1, b - 1):
            pics.append(["#" * a if y == j else "." * i + "#" + "." * (a - 1 - i) for y in range(b)])
    return pics


MATCH_CELLS = _all_turns([["###"], ["#...", ".#..", "..#.", "...#"], ["##", "##"], ["#.#", ".#.", "#.#"],
                          ["#...#", ".#.#.", "..#.."]])

ROW_CELLS = {
    "block3x3": _all_turns([["###", "###", "###"]]),
    "cross54_or_block2x3": _all_turns(_crossing_pics(5, 4) + [["###", "###"]]),
    "cross44_53_or_line7": _all_turns(_crossing_pics(4, 4) + _crossing_pics(5, 3) + _line_pics(7)),
    "L43": _all_turns([["####", "#...", "#..."]]),
    "V": _all_turns([["#...#", ".#.#.", "..#.."]]),
    "plus_or_X": _all_turns([[".#.", "###", ".#."], ["#.#", ".#.", "#.#"]]),
    "T33": _all_turns([["###", ".#.", ".#."]]),
    "L33": _all_turns([["###", "#..", "#.."]]),
    "line6": _all_turns(_line_pics(6)),
    "hook4": _all_turns([["###", "#.."]]),
    "line5": _all_turns(_line_pics(5)),
    "block2x2": _all_turns([["##", "##"]]),
    "line4": _all_turns(_line_pics(4)),
}


def brute_windows(colors, width, height):
    """Every monochrome match window, as a set of squares."""
    found = []
    for cells in MATCH_CELLS:
        for r0, c0 in itertools.product(range(height), range(width)):
            pts = [(c0 + dc, r0 + dr) for dc, dr in cells]
            if all(c < width and r < height for c, r in pts):
                sqs = [r * width + c for c, r in pts]
                x = colors[sqs[0]]
                if x >= 0 and all(colors[s] == x for s in sqs):
                    found.append(set(sqs))
    return found


def brute_shapes(colors, width, height):
    """Shapes as (colour, squares) by rule text: windows, hooks, merge, components."""
    groups = brute_windows(colors, width, height)

    def col(c, r):
        return colors[r * width + c] if 0 <= c < width and 0 <= r < height else -1

    for r, c in itertools.product(range(height), range(width)):
        x = col(c, r)
        if x < 0:
            continue
        for dc, dr in ((1, 0), (0, 1)):
            # a maximal run of exactly 3 starting at (c, r)
            if col(c - dc, r - dr) == x:
                continue
            n = 0
            while col(c + n * dc, r + n * dr) == x:
                n += 1
            if n != 3:
                continue
            for k in (0, 2):
                ec, er = c + k * dc, r + k * dr
                for sgn in (1, -1):
                    hc, hr = ec + sgn * dr, er + sgn * dc
                    if col(hc, hr) == x:
                        groups.append({er * width + ec, hr * width + hc})
    matched = set().union(*groups) if groups else set()
    # merge groups sharing a square or an edge, by repeated passes
    merged = [set(g) for g in groups]
    changed = True
    while changed:
        changed = False
        for i in range(len(merged)):
            for j in range(i + 1, len(merged)):
                a, b = merged[i], merged[j]
                if not a or not b or colors[next(iter(a))] != colors[next(iter(b))]:
                    continue
                touch = a & b or any(
                    abs(p % width - q % width) + abs(p // width - q // width) == 1 for p in a for q in b
                )
                if touch:
                    a |= b
                    b.clear()
                    changed = True
    return matched, [(colors[next(iter(g))], frozenset(g)) for g in merged if g]


def brute_row(squares, width, height):
    pts = {(s % width, s // width) for s in squares}
    for row in SHAPE_ROWS:
        for cells in ROW_CELLS[row]:
            for r0, c0 in itertools.product(range(-4, height), range(-4, width)):
                if all((c0 + dc, r0 + dr) in pts for dc, dr in cells):
                    return row
    return None


boards = st.integers(1, 8).flatmap(
    lambda w: st.integers(1, 8).flatmap(
        lambda h: st.tuples(
            st.just(w),
            st.just(h),
            st.lists(st.sampled_from([-1, 0, 0, 1, 1, 2]), min_size=w * h, max_size=w * h),
        )
    )
)


@settings(max_examples=300, deadline=None)
@given(boards)
def test_find_shapes_agrees_with_the_rule_text(b):
    width, height, colors = b
    shapes = find_shapes(colors, width, height)
    matched, expected = brute_shapes(colors, width, height)
    seen: set[int] = set()
    for shape in shapes:
        assert all(colors[s] == shape.color for s in shape.squares)
        assert not shape.squares & seen  # disjoint
        seen |= shape.squares
        assert shape.row == brute_row(shape.squares, width, height)
    assert seen == matched
    assert sorted((s.color, sorted(s.squares)) for s in shapes) == sorted((c, sorted(g)) for c, g in expected)
    keys = [
        (SHAPE_ROWS.index(s.row) if s.row else len(SHAPE_ROWS), min(s.squares)) for s in shapes
    ]
    assert keys == sorted(keys)
    assert has_match(colors, width, height) == bool(shapes)


@settings(max_examples=300, deadline=None)
@given(boards, st.data())
def test_matches_through_agrees_with_brute_force(b, data):
    width, height, colors = b
    squares = data.draw(st.sets(st.integers(0, width * height - 1), max_size=4))
    windows = brute_windows(colors, width, height)
    expected = any(w & squares for w in windows)
    assert matches_through(colors, width, height, squares) == expected
    assert matches_through(colors, width, height, range(width * height)) == bool(windows)
    assert has_match(colors, width, height) == bool(windows)


@settings(max_examples=100, deadline=None)
@given(st.integers(3, 8), st.integers(3, 8), st.randoms(use_true_random=False))
def test_swap_legality_by_matches_through(width, height, rnd):
    # deal a board without matches, then every swap: a match through the two squares iff any
    colors = [rnd.randrange(5) for _ in range(width * height)]
    for _ in range(50):
        shapes = find_shapes(colors, width, height)
        if not shapes:
            break
        for shape in shapes:
            for s in shape.squares:
                colors[s] = rnd.randrange(5)
    if has_match(colors, width, height):
        return
    for s in range(width * height):
        for t in (s + 1, s + width):
            if t >= width * height or (t == s + 1 and t % width == 0):
                continue
            colors[s], colors[t] = colors[t], colors[s]
            assert matches_through(colors, width, height, (s, t)) == has_match(colors, width, height)
            colors[s], colors[t] = colors[t], colors[s]


@settings(max_examples=150, deadline=None)
@given(st.integers(3, 11), st.integers(3, 11), st.randoms(use_true_random=False), st.integers(1, 12))
def test_find_shapes_through_matches_the_full_search_after_a_change(width, height, rnd, changes):
    # a board without matches, then a few squares recoloured (or emptied): every match holds
    # one of them, and the search through them alone finds what the full search finds
    colors = [rnd.randrange(4) for _ in range(width * height)]
    for _ in range(50):
        shapes = find_shapes(colors, width, height)
        if not shapes:
            break
        for shape in shapes:
            for s in shape.squares:
                colors[s] = rnd.randrange(4)
    if has_match(colors, width, height):
        return
    changed = [rnd.randrange(width * height) for _ in range(changes)]
    for s in changed:
        colors[s] = rnd.choice((-1, 0, 1, 2, 3, 3))
    assert find_shapes_through(colors, width, height, changed) == find_shapes(colors, width, height)
    assert find_shapes_through(colors, width, height, []) == []


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.randoms(use_true_random=False), st.integers(2, 5),
       st.floats(0.0, 0.3))
def test_bit_parallel_search_equals_the_window_scan(width, height, rnd, colours, holes):
    # find_shapes tests every window at once on a packed board; find_shapes_through through
    # every square walks the window tables one by one: same shapes, on crowded boards too
    colors = [-1 if rnd.random() < holes else rnd.randrange(colours) for _ in range(width * height)]
    assert find_shapes(colors, width, height) == find_shapes_through(colors, width, height, range(width * height))


def _row_by_translation(cells: set[tuple[int, int]]) -> str | None:
    """The payout row by brute force: the first row with a template that fits inside the cells once moved."""
    from pegboard_starfall import shapes

    for row, templates in zip(SHAPE_ROWS, shapes._ROW_TEMPLATES, strict=True):
        for template in templates:
            for c, r in cells:
                dc, dr = c - template[0][0], r - template[0][1]
                if all((x + dc, y + dr) in cells for x, y in template):
                    return row
    return None


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.randoms(use_true_random=False), st.integers(1, 16))
def test_classify_shape_equals_moving_each_template_over_the_cells(width, height, rnd, size):
    # classify_shape tests templates as bit masks shifted over the shape's bounding box; moving
    # each template cell by cell over the shape must give the same row (blobs and scattered cells)
    cells = {(rnd.randrange(width), rnd.randrange(height))}
    for _ in range(4 * size):
        if len(cells) >= size:
            break
        c, r = rnd.choice(sorted(cells)) if rnd.random() < 0.8 else (rnd.randrange(width), rnd.randrange(height))
        dc, dr = rnd.choice(((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1)))
        if 0 <= c + dc < width and 0 <= r + dr < height:
            cells.add((c + dc, r + dr))
    assert classify_shape([r * width + c for c, r in cells], width, height) == _row_by_translation(cells)


def test_colours_the_packed_search_cannot_hold_are_searched_window_by_window():
    # find_shapes packs colours 0-6 one-hot into a byte; a larger colour takes the window tables
    colors = [9, 9, 9, 0, 1, 7, 7, 7, 3, 4, 5, 12, 3, 12, 4, 1]
    assert find_shapes(colors, 4, 4) == find_shapes_through(colors, 4, 4, range(16))
    assert {s.color for s in find_shapes(colors, 4, 4)} == {9, 7}
