"""A queue of short timed animations that a board view plays one after another.

Game-agnostic: a step is a duration and a callback that receives the
progress ``t`` in [0, 1] (already eased when the step asks for it). A click
(``skip``) finishes every queued step at once, calling each callback with
``t = 1`` and its ``done`` callback, so the picture always ends in the same
state whether the animation played or was skipped. No pyglet here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


def ease_out(t: float) -> float:
    """Fast start, gentle stop (quadratic)."""
    return 1.0 - (1.0 - t) * (1.0 - t)


def ease_in_out(t: float) -> float:
    """Gentle start and stop (smoothstep)."""
    return t * t * (3.0 - 2.0 * t)


@dataclass
class Step:
    """One animation step: ``frame(t)`` is called every frame, ``done()`` once at the end.

    ``start()`` runs when the step becomes current (set up what it draws).
    ``ease`` maps linear time to the ``t`` passed to ``frame``.
    """

    duration: float
    frame: Callable[[float], None]
    start: Callable[[], None] | None = None
    done: Callable[[], None] | None = None
    ease: Callable[[float], float] = ease_out


class AnimationQueue:
    """Plays :class:`Step` objects in order; ``update(dt)`` every frame, ``skip()`` on a click.

    ``speed`` scales every duration (0 plays everything instantly, as if skipped).
    """

    def __init__(self, speed: float = 1.0) -> None:
        self.speed = speed
        self._steps: deque[Step] = deque()
        self._current: Step | None = None
        self._elapsed = 0.0

    @property
    def busy(self) -> bool:
        """True while a step is playing or waiting."""
        return self._current is not None or bool(self._steps)

    def push(self, step: Step) -> None:
        self._steps.append(step)

    def extend(self, steps: list[Step]) -> None:
        self._steps.extend(steps)

    def _begin_next(self) -> bool:
        if self._current is not None:
            return True
        if not self._steps:
            return False
        self._current = self._steps.popleft()
        self._elapsed = 0.0
        if self._current.start is not None:
            self._current.start()
        return True

    def _finish_current(self) -> None:
        step = self._current
        self._current = None
        if step is None:
            return
        step.frame(1.0)
        if step.done is not None:
            step.done()

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds (leftover time flows into the next step)."""
        while dt >= 0 and self._begin_next():
            step = self._current
            assert step is not None
            length = step.duration * self.speed
            if length <= 0 or self._elapsed + dt >= length:
                dt -= max(0.0, length - self._elapsed)
                self._finish_current()
                if dt <= 0:
                    return
                continue
            self._elapsed += dt
            step.frame(step.ease(self._elapsed / length))
            return

    def skip(self) -> bool:
        """Finish every queued step now; True if anything was playing."""
        was_busy = self.busy
        while self._begin_next():
            self._finish_current()
        return was_busy

    def clear(self) -> None:
        """Drop every step without calling it (the view is about to redraw from scratch)."""
        self._steps.clear()
        self._current = None


__all__ = ["AnimationQueue", "Step", "ease_in_out", "ease_out"]
