"""--executor ray: the same games, records, reports and exit codes as local processes.

One local Ray instance (2 CPUs) serves the whole module; starting Ray costs seconds.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="the ray extra is not installed (tools/dev.py test installs it)")


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    yield
    if started:
        ray.shutdown()


def test_match_on_ray_writes_the_same_records(cli: Any, tmp_path: Path) -> None:
    local = cli("match", "toy", "--left", "takemost", "--games", "4", "--seed", "3", "--out", tmp_path / "local", "--json")
    remote = cli("match", "toy", "--left", "takemost", "--games", "4", "--seed", "3", "--out", tmp_path / "ray", "--json", "--executor", "ray")
    assert local.code == remote.code == 0, remote.err
    a, b = json.loads(local.out), json.loads(remote.out)
    assert a["entrants"][0]["wins"] == b["entrants"][0]["wins"]
    for name in ("match-0001.match.json", "match-0004.match.json"):
        ra = json.loads((tmp_path / "local" / name).read_text())
        rb = json.loads((tmp_path / "ray" / name).read_text())
        assert ra["moves"] == rb["moves"] and ra["seed"] == rb["seed"] and ra["result"] == rb["result"]


def test_validate_on_ray_reports_every_file_in_order(cli: Any, tmp_path: Path) -> None:
    made = cli("match", "toy", "--games", "20", "--out", tmp_path, "--json")
    assert made.code == 0, made.err
    deep = tmp_path / "deep.match.json"
    deep.write_text("[" * 50_000 + "]" * 50_000)
    broken = tmp_path / "broken.match.json"
    broken.write_bytes(b"\xff\xfe garbage")
    files = sorted(tmp_path.glob("match-*.json"))
    files[5:5] = [deep, broken]
    local = cli("validate", "--json", *files)
    remote = cli("validate", "--json", "--executor", "ray", "-j", "2", *files)
    assert local.code == remote.code == 1
    assert json.loads(local.out) == json.loads(remote.out)
    reports = json.loads(remote.out)
    assert [r["path"] for r in reports] == [str(f) for f in files]
    assert sum(not r["ok"] for r in reports) == 2


def test_tournament_on_ray(cli: Any) -> None:
    local = cli("tournament", "toy", "random", "takemost", "--games", "4", "--json")
    remote = cli("tournament", "toy", "random", "takemost", "--games", "4", "--json", "--executor", "ray")
    assert local.code == remote.code == 0, remote.err
    assert json.loads(local.out)["pairs"] == json.loads(remote.out)["pairs"]


def test_address_without_ray_is_a_usage_error(cli: Any) -> None:
    result = cli("match", "toy", "--address", "127.0.0.1:6379")
    assert result.code == 2 and result.err_lines == ["error: --address needs --executor ray"]
    result = cli("validate", "x.json", "--executor", "spark")
    assert result.code == 2 and "unknown executor 'spark'" in result.err


def test_a_crashing_bot_is_one_line_on_ray(cli: Any, tmp_path: Path) -> None:
    from support.toygame import write_plugin

    plugin = write_plugin(
        tmp_path,
        "crashbot",
        "from pegboard.specs import Bot, BotSpec",
        "class Crash(Bot):",
        "    def choose(self, view, budget):",
        "        raise RuntimeError('boom')",
        "@hookimpl",
        "def pegboard_bots(game):",
        "    return BotSpec('crash', 'Crash', lambda g, s: Crash(), game=None)",
    )
    result = cli("--plugin", plugin, "match", "toy", "--left", "crash", "--games", "3", "--executor", "ray")
    assert result.code == 1
    assert len(result.err_lines) == 1 and "crash" in result.err and "boom" in result.err
    assert "Traceback" not in result.err


def test_analyse_on_ray_gives_the_same_review(cli: Any, tmp_path: Path) -> None:
    made = cli("match", "toy", "--left", "takemost", "--games", "2", "--seed", "5", "--out", tmp_path, "--json")
    assert made.code == 0, made.err
    files = sorted(tmp_path.glob("match-*.json"))
    local = cli("analyse", "--json", "--budget", "500", "-j", "1", *files)
    remote = cli("analyse", "--json", "--budget", "500", "--executor", "ray", "-j", "2", *files)
    assert local.code == remote.code == 0, remote.err
    assert json.loads(local.out) == json.loads(remote.out)
    assert [len(r["rows"]) for r in json.loads(remote.out)] == [len(json.loads(f.read_text())["moves"]) for f in files]
