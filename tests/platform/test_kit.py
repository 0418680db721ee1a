"""``pegboard new``: the game author's kit writes a game, a bot and a rule mod that work at once.

The game test does what the kit tells an author to do, offline: it writes the game,
installs it editable (``pip install --no-index --no-build-isolation -e DIR``) into a
throw-away virtual environment that sees this one's packages (Pegboard, pytest), then
runs the game's own tests and ``pegboard match`` there. That environment is private to
the test, so the game never shows up in this one's entry points. Other tests build
Pegboard's wheel (the templates ship in it), type-check and lint what the kit writes,
and drive ``new bot`` / ``new rulemod`` and their refusals through the CLI.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from typing import Any

import pytest

from pegboard.kit.writer import class_prefix, new_game, title_of

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "platform" / "pegboard" / "kit" / "templates"


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PEGBOARD_PLUGINS", "PYTHONPATH")}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def _private_venv(where: Path) -> Path:
    """A venv without pip of its own whose site folder also reads this interpreter's (a .pth line)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, timeout=60)
    python = where / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], where).stdout.strip()
    ours = sysconfig.get_paths()["purelib"]  # addsitedir, so our editable install's own .pth files run too
    (Path(purelib) / "zz_outer_site.pth").write_text(f"import site; site.addsitedir({ours!r})\n", encoding="utf-8")
    return python


@pytest.mark.slow
def test_a_new_game_installs_passes_its_tests_and_plays(tmp_path: Path) -> None:
    folder = tmp_path / "kitgame"
    python = _private_venv(tmp_path / "venv")
    wrote = _run([str(python), "-m", "pegboard", "new", "game", "kitgame", "--dir", str(folder)], tmp_path)
    assert wrote.returncode == 0, wrote.stderr
    assert (folder / "pegboard_kitgame" / "schemas" / "move.schema.json").is_file()
    assert f"pip install -e {folder}" in wrote.stdout

    pip = [str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--no-build-isolation", "--disable-pip-version-check", "-q", "-e", str(folder)]
    installed = _run(pip, tmp_path)
    assert installed.returncode == 0, installed.stderr[-2000:]

    games = _run([str(python), "-m", "pegboard", "games"], tmp_path)
    assert games.returncode == 0 and "kitgame" in games.stdout and "perfect" in games.stdout, games.stdout + games.stderr

    tests = _run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder)], tmp_path)  # `pytest DIR`, from outside
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-2000:]
    passed = re.search(r"(\d+) passed", tests.stdout)
    assert passed and int(passed.group(1)) >= 10 and "failed" not in tests.stdout and "skipped" not in tests.stdout, tests.stdout

    plain = _run([str(python), "-m", "pegboard", "match", "kitgame"], tmp_path)  # exactly what the kit says to run
    assert plain.returncode == 0 and "1 game(s)" in plain.stdout, plain.stdout + plain.stderr
    match = _run([str(python), "-m", "pegboard", "match", "kitgame", "--first", "perfect", "--games", "4", "-j", "1", "--json"], tmp_path)
    assert match.returncode == 0, match.stderr
    assert '"perfect"' in match.stdout and '"wins": 4' in match.stdout, match.stdout  # it wins the standard pile from the start

    # --plugin FOLDER with a package of that name installed: the folder wins, with a warning
    copy = tmp_path / "work" / "pegboard_kitgame"
    shutil.copytree(folder / "pegboard_kitgame", copy)
    plugin_py = copy / "plugin.py"
    plugin_py.write_text(plugin_py.read_text(encoding="utf-8").replace('name="Kitgame"', 'name="Kitgame from the folder"'), encoding="utf-8")
    shadowed = _run([str(python), "-m", "pegboard", "--plugin", str(copy), "games"], tmp_path)
    assert shadowed.returncode == 0, shadowed.stderr
    assert "Kitgame from the folder" in shadowed.stdout
    assert shadowed.stderr.strip() == f"warning: plugin folder {copy} replaces the installed package 'pegboard_kitgame' (entry point 'kitgame')"
    same = _run([str(python), "-m", "pegboard", "--plugin", str(folder / "pegboard_kitgame"), "games"], tmp_path)
    assert same.returncode == 0 and same.stderr == "" and "Kitgame" in same.stdout, same.stderr  # the editable install is that folder


@pytest.mark.slow
def test_the_templates_ship_in_the_wheel_and_work_from_it(tmp_path: Path) -> None:
    source = tmp_path / "pegboard"
    for name in ("platform", "plugins", "rulesets", "schemas"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "connect4"))
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    wheel = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "--disable-pip-version-check", "-q"]
    built = _run([*wheel, "-w", str(tmp_path / "dist"), str(source)], tmp_path)
    assert built.returncode == 0, built.stderr[-2000:]
    (path,) = (tmp_path / "dist").glob("pegboard-*.whl")
    with zipfile.ZipFile(path) as archive:
        shipped = {name.removeprefix("pegboard/") for name in archive.namelist() if name.startswith("pegboard/kit/templates/")}
    templates = {p.relative_to(ROOT / "platform" / "pegboard").as_posix() for p in TEMPLATES.rglob("*.tmpl")}
    assert len(templates) >= 18 and shipped == templates

    site = tmp_path / "site"
    install = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--disable-pip-version-check", "-q", "--target", str(site), str(path)]
    assert _run(install, tmp_path).returncode == 0
    env_run = [sys.executable, "-c", "import sys, pegboard.cli.app as a; print(a.__file__, file=sys.stderr); a.main()"]
    wrote = subprocess.run(
        [*env_run, "new", "game", "fromwheel", "--dir", str(tmp_path / "g")],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True, timeout=60,
    )
    assert wrote.returncode == 0, wrote.stderr
    assert Path(wrote.stderr.splitlines()[0]).is_relative_to(site), "the installed wheel, not the source tree"
    assert (tmp_path / "g" / "pegboard_fromwheel" / "rules.py").is_file()


@pytest.mark.slow
def test_what_the_kit_writes_passes_mypy_strict_and_ruff(tmp_path: Path) -> None:
    from pegboard.kit.writer import new_bot, new_rulemod
    from pegboard.plugins.manager import Plugins

    new_game("typed", tmp_path / "game")
    spec = Plugins(load_entry_points=False, plugin_files=[ROOT / "tests" / "support" / "toygame.py"]).game("toy")
    new_bot(spec, "typed_bot", tmp_path / "one")
    new_rulemod(spec, "typed_mod", tmp_path / "one")
    # from the repository, with its mypy settings and cache; the new code is found through MYPYPATH
    env = {**os.environ, "MYPYPATH": os.pathsep.join([str(tmp_path / "game"), str(tmp_path / "one")])}
    args = [sys.executable, "-m", "mypy", "--no-color-output", "-p", "pegboard_typed", "-p", "typed_bot", "-p", "typed_mod"]
    typed = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert typed.returncode == 0 and "no issues found in 10 source files" in typed.stdout, typed.stdout + typed.stderr
    for folder in ("game", "one"):  # each from its own root, as its author would run it
        lint = _run([sys.executable, "-m", "ruff", "check", "--isolated", "--select", "F,I,B,UP", "--line-length", "150", "."], tmp_path / folder)
        assert lint.returncode == 0, lint.stdout[-2000:]


def test_the_names_the_templates_derive() -> None:
    assert (title_of("my_game"), class_prefix("my_game")) == ("My Game", "MyGame")


def test_a_new_game_holds_every_part_and_no_template_field(tmp_path: Path) -> None:
    written = new_game("my_game", tmp_path / "g")
    names = {path.relative_to(tmp_path / "g").as_posix() for path in written.files}
    package = "pegboard_my_game"
    for part in ("rules.py", "bots.py", "evaluator.py", "view.py", "plugin.py", "py.typed", "rulesets/standard.toml", "schemas/move.schema.json"):
        assert f"{package}/{part}" in names
    assert {"pyproject.toml", "tests/test_conformance.py"} <= names
    checked = 0
    for path in written.files:
        text = path.read_text(encoding="utf-8")
        assert "%%" not in text, path
        checked += 1
    assert checked == len(written.files) >= 16
    assert 'my_game = "pegboard_my_game"' in (tmp_path / "g" / "pyproject.toml").read_text(encoding="utf-8")
    assert "class MyGameGame(Game[int])" in (tmp_path / "g" / package / "rules.py").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("new", "game", "My-Game"), "must be a lowercase Python identifier"),
        (("new", "game", "class"), "must be a lowercase Python identifier"),
        (("new", "game", "toy"), "a game with id 'toy' is already installed"),
        (("new", "bot", "toy", "takemost"), "toy already has a bot with id 'takemost'"),
        (("new", "bot", "toy", "9lives"), "bot name '9lives' must be"),
        (("new", "rulemod", "toy", "odd-only"), "rulemod name 'odd-only' must be"),
        (("new", "bot", "nogame", "mine"), "unknown game"),
    ],
)
def test_a_bad_name_is_refused_in_one_line(cli: Any, tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    result = cli(*args, "--dir", tmp_path / "out")
    assert result.code == 2
    assert len(result.err_lines) == 1 and message in result.err, result.err
    assert not (tmp_path / "out").exists()


def test_a_name_whose_package_is_already_installed_is_refused(cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    (site / "pegboard_shadowed").mkdir(parents=True)
    (site / "pegboard_shadowed" / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    result = cli("new", "game", "shadowed", "--dir", tmp_path / "out")
    assert result.code == 2 and len(result.err_lines) == 1
    assert "a package named pegboard_shadowed is already installed" in result.err
    assert not (tmp_path / "out").exists()


def test_an_existing_folder_or_file_is_never_overwritten(cli: Any, tmp_path: Path) -> None:
    folder = tmp_path / "taken"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    result = cli("new", "game", "fresh", "--dir", folder)
    assert result.code == 2 and "already exists and is not an empty folder" in result.err and len(result.err_lines) == 1
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert cli("new", "game", "fresh", "--dir", empty).code == 0
    assert (empty / "pegboard_fresh" / "rules.py").is_file()
    assert cli("new", "bot", "toy", "mine", "--dir", tmp_path).code == 0
    again = cli("new", "bot", "toy", "mine", "--dir", tmp_path)
    assert again.code == 2 and "mine.py already exists" in again.err


def test_a_new_bot_plays_through_plugin(cli: Any, tmp_path: Path) -> None:
    result = cli("new", "bot", "toy", "clever", "--dir", tmp_path)
    assert result.code == 0, result.err
    plugin = tmp_path / "clever.py"
    assert f"pegboard --plugin {plugin} match toy --left clever" in result.out
    played = cli("--plugin", plugin, "match", "toy", "--left", "clever", "--right", "random", "--games", "2", "-j", "1", "--json")
    assert played.code == 0, played.err
    assert '"clever"' in played.out


def test_a_new_rule_mod_and_its_ruleset_play_through_plugin(cli: Any, tmp_path: Path) -> None:
    result = cli("new", "rulemod", "toy", "narrow", "--dir", tmp_path)
    assert result.code == 0, result.err
    plugin, ruleset = tmp_path / "narrow.py", tmp_path / "narrow.toml"
    assert plugin.is_file() and ruleset.is_file()
    shown = cli("--plugin", plugin, "ruleset", "show", ruleset, "--json")
    assert shown.code == 0, shown.err
    assert '"narrow"' in shown.out and '"keep": 2' in shown.out
    out = tmp_path / "records"
    played = cli("--plugin", plugin, "match", "toy", "--ruleset", ruleset, "--games", "2", "-j", "1", "--out", out)
    assert played.code == 0, played.err
    records = sorted(out.glob("*.match.json"))
    assert len(records) == 2
    assert cli("--plugin", plugin, "validate", *records).code == 0
    text = records[0].read_text(encoding="utf-8")
    assert '"mods": [' in text and '"narrow"' in text
