"""tools/duel.py: a small batch, its summary, resuming from its file, and the interval maths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.starfall_helpers import load_tool


def test_a_batch_resumes_from_its_file_and_summarises(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = load_tool("duel")
    out = tmp_path / "duel.json"
    base = ["nodewar", "medium", "random", "--ruleset", "skirmish", "--seed", "3", "--json", str(out)]
    assert tool.main([*base, "--games", "2"]) == 0
    first = json.loads(out.read_text())["games"]
    assert set(first) == {"0", "1"} and [first[k]["a_seat"] for k in ("0", "1")] == [0, 1]  # colours alternate
    capsys.readouterr()
    assert tool.main([*base, "--games", "3"]) == 0  # plays only the missing game
    assert capsys.readouterr().out.count("game ") == 1
    data = json.loads(out.read_text())
    assert set(data["games"]) == {"0", "1", "2"} and data["games"]["0"] == first["0"]
    summary = tool.summary(data)
    assert summary["games"] == 3 and summary["wins"] + summary["draws"] + summary["losses"] + summary["unfinished"] == 3
    assert summary["A"]["moves"] == sum(len(g["wall"][0]) for g in data["games"].values())
    assert sum(summary["ends"].values()) == 3
    with pytest.raises(SystemExit):  # another batch in the same file is refused
        tool.main(["nodewar", "easy", "random", "--json", str(out), "--games", "1"])


def test_games_stopped_at_max_plies_count_the_evaluators_win_chance(tmp_path: Path) -> None:
    tool = load_tool("duel")
    out = tmp_path / "short.json"
    assert tool.main(["nodewar", "medium", "random", "--ruleset", "skirmish", "--seed", "3", "--games", "2",
                      "--max-plies", "6", "--json", str(out)]) == 0
    games = json.loads(out.read_text())["games"]
    assert all(g["reason"] == "unfinished" and 0.0 < g["chance"] < 1.0 for g in games.values())
    summary = tool.summary(json.loads(out.read_text()))
    assert summary["unfinished"] == 2
    assert summary["expected"] == pytest.approx(sum(g["chance"] for g in games.values()) / 2)
    # a finished game counts its result, a stopped one without a recorded chance counts half
    finished = {**games["0"], "reason": "no_moves", "winner": 0, "chance": None}
    old = {**games["1"], "chance": None}
    assert [tool.expected_points(g) for g in (finished, old)] == [1.0, 0.5]


def test_a_timeline_plays_a_batch_game_again_with_its_terms_and_events(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    tool = load_tool("duel")
    out = tmp_path / "batch.json"
    base = ["nodewar", "medium", "random", "--ruleset", "skirmish", "--seed", "3"]
    assert tool.main([*base, "--games", "2", "--json", str(out)]) == 0
    game = json.loads(out.read_text())["games"]["1"]  # printed by the batch as game 2
    capsys.readouterr()
    assert tool.main([*base, "--timeline", "2", "--every", "5", "--terms", "alive_nodes,dead_nodes"]) == 0
    lines = capsys.readouterr().out.splitlines()
    seat = "Blue" if game["a_seat"] == 0 else "Red"
    assert lines[0].startswith(f"game 2 of nodewar seed 3: medium ({seat}) v random")
    assert [int(line.split()[1]) for line in lines[1:-1]] == [*range(5, game["plies"], 5), game["plies"]]
    assert all("alive_nodes " in line and "dead_nodes " in line and "mobility" not in line for line in lines[1:-1])
    assert "node_placed" in lines[1] and "game_over 1" in lines[-2]
    # the same game as the batch's: the same length, ending and winner
    assert game["winner"] is not None
    won_seat = game["a_seat"] if game["winner"] == 0 else 1 - game["a_seat"]
    winner = f"{('medium', 'random')[game['winner']]} ({('Blue', 'Red')[won_seat]})"
    assert lines[-1].startswith(f"result: {game['reason']} after {game['plies']} plies, won by {winner}")
    for bad in (["--timeline", "0"], ["--timeline", "1", "--terms", "no_such_term"]):
        with pytest.raises(SystemExit):
            tool.main([*base, *bad])
    with pytest.raises(SystemExit):  # an unknown bot is one line, before any game starts
        tool.main(["nodewar", "no-such-bot", "random", "--timeline", "1"])
    monkeypatch.setattr(tool, "play", lambda *a, **k: pytest.fail("a game was played"))
    with pytest.raises(SystemExit, match="no term no_such_term"):  # an unknown term, too
        tool.main([*base, "--timeline", "1", "--terms", "no_such_term"])


def test_the_wilson_interval_holds_a_perfect_score_and_narrows_with_games() -> None:
    tool = load_tool("duel")
    score, low, high = tool.interval([1.0] * 10)
    assert score == 1.0 and high == 1.0 and 0.6 < low < 0.75
    _, low100, _ = tool.interval([1.0] * 100)
    assert low100 > low
    score, low, high = tool.interval([1.0, 0.0, 0.5, 0.5])
    assert score == 0.5 and low < 0.5 < high


def test_shards_split_a_batch_and_add_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = load_tool("duel")
    files = [tmp_path / "even.json", tmp_path / "odd.json"]
    for shard, out in enumerate(files):
        argv = ["nodewar", "easy", "random", "--ruleset", "skirmish", "--games", "4", "--json", str(out)]
        assert tool.main([*argv, "--shard", f"{shard}/2"]) == 0
    assert set(json.loads(files[0].read_text())["games"]) == {"0", "2"}
    assert set(json.loads(files[1].read_text())["games"]) == {"1", "3"}
    capsys.readouterr()
    assert tool.main(["--summarise", *map(str, files)]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 4


def test_paired_compares_two_batches_game_by_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = load_tool("duel")
    files = {name: tmp_path / f"{name}.json" for name in ("easy", "medium", "other_seed")}
    common = ["random", "--ruleset", "skirmish", "--games", "3"]
    assert tool.main(["nodewar", "easy", *common, "--seed", "5", "--json", str(files["easy"])]) == 0
    assert tool.main(["nodewar", "medium", *common, "--seed", "5", "--json", str(files["medium"])]) == 0
    assert tool.main(["nodewar", "medium", *common, "--seed", "6", "--json", str(files["other_seed"])]) == 0
    easy, medium = (json.loads(files[k].read_text()) for k in ("easy", "medium"))
    p = tool.paired(medium, easy)
    assert p["games"] == 3 and (p["a"], p["base_a"]) == ("medium", "easy")
    assert p["points"] == tool.summary(medium)["score"] * 3 and p["base_points"] == tool.summary(easy)["score"] * 3
    same = tool.paired(medium, medium)  # a batch against itself: every game alike
    assert same["alike"] == 3 and same["points"] == same["base_points"]
    capsys.readouterr()
    assert tool.main(["--summarise", str(files["medium"]), "--paired", str(files["easy"])]) == 0
    assert "on the 3 games both batches played: medium" in capsys.readouterr().out
    with pytest.raises(SystemExit):  # different seeds start different games: refused
        tool.main(["--summarise", str(files["other_seed"]), "--paired", str(files["easy"])])
    with pytest.raises(SystemExit):
        tool.main(["--summarise", str(files["medium"]), "--paired", str(tmp_path / "missing.json")])
    with pytest.raises(SystemExit):  # nothing to compare the baseline with
        tool.main(["--paired", str(files["easy"])])


def test_the_summary_splits_each_way_a_game_ended_by_who_won_it() -> None:
    tool = load_tool("duel")

    def game(index: int, winner: int | None, reason: str) -> dict[str, object]:
        return {"index": index, "a_seat": index % 2, "winner": winner, "reason": reason, "scores": None,
                "plies": 10, "wall": [[0.1], [0.1]], "cpu": [[0.1], [0.1]], "sims": [[], []], "load": 1.0}

    results = [(0, "siege"), (0, "siege"), (1, "siege"), (1, "turn_limit"), (None, "turn_limit"), (0, "territory")]
    data = {"a": "new", "b": "old", "games": {str(i): game(i, w, r) for i, (w, r) in enumerate(results)}}
    summary = tool.summary(data)
    assert summary["ends_by_result"] == {"siege": [2, 0, 1], "turn_limit": [0, 1, 1], "territory": [1, 0, 0]}
    assert summary["ends"] == {"siege": 3, "turn_limit": 2, "territory": 1}
    row = tool.markdown(summary, "new", "old")
    assert "siege 3 (2-0-1), turn_limit 2 (0-1-1), territory 1 (1-0-0)" in row
