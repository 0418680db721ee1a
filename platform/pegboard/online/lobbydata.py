"""What a lobby keeps on disk (``lobby.sqlite`` in its data folder): claimed names and open rooms.

- **names**: a name's folded key (:func:`.names.name_key`) → the name as first
  written, a SHA-256 of its owner's secret, when it was claimed and last used.
  Secrets are 256 random bits made by the owner's program, so a plain hash is
  enough: no secret is ever stored.
- **rooms**: every match the lobby paired and not yet closed: its id, game, a
  SHA-256 of each seat's token and when it was last used. After a restart the
  lobby knows the matches it paired and checks every rejoin against them.

``folder=None`` keeps all of it in memory (tests, a throw-away lobby).
Writes are small and few (one per pairing, claim or room closed); SQLite runs in
WAL mode so they stay cheap.
"""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from pegboard.errors import PegboardError

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS names (key TEXT PRIMARY KEY, name TEXT NOT NULL, secret_hash TEXT NOT NULL,
                                  claimed REAL NOT NULL, seen REAL NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (match TEXT PRIMARY KEY, game TEXT NOT NULL, host_hash TEXT NOT NULL,
                                  guest_hash TEXT NOT NULL, touched REAL NOT NULL);
"""


def digest(secret: str) -> str:
    """The stored form of a secret or token."""
    return hashlib.sha256(secret.encode()).hexdigest()


def same_digest(secret: str, stored: str) -> bool:
    """Does ``secret`` hash to ``stored``? (constant time)"""
    return hmac.compare_digest(digest(secret), stored)


@dataclass(frozen=True)
class StoredRoom:
    """A room as the data folder keeps it."""

    match: str
    game: str
    host_hash: str
    guest_hash: str
    touched: float


class LobbyData:
    """The lobby's database (see the module docstring). Raises :class:`PegboardError` with one
    readable line when the folder cannot hold it."""

    def __init__(self, folder: str | Path | None) -> None:
        self.path: Path | None = None
        target = ":memory:"
        if folder is not None:
            self.path = Path(folder).expanduser() / "lobby.sqlite"
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise PegboardError(f"cannot use {self.path.parent} as the lobby's data folder: {exc.strerror}") from None
            target = str(self.path)
        try:
            self.db = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            version = int(self.db.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise PegboardError(f"{self.path} was written by a newer Pegboard: update this one")
            self.db.executescript(_SCHEMA)
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error as exc:
            raise PegboardError(f"cannot use {self.path or 'the lobby database'}: {exc}") from None

    # -- names --------------------------------------------------------------------------------

    def name_owner(self, key: str) -> tuple[str, str] | None:
        """(the name as claimed, its secret's hash) for a folded key, or None if free."""
        row = self.db.execute("SELECT name, secret_hash FROM names WHERE key = ?", (key,)).fetchone()
        return (str(row[0]), str(row[1])) if row else None

    def claim(self, key: str, name: str, secret: str) -> None:
        now = time.time()
        self.db.execute("INSERT INTO names VALUES (?, ?, ?, ?, ?)", (key, name, digest(secret), now, now))

    def seen(self, key: str) -> None:
        self.db.execute("UPDATE names SET seen = ? WHERE key = ?", (time.time(), key))

    def release_names(self, older_than_days: float) -> int:
        """Forget names nobody used for ``older_than_days``; returns how many."""
        cutoff = time.time() - older_than_days * 86400.0
        return self.db.execute("DELETE FROM names WHERE seen < ?", (cutoff,)).rowcount

    # -- rooms --------------------------------------------------------------------------------

    def add_room(self, match: str, game: str, host_hash: str, guest_hash: str) -> None:
        """Keep a room the lobby paired: its id, game and the :func:`digest` of each seat's token."""
        self.db.execute("INSERT OR REPLACE INTO rooms VALUES (?, ?, ?, ?, ?)", (match, game, host_hash, guest_hash, time.time()))

    def touch_rooms(self, matches: list[str]) -> None:
        """Mark rooms as used now (one transaction for all of them)."""
        if not matches:
            return
        now = time.time()
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany("UPDATE rooms SET touched = ? WHERE match = ?", [(now, m) for m in matches])

    def drop_room(self, match: str) -> None:
        self.db.execute("DELETE FROM rooms WHERE match = ?", (match,))

    def rooms(self, ttl: float) -> list[StoredRoom]:
        """The rooms used within ``ttl`` seconds (older ones are deleted)."""
        self.db.execute("DELETE FROM rooms WHERE touched < ?", (time.time() - ttl,))
        rows = self.db.execute("SELECT match, game, host_hash, guest_hash, touched FROM rooms").fetchall()
        return [StoredRoom(str(m), str(g), str(h), str(gh), float(t)) for m, g, h, gh, t in rows]

    def close(self) -> None:
        self.db.close()
