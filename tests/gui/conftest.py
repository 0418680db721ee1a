"""Fixtures for driving the real match window headless (EGL, no display needed)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("PYGLET_HEADLESS", "1")  # before anything imports pyglet
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest  # noqa: E402

import gridtoy  # noqa: E402


@pytest.fixture
def plugins():
    return gridtoy.make_plugins()


@pytest.fixture
def window_factory(plugins):
    """``window_factory(seats, ruleset=None, width=1280, height=800, threaded=False)`` -> MatchWindow."""
    from pegboard.ui import make_session, open_window

    made = []

    def make(seats=("human", "human"), ruleset=None, width=1280, height=800, threaded=False, plugins=plugins):
        session = make_session("gridtoy", ruleset, list(seats), plugins, threaded=threaded)
        window = open_window(session, plugins, width=width, height=height, schedule=False)
        made.append(window)
        return window

    yield make
    for window in made:
        if not window.has_exit:
            window.close()
