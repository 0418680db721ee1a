"""Every way into Pegboard refuses the same bad records: the window's import (Session),
``validate_record``/``pegboard validate`` and ``convert`` share one replay and one
result check (pegboard.records), so they cannot drift apart again."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pegboard.errors import MatchFileError, MatchImportError
from pegboard.match.session import Session
from pegboard.plugins.manager import Plugins
from pegboard.records.files import write_record
from pegboard.records.validate import convert, validate_file
from pegboard.rules.rulesets import load_game
from support import toygame

# Toy standard: piles [3, 4, 5], take 1..3; the taker of the last token wins.
WIN_FOR_LEFT = [(2, 3), (2, 2), (1, 3), (1, 1), (0, 3)]


def good_record(plugins: Plugins) -> dict[str, Any]:
    return toygame.record_of(WIN_FOR_LEFT, plugins)


def wrong_scores(r: dict[str, Any]) -> None:
    r["result"]["scores"] = [1, 1]


def wrong_winner(r: dict[str, Any]) -> None:
    r["result"]["winner"] = 1


def wrong_reason(r: dict[str, Any]) -> None:
    r["result"]["reason"] = "turn_limit"


def result_on_unfinished(r: dict[str, Any]) -> None:
    r["moves"] = r["moves"][:2]


def illegal_move(r: dict[str, Any]) -> None:
    r["moves"][1] = {"pile": 2, "take": 3}  # pile 2 holds 2 tokens after the first move


def move_after_the_end(r: dict[str, Any]) -> None:
    r["moves"].append({"pile": 1, "take": 1})


def unreadable_move(r: dict[str, Any]) -> None:
    r["moves"][0] = {"pile": "two"}


def bad_ruleset(r: dict[str, Any]) -> None:
    r["ruleset"]["nim"]["max_take"] = "lots"


BAD: dict[str, tuple[Callable[[dict[str, Any]], None], str, str]] = {
    # name: (damage, the stage validate names, words every entry point's message holds)
    "wrong scores": (wrong_scores, "result", "declares scores [1, 1]"),
    "wrong winner": (wrong_winner, "result", "declares winner 1"),
    "wrong reason": (wrong_reason, "result", "by 'turn_limit'"),
    "result on an unfinished game": (result_on_unfinished, "result", "not over"),
    "illegal move": (illegal_move, "replay", "3@2 is illegal"),
    "move after the end": (move_after_the_end, "replay", "already over"),
    "unreadable move": (unreadable_move, "schema", ""),
    "bad ruleset": (bad_ruleset, "schema", "max_take"),
}


@pytest.fixture
def bad_file(toy_plugins: Plugins, tmp_path: Path, request: pytest.FixtureRequest) -> tuple[Path, str, str]:
    damage, stage, words = BAD[request.param]
    record = good_record(toy_plugins)
    damage(record)
    path = tmp_path / "bad.match.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path, stage, words


def test_the_good_record_passes_everywhere(toy_plugins: Plugins, tmp_path: Path, cli: Any) -> None:
    path = write_record(good_record(toy_plugins), tmp_path / "good.match.json", toy_plugins)
    assert validate_file(path, toy_plugins).ok
    session = Session(load_game("toy", plugins=toy_plugins), ["human", "human"], plugins=toy_plugins, threaded=False)
    session.import_file(path)
    assert session.result is not None and session.result.scores == (9, 3)
    assert convert(path, tmp_path / "good.nim", toy_plugins).ok
    assert cli("validate", str(path)).code == 0


@pytest.mark.parametrize("bad_file", list(BAD), indirect=True)
def test_every_entry_point_refuses_the_same_bad_record(
    bad_file: tuple[Path, str, str], toy_plugins: Plugins, tmp_path: Path, cli: Any
) -> None:
    path, stage, words = bad_file
    report = validate_file(path, toy_plugins)
    assert not report.ok and report.stage == stage
    assert words in str(report.errors[0])

    session = Session(load_game("toy", plugins=toy_plugins), ["human", "human"], plugins=toy_plugins, threaded=False)
    session.play((0, 1))
    with pytest.raises(MatchImportError) as refused:
        session.import_file(path)
    assert words in str(refused.value)
    assert session.moves == [(0, 1)], "a refused import leaves the game untouched"

    with pytest.raises(MatchFileError) as failed:
        convert(path, tmp_path / "out.nim", toy_plugins)
    assert failed.value.stage == stage and words in str(failed.value)
    assert not (tmp_path / "out.nim").exists()

    result = cli("validate", str(path))
    assert result.code == 1 and words in result.out + result.err
