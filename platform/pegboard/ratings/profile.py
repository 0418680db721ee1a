"""The local player profile: name, rating, rated-game history and per-game settings.

One SQLite file (standard library ``sqlite3``) in the user's data folder, or in
``$PEGBOARD_HOME`` when that is set (tests point it at a temporary folder):

- Linux and others: ``$XDG_DATA_HOME/pegboard`` (``~/.local/share/pegboard``);
- macOS: ``~/Library/Application Support/Pegboard``;
- Windows: ``%APPDATA%\\Pegboard``.

The file is in WAL mode and every change is one ``BEGIN IMMEDIATE`` transaction, so two
processes writing the same profile queue up instead of losing or corrupting a row: a
rated game's result reads the rating it updates inside the transaction that writes it.

Rated games are keyed by a match id chosen by the caller (a window, an online session):
:meth:`Profile.start_rated` marks one as under way, :meth:`Profile.finish_rated` records
it. Both are idempotent, so a reconnect that repeats them records nothing twice. Starting
a rated game while another is still under way records the old one as a loss first.

A file this module cannot read (not SQLite, damaged, a newer schema, locked by another
program) raises :class:`ProfileError` and is never touched: it is opened read-only to be
checked before anything writes to it, and never recreated.

The core never names a game: settings and history rows carry whatever game id the caller
gives.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pegboard.errors import ProfileError
from pegboard.ratings import elo as ratings

#: The layout of the file; bumped (with a migration) whenever the tables change.
SCHEMA_VERSION = 1
FILE_NAME = "profile.sqlite3"
#: Seconds a write waits for another process's transaction before giving up.
DEFAULT_TIMEOUT = 5.0
DEFAULT_NAME = "Player"

_SCHEMA = """
CREATE TABLE player (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    rating REAL NOT NULL,
    games INTEGER NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    date TEXT NOT NULL,
    opponent TEXT NOT NULL,
    skill INTEGER,
    opponent_rating REAL NOT NULL,
    weight REAL NOT NULL,
    gap REAL,
    result REAL NOT NULL,
    reason TEXT NOT NULL,
    rating_before REAL NOT NULL,
    rating_after REAL NOT NULL
);
CREATE TABLE pending (
    match_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    started TEXT NOT NULL,
    opponent TEXT NOT NULL,
    skill INTEGER,
    opponent_rating REAL NOT NULL,
    weight REAL NOT NULL,
    gap REAL
);
CREATE TABLE settings (
    game TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game, key)
);
"""
_TABLES = {"player", "history", "pending", "settings"}


def profile_home() -> Path:
    """The folder holding the profile: ``$PEGBOARD_HOME``, else the user's data folder."""
    override = os.environ.get("PEGBOARD_HOME")
    if override:
        return Path(override).expanduser()
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming") / "Pegboard"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "Pegboard"
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "pegboard"


def profile_path() -> Path:
    """The profile file used when no path is given."""
    return profile_home() / FILE_NAME


@dataclass(frozen=True)
class HistoryRow:
    """One rated game as recorded."""

    match_id: str
    game: str
    date: str  #: ISO 8601, UTC
    opponent: str  #: a bot id or a person's name
    skill: int | None  #: the bot's skill; None against a person
    opponent_rating: float
    weight: float  #: share of the full Elo change (skill / 100 against a bot)
    gap: float | None  #: the gap a handicap left, when the game had one
    result: float  #: 1 win, 0.5 draw, 0 loss
    reason: str  #: "played", or "abandoned" when a new game replaced it
    rating_before: float
    rating_after: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class PendingGame:
    """A rated game started and not yet recorded."""

    match_id: str
    game: str
    started: str
    opponent: str
    skill: int | None
    opponent_rating: float
    weight: float
    gap: float | None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _explain(path: Path, exc: sqlite3.Error) -> ProfileError:
    text = str(exc)
    if "locked" in text or "busy" in text:
        return ProfileError(f"the profile {path} is locked by another program; try again when it is done")
    if isinstance(exc, sqlite3.DatabaseError) and ("not a database" in text or "malformed" in text or "corrupt" in text):
        return ProfileError(f"the profile {path} is damaged ({text}); it was left as it is")
    return ProfileError(f"cannot use the profile {path}: {text}")


class Profile:
    """An open profile. Use :func:`open_profile`; close it (or use ``with``) when done."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection

    # -- opening -------------------------------------------------------------------------

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Profile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken before reading what it updates."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _explain(self.path, exc) from None
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            self._db.execute("ROLLBACK")
            raise _explain(self.path, exc) from None

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        try:
            return list(self._db.execute(sql, args))
        except sqlite3.Error as exc:
            raise _explain(self.path, exc) from None

    # -- the player ----------------------------------------------------------------------

    @property
    def name(self) -> str:
        return str(self._read("SELECT name FROM player")[0]["name"])

    @property
    def rating(self) -> float:
        return float(self._read("SELECT rating FROM player")[0]["rating"])

    @property
    def games(self) -> int:
        """Rated games recorded."""
        return int(self._read("SELECT games FROM player")[0]["games"])

    def set_name(self, name: str) -> None:
        name = name.strip()
        if not name:
            raise ProfileError("a player name cannot be empty")
        with self._write() as db:
            db.execute("UPDATE player SET name = ?", (name,))

    def history(self, limit: int | None = None) -> list[HistoryRow]:
        """Rated games, newest first."""
        sql = "SELECT * FROM history ORDER BY id DESC" + (" LIMIT ?" if limit is not None else "")
        rows = self._read(sql, (limit,) if limit is not None else ())
        return [_history_row(row) for row in rows]

    def pending(self) -> PendingGame | None:
        """The rated game under way, if any."""
        rows = self._read("SELECT * FROM pending ORDER BY started, match_id")
        return _pending_row(rows[0]) if rows else None

    def summary(self) -> dict[str, Any]:
        """Everything ``pegboard profile --json`` prints."""
        pending = self.pending()
        return {
            "path": str(self.path),
            "schema_version": SCHEMA_VERSION,
            "name": self.name,
            "rating": self.rating,
            "games": self.games,
            "pending": pending.to_json() if pending else None,
            "history": [row.to_json() for row in self.history()],
        }

    def reset(self) -> None:
        """Back to a new player's rating: history and any game under way are forgotten.

        The name and the per-game settings are kept.
        """
        with self._write() as db:
            db.execute("DELETE FROM history")
            db.execute("DELETE FROM pending")
            db.execute("UPDATE player SET rating = ?, games = 0", (ratings.START_RATING,))

    # -- rated games ---------------------------------------------------------------------

    def start_rated(
        self,
        match_id: str,
        *,
        game: str,
        opponent: str,
        opponent_rating: float,
        skill: int | None = None,
        weight: float | None = None,
        gap: float | None = None,
    ) -> list[HistoryRow]:
        """Mark the rated game ``match_id`` as under way.

        ``opponent`` is a bot id (give its ``skill``; the rating and weight then default to
        :func:`pegboard.ratings.elo.bot_rating` / :func:`~pegboard.ratings.elo.bot_weight` when
        passed as such) or a person's name (no skill, weight 1). ``gap`` is the rating gap
        (player minus opponent) a handicap left, if the game had one. Any other rated game
        still under way is recorded as a loss first; those rows are returned. Starting a
        game already started or already recorded does nothing (a reconnect).
        """
        if not match_id:
            raise ProfileError("a rated game needs a match id")
        if weight is None:
            weight = ratings.bot_weight(skill) if skill is not None else 1.0
        if not 0.0 <= weight <= 1.0:
            raise ProfileError(f"a rating weight is between 0 and 1, not {weight}")
        forfeits: list[HistoryRow] = []
        with self._write() as db:
            if db.execute("SELECT 1 FROM history WHERE match_id = ?", (match_id,)).fetchone():
                return []
            if db.execute("SELECT 1 FROM pending WHERE match_id = ?", (match_id,)).fetchone():
                return []
            for row in db.execute("SELECT * FROM pending ORDER BY started, match_id").fetchall():
                forfeits.append(self._record(db, _pending_row(row), ratings.LOSS, "abandoned"))
            db.execute(
                "INSERT INTO pending VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (match_id, game, _now(), opponent, skill, float(opponent_rating), float(weight), gap),
            )
        return forfeits

    def finish_rated(self, match_id: str, score: float) -> HistoryRow:
        """Record the rated game ``match_id`` with the player's ``score`` (1, 0.5, 0).

        Returns the history row. Finishing a game already recorded returns its row and
        changes nothing (a reconnect may report the end twice); finishing a game never
        started raises :class:`ProfileError`. A loss by leaving is ``score=0``.
        """
        if not 0.0 <= score <= 1.0:
            raise ProfileError(f"a score is between 0 and 1, not {score}")
        with self._write() as db:
            done = db.execute("SELECT * FROM history WHERE match_id = ?", (match_id,)).fetchone()
            if done is not None:
                return _history_row(done)
            row = db.execute("SELECT * FROM pending WHERE match_id = ?", (match_id,)).fetchone()
            if row is None:
                raise ProfileError(f"no rated game {match_id!r} was started in this profile")
            return self._record(db, _pending_row(row), score, "played")

    def _record(self, db: sqlite3.Connection, game: PendingGame, score: float, reason: str) -> HistoryRow:
        before = float(db.execute("SELECT rating FROM player").fetchone()["rating"])
        after = ratings.update(before, game.opponent_rating, score, weight=game.weight, gap=game.gap).after
        row = HistoryRow(
            match_id=game.match_id, game=game.game, date=_now(), opponent=game.opponent, skill=game.skill,
            opponent_rating=game.opponent_rating, weight=game.weight, gap=game.gap, result=score, reason=reason,
            rating_before=before, rating_after=after,
        )
        db.execute(
            "INSERT INTO history (match_id, game, date, opponent, skill, opponent_rating, weight, gap, result, reason,"
            " rating_before, rating_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (row.match_id, row.game, row.date, row.opponent, row.skill, row.opponent_rating, row.weight, row.gap,
             row.result, row.reason, row.rating_before, row.rating_after),
        )
        db.execute("DELETE FROM pending WHERE match_id = ?", (game.match_id,))
        db.execute("UPDATE player SET rating = ?, games = games + 1", (after,))
        return row

    # -- per-game settings ---------------------------------------------------------------

    def get_setting(self, game: str, key: str, default: Any = None) -> Any:
        """A stored setting (any JSON value), or ``default`` when there is none."""
        rows = self._read("SELECT value FROM settings WHERE game = ? AND key = ?", (game, key))
        if not rows:
            return default
        try:
            return json.loads(rows[0]["value"])
        except ValueError:
            return default

    def set_setting(self, game: str, key: str, value: Any) -> None:
        """Store a setting; ``value`` must be JSON-serialisable."""
        try:
            text = json.dumps(value, allow_nan=False, sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise ProfileError(f"setting {game}/{key} is not a JSON value: {exc}") from None
        with self._write() as db:
            db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?, ?)", (game, key, text))

    def settings(self, game: str) -> dict[str, Any]:
        """Every stored setting of one game."""
        found: dict[str, Any] = {}
        for row in self._read("SELECT key, value FROM settings WHERE game = ? ORDER BY key", (game,)):
            try:
                found[row["key"]] = json.loads(row["value"])
            except ValueError:
                continue
        return found


def _history_row(row: sqlite3.Row) -> HistoryRow:
    return HistoryRow(
        match_id=row["match_id"], game=row["game"], date=row["date"], opponent=row["opponent"], skill=row["skill"],
        opponent_rating=row["opponent_rating"], weight=row["weight"], gap=row["gap"], result=row["result"],
        reason=row["reason"], rating_before=row["rating_before"], rating_after=row["rating_after"],
    )


def _pending_row(row: sqlite3.Row) -> PendingGame:
    return PendingGame(
        match_id=row["match_id"], game=row["game"], started=row["started"], opponent=row["opponent"],
        skill=row["skill"], opponent_rating=row["opponent_rating"], weight=row["weight"], gap=row["gap"],
    )


def _check_existing(path: Path, timeout: float) -> None:
    """Read-only look at an existing file: a profile this version can open, or an error.

    A read-only connection to a WAL-mode file makes its ``-wal``/``-shm`` side files and cannot
    remove them; when the file is refused, the side files this look made are removed again.
    """
    side_files = [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]
    made_here = [side for side in side_files if not side.exists()]
    try:
        _look(path, timeout)
    except ProfileError:
        for side in made_here:
            side.unlink(missing_ok=True)
        raise


def _look(path: Path, timeout: float) -> None:
    uri = path.resolve().as_uri() + "?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True, timeout=timeout)
    except sqlite3.Error as exc:
        raise _explain(path, exc) from None
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error as exc:
        raise _explain(path, exc) from None
    finally:
        db.close()
    if version > SCHEMA_VERSION:
        raise ProfileError(
            f"the profile {path} was written by a newer Pegboard (schema {version}; this one reads up to"
            f" {SCHEMA_VERSION}); it was left as it is"
        )
    if version == 0 and not tables and path.stat().st_size == 0:
        return  # an empty file (made by touch): set it up
    if version != SCHEMA_VERSION or not _TABLES <= tables:
        raise ProfileError(f"{path} is not a Pegboard profile (it holds other data); it was left as it is")


def open_profile(path: Path | str | None = None, *, timeout: float | None = None) -> Profile:
    """Open the profile at ``path`` (default :func:`profile_path`), creating it if missing.

    ``timeout`` is how long to wait for another process's write (default
    :data:`DEFAULT_TIMEOUT`). Raises :class:`ProfileError` for a file that is not a
    usable profile, without changing it.
    """
    target = Path(path) if path is not None else profile_path()
    timeout = DEFAULT_TIMEOUT if timeout is None else timeout
    if target.is_dir():
        raise ProfileError(f"the profile {target} is a folder, not a file")
    existed = target.exists()
    if existed:
        _check_existing(target, timeout)
    else:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ProfileError(f"cannot create the profile folder {target.parent}: {exc.strerror or exc}") from None
    try:
        db = sqlite3.connect(str(target), timeout=timeout, isolation_level=None)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
    except sqlite3.Error as exc:
        raise _explain(target, exc) from None
    profile = Profile(target, db)
    try:
        with profile._write() as conn:
            if int(conn.execute("PRAGMA user_version").fetchone()[0]) == 0:
                # Two processes may both see a new file: the second waits here, then finds it made.
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(
                    "INSERT INTO player VALUES (1, ?, ?, 0, ?)", (DEFAULT_NAME, ratings.START_RATING, _now())
                )
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        db.close()
        raise
    return profile
