"""Where an online match is kept on disk, so a killed program can pick it up again.

Each match has a *ticket* (``<match>.ticket.json``, readable by its owner only):
the role, the lobby, the seat tokens and the names. The host also keeps the
match record (``<match>.match.json``), rewritten after every move through
:func:`pegboard.records.files.write_record`. Both live in ``online/`` under the
Pegboard home folder (:func:`pegboard.ratings.profile.profile_home`: ``$PEGBOARD_HOME``,
else the user data folder), beside the profile.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

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


def _safe(match: str) -> str:
    """Match ids are URL-safe base64 already; this keeps a hostile one out of other folders."""
    return "".join(ch for ch in match if ch.isalnum() or ch in "-_")[:64] or "match"
