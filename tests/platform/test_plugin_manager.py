"""The plugin manager: built-ins, entry points, broken plugins, unknown hooks, raising hooks."""

from __future__ import annotations

import importlib.metadata
import sys
import types
import warnings
from pathlib import Path

import pytest

from pegboard import hookimpl
from pegboard.errors import PluginError
from pegboard.plugins.builtins import RandomBot
from pegboard.plugins.entrypoints import EntryPoint
from pegboard.plugins.manager import Plugins, PluginWarning, entrypoints
from pegboard.rules.rulesets import load_game
from support import toygame


def test_builtins_register_themselves_and_offer_random_and_mcts_for_every_game(toy_plugins: Plugins) -> None:
    names = [info.name for info in toy_plugins.info()]
    assert "pegboard.builtins" in names
    builtins = next(info for info in toy_plugins.info() if info.name == "pegboard.builtins")
    assert builtins.hooks == ("pegboard_bots",) and builtins.source == "built in"
    bots = toy_plugins.bots("toy")
    assert set(bots) == {"random", "mcts", "openspiel-mcts", "takemost"}
    assert bots["random"].game is None and bots["mcts"].game is None and bots["takemost"].game == "toy"


def test_random_bot_is_seeded_and_legal(toy_plugins: Plugins) -> None:
    game = load_game("toy", plugins=toy_plugins)

    def play(seed: int) -> list[object]:
        state, bot, moves = game.new_state(), RandomBot(game, seed), []
        while not state.is_over:
            move = bot.choose(state.clone(), 0.0)
            assert move in state.legal_moves()
            state.apply(move)
            moves.append(move)
        return moves

    assert play(1) == play(1)
    assert any(play(1) != play(seed) for seed in range(2, 6))


def test_a_failing_entry_point_is_a_warning_and_the_others_load(monkeypatch: pytest.MonkeyPatch) -> None:
    good = EntryPoint(name="toy", value="support.toygame", group="pegboard")
    broken = EntryPoint(name="broken", value="pegboard_no_such_module.plugin", group="pegboard")
    monkeypatch.setattr(entrypoints, "entry_points", lambda group: [broken, good])
    with pytest.warns(PluginWarning, match=r"plugin 'broken' \(pegboard_no_such_module.plugin\) failed to load: ModuleNotFoundError"):
        plugins = Plugins()
    assert "toy" in plugins.games()
    assert len(plugins.failures) == 1


def test_entry_points_are_found_as_importlib_metadata_finds_them() -> None:
    """The scanner and importlib.metadata agree on the installed distributions' entry points."""
    for group in ("pegboard", "console_scripts"):
        ours = sorted((ep.name, ep.value) for ep in entrypoints.entry_points(group))
        theirs = sorted((ep.name, ep.value) for ep in importlib.metadata.entry_points(group=group))
        assert ours == theirs
    assert {"nodewar", "starfall"} <= {ep.name for ep in entrypoints.entry_points("pegboard")}


def test_entry_points_first_distribution_wins_and_load_walks_attributes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    for folder, info, value in (
        (first, "Demo_Game-2.0.dist-info", "support.toygame:pegboard_games"),
        (second, "demo.game-1.0.dist-info", "elsewhere"),  # the same normalised name: shadowed
        (second, "other.egg-info", "support.toygame"),
    ):
        (folder / info).mkdir(parents=True)
        (folder / info / "entry_points.txt").write_text(f"[console_scripts]\nx = y:z\n\n[pegboard]\n{info[:5]} = {value}\n", encoding="utf-8")
    (second / "other.egg-info" / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: other\nVersion: 3.1\n\nbody\n", encoding="utf-8")
    (tmp_path / "archive.zip").write_bytes(b"")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing"), str(first), str(second)])
    found = entrypoints.entry_points("pegboard")
    assert [(ep.name, ep.value, ep.version) for ep in found] == [("Demo_", "support.toygame:pegboard_games", "2.0"), ("other", "support.toygame", "3.1")]
    assert found[0].load() is toygame.pegboard_games and found[1].load() is toygame
    monkeypatch.setattr(sys, "path", [str(tmp_path / "archive.zip")])  # a zip on the path: importlib.metadata answers
    assert entrypoints.entry_points("pegboard") == []


def test_a_hookimpl_that_matches_no_spec_is_refused_clearly() -> None:
    module = types.ModuleType("typo_plugin")

    @hookimpl
    def pegboard_gmaes() -> None:
        return None

    module.pegboard_gmaes = pegboard_gmaes  # type: ignore[attr-defined]
    plugins = Plugins(load_entry_points=False)
    with pytest.raises(PluginError, match="unknown hook 'pegboard_gmaes'"):
        plugins.register(module, name="typo")
    assert "typo" not in [info.name for info in plugins.info()]


def test_a_plugin_raising_inside_a_hook_is_a_warning(toy_plugins: Plugins) -> None:
    class Raiser:
        @hookimpl
        def pegboard_bots(self, game: str) -> None:
            raise RuntimeError("cannot think today")

    toy_plugins.register(Raiser(), name="raiser")
    with pytest.warns(PluginWarning, match="plugin 'raiser' raised in pegboard_bots: RuntimeError: cannot think today"):
        bots = toy_plugins.bots("toy")
    assert set(bots) == {"random", "mcts", "openspiel-mcts", "takemost"}


def test_plugin_files(tmp_path: Path) -> None:
    plugins = Plugins(load_entry_points=False, plugin_files=[toygame.__file__])
    assert "toy" in plugins.games()
    info = next(i for i in plugins.info() if i.name == "toygame")
    assert info.version == "local" and "pegboard_games" in info.hooks
    raising = tmp_path / "raising.py"
    raising.write_text("raise ValueError('nope')\n")
    with pytest.raises(PluginError, match=r"raised on import: ValueError: nope"):
        Plugins(load_entry_points=False, plugin_files=[raising])
    syntax = tmp_path / "syntax.py"
    syntax.write_text("def (:\n")
    with pytest.raises(PluginError, match="syntax error at line 1"):
        Plugins(load_entry_points=False, plugin_files=[syntax])
    with pytest.raises(PluginError, match="not found"):
        Plugins(load_entry_points=False, plugin_files=[tmp_path / "missing.py"])
    with pytest.raises(PluginError, match=r"not a Python package \(no __init__.py\)"):
        Plugins(load_entry_points=False, plugin_files=[tmp_path])


def test_a_package_folder_loads_as_a_plugin_with_its_relative_imports(tmp_path: Path) -> None:
    package = tmp_path / "pegboard_pkgtest"
    package.mkdir()
    (package / "__init__.py").write_text("from .hooks import pegboard_bots\n")
    (package / "hooks.py").write_text(
        "from pegboard import hookimpl\nfrom pegboard.plugins.builtins import RandomBot\nfrom pegboard.specs import BotSpec\n"
        "@hookimpl\ndef pegboard_bots(game):\n    return BotSpec('pkgbot', 'Package bot', RandomBot, game=game)\n"
    )
    plugins = Plugins(load_entry_points=False, plugin_files=[package, toygame.__file__])
    assert "pkgbot" in plugins.bots("toy")
    info = next(i for i in plugins.info() if i.name == "pegboard_pkgtest")
    assert (info.version, info.source) == ("local", str(package))
    again = Plugins(load_entry_points=False, plugin_files=[package, toygame.__file__])
    assert again.bots("toy")["pkgbot"] == plugins.bots("toy")["pkgbot"], "a package is imported once per process"
    broken = tmp_path / "pegboard_pkgbroken"
    broken.mkdir()
    (broken / "__init__.py").write_text("from . import hooks\n")
    (broken / "hooks.py").write_text("raise RuntimeError('broken package')\n")
    with pytest.raises(PluginError, match="raised on import: RuntimeError: broken package"):
        Plugins(load_entry_points=False, plugin_files=[broken])
    assert "pegboard_pkgbroken" not in sys.modules and "pegboard_pkgbroken.hooks" not in sys.modules
    bad_name = tmp_path / "not-a-name"
    bad_name.mkdir()
    (bad_name / "__init__.py").write_text("")
    with pytest.raises(PluginError, match="not a Python package name"):
        Plugins(load_entry_points=False, plugin_files=[bad_name])


def test_example_plugins_load_with_the_public_api() -> None:
    examples = Path(__file__).resolve().parents[2] / "plugins" / "examples"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # loading the examples must not warn
        plugins = Plugins(load_entry_points=False, plugin_files=sorted(examples.glob("*.py")))
    plugins.register(toygame, name="toygame")
    assert "greedy" in plugins.bots("toy")


def test_example_greedy_bot_picks_the_best_evaluated_move(toy_plugins: Plugins) -> None:
    examples = Path(__file__).resolve().parents[2] / "plugins" / "examples"
    toy_plugins.load_file(examples / "greedy_bot.py")
    game = load_game("toy", plugins=toy_plugins)
    bot = toy_plugins.bot("toy", "greedy").factory(game, 1)
    # taken-difference + half the parity of tokens left: taking 2 from pile 1 scores 2.5, the rest 1.0
    state = game.state_from_json({"piles": [1, 2], "taken": [0, 0], "turn": 0, "limit": 50})
    assert bot.choose(state, 1.0) == (1, 2)
    assert state.to_json()["piles"] == [1, 2]  # the view is left as it was
    # a move that wins at once beats any evaluation, for either seat
    state = game.state_from_json({"piles": [0, 3], "taken": [0, 9], "turn": 1, "limit": 50})
    assert bot.choose(state, 1.0) == (1, 3)


class TwoGameBots:
    """A plugin offering bots and evaluators for two games from hooks that take no ``game``."""

    @hookimpl
    def pegboard_bots(self) -> list[object]:
        from pegboard.specs import BotSpec

        return [BotSpec("toy-only", "Toy only", RandomBot, game="toy"), BotSpec("elsewhere", "Elsewhere", RandomBot, game="chess")]

    @hookimpl
    def pegboard_evaluators(self) -> list[object]:
        from pegboard.specs import EvaluatorSpec

        return [EvaluatorSpec("chess-eval", "Chess", "chess", lambda game: None), EvaluatorSpec("toy-eval", "Toy", "toy", lambda game: None)]


def test_the_manager_keeps_only_the_specs_of_the_game_asked_about(toy_plugins: Plugins) -> None:
    toy_plugins.register(TwoGameBots(), name="two-games")
    assert "toy-only" in toy_plugins.bots("toy") and "elsewhere" not in toy_plugins.bots("toy")
    assert "random" in toy_plugins.bots("toy")  # game=None: every game's
    assert set(toy_plugins.evaluators("toy")) == {"taken", "toy-eval"}


def test_no_hook_implementation_in_the_plugins_guards_on_the_game_id() -> None:
    """Per-game hooks need no ``if game == ...``: the manager filters by ``spec.game``, so the
    plugins' hook implementations take no ``game`` argument at all."""
    import ast

    root = Path(__file__).resolve().parents[2]
    files = [path for folder in ("plugins", "tests/support") for path in (root / folder).rglob("*.py")]
    hooks = [
        (path.relative_to(root), node.name, [arg.arg for arg in node.args.args])
        for path in files for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name.startswith("pegboard_")
    ]
    assert len(hooks) >= 20
    assert [hook for hook in hooks if "game" in hook[2]] == []
