"""Where online play is kept on disk: matches, so a killed program can pick them up again,
and the secret that claims this player's names on lobbies.

Each match has a *ticket* (``<match>.ticket.json``, readable by its owner only):
the role, the lobby, the seat tokens and the names. The host also keeps the
match record (``<match>.match.json``), rewritten after every move through
:func:`pegboard.records.files.write_record`. Both live in ``online/`` under the
Pegboard home folder (:func:`pegboard.ratings.profile.profile_home`: ``$PEGBOARD_HOME``,
else the user data folder), beside the profile.

``identity.key`` (readable by its owner only) holds 256 random bits made the first
time this player goes online. A lobby gets, for each name, a secret derived from it
and the lobby's address (:meth:`Store.name_secret`): the lobby keeps a hash of that
secret, so the name stays this player's there, and one lobby's operator learns
nothing that works on another lobby.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pegboard.errors import PegboardError
from pegboard.online import protocol as p
from pegboard.ratings.profile import profile_home
from pegboard.records.files import write_text_atomic


@dataclass
class Ticket:
    """What one side must remember to come back to a match.

    ``role`` is ``host`` or ``guest``; ``seat`` is this side's seat; ``token`` its
    secret; ``guest_token`` is known to the host only. ``names`` and ``ratings`` are
    per seat. ``finished`` is set once the result is known (and recorded).
    """

    match: str
    role: str
    lobby: str
    game: str
    seat: int
    token: str
    names: list[str]
    ratings: list[float | None] = field(default_factory=list)
    guest_token: str | None = None
    ruleset: str = ""
    finished: bool = False
    counted: bool = False
    """True once the result went into the local profile (a resumed match never counts twice)."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ticket:
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class Store:
    """The ``online/`` folder: tickets and host records, one pair per match."""

    def __init__(self, folder: str | Path | None = None) -> None:
        self.folder = Path(folder) if folder is not None else profile_home() / "online"

    def ticket_path(self, match: str) -> Path:
        return self.folder / f"{_safe(match)}.ticket.json"

    def record_path(self, match: str) -> Path:
        return self.folder / f"{_safe(match)}.match.json"

    def name_secret(self, lobby: str, name: str) -> str:
        """The secret that claims ``name`` on ``lobby`` (the same every time; see the module docstring)."""
        message = f"{lobby.strip().rstrip('/').lower()}\n{name}".encode()
        return hmac.new(self._identity(), message, hashlib.sha256).hexdigest()

    def _identity(self) -> bytes:
        path = self.folder / "identity.key"
        for _ in range(2):
            try:
                return _read_identity(path)
            except FileNotFoundError:
                pass
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                draft = self.folder / f".identity.{os.getpid()}.tmp"
                fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "w", encoding="ascii") as handle:
                    handle.write(p.new_secret() + "\n")
                try:
                    os.link(draft, path)  # whole or not at all; a second program racing us keeps ours
                except FileExistsError:
                    pass
                finally:
                    draft.unlink()
            except OSError as exc:
                raise PegboardError(f"cannot keep the online identity in {path}: {exc.strerror}") from None
        return _read_identity(path)

    def save(self, ticket: Ticket) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = write_text_atomic(self.ticket_path(ticket.match), json.dumps(ticket.to_json(), indent=2) + "\n")
        try:
            path.chmod(0o600)  # it holds the seat tokens
        except OSError:
            pass
        return path

    def load(self, match: str) -> Ticket | None:
        try:
            return Ticket.from_json(json.loads(self.ticket_path(match).read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            return None

    def unfinished(self, game: str | None = None) -> list[Ticket]:
        """Tickets of matches not over yet (newest first), optionally of one game."""
        if not self.folder.is_dir():
            return []
        found: list[tuple[float, Ticket]] = []
        for path in self.folder.glob("*.ticket.json"):
            try:
                ticket = Ticket.from_json(json.loads(path.read_text(encoding="utf-8")))
                stamp = path.stat().st_mtime
            except (OSError, ValueError, TypeError):
                continue
            if not ticket.finished and (game is None or ticket.game == game):
                found.append((stamp, ticket))
        return [t for _, t in sorted(found, key=lambda pair: -pair[0])]


def _read_identity(path: Path) -> bytes:
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError) as exc:
        raise PegboardError(f"cannot read the online identity in {path}: {exc}") from None
    if len(text) < 40:
        raise PegboardError(f"{path} is damaged: move it away to make a new identity (your names on lobbies go with it)")
    return text.encode()


def _safe(match: str) -> str:
    """Match ids are URL-safe base64 already; this keeps a hostile one out of other folders."""
    return "".join(ch for ch in match if ch.isalnum() or ch in "-_")[:64] or "match"
