"""Fuzzing: mutated records, rulesets and positions never crash a command, hang, or write
where they should not; one bad file never stops a batch.

About 2 000 generated cases in the normal run (500 per kind of input); tools/fuzz.py
runs longer campaigns and prints the counts (figures in docs/performance.md).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pegboard.plugins.manager import Plugins
from support import fuzzing

CASES_PER_KIND = 500
FAST = settings(
    max_examples=CASES_PER_KIND,
    deadline=None,  # the time limit is fuzzing.TIME_LIMIT per case, enforced by an alarm
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    phases=[Phase.explicit, Phase.generate],  # no shrinking: a failure prints its input as found
)
pytestmark = pytest.mark.filterwarnings("ignore:Generating overly large repr")


@pytest.mark.parametrize("kind", fuzzing.KINDS)
def test_no_input_is_a_bug(kind: str, corpus: fuzzing.Corpus, real_plugins: Plugins, tmp_path: Path) -> None:
    seen: dict[str, int] = {"valid": 0, "refused": 0}

    @FAST
    @given(fuzzing.mutated(kind, corpus))
    def case(text: str) -> None:
        outcome = fuzzing.run_case(kind, text, tmp_path, real_plugins)
        assert outcome.verdict != "bug", f"{kind}: {outcome.detail}\ninput: {text[:500]!r}"
        seen[outcome.verdict] += 1

    case()
    assert seen["refused"] > 0  # the mutations do break files
    assert list(tmp_path.iterdir()) == []


def _no_traceback(result: Any) -> None:
    assert result.code in (0, 1, 2)
    assert "Traceback" not in result.err and "error: unexpected" not in result.err, result.err
    assert "Traceback" not in result.out


@settings(max_examples=3, deadline=None, database=None, suppress_health_check=list(HealthCheck), phases=[Phase.generate])
@given(data=st.data())
def test_one_bad_file_never_stops_a_batch(data: st.DataObject, corpus: fuzzing.Corpus, cli: Any, tmp_path_factory: Any) -> None:
    folder = Path(tmp_path_factory.mktemp("batch"))
    files = []
    for index in range(24):
        kind = "record_txt" if index % 3 == 0 else "record_json"
        text = data.draw(fuzzing.mutated(kind, corpus))
        path = folder / f"case{index:02d}{'.txt' if kind == 'record_txt' else '.match.json'}"
        path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
        files.append(path)
    deep = folder / "deep.match.json"
    deep.write_text("{\"a\": " * 100_000 + "1" + "}" * 100_000)
    files.insert(3, deep)
    result = cli("validate", "--json", "-j", "1", *files, entry_points=True)
    _no_traceback(result)
    reports = json.loads(result.out)
    assert [r["path"] for r in reports] == [str(f) for f in files]
    assert not reports[3]["ok"] and reports[3]["stage"] == "syntax"
    assert result.code == (0 if all(r["ok"] for r in reports) else 1)
    assert sorted(folder.iterdir()) == sorted(files)
    shutil.rmtree(folder)


@settings(max_examples=12, deadline=None, database=None, suppress_health_check=list(HealthCheck), phases=[Phase.generate])
@given(data=st.data())
def test_commands_answer_in_one_line(data: st.DataObject, corpus: fuzzing.Corpus, cli: Any, tmp_path_factory: Any) -> None:
    folder = Path(tmp_path_factory.mktemp("cmd"))
    position = folder / "position.json"
    position.write_bytes(data.draw(fuzzing.mutated("position", corpus)).encode("utf-8", errors="surrogateescape"))
    game = data.draw(st.sampled_from(["nodewar", "starfall"]))
    ruleset = folder / "rules.toml"
    ruleset.write_bytes(data.draw(fuzzing.mutated("ruleset", corpus)).encode("utf-8", errors="surrogateescape"))
    record = folder / "in.match.json"
    record.write_bytes(data.draw(fuzzing.mutated("record_json", corpus)).encode("utf-8", errors="surrogateescape"))
    target = folder / "out" / "converted.txt"
    target.parent.mkdir()
    before = set(folder.rglob("*"))
    for args in (("legal", game, position), ("eval", game, position), ("ruleset", "check", ruleset), ("convert", record, target)):
        result = cli(*args, entry_points=True)
        _no_traceback(result)
        if result.code:
            assert len(result.err_lines) == 1, result.err
    assert set(folder.rglob("*")) - before <= {target}
    shutil.rmtree(folder)
