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

PROTOCOL = 2
"""Bumped when a message changes incompatibly; the server refuses other versions
(2: a hello carries the name's secret; the list is by game and paged)."""

from pegboard.errors import ProtocolError
from pegboard.online import DEFAULT_LOBBY as DEFAULT_LOBBY  # re-exported
from pegboard.online import DEFAULT_PORT as DEFAULT_PORT

MAX_MESSAGE_BYTES = 256 * 1024
"""Largest frame any side reads (a lobby's own limit, ``--max-message``, is lower by default:
a Node War state is ~28 KB, a fogged 11 x 11 Starfall state ~12 KB)."""
MAX_MOVE_BYTES = 4096
"""Largest encoded move a host accepts from a guest."""
MAX_NAME = 24
MAX_DEPTH = 32
"""Deepest nesting of objects and lists a message may have (a real one needs under 10)."""
MAX_SETTINGS = 400
"""Longest settings line a waiting player may show on the list."""
MAX_GUEST_RELAY_BYTES = 16 * 1024
"""Largest relay a guest may send (its messages are a move and a token, far below this)."""
SECRET_BYTES = 32
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""Letters of a lobby code: no I or O, which read like 1 and 0 when said aloud."""
CODE_LENGTH = 4

_GAME_ID = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")
_RULESET = re.compile(r"^[A-Za-z0-9_./:-]{1,80}$")
_SECRET = re.compile(r"^[A-Za-z0-9_-]+$")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


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
    # A text frame is valid UTF-8, which cannot hold a surrogate: only a \\uD800-\\uDFFF escape can
    # make one, so without such an escape only the depth needs checking.
    check_tree(data, text=_SURROGATE_ESCAPE.search(frame) is not None)
    kind = data.get("t")
    if not isinstance(kind, str) or not kind:
        raise ProtocolError("a message needs a type in 't'")
    return data


def check_tree(value: Any, *, text: bool = True) -> None:
    """Refuse a decoded message nested deeper than :data:`MAX_DEPTH` or holding text that is not
    valid Unicode (a lone surrogate such as ``"\\ud800"`` decodes, but cannot be encoded again).

    Iterative, so a hostile depth cannot exhaust the stack; every key and string is checked once.
    ``text=False`` skips the Unicode check (:func:`decode` knows when no string can hold one).
    """
    if text and isinstance(value, str):
        _check_unicode(value)
    stack: list[tuple[Any, int]] = [(value, 1)] if isinstance(value, (dict, list)) else []
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ProtocolError(f"a message may be nested at most {MAX_DEPTH} levels deep")
        if isinstance(item, dict):
            if text:
                for key in item:
                    _check_unicode(key)
            children = item.values()
        else:
            children = item
        for child in children:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
            elif text and isinstance(child, str):
                _check_unicode(child)


def _check_unicode(text: str) -> None:
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError("text in a message must be valid Unicode (a lone surrogate is not)") from None


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


def new_secret() -> str:
    """A player's name secret (256 random bits), made once and kept by its program."""
    return secrets.token_urlsafe(SECRET_BYTES)


def new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def same_secret(given: Any, expected: str) -> bool:
    """Constant-time comparison (a wrong guess takes as long as a near miss)."""
    return isinstance(given, str) and hmac.compare_digest(given.encode(), expected.encode())


def check_name(name: Any) -> str:
    """A player name: 1-24 printable characters, spaces trimmed and runs of them made one."""
    if not isinstance(name, str) or len(name) > 4 * MAX_NAME:
        raise ProtocolError(f"a name is text of 1 to {MAX_NAME} characters")
    text = " ".join(part for part in unicodedata.normalize("NFC", name).split(" ") if part)
    if not 1 <= len(text) <= MAX_NAME:
        raise ProtocolError(f"a name has 1 to {MAX_NAME} characters")
    if any(unicodedata.category(ch).startswith(("C", "Z")) and ch != " " for ch in text):
        raise ProtocolError("a name may not hold control characters or special spaces")
    return text


def check_line(text: Any, what: str, limit: int) -> str:
    """One line of text a person reads (a settings line): at most ``limit`` characters, no
    control characters or line breaks."""
    if not isinstance(text, str) or len(text) > limit:
        raise ProtocolError(f"{what}: a line of at most {limit} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") for ch in text):
        raise ProtocolError(f"{what}: no control characters or line breaks")
    return text


def check_secret(secret: Any) -> str:
    """A name secret as a client sends it: URL-safe text of 32 to 64 characters."""
    if not isinstance(secret, str) or not 32 <= len(secret) <= 64 or not _SECRET.match(secret):
        raise ProtocolError("this lobby needs the name's secret in the hello: update Pegboard")
    return secret


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
