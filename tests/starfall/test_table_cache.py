"""Starfall's per-board-size tables read back from the disk cache equal a fresh build."""

from __future__ import annotations

from pathlib import Path

import pytest

from pegboard_starfall.geometry import Geometry, cached_geometry, geometry
from pegboard_starfall.shapes import _Tables

SIZES = [(5, 7), (9, 9), (11, 11), (13, 13), (8, 11)]


@pytest.fixture
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PEGBOARD_CACHE_DIR", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_geometry_read_back_equals_a_fresh_build(cache_folder: Path, width: int, height: int) -> None:
    fresh = vars(Geometry(width, height))
    assert vars(cached_geometry(width, height)) == fresh  # built, then written
    assert len(list(cache_folder.iterdir())) == 1
    again = cached_geometry(width, height)  # read back
    assert vars(again) == fresh
    assert again.disc(12, 2) == Geometry(width, height).disc(12, 2)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_shape_tables_read_back_equal_a_fresh_build(cache_folder: Path, width: int, height: int) -> None:
    fresh = _Tables(width, height)._values()
    assert _Tables.cached(width, height)._values() == fresh
    assert len(list(cache_folder.iterdir())) == 1
    assert _Tables.cached(width, height)._values() == fresh


def test_a_damaged_table_file_is_rebuilt(cache_folder: Path) -> None:
    cached_geometry(9, 9)
    [written] = cache_folder.iterdir()
    good = written.read_bytes()
    written.write_bytes(good[: len(good) // 2])
    assert vars(cached_geometry(9, 9)) == vars(Geometry(9, 9))
    assert written.read_bytes() == good


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_line_tables_read_back_equal_a_fresh_build(cache_folder: Path, width: int, height: int) -> None:
    from pegboard_starfall.movegen import _build_line_tables, _line_tables

    geo = Geometry(width, height)  # a private geometry: its tables live and die with it
    fresh = _build_line_tables(geo)
    assert "lines" not in geo.derived
    assert _line_tables(geo) == fresh  # built, then written
    del geo.derived["lines"]
    assert _line_tables(geo) == fresh  # read back
    assert len(list(cache_folder.iterdir())) == 1


@pytest.mark.parametrize("radius", range(6))
def test_disc_tables_hold_every_square_within_the_radius(radius: int) -> None:
    for width, height in SIZES:
        geo = Geometry(width, height)
        for sq in range(geo.size):
            expected = tuple(
                t for t in range(geo.size) if max(abs(geo.col[t] - geo.col[sq]), abs(geo.row[t] - geo.row[sq])) <= radius
            )
            assert geo.disc(sq, radius) == expected


def test_deal_patterns_are_the_runs_a_dealt_star_could_complete() -> None:
    from pegboard_starfall.setup import _deal_patterns

    runs = (((-1, 0), (-2, 0)), ((0, -1), (0, -2)), ((-1, 0), (0, -1), (-1, -1)), ((-1, -1), (-2, -2)), ((1, -1), (2, -2)))
    for width, height in SIZES:
        geo = geometry(width, height)
        patterns = _deal_patterns(geo)
        assert len(patterns) == geo.size, "one entry per square"
        for sq, found in enumerate(patterns):
            c, r = geo.col[sq], geo.row[sq]
            expected = []
            for cells in runs:
                if all(geo.on_board(c + dc, r + dr) for dc, dr in cells):
                    squares = [geo.sq(c + dc, r + dr) for dc, dr in cells]
                    expected.append((squares[0], squares[1], squares[-1]))
            assert found == tuple(expected)


def test_derived_tables_belong_to_their_geometry_even_when_an_id_is_reused() -> None:
    # each geometry is freed before the next is made, so the next may get the same id(): a
    # table kept by id() would then serve a board of another size (the hazard is not forced
    # here, CPython reuses an id only now and then; this holds each table to its own geometry)
    import gc

    from pegboard_starfall.effects import near_getters
    from pegboard_starfall.movegen import _ride_choices, _swap_tries
    from pegboard_starfall.sampling import _block_sizes, _disc_sizes
    from pegboard_starfall.setup import _deal_patterns

    checked = 0
    for width, height in SIZES * 2:
        geo = Geometry(width, height)
        n = geo.size
        tables = (_ride_choices(geo), _block_sizes(geo)[1], _disc_sizes(geo, 2), _deal_patterns(geo), near_getters(geo))
        assert [len(table) for table in tables] == [n] * len(tables)
        assert set(_swap_tries(geo)) == {(a, b) for a, b, _, _ in geo.swap_pairs}
        assert _disc_sizes(geo, 2) == tuple(len(geo.disc(sq, 2)) for sq in range(n))
        checked += 1
        del geo, tables
        gc.collect()
    assert checked == 2 * len(SIZES)
