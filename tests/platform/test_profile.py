"""The local profile (pegboard.ratings.profile) and `pegboard profile`: rated games, settings, bad files."""

from __future__ import annotations

import itertools
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pegboard.errors import ProfileError
from pegboard.ratings import elo as ratings
from pegboard.ratings import profile as store
from pegboard.ratings.profile import open_profile


def test_a_new_profile_lives_in_pegboard_home(private_profile_home: Path) -> None:
    with open_profile() as prof:
        assert prof.path == private_profile_home / store.FILE_NAME
        assert (prof.name, prof.rating, prof.games) == (store.DEFAULT_NAME, 1000.0, 0)
        assert prof.history() == [] and prof.pending() is None
    assert (private_profile_home / store.FILE_NAME).is_file()
    db = sqlite3.connect(private_profile_home / store.FILE_NAME)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA_VERSION
    db.close()


def test_a_rated_game_against_a_bot_moves_the_rating_by_its_weight() -> None:
    with open_profile() as prof:
        assert prof.start_rated("m1", game="g", opponent="skill-50", opponent_rating=1400, skill=50) == []
        assert prof.pending() is not None and prof.pending().opponent == "skill-50"  # type: ignore[union-attr]
        row = prof.finish_rated("m1", ratings.WIN)
        assert row.rating_before == 1000
        assert row.rating_after == pytest.approx(1000 + 0.5 * 32 * (1 - 1 / 11))
        assert (row.opponent, row.skill, row.weight, row.result, row.reason) == ("skill-50", 50, 0.5, 1.0, "played")
        assert prof.rating == row.rating_after and prof.games == 1 and prof.pending() is None
        assert prof.history() == [row]


def test_start_and_finish_are_idempotent_for_a_reconnect() -> None:
    with open_profile() as prof:
        prof.start_rated("m1", game="g", opponent="Ann", opponent_rating=1000)
        prof.start_rated("m1", game="g", opponent="Ann", opponent_rating=1000)  # the reconnect says it again
        first = prof.finish_rated("m1", ratings.LOSS)
        assert first.rating_after == 984  # full weight against a person
        assert prof.finish_rated("m1", ratings.WIN) == first  # a second report changes nothing
        assert prof.start_rated("m1", game="g", opponent="Ann", opponent_rating=1000) == []
        assert prof.pending() is None
        assert prof.games == 1 and prof.rating == 984 and len(prof.history()) == 1
        with pytest.raises(ProfileError, match="no rated game 'nope'"):
            prof.finish_rated("nope", 1.0)


def test_starting_a_new_game_records_the_one_under_way_as_a_loss() -> None:
    with open_profile() as prof:
        prof.start_rated("old", game="g", opponent="skill-100", opponent_rating=2000, skill=100)
        forfeits = prof.start_rated("new", game="g", opponent="skill-10", opponent_rating=920, skill=10)
        assert [(f.match_id, f.result, f.reason) for f in forfeits] == [("old", 0.0, "abandoned")]
        assert forfeits[0].rating_after == pytest.approx(1000 - 32 / (1 + 10 ** 2.5))
        assert prof.pending().match_id == "new"  # type: ignore[union-attr]
        assert prof.games == 1
        assert prof.finish_rated("old", 1.0) == forfeits[0]  # the old game's late result changes nothing


def test_a_handicap_gap_is_used_for_the_expected_score() -> None:
    with open_profile() as prof:
        prof.start_rated("m", game="g", opponent="skill-100", opponent_rating=2000, skill=100, gap=0.0)
        row = prof.finish_rated("m", ratings.WIN)
        assert row.gap == 0.0 and row.rating_after == 1016


def test_settings_hold_json_values_per_game() -> None:
    with open_profile() as prof:
        assert prof.get_setting("g", "fog", "off") == "off"
        prof.set_setting("g", "fog", "seam")
        prof.set_setting("g", "timers", {"enabled": True, "clock": [20, 60]})
        prof.set_setting("h", "fog", "dark")
        assert prof.get_setting("g", "fog") == "seam"
        assert prof.settings("g") == {"fog": "seam", "timers": {"enabled": True, "clock": [20, 60]}}
        with pytest.raises(ProfileError, match="not a JSON value"):
            prof.set_setting("g", "bad", object())
    with open_profile() as again:  # persisted
        assert again.get_setting("h", "fog") == "dark"


def test_reset_forgets_games_but_keeps_the_name_and_settings() -> None:
    with open_profile() as prof:
        prof.set_name("Ada")
        prof.set_setting("g", "fog", "seam")
        prof.start_rated("m", game="g", opponent="Bob", opponent_rating=1200)
        prof.finish_rated("m", 1.0)
        prof.start_rated("n", game="g", opponent="Bob", opponent_rating=1200)
        prof.reset()
        assert (prof.name, prof.rating, prof.games, prof.history(), prof.pending()) == ("Ada", 1000.0, 0, [], None)
        assert prof.get_setting("g", "fog") == "seam"
        with pytest.raises(ProfileError):
            prof.set_name("  ")


_WRITER = """
import sys
from pegboard.ratings.profile import open_profile
path, tag, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open_profile(path, timeout=30) as prof:
    for i in range(count):
        prof.start_rated(f"{tag}-{i}", game="g", opponent=tag, opponent_rating=1000 + 10 * i)
        prof.finish_rated(f"{tag}-{i}", (i % 3) / 2)
        prof.set_setting("g", f"{tag}-last", i)
"""


def test_two_processes_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    open_profile(path).close()
    count = 40
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(path), tag, str(count)]) for tag in ("a", "b")]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    with open_profile(path) as prof:
        rows = list(reversed(prof.history()))
        assert prof.games == 2 * count and len(rows) == 2 * count
        assert {r.match_id for r in rows} == {f"{t}-{i}" for t in "ab" for i in range(count)}
        # Each game read the rating the one before it wrote: the chain has no gap.
        assert rows[0].rating_before == 1000
        for earlier, later in itertools.pairwise(rows):
            assert later.rating_before == earlier.rating_after
        assert prof.rating == rows[-1].rating_after
        assert prof.get_setting("g", "a-last") == count - 1 and prof.get_setting("g", "b-last") == count - 1
        assert prof.pending() is None


def _bad_files(tmp_path: Path) -> dict[str, Path]:
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"\x00\xffnot a database at all" * 200)
    other = tmp_path / "other.sqlite3"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE photos (id INTEGER)")
    db.commit()
    db.close()
    newer = tmp_path / "newer.sqlite3"
    open_profile(newer).close()
    db = sqlite3.connect(newer)
    db.execute(f"PRAGMA user_version = {store.SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    truncated = tmp_path / "truncated.sqlite3"
    open_profile(truncated).close()
    with open_profile(truncated) as prof:
        for i in range(30):
            prof.set_setting("g", f"k{i}", "x" * 2000)
    truncated.write_bytes(truncated.read_bytes()[:3000])
    for suffix in ("-wal", "-shm"):
        for path in (newer, truncated):
            Path(str(path) + suffix).unlink(missing_ok=True)
    return {"garbage": garbage, "other": other, "newer": newer, "truncated": truncated}


@pytest.mark.parametrize(
    "kind, message",
    [("garbage", "is damaged"), ("other", "not a Pegboard profile"), ("newer", "newer Pegboard"), ("truncated", "damaged")],
)
def test_an_unusable_file_is_refused_and_left_as_it_was(tmp_path: Path, kind: str, message: str) -> None:
    path = _bad_files(tmp_path)[kind]
    before = path.read_bytes()
    with pytest.raises(ProfileError, match=message):
        with open_profile(path) as prof:
            prof.summary()
    assert path.read_bytes() == before
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(f"{name}.sqlite3" for name in ("garbage", "other", "newer", "truncated")), "no -wal/-shm left beside it"


def test_a_locked_profile_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite3"
    open_profile(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(ProfileError, match="locked by another program"):
            with open_profile(path, timeout=0.05) as prof:
                prof.set_setting("g", "k", 1)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with open_profile(path) as prof:
        assert prof.get_setting("g", "k") is None


# -- the command ---------------------------------------------------------------------------


def test_profile_command_shows_text_and_json(cli, private_profile_home: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("profile")
    assert result.code == 0 and "rating 1000, 0 rated games" in result.out and "no rated games yet" in result.out
    with open_profile() as prof:
        prof.set_name("Ada")
        prof.start_rated("m", game="g", opponent="skill-50", opponent_rating=1400, skill=50)
        prof.finish_rated("m", 1.0)
        prof.start_rated("n", game="g", opponent="Bob", opponent_rating=1000)
    result = cli("profile")
    assert result.code == 0
    assert "Ada: rating 1015, 1 rated game" in result.out
    assert "under way: g against Bob" in result.out
    assert "skill-50" in result.out and "win" in result.out and "+14.5" in result.out
    data = json.loads(cli("profile", "--json").out)
    assert data["name"] == "Ada" and data["games"] == 1 and data["pending"]["opponent"] == "Bob"
    assert data["history"][0]["skill"] == 50 and data["history"][0]["rating_before"] == 1000
    assert data["path"] == str(private_profile_home / store.FILE_NAME)


def test_profile_reset_asks_first(cli, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    with open_profile() as prof:
        prof.start_rated("m", game="g", opponent="Bob", opponent_rating=1000)
        prof.finish_rated("m", 1.0)
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    result = cli("profile", "reset")
    assert result.code == 1 and "unchanged" in result.out
    with open_profile() as prof:
        assert prof.games == 1
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    assert cli("profile", "reset").code == 0
    with open_profile() as prof:
        assert (prof.games, prof.rating) == (0, 1000.0)
        prof.start_rated("m2", game="g", opponent="Bob", opponent_rating=1000)
        prof.finish_rated("m2", 1.0)
    result = cli("profile", "reset", "--yes")
    assert result.code == 0 and "profile reset" in result.out
    with open_profile() as prof:
        assert prof.games == 0


@pytest.mark.parametrize("kind", ["garbage", "newer"])
def test_profile_command_on_a_bad_file_is_one_line(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:  # type: ignore[no-untyped-def]
    path = _bad_files(tmp_path)[kind]
    home = tmp_path / "home"
    home.mkdir()
    target = home / store.FILE_NAME
    target.write_bytes(path.read_bytes())
    monkeypatch.setenv("PEGBOARD_HOME", str(home))
    before = target.read_bytes()
    for args in (["profile"], ["profile", "--json"], ["profile", "reset", "--yes"]):
        result = cli(*args)
        assert result.code == 1
        assert len(result.err_lines) == 1 and result.err_lines[0].startswith("error: ")
        assert "Traceback" not in result.err
    assert target.read_bytes() == before


def test_profile_command_on_a_locked_file(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    home = tmp_path / "home"
    monkeypatch.setenv("PEGBOARD_HOME", str(home))
    monkeypatch.setattr(store, "DEFAULT_TIMEOUT", 0.05)
    open_profile().close()
    holder = sqlite3.connect(home / store.FILE_NAME, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        result = cli("profile", "reset", "--yes")
        assert result.code == 1 and result.err_lines == [
            f"error: the profile {home / store.FILE_NAME} is locked by another program; try again when it is done"
        ]
    finally:
        holder.execute("ROLLBACK")
        holder.close()
