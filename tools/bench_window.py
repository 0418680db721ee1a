"""Frames per second of the match window with a full board, as the event loop draws it.

Opens the real window (headless unless --display) at 1280x800 and draws frames
as fast as it can for --seconds. Each frame is what the event loop does: the
window's tick (session poll, animation step, status line), on_draw and a
buffer flip.

Starfall (default): some moves fill the board with drones of both sides, then
a paying swap is played, animates, is taken back without animation and played
again, so a move is animating in nearly every frame.

Node War (``--game nodewar``): random moves fill the board; with
``--thinking`` both seats are then the Expert bot, thinking in the session's
bot worker (``--worker``, by default the one ``pegboard play`` uses), so the
window draws while Expert searches and redraws the position after each move.

Sound is on, as in a fresh profile (the loading waits before the measuring starts), so each
move plays its cues through pyglet's audio driver (its silent one on a machine without an
audio device); ``--no-sound`` measures with sound off.

Besides frames/s (wall clock, which the machine's load divides) it prints the
CPU time the window's own thread spends per frame. The renderer is Mesa's
software OpenGL: ``LP_NUM_THREADS=0`` (set here unless given) makes it rasterise
on the calling thread, so that CPU time is the whole frame and ``1000 / ms`` is
the frame rate one free core would give, whatever the load.

    .venv/bin/python tools/bench_window.py                        # Starfall, 1280x800, 5 s
    .venv/bin/python tools/bench_window.py --seconds 10 --idle
    .venv/bin/python tools/bench_window.py --game nodewar --thinking
    .venv/bin/python tools/bench_window.py --game nodewar --thinking --worker thread
    .venv/bin/python tools/bench_window.py --profile 25           # cProfile the measured frames
    .venv/bin/python tools/bench_window.py --no-sound             # the same with sound off
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def fill_time(window: Any) -> float:
    """CPU milliseconds (this thread) to fill the whole window with one rectangle, GL finished:
    the machine's fill rate, the yardstick a frame's cost is divided by."""
    import pyglet
    from pyglet import shapes

    batch = pyglet.graphics.Batch()
    rect = shapes.Rectangle(0, 0, window.width, window.height, color=(20, 20, 30), batch=batch)
    window.switch_to()
    batch.draw()
    pyglet.gl.glFinish()
    start = time.thread_time()
    for _ in range(20):
        batch.draw()
        pyglet.gl.glFinish()
    rect.delete()
    return (time.thread_time() - start) * 50


class Measure:
    """Counts frames, wall time and the drawing thread's CPU time over a loop."""

    def __init__(self, seconds: float, profile: int) -> None:
        self.seconds = seconds
        self.profile = profile

    def run(self, frame: Callable[[], None], before: Callable[[], bool]) -> dict[str, float]:
        """Draw frames for ``seconds``; ``before()`` runs first each frame and says whether to count it as 'busy'."""
        import cProfile
        import pstats

        profiler = cProfile.Profile() if self.profile else None
        frames = busy = 0
        worst = 0.0
        costs: list[float] = []  # CPU seconds of each frame (with the work that led to it)
        cpu0, start = time.thread_time(), time.perf_counter()
        if profiler is not None:
            profiler.enable()
        while time.perf_counter() - start < self.seconds:
            c0 = time.thread_time()
            busy += before()
            t0 = time.perf_counter()
            frame()
            worst = max(worst, time.perf_counter() - t0)
            costs.append(time.thread_time() - c0)
            frames += 1
        if profiler is not None:
            profiler.disable()
        elapsed, cpu = time.perf_counter() - start, time.thread_time() - cpu0
        costs.sort()
        if profiler is not None:
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(self.profile)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(self.profile)
        return {"frames": frames, "busy": busy, "elapsed": elapsed, "cpu": cpu, "worst": worst,
                "median": costs[len(costs) // 2] if costs else 0.0}


def report(label: str, m: dict[str, float], fill: float) -> str:
    frames = max(1, int(m["frames"]))
    cpu_ms = 1000 * m["cpu"] / frames
    return (f"{label}: {frames / m['elapsed']:.1f} frames/s ({1000 * m['elapsed'] / frames:.1f} ms a frame, slowest "
            f"{1000 * m['worst']:.0f} ms); window thread CPU {cpu_ms:.1f} ms a frame (median {1000 * m['median']:.1f}) "
            f"= {1000 / max(cpu_ms, 1e-9):.0f} frames/s on a free core = {cpu_ms / fill:.1f} full-window fills")


def starfall(args: argparse.Namespace, measure: Measure) -> None:
    from pegboard.plugins.manager import Plugins
    from pegboard.ui import make_session, open_window
    from pegboard.ui.settings import MemorySettings

    plugins = Plugins()
    settings = MemorySettings()
    settings.set_setting("starfall", "welcomed", True)
    session = make_session("starfall", "standard", ["human", "human"], plugins, seed=11, threaded=False)
    window = open_window(session, plugins, width=args.width, height=args.height, schedule=False,
                         settings_store=settings)
    set_sound(window, args.sound)
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
    frame = frame_of(window)

    def animate() -> bool:
        if not view.busy():
            if session.cursor and session.history[session.cursor - 1].move == swap:
                session.undo()  # no animation: back to the position before the swap
            session.play(swap)
        return bool(view.busy())

    for _ in range(10):
        frame()
    fill = fill_time(window)
    print(f"Starfall {args.width}x{args.height}, {drones} drones on the board; filling the whole window once takes "
          f"{fill:.1f} ms CPU here (software OpenGL)")
    m = measure.run(frame, animate)
    print(report(f"a move animating in {m['busy']} of {m['frames']} frames", m, fill))
    print(sound_report(window))
    if args.idle:
        print(report("idle", measure.run(frame, lambda: False), fill))
    window.close()


def nodewar(args: argparse.Namespace, measure: Measure) -> None:
    from pegboard.match.botworkers import default_bot_worker
    from pegboard.plugins.manager import Plugins
    from pegboard.ui import make_session, open_window
    from pegboard.ui.settings import MemorySettings

    plugins = Plugins()
    worker = args.worker or default_bot_worker()
    session = make_session("nodewar", "standard", ["human", "human"], plugins, seed=11, workers=worker)
    window = open_window(session, plugins, width=args.width, height=args.height, schedule=False,
                         settings_store=MemorySettings())
    set_sound(window, args.sound)
    rng = random.Random(5)
    for _ in range(args.moves):
        move = session.state.random_move(rng)
        if session.is_over or move is None:
            break
        session.play(move)
    start_ply = session.cursor
    nodes = sum(1 for o in session.state.owner if o >= 0)
    frame = frame_of(window)
    for _ in range(10):
        frame()
    fill = fill_time(window)
    what = f"Expert v Expert thinking in a {worker} worker" if args.thinking else "idle"
    print(f"Node War {args.width}x{args.height}, {nodes} nodes on the board after {start_ply} moves, {what}; filling "
          f"the whole window once takes {fill:.1f} ms CPU here")
    if args.thinking:
        session.set_seats(["expert", "expert"])

    def thinking() -> bool:
        if session.is_over:  # back to the full board; the bots go on from there
            session.jump(start_ply)
            session.resume_bots()
        return session.thinking is not None

    m = measure.run(frame, thinking)
    moves = session.cursor - start_ply
    print(report(f"a bot thinking in {m['busy']} of {m['frames']} frames, {moves} bot moves redrawn", m, fill))
    print(sound_report(window))
    session.close()
    window.close()


def set_sound(window: Any, on: bool) -> None:
    """Sound on (loaded before anything is measured) or off, as ``--no-sound`` asks."""
    window.sound.set_enabled(on)
    if on:
        window.sound.player.wait()


def sound_report(window: Any) -> str:
    player = window.sound.player
    if not window.sound.enabled:
        return "sound off"
    where = f"pyglet's {player.driver} driver" if player.state == "ready" else f"silent: {player.reason}"
    return f"sound on ({where}), {len(window.sound.played)} of the last cues played"


def frame_of(window: Any) -> Callable[[], None]:
    import pyglet

    def frame() -> None:
        window.tick(1 / 60)
        window.switch_to()
        window.on_draw()
        window.flip()
        # a headless window's flip presents nothing, and Mesa then drops the frame's drawing
        # when the next frame clears: finish it, as a screen's buffer swap would
        pyglet.gl.glFinish()
    return frame


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", choices=("starfall", "nodewar"), default="starfall")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=800)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--moves", type=int, default=None,
                        help="moves played first to fill the board (Starfall 60, Node War 120)")
    parser.add_argument("--idle", action="store_true", help="Starfall: also measure frames with nothing moving")
    parser.add_argument("--thinking", action="store_true", help="Node War: Expert v Expert thinks while the window draws")
    parser.add_argument("--worker", choices=("thread", "process"), default=None,
                        help="Node War: where the bots think (default: what pegboard play uses)")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the N costliest functions (cProfile)")
    parser.add_argument("--display", action="store_true", help="use the real display instead of headless EGL")
    parser.add_argument("--no-sound", dest="sound", action="store_false", help="measure with sound off (default: on)")
    args = parser.parse_args(argv)
    if not args.display:
        os.environ["PYGLET_HEADLESS"] = "1"
    os.environ.setdefault("LP_NUM_THREADS", "0")
    if args.moves is None:
        args.moves = 60 if args.game == "starfall" else 120
    measure = Measure(args.seconds, args.profile)
    print(f"load average {os.getloadavg()[0]:.2f}, LP_NUM_THREADS={os.environ['LP_NUM_THREADS']}")
    (starfall if args.game == "starfall" else nodewar)(args, measure)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
