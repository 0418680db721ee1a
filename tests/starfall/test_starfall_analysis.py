"""Analysis of Starfall: a move that lets an enemy siege stand by the Command is a blunder and the
better move given stops it; a game still running is never analysed (it would see through the fog)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pegboard.analysis.analyse import Analysis
from pegboard.analysis.engine import Settings
from pegboard.errors import AnalysisRefused
from pegboard_starfall.game import StarfallGame
from support.starfall_helpers import blank, put


def siege_position(game: StarfallGame) -> Any:
    """South to move; North's siege at (6,1) stands beside South's Command (5,0) with no South
    shield beside it, so North wins at the start of its turn unless South answers. South's
    shield at (4,2) can step beside the siege ((5,1) or (5,2)); every other move loses."""
    state = blank(game, to_move=0)
    put(state, 6, 1, "X", 1)
    put(state, 4, 2, "G", 0)
    put(state, 2, 4, "S", 0)  # a scout each, so neither side is a lone Command
    put(state, 8, 6, "S", 1)
    return state


def test_a_move_that_lets_the_siege_stand_is_a_blunder_and_the_better_move_stops_it(game: StarfallGame) -> None:
    state = siege_position(game)
    losing, saving = [], []
    for move in state.legal_moves():
        state.push(move)
        lost = state.result is not None and state.result.winner == 1
        state.undo()
        (losing if lost else saving).append(move)
    assert losing and saving  # some moves let the siege win, some stop it
    checked = 0
    for move in losing[:3]:
        analysis = Analysis.of_line(game, state, [move], Settings())
        analysis.run()
        row = analysis.rows[0]
        assert row.mark == "blunder", (row.text, row.drop, row.before)
        assert row.after == 0.0 and row.best is not None
        assert "North wins" in row.explanation[0] or "siege" in row.explanation[0]
        answered = state.clone()
        answered.apply(game.decode_move(row.best))
        assert answered.result is None or answered.result.winner == 0  # the siege no longer wins
        checked += 1
    assert checked >= 1


def test_starfall_is_judged_by_its_strongest_bot_and_node_war_by_the_analysis_search() -> None:
    import pegboard

    starfall = pegboard.play_match("starfall", ["random", "random"], games=1, seed=3, max_plies=3).records[0]
    starfall = dict(starfall, result={"winner": 0, "reason": "resign"})
    analysis = pegboard.analyse(starfall, budget=300)
    assert analysis.analyst == "skill-100"  # refills are chance: the bot's search weighs them
    assert {row.by for row in analysis.rows} == {"skill-100"} and len(analysis.rows) == 3
    nodewar = pegboard.play_match("nodewar", ["random", "random"], games=1, seed=3, max_plies=3).records[0]
    assert pegboard.analyse(nodewar, budget=300).analyst == "alphabeta"
    named = pegboard.analyse(starfall, bot="skill-50", budget=300)
    assert named.analyst == "skill-50"


def test_a_fogged_game_still_running_is_refused_and_a_finished_one_analysed(tmp_path: Path) -> None:
    import pegboard

    report = pegboard.play_match("starfall/fog_seam", ["random", "random"], games=1, seed=4, max_plies=6)
    unfinished = report.records[0]
    assert "result" not in unfinished
    with pytest.raises(AnalysisRefused, match="still running"):
        Analysis.of_record(unfinished)
    path = tmp_path / "running.match.json"
    path.write_text(json.dumps(unfinished))
    with pytest.raises(AnalysisRefused):
        pegboard.analyse(path)
    finished = dict(unfinished, result={"winner": 0, "reason": "resign"})  # a resignation ends it
    analysis = pegboard.analyse(finished, budget=200)
    assert len(analysis.rows) == 6 and analysis.result is not None
    open_sky = pegboard.play_match("starfall", ["random", "random"], games=1, seed=4, max_plies=4).records[0]
    assert len(pegboard.analyse(open_sky, budget=100).rows) == 4  # no fog: nothing to see through
