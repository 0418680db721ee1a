"""The on-disk cache of compiled generated code (pegboard.codecache)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pegboard.codecache import cache_dir, compile_cached

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
    _, source, name, _ = marshal.loads(written.read_bytes())
    wrong = compile("def answer(v):\n    return 0\n", "<test>", "exec")
    written.write_bytes(marshal.dumps((b"\x00\x00\r\n", source, name, wrong)))
    assert _run(compile_cached(SOURCE, "<test>")) == 42


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
