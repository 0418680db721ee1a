"""Player names compared the way people read them: look-alikes are the same name.

:func:`name_key` folds a name to a key that two confusable names share
("Ann", "ANN", a Cyrillic "Аnn", "Аnn" in fullwidth letters, "B0b" and "Bob").
The lobby stores a claimed name under its key, so a look-alike of a claimed
name is taken too.

The folding follows the *skeleton* of Unicode Technical Standard #39: each
character is replaced by the prototype of its confusable class, using the
Unicode Consortium's confusables data as shipped by the ``confusable_homoglyphs``
package (its documented :func:`~confusable_homoglyphs.confusables.is_confusable`
lists a character's homoglyphs). Before and after it: NFKC (compatibility forms
such as fullwidth letters) and case folding. The package is imported on first
use: only a lobby needs it.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

_MARK = "\u200e"  # the data wraps right-to-left homoglyphs in left-to-right marks


def name_key(name: str) -> str:
    """The folded form of ``name`` (a checked name: see :func:`.protocol.check_name`)."""
    text = _skeleton(unicodedata.normalize("NFKC", name))
    text = _skeleton(text.casefold())
    return " ".join(text.split())


def _skeleton(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(_prototype(ch) for ch in decomposed))


@lru_cache(maxsize=4096)
def _prototype(ch: str) -> str:
    """The prototype of ``ch``'s confusable class (``ch`` itself when it has no look-alike).

    In the data each class is a star: the prototype is linked to every member, a member
    only to the prototype. A class of two single characters has no telling centre; its
    smaller code point stands for both (either choice gives both the same key).
    """
    linked = _homoglyphs(ch)
    if len(linked) != 1:
        return ch  # no look-alike, or ch is the centre of its class
    other = linked[0]
    if len(other) > 1 or len(_homoglyphs(other)) > 1:
        return other  # ch is a member; other is the prototype (possibly several letters: "m" -> "rn")
    return min(ch, other)


@lru_cache(maxsize=4096)
def _homoglyphs(ch: str) -> tuple[str, ...]:
    from confusable_homoglyphs import confusables

    found = confusables.is_confusable(ch, greedy=True)
    if not found:
        return ()
    return tuple(glyph["c"].strip(_MARK) for entry in found for glyph in entry["homoglyphs"])


__all__ = ["name_key"]
