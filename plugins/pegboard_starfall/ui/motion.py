"""The short animations of a Starfall move, built as shell animation steps.

A move plays in up to three steps, each drawn by the view from two frames
(before and after the move):

1. the action: two swapped stars trade places, a drone slides, a missile flies;
2. the clear: every square a line cleared (cascades included) flashes and shrinks;
3. the fall: stars that changed drop in from the side they flowed from, new
   drones and rocks grow into place.

A click skips whatever is left (the shell's :class:`AnimationQueue`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pegboard.view import Step, ease_in_out, ease_out

from .. import moves as mv
from .painter import Frame

ACTION_TIME = 0.18
CLEAR_TIME = 0.22
FALL_TIME = 0.3
SNAP_TIME = 0.32


@dataclass
class Scene:
    """What the view draws while a step plays: a frame, moving squares and flashes.

    ``moving``: square -> (pixel dx, dy, scale, draw only the star) for squares drawn apart
    from the rest; ``flash``: squares ringed in white at ``flash_t``; ``shot``: a missile
    (x, y) in window pixels.
    """

    frame: Frame
    moving: dict[int, tuple[float, float, float, bool]] = field(default_factory=dict)
    flash: tuple[int, ...] = ()
    flash_t: float = 0.0
    shot: tuple[float, float] | None = None


def cleared_cells(events: Sequence[Any]) -> set[int]:
    """Squares the move's lines cleared, from the engine's events."""
    cells: set[int] = set()
    for e in events:
        if e.kind in ("cleared", "drone_spawned", "drone_stacked"):
            cells.update(int(c) for c in e.data.get("cells", ()))
    return cells


def mid_frame(before: Frame, move: mv.SfMove) -> Frame:
    """``before`` with the action done by hand (stars swapped, drone moved): what the clear flashes over."""
    f = Frame(list(before.star), list(before.ast), list(before.owner), list(before.kind), list(before.side),
              list(before.power), list(before.ride), list(before.miss), list(before.wreck), before.visible)
    a, b = move.a, move.b
    if move.kind == mv.SWAP:
        f.star[a], f.star[b] = f.star[b], f.star[a]
    elif move.kind in (mv.MOVE, mv.STRIKE) and f.kind[a] and not f.kind[b]:
        for name in ("kind", "side", "power", "ride", "miss"):
            layer = getattr(f, name)
            layer[b], layer[a] = layer[a], 0
    return f


def move_steps(show: Callable[[Scene], None], before: Frame, after: Frame, move: mv.SfMove, events: Sequence[Any],
               center: Callable[[int], tuple[float, float]], cell: float, fall_sign: float) -> list[Step]:
    """The steps of one move. ``show(scene)`` redraws; ``fall_sign`` is +1 when stars fall
    down the screen this turn (they enter from above), -1 when they rise."""
    steps: list[Step] = []
    a, b = move.a, move.b
    if move.kind == mv.SWAP and before.seen(a) and before.seen(b):
        (ax, ay), (bx, by) = center(a), center(b)

        def swap_frame(t: float) -> None:
            show(Scene(before, {a: ((bx - ax) * t, (by - ay) * t, 1.0, True), b: ((ax - bx) * t, (ay - by) * t, 1.0, True)}))
        steps.append(Step(ACTION_TIME, swap_frame, ease=ease_in_out))
    elif move.kind in (mv.MOVE, mv.STRIKE) and before.kind[a]:
        (ax, ay), (bx, by) = center(a), center(b)

        def slide_frame(t: float) -> None:
            show(Scene(before, {a: ((bx - ax) * t, (by - ay) * t, 1.0, False)}))
        steps.append(Step(ACTION_TIME * (1.6 if move.kind == mv.STRIKE else 1.3), slide_frame, ease=ease_in_out))
    elif move.kind == mv.FIRE:
        (ax, ay), (bx, by) = center(a), center(b)

        def shot_frame(t: float) -> None:
            show(Scene(before, shot=(ax + (bx - ax) * t, ay + (by - ay) * t), flash=(b,) if t > 0.85 else (),
                       flash_t=(t - 0.85) / 0.15 if t > 0.85 else 0.0))
        steps.append(Step(ACTION_TIME * 1.4, shot_frame, ease=ease_in_out))
    mid = mid_frame(before, move)
    cells = tuple(sorted(c for c in cleared_cells(events) if mid.seen(c)))
    if cells:
        def clear_frame(t: float) -> None:
            moving = {c: (0.0, 0.0, max(0.05, 1.0 - t), True) for c in cells if mid.star[c] >= 0}
            show(Scene(mid, moving, cells, t))
        steps.append(Step(CLEAR_TIME, clear_frame, ease=ease_out))
    changed = [sq for sq in range(len(after.star))
               if after.seen(sq) and not after.ast[sq] and after.star[sq] >= 0
               and (after.star[sq] != mid.star[sq] or sq in cells)]
    born = [sq for sq in range(len(after.kind))
            if after.seen(sq) and ((after.kind[sq] and after.kind[sq] != mid.kind[sq]) or (after.ast[sq] and not mid.ast[sq]))]
    if changed or born:
        drop = 2.2 * cell * fall_sign

        def fall_frame(t: float) -> None:
            moving = {sq: (0.0, drop * (1.0 - t), 1.0, True) for sq in changed}
            for sq in born:
                dx, dy, _scale, _star = moving.get(sq, (0.0, 0.0, 1.0, False))
                moving[sq] = (dx, dy, 0.3 + 0.7 * t, False)
            show(Scene(after, moving))
        steps.append(Step(FALL_TIME, fall_frame, ease=ease_out))
    if steps:  # the last word: the plain position
        last = steps[-1]
        steps[-1] = Step(last.duration, last.frame, start=last.start, done=lambda: show(Scene(after)), ease=last.ease)
    return steps


def snap_steps(show: Callable[[Scene], None], frame: Frame, a: int, b: int,
               center: Callable[[int], tuple[float, float]]) -> list[Step]:
    """A swap that makes no line: the two stars trade places and go back."""
    (ax, ay), (bx, by) = center(a), center(b)

    def frame_at(t: float) -> None:
        u = 1.0 - abs(1.0 - 2.0 * t)  # 0 -> 1 -> 0
        show(Scene(frame, {a: ((bx - ax) * u, (by - ay) * u, 1.0, True), b: ((ax - bx) * u, (ay - by) * u, 1.0, True)}))
    return [Step(SNAP_TIME, frame_at, done=lambda: show(Scene(frame)), ease=ease_in_out)]


__all__ = ["Scene", "cleared_cells", "mid_frame", "move_steps", "snap_steps"]
