"""The clocks as a person reads them: one source (the session's clocks), one way of writing them.

The status bar and any board view that shows the clocks again (Starfall's side panel) call
:func:`clock_text` every frame, so both always show the same times.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pegboard.match.session import Session


def mmss(seconds: float) -> str:
    """``"19:35"``: minutes and seconds left, rounded up (a clock shows 0:00 only when it ran out)."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def clock_text(session: Session, names: Sequence[str] | None = None, *, move_timer: bool = True,
               separator: str = " · ") -> str:
    """Each seat's main time (``"South 19:35 · North 20:00"``), then the move timer while it runs
    (``"move 0:42"``); "" without clocks. ``names`` replaces the seat names ("You")."""
    if session.clock is None:
        return ""
    parts = []
    for seat, left in enumerate(session.clock_times()):
        if left is not None:
            parts.append(f"{names[seat] if names is not None else session.seat_name(seat)} {mmss(left)}")
    move_left = session.move_time_left() if move_timer else None
    if move_left is not None:
        parts.append(f"move {mmss(move_left)}")
    return separator.join(parts)


__all__ = ["clock_text", "mmss"]
