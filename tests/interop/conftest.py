"""Fixtures for the adapter tests: the installed games, and short rulesets for long checks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.plugins.manager import Plugins, set_plugins


@pytest.fixture(scope="module")
def installed() -> Iterator[Plugins]:
    """The real plugin manager (entry points), installed process-wide for the module."""
    plugins = Plugins()
    set_plugins(plugins)
    yield plugins
    set_plugins(None)


@pytest.fixture(scope="module")
def short_starfall(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Starfall in the dark fog with a 40-turn stalemate guard: hidden information and
    chance, in a game short enough to simulate whole several times."""
    path = Path(tmp_path_factory.mktemp("rulesets")) / "short_fog.toml"
    path.write_text(
        'game = "starfall"\nid = "short_fog"\nname = "short fog"\nextends = "starfall/fog_dark"\n\n[win]\nmax_turns = 40\n',
        encoding="utf-8",
    )
    return f"starfall/{path}"
