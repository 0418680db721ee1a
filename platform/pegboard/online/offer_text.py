"""The host's settings in plain sentences, for a guest to read before accepting.

A ruleset's tables hold engine values (``enabled = false``, ``south_rating =
1000.0``, ``clock_seconds = 1200``); a person reads sentences such as
``Timers: on (clock 20 minutes, move 1 minute).`` The words come from the keys
themselves, so this works for every game: a table switched off by ``enabled =
false`` (or ``mode = "off"``) is "off"; a key ending in ``_seconds`` is a
duration; ``true``/``false`` are "yes"/"no"; whole numbers lose their ``.0``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

SHOWN_TABLES = ("fog", "salvage", "timers", "handicap", "win")
"""The ruleset tables a guest is shown (the rest are the game itself, the same for both)."""


def settings_sentences(rules: Mapping[str, Any], label: str, seat_name: str, first: bool) -> list[str]:
    """The lines of an offer: the ruleset, its description, the shown tables, the guest's seat."""
    lines = [f"{rules.get('name', label)} ({label})"]
    if rules.get("description"):
        lines.append(str(rules["description"]))
    for key in SHOWN_TABLES:
        table = rules.get(key)
        if isinstance(table, Mapping):
            lines.append(table_sentence(key, table))
    lines.append(f"You play {seat_name}" + (", and you move first." if first else "."))
    return lines


def table_sentence(key: str, table: Mapping[str, Any]) -> str:
    """One table as a sentence: ``Salvage: off.``, ``Win: target 69, at most 300 turns.``"""
    title = _words(key).capitalize()
    if table.get("enabled") is False or table.get("mode") == "off":
        return f"{title}: off."
    parts = [_part(k, v) for k, v in table.items() if k not in ("enabled",)]
    state = "on" if table.get("enabled") is True else ""
    body = ", ".join(p for p in parts if p)
    if state and body:
        return f"{title}: {state} ({body})."
    return f"{title}: {state or body or 'as the game sets it'}."


def _part(key: str, value: Any) -> str:
    words = _words(key)
    if key == "mode":
        return _value(value)
    if key.endswith("_seconds") and isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{words.removesuffix(' seconds')} {duration(float(value))}"
    if key.startswith("max_"):
        return f"at most {_value(value)} {words.removeprefix('max ')}"
    return f"{words} {_value(value)}"


def _words(key: str) -> str:
    return key.replace("_", " ").strip()


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (int, float)):
        return f"{value:g}"
    if isinstance(value, str):
        return value.replace("_", " ")
    if isinstance(value, Sequence):
        return ", ".join(_value(v) for v in value)
    if isinstance(value, Mapping):
        return "(" + ", ".join(f"{_words(str(k))} {_value(v)}" for k, v in value.items()) + ")"
    return str(value)


def duration(seconds: float) -> str:
    """``1200`` -> ``20 minutes``; ``90`` -> ``1 minute 30 seconds``; ``45`` -> ``45 seconds``."""
    whole = int(round(seconds))
    minutes, rest = divmod(whole, 60)
    pieces = []
    if minutes:
        pieces.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    if rest or not minutes:
        pieces.append(f"{rest} second{'s' if rest != 1 else ''}")
    return " ".join(pieces)


__all__ = ["duration", "settings_sentences", "table_sentence"]
