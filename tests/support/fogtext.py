"""Checks that a Starfall text tells a seat nothing out of its sight (the fog tests share them).

A text may name a square ("e5") only if the seat saw it; a sentence that tells a star colour
or one of the other side's drones must say where (a square the seat saw), never just that.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

SQUARE = re.compile(r"\b([a-k])(1[01]|[1-9])\b")
COLOURS = re.compile(r"\b(red|yellow|green|blue|violet)\b(?! raider| squares)")
_DRONES = r"(?:\w+ )?(scout|shield|raider|hunter|warp|siege|bomb|turret)s?\b"
SIDES = ("South", "North")


def squares_named(text: str) -> set[int]:
    """The squares ``text`` names (an 11 × 11 board: a1 is 0, k11 is 120)."""
    return {(int(row) - 1) * 11 + ord(col) - ord("a") for col, row in SQUARE.findall(text)}


def sentences(text: str) -> Iterable[str]:
    return (s for s in re.split(r"(?<=[.:;!?])\s+|\n", text) if s.strip())


def check_text(text: str, allowed: set[int], where: str, *, seat: int = 0, secret: str | None = None) -> None:
    """``text``, read by ``seat``, names only ``allowed`` squares, and a star colour or the other
    side's drone only with a square; ``secret`` (a seed, say) never shows."""
    other = SIDES[1 - seat]
    drone = re.compile(rf"\b{other}(?:'s)? {_DRONES}")
    bad = squares_named(text) - allowed
    assert not bad, f"{where}: {text!r} names squares {SIDES[seat]} could not see: {sorted(bad)}"
    checked = 0
    for sentence in sentences(text):
        checked += 1
        if COLOURS.search(sentence) or drone.search(sentence):
            assert squares_named(sentence), f"{where}: {sentence!r} tells a colour or a {other} drone without a square"
    assert checked >= 1 or not text.strip()
    assert secret is None or secret not in text, f"{where}: {text!r} shows the secret"


__all__ = ["COLOURS", "SQUARE", "check_text", "sentences", "squares_named"]
