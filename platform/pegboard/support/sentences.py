"""Text a person reads, as a sentence: what the window's status line, its panels and dialogs show."""

from __future__ import annotations


def as_sentence(reason: str) -> str:
    """An engine's reason ("column a is full") as the status line says it: "Column a is full.".
    A first word that is a name in the game's notation ("b2 is taken") keeps its case."""
    reason = reason.strip()
    if not reason:
        return reason
    first = reason.split(maxsplit=1)[0]
    if first.isalpha():
        reason = reason[0].upper() + reason[1:]
    return reason if reason[-1] in ".!?…" else reason + "."


__all__ = ["as_sentence"]
