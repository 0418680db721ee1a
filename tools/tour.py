"""A tour of the real window under an X server, driven like a person would, one screenshot per screen.

Starts Xvfb on its own display (default :92), runs the real ``pegboard play`` there with a fresh
PEGBOARD_HOME (a first launch), moves the pointer and types with xdotool, and saves what the
screen shows after each step with ImageMagick's ``import -window root``:

    python3 tools/tour.py                    # writes tour/NN-<screen>.png and lists them
    python3 tools/tour.py --out /tmp/tour --display :93

The screens: the game chooser, a Node War game (a move played by clicks, the bot's answer), a
tooltip, Customize, the file dialog with a selection in its path field, History, the end screen
of an imported finished game, the same window at 800x600 and 640x480, then Starfall's first
launch (its welcome, a game, a drone selected, Settings). Where to click comes from the same
layout computed headless (``--where``), so the tour follows the layout as it changes.

Needs Xvfb, xdotool and ImageMagick (Debian: xvfb xdotool imagemagick). Nothing here is part of
the test suite; the tests drive the window headless (tests/gui).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 1280, 800


# -- where things are: the layout computed headless ------------------------------------------------


def where(kind: str, width: int, height: int, seed: int) -> dict[str, list[float]]:
    """Centres (X pixels, top-left origin) of what the tour clicks, from a headless copy of the window."""
    os.environ["PYGLET_HEADLESS"] = "1"
    from pegboard.plugins.manager import Plugins
    from pegboard.ui import make_session, open_window
    from pegboard.ui.catalog import game_choices
    from pegboard.ui.chooser import ChooserWindow
    from pegboard.ui.settings import MemorySettings

    def x_y(x: float, y: float) -> list[float]:
        return [round(x), round(height - y)]

    plugins = Plugins()
    found: dict[str, list[float]] = {}
    if kind == "chooser":
        window = ChooserWindow(game_choices(plugins), MemorySettings(), lambda _g: None, width=width, height=height)
        for card in window.chooser.cards:
            found[f"card {card.choice.id}"] = x_y(*card.rect.center)
        found["play"] = x_y(*window.chooser.play_button.rect.center)
        window.close()
        return found
    store = MemorySettings()
    store.set_setting("starfall", "welcomed", True)
    game = kind
    session = make_session(game, None, ["human", "expert" if game == "nodewar" else "skill-10"], plugins,
                           seed=seed, threaded=False)
    window = open_window(session, plugins, width=width, height=height, schedule=False, settings_store=store)
    for name, button in window.buttons.items():
        found[f"button {name}"] = x_y(*button.rect.center)
    view = window.board
    if game == "nodewar":
        state = session.state
        base = state.base[0]
        move = next(m for m in state.legal_moves() if m.src == base)
        found["base"] = x_y(*view.point_xy(base))
        found["hint"] = x_y(*view.point_xy(move.dst))
        found["board"] = x_y(*view.board_rect().center)
    else:
        st = session.state
        drone = next(sq for sq in range(st.geo.size) if st.kind[sq] and st.side[sq] == view.me)
        found["drone"] = x_y(*view.painter.center(drone))
    window.close()
    return found


# -- the X side -------------------------------------------------------------------------------------


class Tour:
    """One X display, the pegboard process on it, and the screenshots taken so far."""

    def __init__(self, display: str, out: Path, home: Path) -> None:
        self.display, self.out, self.home = display, out, home
        self.env = {**os.environ, "DISPLAY": display, "PEGBOARD_HOME": str(home),
                    "PEGBOARD_CACHE_DIR": str(home / "cache")}
        self.env.pop("PYGLET_HEADLESS", None)
        self.shots: list[Path] = []
        self.app: subprocess.Popen[bytes] | None = None

    def x(self, *args: str) -> str:
        return subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, check=False).stdout

    def start(self, *args: str) -> None:
        pegboard = ROOT / ".venv" / "bin" / "pegboard"
        self.app = subprocess.Popen([str(pegboard), "play", *args], env=self.env, cwd=ROOT)
        self.wait_window()

    def wait_window(self, name: str = "Pegboard", timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ids = self.x("search", "--name", name).split()
            if ids:
                self.window = ids[-1]
                time.sleep(1.5)  # the first frames
                return self.window
            time.sleep(0.3)
        raise SystemExit("the Pegboard window did not appear")

    def click(self, at: list[float], double: bool = False) -> None:
        self.x("mousemove", str(int(at[0])), str(int(at[1])))
        time.sleep(0.15)
        self.x("click", *(["--repeat", "2", "--delay", "120"] if double else []), "1")
        time.sleep(0.6)

    def hover(self, at: list[float], seconds: float = 1.0) -> None:
        self.x("mousemove", str(int(at[0])), str(int(at[1])))
        time.sleep(seconds)

    # Keys go through XTEST to the window under the pointer, as a person's would: with
    # ``--window`` xdotool sends synthetic events instead, which the window may ignore.
    def keys(self, *names: str) -> None:
        for name in names:
            self.x("key", name)
            time.sleep(0.3)

    def type(self, text: str) -> None:
        self.x("type", "--delay", "20", text)
        time.sleep(0.3)

    def resize(self, width: int, height: int) -> None:
        self.x("windowsize", self.window, str(width), str(height))
        time.sleep(1.2)

    def shot(self, name: str) -> Path:
        path = self.out / f"{len(self.shots) + 1:02d}-{name}.png"
        subprocess.run(["import", "-window", "root", str(path)], env=self.env, check=True)
        self.shots.append(path)
        print(f"wrote {path}")
        return path

    def stop(self) -> None:
        if self.app is not None and self.app.poll() is None:
            self.x("windowclose", self.window) if self.x("search", "--name", "Pegboard").strip() else None
            try:
                self.app.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.app.kill()
        self.app = None


def layout(kind: str, width: int = WIDTH, height: int = HEIGHT, seed: int = 3) -> dict[str, list[float]]:
    """Run :func:`where` in a headless child (this process talks to X)."""
    python = ROOT / ".venv" / "bin" / "python"  # pegboard is installed there (tools/dev.py makes it)
    out = subprocess.run([str(python), __file__, "--where", kind, "--size", f"{width}x{height}", "--seed", str(seed)],
                         capture_output=True, text=True, check=True, env={**os.environ, "PYGLET_HEADLESS": "1"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def finished_record(folder: Path, env: dict[str, str]) -> Path:
    """A finished Node War game (two bots, headless) for the end screen."""
    pegboard = ROOT / ".venv" / "bin" / "pegboard"
    subprocess.run([str(pegboard), "match", "nodewar", "--blue", "easy", "--red", "random", "--games", "1",
                    "--seed", "4", "--out", str(folder)], env=env, check=True, capture_output=True)
    return next(folder.glob("*.match.json"))


def run_tour(tour: Tour) -> None:
    chooser = layout("chooser")
    tour.start()
    tour.shot("chooser")
    tour.click(chooser["card nodewar"])
    tour.shot("chooser-nodewar-picked")
    tour.click(chooser["play"])  # "Play Node War"
    tour.wait_window("Node War")
    nodewar = layout("nodewar")
    tour.shot("nodewar-start")
    tour.click(nodewar["base"])
    tour.shot("nodewar-selected")
    tour.click(nodewar["hint"])
    time.sleep(3.0)  # Expert answers
    tour.shot("nodewar-game")
    tour.hover(nodewar["button new"], 1.2)
    tour.shot("nodewar-tooltip")
    tour.click(nodewar["button customize"])
    tour.shot("nodewar-customize")
    tour.keys("Escape")
    tour.click(nodewar["button export"])
    tour.keys("shift+Left", "shift+Left", "shift+Left", "shift+Left")
    tour.shot("nodewar-export")
    tour.keys("Escape")
    record = finished_record(tour.home / "records", tour.env)
    tour.click(nodewar["button import"])
    tour.keys("ctrl+a")
    tour.type(str(record))
    tour.keys("Return")
    time.sleep(1.0)
    tour.shot("nodewar-end")
    tour.keys("Escape")
    tour.resize(800, 600)
    tour.shot("nodewar-800x600")
    tour.resize(640, 480)
    tour.shot("nodewar-640x480")
    tour.stop()

    starfall = layout("starfall", seed=3)
    tour.start("starfall", "--seed", "3")
    time.sleep(3.0)  # the first Starfall frame takes a while on a loaded machine
    tour.shot("starfall-first-launch")
    tour.keys("Escape")  # "Just play" if the welcome asked
    time.sleep(1.0)
    tour.shot("starfall-game")
    tour.click(starfall["drone"])
    tour.shot("starfall-drone-selected")
    tour.keys("Escape")
    if "button settings" in starfall:
        tour.click(starfall["button settings"])
        tour.shot("starfall-settings")
        tour.keys("Escape")
    tour.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--display", default=":92", help="the X display Xvfb runs on (default :92)")
    parser.add_argument("--out", type=Path, default=ROOT / "tour", help="where the screenshots go")
    parser.add_argument("--where", help=argparse.SUPPRESS)
    parser.add_argument("--size", default=f"{WIDTH}x{HEIGHT}", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.where:
        width, height = (int(v) for v in args.size.split("x"))
        print(json.dumps(where(args.where, width, height, args.seed)))
        return 0
    missing = [tool for tool in ("Xvfb", "xdotool", "import") if shutil.which(tool) is None]
    if missing:
        print(f"the tour needs {', '.join(missing)} (Debian: apt-get install xvfb xdotool imagemagick)", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    xvfb = subprocess.Popen(["Xvfb", args.display, "-screen", "0", f"{WIDTH}x{HEIGHT}x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.5)
    home = Path(tempfile.mkdtemp(prefix="pegboard-tour-"))  # a first launch: no profile yet
    tour = Tour(args.display, args.out, home)
    try:
        run_tour(tour)
    finally:
        tour.stop()
        xvfb.terminate()
        xvfb.wait(timeout=10)
        shutil.rmtree(home, ignore_errors=True)
    print(f"{len(tour.shots)} screenshots in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
