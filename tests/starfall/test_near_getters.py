"""effects.near_getters: each square's neighbours read in one call, right for every board size."""

from __future__ import annotations

import pytest

from pegboard_starfall.effects import near_getters
from pegboard_starfall.geometry import Geometry


@pytest.mark.parametrize("size", [(5, 5), (9, 11), (11, 11), (13, 9)])
def test_each_getter_reads_the_squares_neighbours_in_order(size: tuple[int, int]) -> None:
    geo = Geometry(*size)  # a private build: the getters must not depend on which object it is
    values = [100 + sq for sq in range(geo.size)]
    getters = near_getters(geo)
    assert len(getters) == geo.size
    for sq in range(geo.size):
        assert getters[sq](values) == tuple(100 + nb for nb in geo.nbr8[sq])
