"""The online wire format: JSON text frames, one object each, with a type in ``"t"``.

Every message the lobby server, a host and a guest exchange is listed in
docs/online.md ("What travels over the wire"). This module holds the limits,
the checks every side runs on what it receives, and the secrets helpers; it
does no I/O.
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
import unicodedata
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

PROTOCOL = 1
"""Bumped when a message changes incompatibly; the server refuses other versions."""

from pegboard.errors import ProtocolError
from pegboard.online import DEFAULT_LOBBY as DEFAULT_LOBBY  # re-exported
from pegboard.online import DEFAULT_PORT as DEFAULT_PORT

MAX_MESSAGE_BYTES = 256 * 1024
"""Largest frame the server accepts or relays (a fogged 11 x 11 Starfall state is ~12 KB)."""
MAX_MOVE_BYTES = 4096
"""Largest encoded move a host accepts from a guest."""
MAX_NAME = 24
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""Letters of a lobby code: no I or O, which read like 1 and 0 when said aloud."""
CODE_LENGTH = 4

_GAME_ID = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
_RULESET = re.compile(r"^[A-Za-z0-9_./:-]{1,80}$")


def encode(message: Mapping[str, Any]) -> str:
    """A message as one compact JSON text frame."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def decode(frame: str | bytes) -> dict[str, Any]:
    """A received frame as a message; raises :class:`ProtocolError` for anything else."""
    if isinstance(frame, bytes):
        raise ProtocolError("binary frames are not accepted: send JSON text")
    if len(frame) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message over {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError):
        raise ProtocolError("not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object")
    kind = data.get("t")
    if not isinstance(kind, str) or not kind:
        raise ProtocolError("a message needs a type in 't'")
    return data


def field(message: Mapping[str, Any], name: str, kind: type | tuple[type, ...], *, optional: bool = False) -> Any:
    """``message[name]`` if it has type ``kind``; raises :class:`ProtocolError` otherwise."""
    value = message.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and bool not in _as_tuple(kind):
        raise ProtocolError(f"'{name}' is missing or has the wrong type")
    return value


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def new_token() -> str:
    """A fresh secret: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_match_id() -> str:
    return secrets.token_urlsafe(12)


def new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def same_secret(given: Any, expected: str) -> bool:
    """Constant-time comparison (a wrong guess takes as long as a near miss)."""
    return isinstance(given, str) and hmac.compare_digest(given.encode(), expected.encode())


def check_name(name: Any) -> str:
    """A player name: 1-24 printable characters, spaces trimmed."""
    if not isinstance(name, str):
        raise ProtocolError("a name is text")
    text: str = unicodedata.normalize("NFC", name).strip()
    if not 1 <= len(text) <= MAX_NAME:
        raise ProtocolError(f"a name has 1 to {MAX_NAME} characters")
    if any(unicodedata.category(ch).startswith(("C", "Z")) and ch != " " for ch in text):
        raise ProtocolError("a name may not hold control characters")
    return text


def check_game_id(game: Any) -> str:
    if not isinstance(game, str) or not _GAME_ID.match(game):
        raise ProtocolError("not a game id")
    return game


def check_ruleset_label(label: Any) -> str:
    if not isinstance(label, str) or not _RULESET.match(label):
        raise ProtocolError("not a ruleset id")
    return label


def check_rating(rating: Any) -> float | None:
    if rating is None:
        return None
    if isinstance(rating, bool) or not isinstance(rating, (int, float)) or not 0 <= rating <= 10_000:
        raise ProtocolError("a rating is a number from 0 to 10000")
    return float(rating)


def normalise_code(text: Any) -> str:
    """A typed code in canonical form ("abcd", " AB CD " -> "ABCD"); raises :class:`ProtocolError`."""
    if not isinstance(text, str):
        raise ProtocolError("a code is 4 letters")
    code = "".join(text.split()).upper()
    if len(code) != CODE_LENGTH or any(ch not in CODE_LETTERS for ch in code):
        raise ProtocolError(f"{text.strip()!r} is not a lobby code (4 letters, no I or O)")
    return code


def check_lobby_url(url: str) -> str:
    """A ``ws://`` or ``wss://`` URL with a host; raises :class:`ProtocolError` naming the problem."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise ProtocolError(f"bad lobby URL {url!r}: {exc}") from None
    if parts.scheme not in ("ws", "wss"):
        raise ProtocolError(f"bad lobby URL {url!r}: it must start with ws:// or wss://")
    if not parts.hostname:
        raise ProtocolError(f"bad lobby URL {url!r}: no host")
    del port
    return url


def size_of(value: Any) -> int:
    """Bytes of ``value`` as compact JSON (for the per-field limits)."""
    return len(encode({"v": value}).encode()) - 6
