"""Every CLI command on good input, with only the toy game loaded (see the `cli` fixture)."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from support import toygame

POSITION = {"piles": [1, 2], "taken": [3, 0], "turn": 1, "limit": 9}


def position_file(tmp_path: Path, data: Any = POSITION) -> Path:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    return path


def test_version_and_help(cli: Any) -> None:
    result = cli("--version")
    assert result.code == 0 and result.out.startswith("pegboard ")
    result = cli("--help")
    assert result.code == 0
    for command in ("games", "plugins", "rulesets", "ruleset", "match", "validate", "convert", "schema", "legal", "eval", "bench", "play", "demo"):
        assert command in result.out


def test_games(cli: Any) -> None:
    result = cli("games")
    assert result.code == 0 and "toy" in result.out and "Left, Right" in result.out and "takemost" in result.out
    rows = json.loads(cli("games", "--json").out)
    assert rows == [
        {
            "id": "toy",
            "name": "Toy Nim",
            "seats": ["Left", "Right"],
            "default_ruleset": "standard",
            "rulesets": ["odd", "short", "standard"],
            "bots": rows[0]["bots"],
        }
    ]
    assert set(rows[0]["bots"]) == {"random", "mcts", "openspiel-mcts", "takemost"}


def test_plugins_lists_names_versions_and_hooks(cli: Any) -> None:
    rows = {row["name"]: row for row in json.loads(cli("plugins", "--json").out)}
    assert rows["pegboard.builtins"]["hooks"] == ["pegboard_bots"]
    assert rows["toygame"]["version"] == "local"
    assert "pegboard_rule_mods" in rows["toygame"]["hooks"]
    table = cli("plugins").out
    assert "pegboard.builtins" in table and "pegboard_games" in table


def test_rulesets(cli: Any) -> None:
    result = cli("rulesets")
    assert result.code == 0
    for ref in ("toy/odd", "toy/short", "toy/standard"):
        assert ref in result.out
    assert "odd-only, no-pile-zero" in result.out
    assert cli("rulesets", "toy").code == 0


def test_ruleset_show_prints_resolved_toml(cli: Any) -> None:
    import tomllib

    result = cli("ruleset", "show", "toy/short")
    assert result.code == 0
    assert "extends" not in result.out
    data = tomllib.loads(result.out)
    assert data["nim"] == {"piles": [3, 4, 5], "max_take": 3, "max_turns": 4, "extend_by": 2, "shuffle": True}
    assert result.out.splitlines()[1].startswith("# digest sha256:")
    as_json = json.loads(cli("ruleset", "show", "short", "--game", "toy", "--json").out)
    assert as_json == data


def test_ruleset_check(cli: Any, tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text('game = "toy"\nid = "good"\nextends = "toy/standard"\n[nim]\nmax_take = 2\n')
    result = cli("ruleset", "check", str(good))
    assert result.code == 0 and result.out.startswith(f"ok: {good}: toy/good") and "sha256:" in result.out


def test_schema(cli: Any) -> None:
    match = json.loads(cli("schema", "match").out)
    assert match["$id"] == "https://pegboard.dev/schemas/match.schema.json"
    move = json.loads(cli("schema", "toy/move").out)
    assert move["required"] == ["pile", "take"]


def test_match_writes_records_and_prints_the_table(cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "games"
    result = cli("match", "toy", "--left", "takemost", "--right", "random", "--games", "4", "--seed", "9", "--out", str(out), "-j", "2")
    assert result.code == 0, result.err
    assert sorted(p.name for p in out.iterdir()) == [f"match-000{i}.match.json" for i in range(1, 5)]
    assert "takemost" in result.out and "wins" in result.out and "mean think" in result.out and "max think" in result.out
    assert "4 game(s), average length" in result.out
    first = json.loads((out / "match-0001.match.json").read_text())
    second = json.loads((out / "match-0002.match.json").read_text())
    assert [p["bot"] for p in first["players"]] == ["takemost", "random"]
    assert [p["bot"] for p in second["players"]] == ["random", "takemost"]  # colours alternate
    assert cli("validate", *sorted(str(p) for p in out.iterdir())).code == 0


def test_match_seat_forms_and_json_summary(cli: Any) -> None:
    a = json.loads(cli("match", "toy", "--seat", "left=takemost", "--games", "2", "--json").out)
    b = json.loads(cli("match", "toy", "--LEFT=takemost", "--games", "2", "--json").out)
    assert [e["bot"] for e in a["entrants"]] == ["takemost", "random"]
    assert {k: v for k, v in a.items() if k != "entrants"} == {k: v for k, v in b.items() if k != "entrants"}
    assert [(e["wins"], e["losses"]) for e in a["entrants"]] == [(e["wins"], e["losses"]) for e in b["entrants"]]


def test_match_ruleset_and_extend(cli: Any) -> None:
    plain = json.loads(cli("match", "toy", "--ruleset", "short", "--json").out)
    assert plain["average_length"] == 4
    extended = json.loads(cli("match", "toy", "--ruleset", "toy/short", "--extend", "--json").out)
    assert extended["average_length"] > 4


def test_validate_json_and_summary(cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "m"
    cli("match", "toy", "--games", "2", "--out", str(out))
    files = sorted(str(p) for p in out.iterdir())
    result = cli("validate", *files)
    assert result.code == 0
    assert result.out.count("ok: ") == 2 and "2 files: 2 valid, 0 invalid" in result.out
    assert "wins (last_token)" in result.out or "draw" in result.out
    reports = json.loads(cli("validate", "--json", *files).out)
    assert [r["ok"] for r in reports] == [True, True] and reports[0]["stage"] == "result"


def test_validate_many_files_in_workers(cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "m"
    cli("match", "toy", "--games", "17", "--out", str(out), "-j", "1")
    bad = out / "match-0017.match.json"
    record = json.loads(bad.read_text())
    record["moves"][0]["take"] = 7
    bad.write_text(json.dumps(record))
    result = cli("validate", "-j", "2", *sorted(str(p) for p in out.iterdir()))
    assert result.code == 1
    assert "17 files: 16 valid, 1 invalid" in result.out
    assert result.err_lines == [f"error: replay: move 1: 7@{record['moves'][0]['pile']} is illegal: you may take 1 to 3 tokens [take] ({bad})"]


def test_convert(cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "m"
    cli("match", "toy", "--out", str(out))
    source = out / "match-0001.match.json"
    text = tmp_path / "game.nim"
    result = cli("convert", str(source), str(text))
    assert result.code == 0 and result.out.startswith(f"wrote {text}")
    assert text.read_text().startswith("# pegboard toy match")
    back = tmp_path / "back.match.json"
    assert cli("convert", str(text), str(back)).code == 0
    assert json.loads(back.read_text())["moves"] == json.loads(source.read_text())["moves"]
    again = cli("convert", str(text), str(back))
    assert again.code == 2 and again.err_lines == [f"error: output: the file exists (use --force to replace it) ({back})"]
    assert cli("convert", "--force", str(text), str(back)).code == 0


def test_legal(cli: Any, tmp_path: Path) -> None:
    result = cli("legal", "toy", str(position_file(tmp_path)))
    assert result.code == 0 and result.out.splitlines() == ["1@0", "1@1", "2@1"]
    modded = cli("legal", "toy", str(position_file(tmp_path)), "--ruleset", "odd")
    assert modded.out.splitlines() == ["1@1"]  # odd takes only, pile 0 closed
    over = cli("legal", "toy", str(position_file(tmp_path, {"piles": [0], "taken": [1, 0], "turn": 1, "limit": 9})))
    assert over.code == 0 and over.out.startswith("# the game is over")


def test_eval(cli: Any, tmp_path: Path) -> None:
    result = cli("eval", "toy", str(position_file(tmp_path)))
    assert result.code == 0
    assert "Left" in result.out and "Right" in result.out and "taken" in result.out and "total" in result.out
    assert "+3.500" in result.out
    data = json.loads(cli("eval", "toy", str(position_file(tmp_path)), "--json", "--evaluator", "taken").out)
    assert data["evaluator"] == "taken" and data["score"] == 3.5
    assert data["terms"][0] == {"name": "taken", "values": [3, 0], "weight": 1.0, "contribution": 3.0}


def test_bench(cli: Any) -> None:
    result = cli("bench", "--quick")
    assert result.code == 0 and "toy playouts" in result.out and "games" in result.out
    assert cli("bench", "toy").code == 0


def test_bench_of_a_game_without_benchmarks_says_so(cli: Any, tmp_path: Path) -> None:
    from pegboard.kit.writer import new_game

    new_game("benchless", tmp_path / "g")  # a game from the kit declares no benchmarks
    plugin = tmp_path / "g" / "pegboard_benchless"
    result = cli("--plugin", plugin, "bench", "benchless", "--quick")
    assert (result.code, result.out.strip(), result.err) == (0, "benchless declares no benchmarks", "")
    assert cli("--plugin", plugin, "bench", "benchless", "--json").out.strip() == "[]"


def test_demo(cli: Any, tmp_path: Path) -> None:
    result = cli("demo", "--out", str(tmp_path))
    assert result.code == 0, result.err
    assert "Toy Nim: takemost vs takemost" in result.out and "Left: takemost" in result.out
    assert "result: " in result.out and "(valid: syntax, schema, replay and result checked)" in result.out
    assert (tmp_path / "match-0001.match.json").is_file()


class FakeUI(types.ModuleType):
    def __init__(self, error: Exception | None = None) -> None:
        super().__init__("pegboard.ui")
        self.calls: list[tuple[str, str, list[str]]] = []
        self.error = error
        self.DisplayUnavailable = type(error) if error is not None else RuntimeError

    def launch(self, game_id: str, ruleset: str, seats: list[str], seed: int | None = None) -> int:
        if self.error:
            raise self.error
        self.calls.append((game_id, ruleset, seats))
        return 0


def test_play_calls_the_ui_lazily(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeUI()
    monkeypatch.setitem(sys.modules, "pegboard.ui", fake)
    import pegboard

    monkeypatch.setattr(pegboard, "ui", fake, raising=False)
    assert cli("play", "toy").code == 0
    assert cli("play", "toy", "--left", "random", "--right", "human", "--ruleset", "short").code == 0
    assert fake.calls == [("toy", "standard", ["human", "takemost"]), ("toy", "short", ["random", "human"])]


def test_play_without_a_display_is_one_line_and_exit_2(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    class DisplayUnavailable(Exception):
        pass

    fake = FakeUI(DisplayUnavailable("no display to open a window on"))
    monkeypatch.setitem(sys.modules, "pegboard.ui", fake)
    import pegboard

    monkeypatch.setattr(pegboard, "ui", fake, raising=False)
    result = cli("play", "toy")
    assert result.code == 2
    assert len(result.err_lines) == 1 and result.err_lines[0].startswith("error: cannot open a window: DisplayUnavailable: no display")


def test_plugins_can_add_commands(cli: Any, tmp_path: Path) -> None:
    plugin = toygame.write_plugin(
        tmp_path,
        "hello_plugin",
        "@hookimpl",
        "def pegboard_commands(app):",
        "    @app.command('hello')",
        "    def hello(name: str = 'world') -> None:",
        "        print(f'hello {name}')",
    )
    result = cli("--plugin", str(plugin), "hello", "--name", "pegboard")
    assert result.code == 0 and result.out == "hello pegboard\n"


def test_position_from_a_record_feeds_legal(cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "m"
    cli("match", "toy", "--out", str(out), "--seed", "3")
    record = out / "match-0001.match.json"
    start = json.loads(cli("position", str(record), "--move", "0").out)
    assert start == {"piles": [3, 4, 5], "taken": [0, 0], "turn": 0, "limit": 100}
    saved = tmp_path / "after1.json"
    result = cli("position", str(record), "-m", "1", "--out", str(saved))
    assert result.code == 0 and result.out.startswith(f"wrote {saved} (after 1 of ")
    assert json.loads(saved.read_text())["turn"] == 1
    assert cli("legal", "toy", str(saved)).code == 0
    too_far = cli("position", str(record), "--move", "99")
    assert too_far.code == 2 and "the record has only" in too_far.err
