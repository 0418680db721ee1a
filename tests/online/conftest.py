"""Online tests: real games (entry points), loopback lobbies, a private Pegboard home."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.plugins.manager import Plugins, set_plugins


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Plugins]:
    monkeypatch.setenv("PEGBOARD_HOME", str(tmp_path / "home"))
    registry = Plugins()
    set_plugins(registry)
    yield registry
    set_plugins(None)
