"""Twin tests for the Starfall fast paths that had none: each fast answer equals a plain,
obviously right one, over the positions of seeded random games (and random boards)."""

from __future__ import annotations

import random

from pegboard_starfall import effects
from pegboard_starfall.pieces import TURRET
from pegboard_starfall.shapes import find_shapes, has_match
from support.starfall_helpers import make_game

GAMES = [make_game(), make_game(salvage={"enabled": True}, drones={"cap": 4}), make_game(fog={"mode": "seam"})]


def _positions(plies: int = 150):
    """Every position of a few seeded random games (``random_move``, then ``push``)."""
    for game in GAMES:
        for seed in (1, 2):
            st = game.new_state(seed)
            rng = random.Random(seed)
            for _ in range(plies):
                if st.result is not None:
                    break
                st.push(st.random_move(rng))
                yield st


def test_drone_count_is_a_count_of_the_drones_on_the_board() -> None:
    # drone_count reads the kind and side rows as integers; a stale side byte under an empty
    # square must not count, so the plain count goes by the kind first
    checked = 0
    for st in _positions():
        for side in (0, 1):
            plain = sum(1 for s in range(st.geo.size) if st.kind[s] and st.kind[s] != TURRET and st.side[s] == side)
            assert st.drone_count(side) == plain
        checked += 1
    assert checked >= 500


def test_the_holes_are_the_squares_with_neither_a_star_nor_an_asteroid() -> None:
    checked = 0
    for st in _positions():
        plain = [s for s in range(st.geo.size) if st.star[s] < 0 and not st.ast[s]]
        assert effects._holes(st.star, st.ast) == plain
        checked += 1
    assert checked >= 500


def test_the_remembered_territory_count_is_the_count() -> None:
    checked = 0
    for st in _positions():
        seen, owned = st.memo.owned
        if seen == st.owner:  # the turn's close counted this very layout
            assert owned == st.geo.size - st.owner.count(-1)
            checked += 1
    assert checked >= 300


def test_has_match_is_whether_the_shape_finder_finds_anything() -> None:
    rng = random.Random(5)
    found = checked = 0
    for _ in range(2000):
        width, height = rng.choice([(5, 5), (7, 5), (9, 9), (11, 11)])
        colors = [rng.randrange(-1, 5) for _ in range(width * height)]
        expected = bool(find_shapes(colors, width, height))
        assert has_match(colors, width, height) == expected
        found += expected
        checked += 1
    assert checked == 2000 and 200 <= found <= 1900  # both answers occur often


def test_every_twin_test_a_fast_path_names_exists() -> None:
    # the docstrings name their twin tests as ``tests/starfall/FILE.py::test_name`` (or, after
    # that, ``FILE.py::test_name`` and ``::test_name`` for the same file)
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    named = 0
    for source in sorted((root / "plugins" / "pegboard_starfall").glob("*.py")):
        text = " ".join(source.read_text().split())  # docstrings wrap lines anywhere
        current = None
        for match in re.finditer(r"(?:tests/starfall/)?(test_\w+\.py)?::(test_\w+)", text):
            current = match.group(1) or current
            assert current is not None, (source.name, match.group(0))
            tests = (root / "tests" / "starfall" / current).read_text()
            assert f"def {match.group(2)}(" in tests, (source.name, current, match.group(2))
            named += 1
    assert named >= 25
