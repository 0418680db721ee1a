"""What ``pegboard.testing.check_game`` adds to the per-playout checks: the common ``[timers]``
table, ``random_move`` and ``strict_decode`` (so a third-party game runs them with one line)."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pegboard import hookimpl
from pegboard.errors import ConformanceError
from pegboard.plugins.manager import Plugins, get_plugins
from pegboard.testing import TIMERS, check_game, check_timers
from support import toygame


def _games() -> list[object]:
    return [pytest.param(plugins, game_id, id=game_id) for plugins in (get_plugins(), toygame.make_plugins()) for game_id in sorted(plugins.games())]


@pytest.mark.parametrize(("plugins", "game_id"), _games())
def test_every_game_accepts_the_common_timers_table(plugins: Plugins, game_id: str) -> None:
    check_timers(game_id, plugins)


def test_the_timers_table_reaches_the_game() -> None:
    from pegboard.rules.rulesets import build_game, load_ruleset, ruleset_from_data

    plugins = toygame.make_plugins()
    data = {**load_ruleset("toy/standard", plugins=plugins).data, "timers": TIMERS}
    clocks = build_game(ruleset_from_data(data, plugins), plugins).timers()
    assert clocks is not None and (clocks.total, clocks.per_move) == (300, 30)


def _without_timers(tmp_path: Path) -> Plugins:
    """The toy game with a ruleset schema that forgot the common [timers] key."""
    spec = toygame.make_plugins().game("toy")
    schemas = tmp_path / "schemas"
    shutil.copytree(spec.schema_dir, schemas)
    path = schemas / "ruleset.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    del schema["properties"]["timers"]
    path.write_text(json.dumps(schema), encoding="utf-8")

    class Forgetful:
        @hookimpl
        def pegboard_games(self) -> Any:
            return replace(spec, schema_dir=schemas)

    plugins = Plugins(load_entry_points=False)
    plugins.register(Forgetful(), name="forgetful")
    return plugins


def test_a_schema_without_the_timers_key_fails_the_check(tmp_path: Path) -> None:
    plugins = _without_timers(tmp_path)
    with pytest.raises(ConformanceError, match=r"the ruleset schema must accept the common \[timers\] table: .*timers"):
        check_timers("toy", plugins)


def test_check_game_runs_the_random_move_check(monkeypatch: pytest.MonkeyPatch) -> None:
    plugins = toygame.make_plugins()
    assert check_game("toy", plugins, seeds=(1,)) == ["toy/odd", "toy/short", "toy/standard"]
    state_class = type(toygame.NimGame(dict(_toy_ruleset(plugins))).new_state(0))
    monkeypatch.setattr(state_class, "random_move", lambda self, rng: self.legal_moves()[0] if self.legal_moves() else None)
    with pytest.raises(ConformanceError, match=r"^toy/\w+: random_move never drew"):
        check_game("toy", plugins, seeds=(1,))


def _toy_ruleset(plugins: Plugins) -> Any:
    from pegboard.rules.rulesets import load_ruleset

    return load_ruleset("toy/standard", plugins=plugins).data
