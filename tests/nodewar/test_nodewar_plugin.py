"""Node War is registered through its entry point like any third-party plugin."""

from __future__ import annotations

import pytest

from pegboard.plugins.manager import Plugins
from pegboard.specs import Figure
from pegboard_nodewar import NodeWarGame, plugin


@pytest.fixture(scope="module")
def plugins() -> Plugins:
    manager = Plugins(load_entry_points=False)
    manager.register(plugin, name="nodewar")
    return manager


def test_game_spec(plugins: Plugins) -> None:
    spec = plugins.game("nodewar")
    assert spec.name == "Node War" and spec.seats == ("Blue", "Red")
    assert (spec.schema_dir / "position.schema.json").is_file()
    assert (spec.ruleset_dir / "standard.toml").is_file()
    assert ".txt" in spec.text_formats


def test_entry_point_loads_nodewar() -> None:
    import importlib.metadata

    names = {ep.name: ep.value for ep in importlib.metadata.entry_points(group="pegboard")}
    assert names.get("nodewar") == "pegboard_nodewar.plugin"


def test_load_game_through_the_platform(plugins: Plugins) -> None:
    rulesets = pytest.importorskip("pegboard.rules.rulesets")
    game = rulesets.load_game("nodewar", "skirmish", plugins=plugins)
    assert isinstance(game, NodeWarGame) and game.width == 9


def test_benchmark_runs_quick(plugins: Plugins) -> None:
    benches = plugins.benchmarks("nodewar")
    assert list(benches)[0] == "nodewar-engine"  # then "nodewar-bots" (evaluator and bot figures)
    figures = benches["nodewar-engine"].run(True)
    names = {f.name for f in figures}
    assert all(isinstance(f, Figure) and f.value > 0 for f in figures)
    assert {"validation (decode + check + apply)", "random playouts", "push + undo (midgame)"} <= names
