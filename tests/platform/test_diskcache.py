"""The disk cache of computed values and compiled generated code (pegboard.diskcache)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from pegboard.diskcache import cache_dir, cached, compile_cached, source_stamp

SOURCE = "def answer(v):\n    return v * 2\n"


def _run(code: object) -> int:
    namespace: dict[str, object] = {}
    exec(code, namespace)  # noqa: S102 - the test's own source
    answer = namespace["answer"]
    assert callable(answer)
    return int(answer(21))


def test_the_folder_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PEGBOARD_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("PEGBOARD_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "pegboard"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "pegboard"


def test_a_second_compile_reads_the_file(private_code_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEGBOARD_CACHE_DIR", str(private_code_cache / "second"))
    assert _run(compile_cached(SOURCE, "<test>")) == 42
    assert len(list((private_code_cache / "second").iterdir())) == 1
    monkeypatch.setattr("builtins.compile", lambda *args, **kwargs: pytest.fail("compiled again"))
    code = compile_cached(SOURCE, "<test>")
    assert _run(code) == 42 and code.co_filename == "<test>"


def test_another_source_or_name_is_compiled_anew(private_code_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEGBOARD_CACHE_DIR", str(private_code_cache / "other"))
    compile_cached(SOURCE, "<test>")
    assert _run(compile_cached(SOURCE.replace("2", "3"), "<test>")) == 63
    assert compile_cached(SOURCE, "<other>").co_filename == "<other>"


@pytest.mark.parametrize("garbage", [b"", b"not marshal data", b"\xe9" * 40])
def test_a_corrupt_file_is_ignored_and_rewritten(private_code_cache: Path, monkeypatch: pytest.MonkeyPatch, garbage: bytes) -> None:
    folder = private_code_cache / f"corrupt{len(garbage)}"
    monkeypatch.setenv("PEGBOARD_CACHE_DIR", str(folder))
    compile_cached(SOURCE, "<test>")
    [written] = folder.iterdir()
    good = written.read_bytes()
    written.write_bytes(garbage)
    assert _run(compile_cached(SOURCE, "<test>")) == 42
    assert written.read_bytes() == good


def test_a_file_from_another_python_is_not_used(private_code_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import marshal

    folder = private_code_cache / "magic"
    monkeypatch.setenv("PEGBOARD_CACHE_DIR", str(folder))
    compile_cached(SOURCE, "<test>")
    [written] = folder.iterdir()
    (_, stamp), _ = marshal.loads(written.read_bytes())
    wrong = compile("def answer(v):\n    return 0\n", "<test>", "exec")
    written.write_bytes(marshal.dumps(((b"\x00\x00\r\n", stamp), wrong)))
    assert _run(compile_cached(SOURCE, "<test>")) == 42


def test_a_value_is_built_once_per_stamp(private_code_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEGBOARD_CACHE_DIR", str(private_code_cache / "values"))
    builds: list[int] = []

    def build(size: int) -> dict[str, object]:
        builds.append(size)
        return {"size": size, "squares": tuple(range(size)), "seen": frozenset({1, 2})}

    for _ in range(2):
        for size in (3, 4):
            expected = {"size": size, "squares": tuple(range(size)), "seen": frozenset({1, 2})}
            assert cached("table", ("v1", size), lambda size=size: build(size)) == expected
    assert builds == [3, 4]
    assert cached("table", ("v2", 3), lambda: build(3))["size"] == 3  # another stamp: built again
    assert builds == [3, 4, 3]


def test_a_value_marshal_cannot_write_is_built_every_time(private_code_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEGBOARD_CACHE_DIR", str(private_code_cache / "unmarshalable"))
    value = {"f": len}
    assert cached("odd", 1, lambda: value) is value
    assert cached("odd", 1, lambda: value) is value
    assert not list((private_code_cache / "unmarshalable").glob("*.tmp"))


def test_source_stamp_reads_the_modules_source() -> None:
    import pegboard.diskcache as module

    assert source_stamp([module]) == (Path(str(module.__file__)).read_bytes(),)
    assert source_stamp([sys]) is None  # a built-in module has no source file


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a folder this user cannot write")
def test_an_unwritable_folder_only_costs_a_compile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    monkeypatch.setenv("PEGBOARD_CACHE_DIR", str(folder / "cache"))
    try:
        assert _run(compile_cached(SOURCE, "<test>")) == 42
    finally:
        folder.chmod(0o700)


def test_a_cache_path_that_is_a_file_only_costs_a_compile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PEGBOARD_CACHE_DIR", str(blocker / "cache"))
    assert _run(compile_cached(SOURCE, "<test>")) == 42
    assert blocker.read_text() == "not a folder"


def test_no_home_folder_means_no_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("PEGBOARD_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: cls("~")))
    monkeypatch.chdir(tmp_path)
    assert _run(compile_cached(SOURCE, "<test>")) == 42
    assert cached("value", 1, lambda: 7) == 7
    assert not list(tmp_path.iterdir())  # nothing written under the current folder
