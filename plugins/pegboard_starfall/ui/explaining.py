"""What the explain line and the History say about a played move, as one seat may know it.

Every text comes from the move as that seat may read it (``PlyRecord.text_for``) and the
events that seat hears (``PlyRecord.events_for``): nothing here looks at the position.

- :func:`detail`: every sentence, one per event (the whole story of the move).
- :func:`summary`: the same at a glance. The shapes a move made are counted by what made
  them ("swap: 1 line, 1 scout; cascade: 2 lines, 1 raider"), other events keep their
  sentence while there are few of them.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    if not any(e.kind in ACTION_EVENTS for e in events):
        texts.insert(0, headline(record, seat, seat_name))
    return texts


def headline(record: Any, seat: int | None, seat_name: str) -> str:
    """The move as a sentence: "North resigns.", "South passes.", else "North: swap e3-f3."."""
    kind = record.move.kind if isinstance(record.move, mv.SfMove) else None  # None: a move the seat never saw (online)
    text = record.text_for(seat)
    if kind in (mv.CONCEDE, mv.TIMEOUT):
        return f"{seat_name} {text}."
    if kind == mv.PASS:
        return f"{seat_name} passes."
    return f"{seat_name}: {text}."


def summary(record: Any, seat: int | None, seat_name: str) -> str:
    """``record``'s move at a glance, as ``seat`` may know it (its detail when that is short)."""
    sentences = detail(record, seat, seat_name)
    full = " ".join(sentences)
    events = [e for e in record.events_for(seat) if e.text]
    shapes = [e for e in events if e.kind in SHAPE_EVENTS]
    if len(full) < SHORT and len(shapes) < 3:
        return full
    shape_texts = {e.text for e in shapes}
    others = [t for t in sentences if t not in shape_texts]
    head = others.pop(0)
    parts = [head.rstrip(".") + (" — " + shape_counts(shapes) if shapes else "") + "."]
    if len(others) <= KEEP_SENTENCES:
        parts += others
    else:
        parts += others[: KEEP_SENTENCES - 1]
        rest = len(others) - (KEEP_SENTENCES - 1)
        parts.append(f"And {rest} more things happened.")
    return " ".join(parts)


def shape_counts(shapes: Sequence[Any]) -> str:
    """``"swap: 1 line, 1 scout; cascade: 2 lines, 1 raider"``: the shapes by what made them,
    with the drones they paid (a stack counts as one "stack")."""
    order: list[str] = []
    lines: dict[str, set[Any]] = {}
    drones: dict[str, dict[str, int]] = {}
    for event in shapes:
        data = event.data
        cause = str(data.get("cause", "swap"))
        if cause not in order:
            order.append(cause)
            lines[cause] = set()
            drones[cause] = {}
        cells = data.get("cells")
        lines[cause].add(tuple(cells) if isinstance(cells, list) else ("alone", len(lines[cause])))
        if event.kind == "drone_spawned":
            name = drone_label(str(data.get("drone", "drone")))
            drones[cause][name] = drones[cause].get(name, 0) + 1
        elif event.kind == "drone_stacked":
            drones[cause]["stack"] = drones[cause].get("stack", 0) + 1
    out = []
    for cause in order:
        n = len(lines[cause])
        words = [f"{n} line{'s' * (n != 1)}"]
        words += [f"{k} {name}{'s' * (k != 1)}" for name, k in drones[cause].items()]
        out.append(f"{cause}: {', '.join(words)}")
    return "; ".join(out)


__all__ = ["detail", "shape_counts", "summary"]
