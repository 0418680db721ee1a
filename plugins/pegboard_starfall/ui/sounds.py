"""Which sound each Starfall event makes in the window (see :meth:`pegboard.ui.board.BoardView.sound_cues`).

The window hands over only the events the person's side may know, so under fog a hidden take
or missile makes no sound of its own: the move is only heard as a move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pegboard.game import Event
from pegboard.ui import cues

CUES_OF_EVENT: Mapping[str, tuple[str, ...]] = {
    "cleared": (cues.LINE,),
    "drone_spawned": (cues.LINE, cues.DRONE),  # the line clears and pays a drone
    "drone_stacked": (cues.LINE, cues.DRONE),
    "build": (cues.DRONE,),  # a turret rises
    "take": (cues.TAKE,),
    "blasted": (cues.TAKE,),
    "missile": (cues.MISSILE,),
    "turret": (cues.MISSILE,),
    "ram": (cues.MISSILE,),  # the bomb's explosion
    "asteroid_drop": (cues.ASTEROID,),
    "drift": (cues.ASTEROID,),
    "crushed": (cues.ASTEROID,),
}
"""Event kind -> cues; other kinds (a swap that makes nothing, a claim, a pass) are just a move."""


def move_cues(events: Sequence[Event]) -> list[str]:
    """The cues of one move, in the order its events happened, each once; "move" when none."""
    out: list[str] = []
    for event in events:
        found = CUES_OF_EVENT.get(event.kind, ())
        if event.kind == "move" and event.data.get("took"):
            found = (cues.TAKE,)  # a drone landed on an enemy piece
        elif cues.LINE in found and "cells" not in event.data:
            found = tuple(c for c in found if c != cues.LINE)  # fog's short form: the drone seen, not its line
        out.extend(c for c in found if c not in out)
    return out or [cues.MOVE]


__all__ = ["CUES_OF_EVENT", "move_cues"]
