"""Write PNG screenshots of the match window's main screens into docs/images/.

Runs headless (EGL) unless --display is given. By default it covers every
installed game that registers a board view; --game picks games (a game
without a board view is shown with the fallback move list).

    .venv/bin/python tools/screenshots.py                 # all games with a renderer
    .venv/bin/python tools/screenshots.py --game nodewar --moves 30
    .venv/bin/python tools/screenshots.py --plugin my_game.py --out /tmp/shots

Files: docs/images/<game>-<screen>.png, the game chooser (chooser.png, chooser-800x600.png)
and each built-in game at every size the layout is held to (<game>-size-<W>x<H>.png, and
@2 at a HiDPI pixel ratio of 2). --pictures writes only the chooser's game pictures (into
the game packages). Every game gets main, breakdown,
history, customize, export, import-error, end (when a game ends within
--max-moves) and small (800x600). Moves come from the game's first bot when
it has one (seeded random moves otherwise). Node War adds selected (a node
with every kind of move hint), inspect (a dead node's links), thinking (a
bot at work), and at 800x600 small-selected and small-history. --online writes only
the Play a friend screens (a loopback lobby with scripted players): starfall-online-panel
(the list), starfall-online-offer (the host's settings) and starfall-online-match. Every game
also gets review (a finished game reviewed, its worst marked move shown); --review writes only those.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
Saver = Callable[[Any, str], None]


def _prepare(display: bool) -> None:
    if not display:
        os.environ["PYGLET_HEADLESS"] = "1"


def _play(session, moves: int, bot: Any = None) -> None:
    """Play ``moves`` moves from the current position: the bot's choices, or seeded random ones."""
    rng = random.Random(session.seed)
    for _ in range(moves):
        if session.is_over:
            break
        legal = session.state.legal_moves()
        if not legal:
            break
        move = bot.choose(session.state.player_view(session.to_move), 0.0) if bot is not None else rng.choice(legal)
        session.play(move)


def _first_bot(plugins, game) -> Any:
    specs = list(plugins.bots(game.id).values())
    return specs[0].factory(game, 1) if specs else None


def _seats(plugins, game_id: str) -> list[str]:
    return ["human"] * len(plugins.game(game_id).seats)


def _renumbered(line: str, number: int) -> str:
    """A text-format move line with its leading turn number replaced (other lines: unchanged)."""
    head, _, rest = line.partition(" ")
    return f"{number} {rest}" if head.isdigit() else line


def shoot_game(game_id: str, out: Path, plugins, *, moves: int, max_moves: int) -> list[Path]:
    """All screens of one game; returns the files written."""
    from pegboard.ui import make_session, open_window

    written: list[Path] = []

    def save(window, screen: str) -> None:
        path = out / f"{game_id}-{screen}.png"
        window.tick(0.05)
        window.save_screenshot(path)
        written.append(path)
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")

    session = make_session(game_id, None, _seats(plugins, game_id), plugins, threaded=False)
    window = open_window(session, plugins, schedule=False)
    bot = _first_bot(plugins, session.game)
    try:
        _play(session, moves, bot)
        save(window, "main")
        window.toggle_breakdown()
        save(window, "breakdown")
        window.toggle_breakdown()
        window.jump(max(0, session.cursor - 6))
        save(window, "history")
        window.jump(len(session.history))
        window.say(None)
        dialog = window.open_customize()
        ids = [option[0] for option in dialog.options]
        if len(ids) > 1:  # show the usual match: a person against the strongest listed bot
            dialog.choices[-1].set_index(ids.index("expert") if "expert" in ids else len(ids) - 1)
        save(window, "customize")
        window.close_dialog(window.dialog)
        with tempfile.TemporaryDirectory() as folder:
            temp = Path(folder)
            suffix = window._text_suffix()
            session.export(temp / f"sample{suffix}")
            lines = (temp / f"sample{suffix}").read_text(encoding="utf-8").splitlines()
            # a broken copy: the last move played again, which the import refuses
            broken = [*lines, _renumbered(lines[-1], len(session.moves) + 1)]
            (temp / f"broken{suffix}").write_text("\n".join(broken) + "\n", encoding="utf-8")
            window.open_export(folder=temp)
            save(window, "export")
            window.close_dialog(window.dialog)
            window.open_import(folder=temp)
            window._import(temp / f"broken{suffix}")
            save(window, "import-error")
            window.close_dialog(window.dialog)
        _play(session, max_moves, bot)
        if session.is_over:
            if window.dialog is None:
                window.open_end_dialog()
            save(window, "end")
    finally:
        window.close()
    small = open_window(make_session(game_id, None, _seats(plugins, game_id), plugins, threaded=False),
                        plugins, width=800, height=600, schedule=False)
    try:
        _play(small.session, moves, _first_bot(plugins, small.session.game))
        save(small, "small")
    finally:
        small.close()
    extra = EXTRA_SCREENS.get(game_id)
    if extra is not None:
        extra(plugins, save)
    return written


def nodewar_screens(plugins, save: Saver) -> None:
    """A node selected with every hint kind, a dead node inspected, and the same at 800x600."""
    sys.path.insert(0, str(ROOT / "tests"))  # the position the GUI tests check pixel by pixel
    from pegboard.ui import make_session, open_window
    from support import nodewar_positions as pos

    for width, height, prefix in ((1280, 800, ""), (800, 600, "small-")):
        session = make_session("nodewar", "standard", ["human", "human"], plugins, threaded=False)
        window = open_window(session, plugins, width=width, height=height, schedule=False)
        try:
            pos.load(session)
            point = session.game.point
            window.click(*window.board.point_xy(point(*pos.SELECT)))
            save(window, f"{prefix}selected")
            if prefix:
                window.toggle_history()
                save(window, "small-history")
                continue
            window.click(*window.board.point_xy(point(*pos.DEAD)))  # the revive: Red's 5,6 dies
            window.click(*window.board.point_xy(point(*pos.RED_VICTIM)))
            save(window, "inspect")
        finally:
            window.close()


def nodewar_thinking(plugins, save: Saver) -> None:
    """Red's Expert thinking in its own process while the window keeps drawing."""
    from pegboard.match.session import default_bot_worker
    from pegboard.ui import make_session, open_window

    session = make_session("nodewar", "standard", ["human", "expert"], plugins, workers=default_bot_worker())
    window = open_window(session, plugins, schedule=False)
    try:
        bot = _first_bot(plugins, session.game)
        for _ in range(9):  # by hand for both sides, so Red is to move afterwards
            session.play(bot.choose(session.state.player_view(session.to_move), 0.0))
            session.pause_bots()
        session.resume_bots()
        window.tick(0.05)  # the Expert starts thinking about Red's reply
        if session.thinking is not None:
            save(window, "thinking")
    finally:
        window.close()


def nodewar_extras(plugins, save: Saver) -> None:
    nodewar_screens(plugins, save)
    nodewar_thinking(plugins, save)


def _starfall_window(plugins, seats=("human", "human"), seed: int = 11, **settings: Any):
    from pegboard.ui import make_session, open_window
    from pegboard.ui.settings import MemorySettings

    store = MemorySettings()
    store.set_setting("starfall", "welcomed", True)
    for key, value in settings.items():
        store.set_setting("starfall", key, value)
    session = make_session("starfall", "standard", list(seats), plugins, seed=seed, threaded=False)
    return open_window(session, plugins, schedule=False, settings_store=store)


def _starfall_moves(window, moves: int, seed: int = 5) -> None:
    """Seeded random actions for both sides (no missiles), animations skipped."""
    session = window.session
    rng = random.Random(seed)
    for _ in range(moves):
        legal = [m for m in session.state.legal_moves() if m.kind != "fire"]
        if session.is_over or not legal:
            break
        session.play(rng.choice(legal))
    window.board.anims.skip()
    window.board.refresh()


def starfall_rated_end(plugins, save: Saver) -> None:
    """A rated game against skill 10 won by a claim (a hand-built position), the end dialog with the rating."""
    window = _starfall_window(plugins, seats=("human", "skill-10"), target=60)
    try:
        rng = random.Random(3)
        for _ in range(3):  # South's moves by hand, the bot's answers in the window's frames
            session = window.session
            session.play(rng.choice([m for m in session.state.legal_moves() if m.kind in ("swap", "move")]))
            for _ in range(400):  # the animations, then the bot's answer
                window.tick(0.05)
                if session.to_move == 0 or session.is_over:
                    break
        window.board.anims.skip()
        st = window.session.state
        scout = next((sq for sq in range(st.geo.size) if st.kind[sq] == 2 and st.side[sq] == 0
                      and any(m.kind == "claim" and m.a == sq for m in st.legal_moves())), None)
        if scout is None or st.to_move != 0:
            return
        spare = [sq for sq in range(st.geo.size) if st.owner[sq] < 0 and st.geo.chebyshev(sq, scout) > 1]
        for sq in spare[: 59 - st.territory()[0]]:  # South one claim short of the 60 it needs
            st.owner[sq] = 0
        window.board.refresh()
        window.click(*window.board.painter.center(scout))
        window.click_widget(window.board.mode_buttons["claim"])
        if window.dialog is not None:
            save(window, "end-rated")
    finally:
        window.close()


def starfall_screens(plugins, save: Saver) -> None:
    """A drone with its moves, fog from the seam, the Settings panel and the guided game."""
    window = _starfall_window(plugins)
    try:
        _starfall_moves(window, 40)
        st, view = window.session.state, window.board
        mine = [sq for sq in range(st.geo.size) if st.kind[sq] and st.side[sq] == st.to_move]
        best = max(mine, key=lambda sq: sum(1 for m in st.legal_moves() if m.a == sq and m.kind == "move"))
        window.click(*view.painter.center(best))
        save(window, "selected")
        window.board.cancel()
        window.open_settings()
        save(window, "settings")
    finally:
        window.close()
    window = _starfall_window(plugins, fog="seam")
    try:
        _starfall_moves(window, 30)
        save(window, "fog")
    finally:
        window.close()
    starfall_rated_end(plugins, save)
    window = _starfall_window(plugins)
    try:
        window.board.start_guided()
        view = window.board
        window.click(*view.painter.center(view.guide_squares[0]))
        save(window, "guided")
    finally:
        window.close()


def review_screen(game_id: str, plugins, save: Saver, *, seed: int) -> None:
    """A finished game reviewed: the graph filled, History's marks, the better move of the worst
    marked move drawn on the board. Both sides play the game's first bot, with one move in four
    picked at random (that is where the marks come from)."""
    from pegboard.ui import make_session, open_window
    from pegboard.ui.settings import MemorySettings

    store = MemorySettings()
    store.set_setting("starfall", "welcomed", True)
    session = make_session(game_id, None, _seats(plugins, game_id), plugins, seed=seed, threaded=False)
    window = open_window(session, plugins, schedule=False, settings_store=store)
    try:
        session = window.session  # a view may have started its own from the stored settings
        bot, rng = _first_bot(plugins, session.game), random.Random(seed)
        for _ in range(600):
            if session.is_over:
                break
            legal = session.state.legal_moves()
            if game_id == "starfall":  # no missiles: a board full of stars reads better
                legal = [m for m in legal if m.kind != "fire"]
            wild = bot is None or rng.random() < WILD.get(game_id, 0.25)
            session.play(rng.choice(legal) if wild else bot.choose(session.state.player_view(session.to_move), 0.0))
        if not session.is_over:
            return
        window.start_review()
        for _ in range(len(session.history) * 4 + 10):
            if not window.reviewing.runner.running:
                break
            window.tick(0.05)
            window.reviewing.runner.wait(60.0)
        rows = [r for r in window.reviewing.review.rows if r.mark is not None and r.best is not None]
        total = len(session.history)
        open_game = [r for r in rows if 0.2 * total <= r.number <= 0.6 * total] or rows  # before it is decided
        if open_game:  # the worst mark there, nearest the game's middle
            middle = total / 2
            worst = max(open_game, key=lambda r: (r.mark == "blunder", r.mark == "mistake", -abs(r.number - middle)))
            window.graph.on_jump(worst.number)
        if game_id == "starfall":
            window.board.anims.skip()
        save(window, "review")
    finally:
        window.close()


REVIEW_SEEDS = {"nodewar": 4, "starfall": 7}
WILD = {"starfall": 0.1}  # the share of random moves in a review screen's game (default 0.25)


def review_screens(plugins, out: Path, games: list[str]) -> None:
    """``<game>-review.png`` for every game with a board view (the built-in ones' seeds above)."""
    for game_id in games:
        def save(window, screen: str, game_id: str = game_id) -> None:
            path = out / f"{game_id}-{screen}.png"
            window.tick(0.05)
            window.save_screenshot(path)
            print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")

        review_screen(game_id, plugins, save, seed=REVIEW_SEEDS.get(game_id, 1))


def online_screens(plugins, out: Path) -> None:
    """The Play a friend panel with players waiting, the host's settings, and a fogged match as North."""
    from pegboard.online.client import HostSettings, OnlineClient
    from pegboard.online.server import LobbyThread
    from pegboard.online.store import Store

    def save(window, screen: str) -> None:
        path = out / f"starfall-{screen}.png"
        window.save_screenshot(path)
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")

    home = Path(os.environ["PEGBOARD_HOME"])
    with LobbyThread() as server:
        waiting = [
            OnlineClient(server.url, name, game, plugins=plugins, store=Store(home / name), workers="inline",
                         rating=rating, host=HostSettings(ruleset=ruleset, seat=0, seed=9))
            for name, game, ruleset, rating in (("Ann", "starfall", "fog_seam", 1131.0), ("Bo", "starfall", "standard", 984.0),
                                                ("Cy", "starfall", "open_sky", None), ("Dev", "nodewar", "skirmish", 1020.0))
        ]
        window = _starfall_window(plugins, seats=("human", "skill-50"), fog="seam")
        window.friend.client_options = {"store": Store(home / "window"), "workers": "inline"}

        def frames(until: Callable[[], bool], limit: int = 2000) -> None:
            for _ in range(limit):
                if until():
                    return
                window.tick(0.016)
                for other in waiting:
                    other.poll()
            raise SystemExit(f"the online screens did not come up in time: {window.friend.message}")

        try:
            for other in waiting:
                other.connect()
                other.ready()
            window.play_friend()
            panel = window.dialog
            panel.name_input.set_text("Eve")
            panel.lobby_input.set_text(server.url)
            panel.connect()
            frames(lambda: window.friend.connected)
            for _ in range(50):  # until every waiting player is on the list
                window.friend.refresh_list()
                for _ in range(5):
                    window.tick(0.016)
                    for other in waiting:
                        other.poll()
                if len(window.friend.players) == 3:
                    break
            ann_row = next(i for i, e in enumerate(window.friend.players) if e.get("name") == "Ann")
            panel.list.select(ann_row)
            panel.refresh()
            save(window, "online-panel")
            window.friend.pick(ann_row)
            frames(lambda: bool(window.friend.offer_lines))
            save(window, "online-offer")
            window.friend.accept()
            frames(lambda: window.session.online and waiting[0].player.started)
            rng = random.Random(4)
            ann = waiting[0]
            for _ in range(24):
                if window.session.is_over:
                    break
                if ann.my_turn:
                    ann.play(rng.choice([m for m in ann.legal_moves() if m.kind != "fire"]))
                elif window.session.input_block() is None:
                    window.session.play(rng.choice([m for m in window.session.state.legal_moves() if m.kind != "fire"]))
                for _ in range(100):  # until the move went round (the lobby is on another thread)
                    window.tick(0.016)
                    ann.poll()
                    if ann.my_turn or window.session.input_block() is None or window.session.is_over:
                        break
                    time.sleep(0.002)
            for _ in range(400):  # end on the window's turn
                if window.session.input_block() is None or window.session.is_over:
                    break
                if ann.my_turn:
                    ann.play(rng.choice([m for m in ann.legal_moves() if m.kind != "fire"]))
                window.tick(0.016)
                ann.poll()
                time.sleep(0.002)
            window.board.anims.skip()
            window.board.refresh()
            window.tick(0.05)
            save(window, "online-match")
        finally:
            window.close()
            for other in waiting:
                other.close(leave=True)


EXTRA_SCREENS: dict[str, Callable[[Any, Saver], None]] = {"nodewar": nodewar_extras, "starfall": starfall_screens}


def game_pictures(plugins, games: list[str]) -> None:
    """Each game's picture for the game chooser (its RendererSpec.picture): the board of a game
    under way, cut out of an 800x600 window."""
    from pegboard.ui import make_session, open_window
    from pegboard.ui.catalog import renderer_for

    for game_id in games:
        spec = renderer_for(plugins, game_id)
        if spec is None or spec.picture is None:
            continue
        session = make_session(game_id, None, _seats(plugins, game_id), plugins, seed=7, threaded=False)
        window = open_window(session, plugins, width=800, height=600, schedule=False)
        try:
            if window.show_history:
                window.toggle_history()
            _play(session, 24, _first_bot(plugins, session.game))
            for _ in range(40):
                window.tick(0.05)
            board = window.board.board_rect()
            image = window.render().get_region(int(board.x), int(board.y), int(board.width), int(board.height))
            image.save(str(spec.picture))
            print(f"wrote {spec.picture.relative_to(ROOT) if spec.picture.is_relative_to(ROOT) else spec.picture}")
        finally:
            window.close()


#: The sizes the layout is held to (issue 25): window pixels and the pixel ratio.
LAYOUT_SIZES = [(640, 480, 1), (800, 600, 1), (1280, 800, 1), (1920, 1080, 1), (2560, 1440, 1), (2560, 1600, 2)]


def size_screens(plugins, out: Path, games: list[str]) -> None:
    """Each game at every size of LAYOUT_SIZES, a game under way: <game>-size-<W>x<H>[@2].png."""
    from pegboard.ui import make_session, open_window
    from pegboard.ui.settings import MemorySettings

    for game_id in games:
        for width, height, scale in LAYOUT_SIZES:
            store = MemorySettings()
            store.set_setting("starfall", "welcomed", True)
            store.set_setting("starfall", "timers", True)  # the clock line too
            session = make_session(game_id, None, _seats(plugins, game_id), plugins, seed=7, threaded=False)
            window = open_window(session, plugins, width=width, height=height, schedule=False, settings_store=store,
                                 ui_scale=scale)
            try:
                _play(session, 20, _first_bot(plugins, session.game))
                for _ in range(40):
                    window.tick(0.05)
                path = out / f"{game_id}-size-{width}x{height}{'@2' if scale == 2 else ''}.png"
                window.save_screenshot(path)
                print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
            finally:
                window.close()


def chooser_screens(plugins, out: Path, sizes: list[tuple[int, int]]) -> None:
    """The game chooser (what ``pegboard play`` opens without a game) at each size."""
    from pegboard.ui.catalog import game_choices
    from pegboard.ui.chooser import ChooserWindow
    from pegboard.ui.settings import MemorySettings

    for width, height in sizes:
        window = ChooserWindow(game_choices(plugins), MemorySettings(), lambda _game: None, width=width, height=height)
        try:
            name = "chooser" if (width, height) == (1280, 800) else f"chooser-{width}x{height}"
            path = out / f"{name}.png"
            window.save_screenshot(path)
            print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
        finally:
            window.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game id (repeatable; default: every game with a renderer)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="output folder")
    parser.add_argument("--moves", type=int, default=30, help="moves played before the main screenshots")
    parser.add_argument("--max-moves", type=int, default=600, help="moves played to try to reach an end-of-game screen")
    parser.add_argument("--plugin", action="append", default=[], help="extra plugin file (repeatable)")
    parser.add_argument("--display", action="store_true", help="use the real display instead of headless EGL")
    parser.add_argument("--online", action="store_true", help="only the Play a friend screens (Starfall)")
    parser.add_argument("--review", action="store_true", help="only the Review screens (<game>-review.png)")
    parser.add_argument("--pictures", action="store_true",
                        help="only the games' pictures for the game chooser (written into the game packages)")
    args = parser.parse_args(argv)
    _prepare(args.display)
    os.environ["PEGBOARD_HOME"] = tempfile.mkdtemp(prefix="pegboard-shots-")  # never the user's profile
    from pegboard.ratings.profile import open_profile

    with open_profile() as profile:  # as after a first launch: no welcome question over the screens
        profile.set_setting("starfall", "welcomed", True)

    from pegboard.plugins.manager import Plugins, env_plugin_files, set_plugins

    plugins = Plugins(plugin_files=[*env_plugin_files(), *args.plugin])
    set_plugins(plugins)
    games = args.game or [g for g in plugins.games() if plugins.renderers(g)]
    if not games:
        print("no installed game has a board view yet; name one with --game to use the move list", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    if args.online:
        online_screens(plugins, args.out)
        return 0
    if args.pictures:
        game_pictures(plugins, games)
        return 0
    if args.review:
        review_screens(plugins, args.out, games)
        return 0
    chooser_screens(plugins, args.out, [(1280, 800), (800, 600)])
    size_screens(plugins, args.out, [g for g in games if g in ("nodewar", "starfall")])
    for game_id in games:
        shoot_game(game_id, args.out, plugins, moves=args.moves, max_moves=args.max_moves)
    review_screens(plugins, args.out, games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
