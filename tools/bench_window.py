"""Frames per second of the match window with a full Starfall board and an animation running.

Opens the real window (headless unless --display) at 1280x800, plays some
moves so the board holds drones of both sides, then draws frames as fast as
it can for --seconds while moves keep animating (a paying swap is played,
animates, is taken back without animation and played again). Each frame is
what the event loop does: the window's tick (session poll, animation step,
status line), on_draw and a buffer flip.

    .venv/bin/python tools/bench_window.py                # 1280x800, 5 s
    .venv/bin/python tools/bench_window.py --seconds 10 --idle
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def fill_time(window) -> float:
    """Milliseconds to fill the whole window with one rectangle (GL finished): the machine's fill rate."""
    import pyglet
    from pyglet import shapes

    batch = pyglet.graphics.Batch()
    rect = shapes.Rectangle(0, 0, window.width, window.height, color=(20, 20, 30), batch=batch)
    window.switch_to()
    batch.draw()
    pyglet.gl.glFinish()
    start = time.perf_counter()
    for _ in range(10):
        batch.draw()
    pyglet.gl.glFinish()
    rect.delete()
    return (time.perf_counter() - start) * 100


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=800)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--moves", type=int, default=60, help="moves played first to fill the board")
    parser.add_argument("--idle", action="store_true", help="also measure frames with nothing moving")
    parser.add_argument("--display", action="store_true", help="use the real display instead of headless EGL")
    args = parser.parse_args(argv)
    if not args.display:
        os.environ["PYGLET_HEADLESS"] = "1"

    from pegboard.plugins import Plugins
    from pegboard.ui import make_session, open_window
    from pegboard.ui.settings import MemorySettings

    plugins = Plugins()
    settings = MemorySettings()
    settings.set_setting("starfall", "welcomed", True)
    session = make_session("starfall", "standard", ["human", "human"], plugins, seed=11, threaded=False)
    window = open_window(session, plugins, width=args.width, height=args.height, schedule=False,
                         settings_store=settings)
    rng = random.Random(5)
    for _ in range(args.moves):  # drones and missiles for both sides: prefer paying swaps
        legal = [m for m in session.state.legal_moves() if m.kind != "fire"]
        if session.is_over or not legal:
            break
        session.play(rng.choice(legal))
    view = window.board
    view.anims.skip()
    drones = sum(1 for k in session.state.kind if k)
    swap = next(m for m in session.state.legal_moves() if m.kind == "swap")

    def frame() -> None:
        window.tick(1 / 60)
        window.switch_to()
        window.on_draw()
        window.flip()

    def measure(animate: bool) -> tuple[int, float, int]:
        frames, animated, start = 0, 0, time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            if animate and not view.busy():
                if session.cursor and session.history[session.cursor - 1].move == swap:
                    session.undo()  # no animation: back to the position before the swap
                session.play(swap)
            animated += view.busy()
            frame()
            frames += 1
        return frames, time.perf_counter() - start, animated

    for _ in range(10):
        frame()
    calibration = fill_time(window)
    frames, elapsed, animated = measure(True)
    print(f"{args.width}x{args.height}, {drones} drones on the board, a move animating in {animated} of {frames} frames: "
          f"{frames / elapsed:.1f} frames/s ({1000 * elapsed / frames:.1f} ms a frame)")
    print(f"calibration: filling the whole window once takes {calibration:.1f} ms here (software OpenGL: the frame "
          "rate follows the fill rate, which the machine's load divides)")
    if args.idle:
        frames, elapsed, _ = measure(False)
        print(f"idle: {frames / elapsed:.1f} frames/s ({1000 * elapsed / frames:.1f} ms a frame)")
    window.close()
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
