"""Shared fixtures for Node War tests (helpers live in nodewar_helpers.py)."""

from __future__ import annotations

import pytest

from pegboard_nodewar import NodeWarGame, load_shipped


@pytest.fixture(scope="session")
def game() -> NodeWarGame:
    """Node War under the standard ruleset (Blue Base 6,2; Red Base 6,16)."""
    return NodeWarGame(load_shipped("standard"))


@pytest.fixture(scope="session")
def skirmish() -> NodeWarGame:
    return NodeWarGame(load_shipped("skirmish"))

