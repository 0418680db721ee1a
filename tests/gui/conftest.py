"""The window tests run headless (pyglet's EGL) unless told otherwise; pyglet reads this
when it is first imported, which happens after conftest files load."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

os.environ.setdefault("PYGLET_HEADLESS", "1")


@pytest.fixture
def opened() -> Iterator[list[Any]]:
    """A list to put the windows a test opens in: each is closed after the test."""
    windows: list[Any] = []
    yield windows
    for window in windows:
        if not window.has_exit:
            window.close()
