"""What the explain line and the History say about a played move, as one seat may know it.

Every text comes from the move as that seat may read it (``PlyRecord.text_for``) and the
events that seat hears (``PlyRecord.events_for``): nothing here looks at the position.

- :func:`detail`: every sentence, one per event (the whole story of the move).
- :func:`summary`: the same at a glance. The shapes a move made are counted by what made
  them ("swap: 1 line, 1 scout; cascade: 2 lines, 1 raider"), other events keep their
  sentence while there are few of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .. import moves as mv
from ..pieces import drone_label

#: Events about a shape a move made (each carries ``cause``: swap, cascade, missile, bomb).
SHAPE_EVENTS = frozenset({"cleared", "drone_spawned", "drone_stacked", "at_nine"})
#: Events that tell the move itself (a side that hears none of them reads the move's own text).
ACTION_EVENTS = frozenset({"swap", "move", "missile", "claim", "warp", "strike", "ram", "build", "pass", "timeout"})
#: At most this many other sentences stay in a summary; more are counted.
KEEP_SENTENCES = 2
#: A move told in fewer characters than this needs no summary.
SHORT = 150


def detail(record: Any, seat: int | None, seat_name: str) -> list[str]:
    """Every sentence ``seat`` may read about ``record``'s move, starting with the move itself
    ("North: a move out of sight.") when no event ``seat`` hears tells it."""
    events = [e for e in record.events_for(seat) if e.text]
    texts = [e.text for e in events]
    told = ACTION_EVENTS | ({"game_over"} if _kind(record) == mv.CONCEDE else set())  # "North resigns: South wins."
    if not any(e.kind in told for e in events):
        texts.insert(0, headline(record, seat, seat_name))
    return texts


def _kind(record: Any) -> str | None:
    """The move's kind; None for a move the seat never saw (an online guest's history)."""
    return record.move.kind if isinstance(record.move, mv.SfMove) else None


def headline(record: Any, seat: int | None, seat_name: str) -> str:
    """The move as a sentence: "North resigns.", "South passes.", else "North: swap e3-f3."."""
    kind = _kind(record)
    text = record.text_for(seat)
    if kind in (mv.CONCEDE, mv.TIMEOUT):
        return f"{seat_name} {text}."
    if kind == mv.PASS:
        return f"{seat_name} passes."
    return f"{seat_name}: {text}."


def summary(record: Any, seat: int | None, seat_name: str, square: Callable[[int], str]) -> str:
    """``record``'s move at a glance, as ``seat`` may know it (its detail when that is short);
    ``square`` names a square ("e2")."""
    sentences = detail(record, seat, seat_name)
    full = " ".join(sentences)
    events = [e for e in record.events_for(seat) if e.text]
    shapes = [e for e in events if e.kind in SHAPE_EVENTS]
    if len(full) < SHORT and len(shapes) < 3:
        return full
    shape_texts = {e.text for e in shapes}
    others = [t for t in sentences if t not in shape_texts]
    head = others.pop(0)
    parts = [head.rstrip(".") + (" — " + shape_counts(shapes, square) if shapes else "") + "."]
    if len(others) <= KEEP_SENTENCES:
        parts += others
    else:
        parts += others[: KEEP_SENTENCES - 1]
        rest = len(others) - (KEEP_SENTENCES - 1)
        parts.append(f"And {rest} more things happened.")
    return " ".join(parts)


def shape_counts(shapes: Sequence[Any], square: Callable[[int], str]) -> str:
    """``"swap: 1 line, 1 scout (e2); cascade: 2 lines, 1 raider (f4)"``: the shapes by what
    made them, with the drones they paid and where (a drone that stacked counts as a "stack")."""
    order: list[str] = []
    lines: dict[str, set[Any]] = {}
    drones: dict[str, dict[str, list[str]]] = {}
    for event in shapes:
        data = event.data
        cause = str(data.get("cause", "swap"))
        if cause not in order:
            order.append(cause)
            lines[cause] = set()
            drones[cause] = {}
        cells = data.get("cells")
        lines[cause].add(tuple(cells) if isinstance(cells, list) else ("alone", len(lines[cause])))
        at = data.get("at")
        if event.kind in ("drone_spawned", "drone_stacked") and isinstance(at, int):
            name = drone_label(str(data.get("drone", "drone"))) if event.kind == "drone_spawned" else "stack"
            drones[cause].setdefault(name, []).append(square(at))
    out = []
    for cause in order:
        n = len(lines[cause])
        words = [f"{n} line{'s' * (n != 1)}"]
        words += [f"{len(at)} {name}{'s' * (len(at) != 1)} ({', '.join(at)})" for name, at in drones[cause].items()]
        out.append(f"{cause}: {', '.join(words)}")
    return "; ".join(out)


__all__ = ["detail", "shape_counts", "summary"]
