"""Analysis of Node War: a move that lets the Base be smothered is a blunder, and the better move
given keeps the Base alive; comments survive a conversion to the .txt format."""

from __future__ import annotations

import json
from pathlib import Path

from pegboard.analysis.analyse import Analysis
from pegboard.analysis.engine import Settings
from pegboard.records.validate import convert, validate_file
from pegboard_nodewar import Move, NodeWarGame, NodeWarState
from support.nodewar_helpers import smother_position


def winning_reply(state: NodeWarState, seat: int) -> Move | None:
    """A move of ``seat`` (to move) that wins at once, if there is one; the state is left as found."""
    for reply in state.legal_moves():
        state.push(reply)
        won = state.result is not None and state.result.winner == seat
        state.undo()
        if won:
            return reply
    return None


def test_a_move_that_lets_the_base_be_smothered_is_a_blunder_and_the_better_move_saves_it(game: NodeWarGame) -> None:
    state = smother_position(game, to_move=0)  # Red's 8,5 threatens to cut Blue's last live Base line
    losing = []
    for move in state.legal_moves():
        state.push(move)
        reply = winning_reply(state, 1)
        state.undo()
        if reply is not None:
            losing.append((move, reply))
    assert 3 <= len(losing) < len(state.legal_moves())  # most moves lose at once, some do not
    checked = 0
    for move, reply in losing[:: max(1, len(losing) // 3)][:3]:
        analysis = Analysis.of_line(game, state, [move, reply], Settings())
        analysis.run()
        row = analysis.rows[0]
        assert row.mark == "blunder", (row.text, row.drop, row.before)
        assert row.after == 0.0 and row.best is not None and row.best_text != row.text
        assert row.explanation[0].startswith(f"after {state.clone().move_text(reply)}") or "Red wins" in row.explanation[0]
        saved = state.clone()
        saved.apply(game.decode_move(row.best))
        assert saved.result is None and winning_reply(saved, 1) is None  # Red has no smother any more
        checked += 1
    assert checked >= 2


def test_convert_keeps_comments_in_the_txt_format(tmp_path: Path) -> None:
    import pegboard

    report = pegboard.play_match("nodewar/skirmish", ["easy", "easy"], games=1, seed=2)
    record = report.records[0]
    record["annotations"] = [
        {"move": 1, "comment": "a quiet opening", "mark": "inaccuracy", "eval": {"win_chance": 0.4}},
        {"move": 4, "comment": "two lines\nof thought"},
    ]
    source = tmp_path / "game.match.json"
    source.write_text(json.dumps(record))
    text = tmp_path / "game.txt"
    convert(source, text)
    lines = text.read_text().splitlines()
    first = lines.index(next(line for line in lines if line.startswith("1 Blue")))
    assert lines[first + 1] == "# a quiet opening"
    back = tmp_path / "back.match.json"
    convert(text, back)
    assert json.loads(back.read_text())["annotations"] == [
        {"move": 1, "comment": "a quiet opening"},  # marks and evaluations live only in JSON
        {"move": 4, "comment": "two lines\nof thought"},
    ]
    assert validate_file(back).ok
