"""Write PNG screenshots of the match window's main screens into docs/images/.

Runs headless (EGL) unless --display is given. By default it covers every
installed game that registers a board view; --game picks games (a game
without a board view is shown with the fallback move list).

    .venv/bin/python tools/screenshots.py                 # all games with a renderer
    .venv/bin/python tools/screenshots.py --game nodewar --moves 30
    .venv/bin/python tools/screenshots.py --plugin my_game.py --out /tmp/shots

Files: docs/images/<game>-<screen>.png for the screens main, breakdown,
history, customize, export, import-error, end (when a random game ends
within --max-moves) and small (800x600).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _prepare(display: bool) -> None:
    if not display:
        os.environ["PYGLET_HEADLESS"] = "1"


def _play_random(session, moves: int) -> None:
    """Play ``moves`` seeded random moves from the start, through the session."""
    import random

    rng = random.Random(session.seed)
    for _ in range(moves):
        if session.is_over:
            break
        legal = session.state.legal_moves()
        if not legal:
            break
        session.play(rng.choice(legal))


def shoot_game(game_id: str, out: Path, plugins, *, moves: int, max_moves: int) -> list[Path]:
    """All screens of one game; returns the files written."""
    from pegboard.ui import make_session, open_window

    written: list[Path] = []

    def save(window, screen: str) -> None:
        path = out / f"{game_id}-{screen}.png"
        window.save_screenshot(path)
        written.append(path)
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")

    session = make_session(game_id, None, ["human"] * len(plugins.game(game_id).seats), plugins, threaded=False)
    window = open_window(session, plugins, schedule=False)
    try:
        _play_random(session, moves)
        window.tick(0.05)
        save(window, "main")
        window.toggle_breakdown()
        save(window, "breakdown")
        window.toggle_breakdown()
        window.jump(max(0, session.cursor - 3))
        save(window, "history")
        window.jump(len(session.history))
        window.open_customize()
        save(window, "customize")
        window.close_dialog(window.dialog)
        with tempfile.TemporaryDirectory() as folder:
            temp = Path(folder)
            suffix = window._text_suffix()
            session.export(temp / f"sample{suffix}")
            (temp / f"broken{suffix}").write_text("this is not a match file\n", encoding="utf-8")
            window.open_export(folder=temp)
            save(window, "export")
            window.close_dialog(window.dialog)
            window.open_import(folder=temp)
            window._import(temp / f"broken{suffix}")
            save(window, "import-error")
            window.close_dialog(window.dialog)
        _play_random(session, max_moves)
        window.tick(0.05)
        if session.is_over:
            if window.dialog is None:
                window.open_end_dialog()
            save(window, "end")
    finally:
        window.close()
    small = open_window(make_session(game_id, None, ["human"] * len(plugins.game(game_id).seats), plugins, threaded=False),
                        plugins, width=800, height=600, schedule=False)
    try:
        _play_random(small.session, moves)
        small.tick(0.05)
        save(small, "small")
    finally:
        small.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game id (repeatable; default: every game with a renderer)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="output folder")
    parser.add_argument("--moves", type=int, default=24, help="random moves played before the main screenshots")
    parser.add_argument("--max-moves", type=int, default=600, help="random moves to try to reach an end-of-game screen")
    parser.add_argument("--plugin", action="append", default=[], help="extra plugin file (repeatable)")
    parser.add_argument("--display", action="store_true", help="use the real display instead of headless EGL")
    args = parser.parse_args(argv)
    _prepare(args.display)

    from pegboard.plugins import Plugins, env_plugin_files, set_plugins

    plugins = Plugins(plugin_files=[*env_plugin_files(), *args.plugin])
    set_plugins(plugins)
    games = args.game or [g for g in plugins.games() if plugins.renderers(g)]
    if not games:
        print("no installed game has a board view yet; name one with --game to use the move list", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    for game_id in games:
        shoot_game(game_id, args.out, plugins, moves=args.moves, max_moves=args.max_moves)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
