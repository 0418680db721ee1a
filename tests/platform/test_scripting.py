"""The scripting API (``import pegboard``): the same code paths as the CLI, answered with exceptions, not exits.

docs/scripting.md and the README's example run as doctests against the real games;
these tests pin the edges on the toy game.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import pegboard
from pegboard.batch.runner import MatchPlan, run_match
from pegboard.errors import MatchFileError, RulesetError, UnknownId
from pegboard.game import PegboardError
from pegboard.plugins.manager import Plugins


def test_import_pegboard_loads_neither_the_api_nor_its_dependencies() -> None:
    code = "import sys, pegboard; print(sorted(m for m in ('pegboard.scripting', 'pegboard.batch.runner', 'jsonschema', 'pyglet', 'rich', 'typer') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    assert callable(pegboard.play_match) and "play_match" in dir(pegboard)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        pegboard.nope  # noqa: B018


def test_load_game_takes_an_id_a_ref_or_a_toml_path(toy_plugins: Plugins, tmp_path: Path) -> None:
    assert pegboard.load_game("toy").ruleset["id"] == "standard"
    refs = [p.stem for p in (Path(toy_plugins.game("toy").ruleset_dir)).glob("*.toml")]
    other = next(r for r in refs if r != "standard")
    assert pegboard.load_game(f"toy/{other}").ruleset["id"] == other
    variant = tmp_path / "mine.toml"
    variant.write_text('game = "toy"\nextends = "toy/standard"\n')
    assert pegboard.load_game(variant).ruleset["id"] == "mine"
    assert pegboard.load_game(str(variant)).ruleset["id"] == "mine"
    with pytest.raises(UnknownId, match="unknown game 'chess'"):
        pegboard.load_game("chess")
    with pytest.raises(RulesetError, match="unknown ruleset toy/nope"):
        pegboard.load_game("toy/nope")


def test_bots_accepts_an_id_a_ref_or_a_game(toy_plugins: Plugins) -> None:
    game = pegboard.load_game("toy")
    ids = list(toy_plugins.bots("toy"))
    assert list(pegboard.bots("toy")) == list(pegboard.bots("toy/standard")) == list(pegboard.bots(game)) == ids
    assert pegboard.bots("toy")["takemost"].budget == 0.1


def test_play_match_is_the_cli_runner(toy_plugins: Plugins) -> None:
    report = pegboard.play_match("toy", ["takemost", "random"], games=3, seed=4)
    same = run_match(MatchPlan("toy", ("takemost", "random"), "standard", games=3, seed=4), jobs=1, plugins=toy_plugins)
    assert [r["moves"] for r in report.records] == [r["moves"] for r in same.records]
    assert [(s.wins, s.draws, s.losses) for s in report.stats] == [(s.wins, s.draws, s.losses) for s in same.stats]
    summary = report.summary()
    assert summary["games"] == 3 and summary["ruleset"] == "toy/standard"
    json.dumps(summary)


def test_play_match_seats_by_name_and_with_a_loaded_game(toy_plugins: Plugins) -> None:
    game = pegboard.load_game("toy")
    named = pegboard.play_match(game, {"right": "takemost"}, games=2, seed=1)
    listed = pegboard.play_match("toy", ["random", "takemost"], games=2, seed=1)
    assert [r["moves"] for r in named.records] == [r["moves"] for r in listed.records]
    assert [row.bot for row in named.stats] == ["random", "takemost"]


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (["random"], "needs 2 bots"),
        ({"middle": "random"}, "unknown seat 'middle'"),
        ("random", "one per seat"),
    ],
)
def test_play_match_refuses_bad_seats(toy_plugins: Plugins, seats: object, message: str) -> None:
    with pytest.raises(PegboardError, match=message):
        pegboard.play_match("toy", seats, games=1)  # type: ignore[arg-type]


def test_play_match_refuses_an_unknown_bot(toy_plugins: Plugins) -> None:
    with pytest.raises(UnknownId, match="unknown bot for toy 'genius'"):
        pegboard.play_match("toy", ["genius", "random"])


def test_records_round_trip_and_validate_like_the_cli(toy_plugins: Plugins, tmp_path: Path) -> None:
    report = pegboard.play_match("toy", ["takemost", "random"], games=1, seed=2)
    path = pegboard.write_record(report.records[0], tmp_path / "one.match.json")
    assert pegboard.read_record(path) == report.records[0]
    assert pegboard.validate(path).ok and pegboard.validate(report.records[0]).ok
    bad = dict(report.records[0], result={"winner": 1 - report.records[0]["result"]["winner"], "reason": report.records[0]["result"]["reason"]})
    check = pegboard.validate(bad)
    assert (check.ok, check.stage) == (False, "result")
    garbage = tmp_path / "garbage.match.json"
    garbage.write_bytes(b"\xff\xfe not json")
    assert pegboard.validate(garbage).stage == "syntax"
    with pytest.raises(MatchFileError):
        pegboard.read_record(garbage)


def test_load_plugin_adds_a_file_to_the_process_wide_plugins(toy_plugins: Plugins, tmp_path: Path) -> None:
    from support import toygame

    plugin = toygame.write_plugin(
        tmp_path, "extra_bot", "from pegboard.plugins.builtins import RandomBot", "from pegboard.specs import BotSpec",
        "@hookimpl", "def pegboard_bots(game):", "    return BotSpec('extra', 'Extra', RandomBot, game=game)",
    )  # fmt: skip
    pegboard.load_plugin(plugin)
    assert "extra" in pegboard.bots("toy")
