"""The fuzzing corpus: valid files of the installed games, built once per session."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pegboard.plugins.manager import Plugins, set_plugins  # noqa: E402
from support import fuzzing  # noqa: E402


@pytest.fixture(scope="module")
def real_plugins() -> Iterator[Plugins]:
    plugins = Plugins()
    set_plugins(plugins)
    yield plugins
    set_plugins(None)


@pytest.fixture(scope="module")
def corpus(real_plugins: Plugins) -> fuzzing.Corpus:
    return fuzzing.build_corpus(real_plugins)
