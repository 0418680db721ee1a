"""Rulesets: loading, `extends` inheritance, validation errors, digests, mods, the TOML writer."""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

import pytest

from pegboard import hookimpl
from pegboard.errors import RulesetError, UnknownId, UnknownRuleset
from pegboard.game import IllegalMove
from pegboard.plugins.manager import Plugins, PluginWarning
from pegboard.rules.mods import ModdedGame
from pegboard.rules.rulesets import canonical_json, deep_merge, dumps_toml, list_rulesets, load_game, load_ruleset
from pegboard.specs import RulesetDir
from support import toygame

STANDARD = """game = "toy"
id = "mine"
name = "Mine"
[nim]
piles = [2, 2]
max_take = 2
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_load_by_ref_by_id_and_by_path_give_the_same_ruleset(toy_plugins: Plugins) -> None:
    by_ref = load_ruleset("toy/standard", plugins=toy_plugins)
    by_id = load_ruleset("standard", game="toy", plugins=toy_plugins)
    by_path = load_ruleset(toygame.HERE / "rulesets" / "standard.toml", plugins=toy_plugins)
    assert by_ref == by_id == by_path
    assert by_ref.ref == "toy/standard" and by_ref.name == "Toy standard"
    assert dict(by_ref.data["nim"]) == {"piles": [3, 4, 5], "max_take": 3, "max_turns": 100, "extend_by": 10}


def test_extends_deep_merges_tables_and_replaces_other_values(toy_plugins: Plugins) -> None:
    short = load_ruleset("toy/short", plugins=toy_plugins)
    assert "extends" not in short.data
    # inherited from standard
    assert short.data["nim"]["piles"] == [3, 4, 5] and short.data["nim"]["max_take"] == 3
    # overridden by short
    assert short.data["nim"]["max_turns"] == 4 and short.data["nim"]["shuffle"] is True
    # identity is never inherited
    assert short.id == "short" and short.name == "Toy short" and "description" not in short.data


def test_deep_merge_rules() -> None:
    base = {"a": {"x": 1, "y": [1, 2]}, "b": 1, "c": {"z": 1}}
    merged = deep_merge(base, {"a": {"y": [3]}, "b": {"now": "table"}, "c": 5})
    assert merged == {"a": {"x": 1, "y": [3]}, "b": {"now": "table"}, "c": 5}
    assert base["a"]["y"] == [1, 2]  # inputs untouched


def test_extends_a_bare_id_and_a_relative_path(toy_plugins: Plugins, tmp_path: Path) -> None:
    write(tmp_path, "base.toml", STANDARD)
    child = write(tmp_path, "child.toml", 'game = "toy"\nid = "child"\nextends = "base.toml"\n[nim]\nmax_take = 1\n')
    ruleset = load_ruleset(child, plugins=toy_plugins)
    assert ruleset.data["nim"] == {"piles": [2, 2], "max_take": 1}
    bare = write(tmp_path, "bare.toml", 'game = "toy"\nextends = "standard"\n')
    loaded = load_ruleset(bare, plugins=toy_plugins)
    assert loaded.id == "bare" and loaded.name == "bare"  # id from the file name, name from the id
    assert loaded.data["nim"]["piles"] == [3, 4, 5]


def test_extends_cycle_is_rejected(toy_plugins: Plugins, tmp_path: Path) -> None:
    write(tmp_path, "a.toml", 'game = "toy"\nextends = "b.toml"\n')
    write(tmp_path, "b.toml", 'game = "toy"\nextends = "./a.toml"\n')
    with pytest.raises(RulesetError) as caught:
        load_ruleset(tmp_path / "a.toml", plugins=toy_plugins)
    assert "cycle" in caught.value.reason and "a.toml -> b.toml -> a.toml" in caught.value.reason
    assert caught.value.key == "extends"


def test_self_extension_is_a_cycle(toy_plugins: Plugins, tmp_path: Path) -> None:
    write(tmp_path, "me.toml", 'game = "toy"\nextends = "me.toml"\n')
    with pytest.raises(RulesetError, match="cycle"):
        load_ruleset(tmp_path / "me.toml", plugins=toy_plugins)


def test_unknown_parent_is_rejected(toy_plugins: Plugins, tmp_path: Path) -> None:
    path = write(tmp_path, "x.toml", 'game = "toy"\nextends = "toy/nope"\n')
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path, plugins=toy_plugins)
    error = caught.value
    assert error.key == "extends" and "unknown" in error.reason and "toy/nope" in error.reason
    assert str(path) in str(error)
    missing = write(tmp_path, "y.toml", 'game = "toy"\nextends = "missing.toml"\n')
    with pytest.raises(RulesetError, match="not found"):
        load_ruleset(missing, plugins=toy_plugins)


def test_extending_another_games_ruleset_is_rejected(toy_plugins: Plugins, tmp_path: Path) -> None:
    path = write(tmp_path, "x.toml", 'game = "toy"\nextends = "chess/standard"\n')
    with pytest.raises(RulesetError, match="cannot extend a chess ruleset"):
        load_ruleset(path, plugins=toy_plugins)


def test_schema_errors_name_the_file_the_key_path_and_the_expectation(toy_plugins: Plugins, tmp_path: Path) -> None:
    path = write(tmp_path, "bad.toml", STANDARD.replace("max_take = 2", "max_take = 0"))
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path, plugins=toy_plugins)
    error = caught.value
    assert error.path == str(path)
    assert error.key == "nim.max_take"
    assert "minimum of 1" in error.reason
    assert str(error) == f"nim.max_take: 0 is less than the minimum of 1 ({path})"


def test_schema_error_after_merge_mentions_the_bad_type(toy_plugins: Plugins, tmp_path: Path) -> None:
    path = write(tmp_path, "bad.toml", 'game = "toy"\nextends = "toy/standard"\n[nim]\npiles = "many"\n')
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path, plugins=toy_plugins)
    assert caught.value.key == "nim.piles" and "is not of type 'array'" in caught.value.reason


def test_toml_syntax_errors_carry_line_and_column(toy_plugins: Plugins, tmp_path: Path) -> None:
    path = write(tmp_path, "broken.toml", 'game = "toy"\n[nim]\npiles = [1, 2\n')
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path, plugins=toy_plugins)
    error = caught.value
    assert error.line == 3 and error.column == 14
    assert error.reason.startswith("TOML syntax error")
    assert f"({path}, line 3, column 14)" in str(error)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "file not found"),
        (b"\x89PNG\r\n\x1a\n\x00\xff", "not UTF-8"),
        (b'id = "x"\n', "game: expected a string naming the game"),
    ],
)
def test_bad_files(toy_plugins: Plugins, tmp_path: Path, content: bytes | None, expected: str) -> None:
    path = tmp_path / "r.toml"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(RulesetError, match=expected):
        load_ruleset(path, plugins=toy_plugins)


def test_a_directory_is_not_a_ruleset(toy_plugins: Plugins, tmp_path: Path) -> None:
    folder = tmp_path / "d.toml"
    folder.mkdir()
    with pytest.raises(RulesetError, match="is a directory"):
        load_ruleset(folder, plugins=toy_plugins)


def test_unknown_ids(toy_plugins: Plugins) -> None:
    with pytest.raises(UnknownRuleset, match=r"unknown ruleset toy/nope \(known: odd, short, standard\)"):
        load_ruleset("toy/nope", plugins=toy_plugins)
    with pytest.raises(UnknownId, match="unknown game 'chess'"):
        load_ruleset("chess/standard", plugins=toy_plugins)
    with pytest.raises(RulesetError, match="needs a game"):
        load_ruleset("standard", plugins=toy_plugins)
    with pytest.raises(RulesetError, match="expected a ruleset for other, found one for .toy."):
        load_ruleset(toygame.HERE / "rulesets" / "standard.toml", game="other", plugins=toy_plugins)


def test_unknown_mod_is_rejected_with_its_index(toy_plugins: Plugins, tmp_path: Path) -> None:
    path = write(tmp_path, "m.toml", 'game = "toy"\nextends = "standard"\nmods = ["odd-only", "teleport"]\n')
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path, plugins=toy_plugins)
    assert caught.value.key == "mods[1]" and "unknown rule mod 'teleport'" in caught.value.reason
    assert "known: no-pile-zero, odd-only" in caught.value.reason


def test_digest_is_stable_and_independent_of_key_order(toy_plugins: Plugins, tmp_path: Path) -> None:
    one = load_ruleset(write(tmp_path, "one.toml", STANDARD), plugins=toy_plugins)
    reordered = '[nim]\nmax_take = 2\npiles = [2, 2]\n'
    two = load_ruleset(write(tmp_path, "two.toml", 'name = "Mine"\nid = "mine"\ngame = "toy"\n' + reordered), plugins=toy_plugins)
    assert one.digest == two.digest
    expected = hashlib.sha256(canonical_json(dict(one.data)).encode()).hexdigest()
    assert one.digest == expected
    assert load_ruleset(write(tmp_path, "three.toml", STANDARD.replace("[2, 2]", "[2, 3]")), plugins=toy_plugins).digest != one.digest
    # a known value pins the canonical form across releases
    assert canonical_json({"b": [1, 2.5], "a": "é"}) == '{"a":"é","b":[1,2.5]}'


def test_timers_is_a_common_key_ordered_with_the_others(toy_plugins: Plugins, tmp_path: Path) -> None:
    text = STANDARD + "[timers]\nenabled = true\nmove_seconds = 5\n"  # after the game's table in the file
    ruleset = load_ruleset(write(tmp_path, "timed.toml", text), plugins=toy_plugins)
    assert list(ruleset.data) == ["game", "id", "name", "timers", "nim"]  # the common keys first, then the game's tables
    clocks = load_game("toy", ruleset, plugins=toy_plugins).timers()
    assert clocks is not None and (clocks.total, clocks.per_move) == (None, 5)


def test_list_rulesets_scans_game_folders_and_plugin_folders(toy_plugins: Plugins, tmp_path: Path) -> None:
    write(tmp_path, "extra.toml", 'game = "toy"\nextends = "toy/standard"\nname = "Extra"\n')
    write(tmp_path, "other.toml", 'game = "elsewhere"\n')
    write(tmp_path, "broken.toml", "not = toml = at all")

    class Shipper:
        @hookimpl
        def pegboard_ruleset_dirs(self) -> list[object]:
            return [tmp_path, RulesetDir(tmp_path / "missing")]

    toy_plugins.register(Shipper(), name="shipper")
    with pytest.warns(PluginWarning, match="missing is not a folder; skipped"):
        refs = [r.ref for r in list_rulesets("toy", toy_plugins)]
    assert refs == ["toy/extra", "toy/odd", "toy/short", "toy/standard"]
    assert "elsewhere/other" in [r.ref for r in list_rulesets(plugins=toy_plugins)]
    assert toy_plugins.failures == [f"pegboard_ruleset_dirs: {tmp_path / 'missing'} is not a folder; skipped"]  # warned once
    assert load_ruleset("toy/extra", plugins=toy_plugins).name == "Extra"


def test_load_game_without_mods_is_the_plain_engine(toy_plugins: Plugins) -> None:
    game = load_game("toy", plugins=toy_plugins)
    assert type(game) is toygame.NimGame


def test_load_game_applies_mods_in_order(toy_plugins: Plugins) -> None:
    game = load_game("toy", "odd", plugins=toy_plugins)
    assert isinstance(game, ModdedGame) and game.id == "toy" and game.seats == toygame.SEATS
    state = game.new_state()
    assert state.legal_moves() == [(1, 1), (1, 3), (2, 1), (2, 3)]
    assert state.check((1, 2)) == "only odd takes are allowed" and state.check((1, 2)).rule == "mod:odd-only"
    assert state.check((0, 1)) == "not allowed by the rule mod no-pile-zero"
    assert state.check((1, 9)).rule == "take"
    with pytest.raises(IllegalMove) as caught:
        state.apply((1, 2))
    assert caught.value.rule == "mod:odd-only"
    with pytest.raises(IllegalMove) as caught:
        state.apply((1, 9))
    assert caught.value.rule == "take"  # the engine's own rule id wins for engine-illegal moves
    events = state.apply((1, 3))
    assert [e.kind for e in events] == ["took", "odd_take"]
    assert events[1].text == "an odd take"  # from [mod_options.odd-only]
    assert state.undo() == (1, 3) and state.to_json()["piles"] == [3, 4, 5]
    clone = state.clone()
    clone.apply((2, 1))
    assert state.ply == 0 and clone.ply == 1
    # mods keep applying to positions read from JSON and to bots' views
    again = game.state_from_json(state.to_json())
    assert again.legal_moves() == state.legal_moves()
    assert state.player_view(0).legal_moves() == state.legal_moves()


@pytest.mark.parametrize(
    "data",
    [
        {"game": "toy", "n": 1, "f": 0.5, "neg": -2.25, "t": True, "s": 'quote " and \\ and é and \n'},
        {"a": {"b": {"c": [1, 2, 3]}, "x": "y"}, "top": [[1, 2], ["a"]]},
        {"mod_options": {"odd-only": {"note": "x"}, "with space": {}}, "list": [{"a": 1}, {"a": 2}]},
        {"empty": {}, "after": {"k": []}},
    ],
)
def test_toml_writer_round_trips(data: dict[str, object]) -> None:
    text = dumps_toml(data)
    assert tomllib.loads(text) == data


def test_ruleset_show_output_reloads_equal(toy_plugins: Plugins, tmp_path: Path) -> None:
    ruleset = load_ruleset("toy/odd", plugins=toy_plugins)
    path = write(tmp_path, "copy.toml", dumps_toml(ruleset.data))
    assert json.dumps(dict(load_ruleset(path, plugins=toy_plugins).data), sort_keys=True) == json.dumps(dict(ruleset.data), sort_keys=True)
