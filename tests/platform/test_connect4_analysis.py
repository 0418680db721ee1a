"""A third-party game gets analysis without code of its own: the Connect Four example, loaded
with ``--plugin`` from its source folder, through ``pegboard analyse`` and ``pegboard.analyse``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from pegboard.cli.app import run

CONNECT4 = Path(__file__).resolve().parents[2] / "plugins" / "examples" / "connect4" / "pegboard_connect4"
# Red holds c, d, f and g on the bottom row; Yellow must drop into e, plays a, and Red's e wins.
MOVES = [6, 0, 5, 0, 2, 5, 3, 0, 4]


@pytest.fixture
def pegboard_cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., tuple[int, str, str]]:
    monkeypatch.delenv("PEGBOARD_PLUGINS", raising=False)
    monkeypatch.setenv("COLUMNS", "200")

    def invoke(*args: object) -> tuple[int, str, str]:
        capsys.readouterr()
        code = run(["--plugin", str(CONNECT4), *map(str, args)], load_entry_points=False)
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke


@pytest.fixture
def record(tmp_path: Path) -> Path:
    from pegboard.plugins.manager import Plugins
    from pegboard.records.files import record_from_moves, write_record
    from pegboard.rules.rulesets import load_game, load_ruleset

    plugins = Plugins(load_entry_points=False, plugin_files=[str(CONNECT4)])
    ruleset = load_ruleset("connect4/standard", plugins=plugins)
    game = load_game("connect4", ruleset, plugins=plugins)
    state = game.new_state(0)
    for move in MOVES:
        state.apply(move)
    path = tmp_path / "c4.match.json"
    write_record(record_from_moves(game, ruleset, 0, ["human", "human"], MOVES, state.result), path, plugins)
    return path


def test_connect_four_is_analysed_by_the_cli_with_no_code_of_its_own(pegboard_cli: Callable[..., tuple[int, str, str]], record: Path,
                                                                    tmp_path: Path) -> None:
    code, out, err = pegboard_cli("analyse", record, "--json", "-j", "1", "--out", tmp_path / "out")
    assert code == 0, err
    analysis, = json.loads(out)
    rows = analysis["rows"]
    assert [row["text"] for row in rows] == ["g", "a", "f", "a", "c", "f", "d", "a", "e"]
    missed = rows[7]
    assert missed["mark"] == "blunder" and missed["better"] == {"column": 4} and missed["better_text"] == "e"
    assert missed["after"] == 0.0 and missed["explanation"]
    assert [side["name"] for side in analysis["sides"]] == ["Red", "Yellow"]
    assert analysis["sides"][1]["blunder"] >= 1 and analysis["sides"][1]["accuracy"] < 100
    assert pegboard_cli("validate", analysis["written"])[0] == 0
    code, table, err = pegboard_cli("analyse", record, "-j", "1")
    assert code == 0 and "Connect Four, 9 moves, Red wins" in table and "blunder ??" in table


def test_connect_four_through_the_scripting_api(record: Path) -> None:
    import pegboard
    from pegboard.plugins.manager import Plugins

    plugins = Plugins(load_entry_points=False, plugin_files=[str(CONNECT4)])
    analysis = pegboard.analyse(record, bot="minimax", budget=1000, plugins=plugins)
    assert analysis.review.judged_by() == {"alphabeta": 9, "result": 1}  # minimax has no search(): the analysis's own
    assert analysis.rows[7].mark == "blunder" and analysis.rows[7].best == {"column": 4}
