"""Shared fixtures for Starfall tests (helpers live in starfall_helpers.py)."""

from __future__ import annotations

import pytest

from pegboard_starfall.game import StarfallGame
from support.starfall_helpers import make_game


@pytest.fixture(scope="session")
def game() -> StarfallGame:
    """Starfall under the standard rules (no fog, no salvage)."""
    return make_game()


@pytest.fixture(scope="session")
def seam_game() -> StarfallGame:
    return make_game(fog={"mode": "seam"})


@pytest.fixture(scope="session")
def dark_game() -> StarfallGame:
    return make_game(fog={"mode": "dark"})


@pytest.fixture(scope="session")
def salvage_game() -> StarfallGame:
    return make_game(salvage={"enabled": True})
