"""Play a friend in the real (headless) window, against a loopback lobby and a scripted client.

The window is driven only through synthetic mouse and key events: the top bar's
Play a friend button, the panel's fields, list and buttons, the board's nodes.
The other side is an :class:`OnlineClient` polled by the same loop.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("PYGLET_HEADLESS", "1")  # before pyglet is first imported

from pyglet.window import key  # noqa: E402

from pegboard.online.store import Store  # noqa: E402
from pegboard.ui import theme  # noqa: E402
from pegboard.ui.endwords import end_words  # noqa: E402
from support.online_helpers import DEADLINE, HostSettings, client, lobby, pump  # noqa: E402
from support.windows import close, pixel  # noqa: E402

pytestmark = pytest.mark.gui


@pytest.fixture
def window(plugins: Any, tmp_path: Path) -> Any:
    from pegboard.ui import make_session, open_window
    from pegboard.ui.settings import MemorySettings

    session = make_session("nodewar", "skirmish", ["human", "easy"], plugins, threaded=False)
    win = open_window(session, plugins, schedule=False, settings_store=MemorySettings())
    win.friend.client_options = {"store": Store(tmp_path / "window"), "workers": "inline"}
    yield win
    if not win.has_exit:
        win.close()


def run(win: Any, others: list[Any], until: Callable[[], bool]) -> None:
    """Frames of the window (and polls of the other clients) until ``until()`` holds."""
    end = time.monotonic() + DEADLINE
    while not until():
        if time.monotonic() > end:
            raise AssertionError(f"timed out; the window says {win.status.text.text!r}, "
                                 f"the panel {win.friend.message!r}")
        win.tick(0.016)
        for other in others:
            other.poll()
        time.sleep(0.002)


def type_into(win: Any, field: Any, text: str) -> None:
    """Click a text field, empty it with Backspace and type ``text``."""
    win.click_widget(field)
    win.press(key.END)
    for _ in range(len(field.text)):
        win.press(key.BACKSPACE)
    win.type_text(text)
    assert field.text == text


def open_panel(win: Any, name: str, url: str) -> Any:
    win.click_widget(win.buttons["friend"])
    panel = win.dialog
    assert panel is win.friend.dialog and panel.title == "Play a friend"
    type_into(win, panel.name_input, name)
    type_into(win, panel.lobby_input, url)
    win.click_widget(panel.connect_button)
    run(win, [], lambda: win.friend.connected)
    return panel


def click_move(win: Any, move: Any) -> None:
    """A Node War move the way a person plays it: its node, then the hint where it goes."""
    view = win.board
    win.click(*view.point_xy(move.src))
    assert view.selected == move.src, win.status.text.text
    win.click(*view.point_xy(move.dst))


def join_as_guest(win: Any, host: Any, url: str) -> None:
    """``host`` waits on the list; the window (as Bob) picks it, accepts its settings and the match starts."""
    host.connect()
    host.ready()
    heard: dict[int, list[Any]] = {}
    pump([host], lambda: any(n.kind == "waiting" for n in heard.get(id(host), [])), notices=heard)
    win.friend.connect("Bob", url)
    run(win, [host], lambda: bool(win.friend.players))
    win.friend.pick(0)
    run(win, [host], lambda: bool(win.friend.offer_lines))
    win.friend.accept()
    run(win, [host], lambda: win.session.online and host.player.started)


def test_pick_a_friend_from_the_list_and_play_in_the_window(window: Any, plugins: Any, tmp_path: Path) -> None:
    win = window
    with lobby() as server:
        ann = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=0),
                     rating=1200.0)
        try:
            ann.connect()
            ann.ready()
            heard: dict[int, list[Any]] = {}
            pump([ann], lambda: any(n.kind == "waiting" for n in heard.get(id(ann), [])), notices=heard)
            panel = open_panel(win, "Bob", server.url)
            run(win, [ann], lambda: bool(win.friend.players))
            assert panel.list.rows[0].startswith("Ann  ·  nodewar  ·  nodewar/skirmish")
            win.click(*panel.list.row_rect(0).center)
            assert panel.play_button.enabled
            win.click_widget(panel.play_button)
            # the host's settings reach the window before the match: accept them
            run(win, [ann], lambda: bool(win.friend.offer_lines))
            assert panel.accept_button.visible and panel.decline_button.visible
            assert any("You play Red" in line for line in panel.list.rows)
            win.click_widget(panel.accept_button)
            run(win, [ann], lambda: win.session.online and ann.player.started)
            assert win.dialog is None and win.friend.in_match
            assert win.status.text.text == "Connected · Ann's turn (Blue) — Playing Ann online: you are Red."
            assert "undo" not in win.buttons and win.buttons["resign"].visible
            # the window plays Red: its side is at the bottom
            view, game = win.board, win.session.game
            assert view.flipped
            assert view.point_xy(game.base_points[1])[1] < view.point_xy(game.base_points[0])[1]
            # Ann moves; the window sees it and it is its turn
            ann.play(random.Random(1).choice(ann.legal_moves()))
            run(win, [ann], lambda: win.session.cursor == 1)
            win.tick(0.016)
            assert win.status.text.text == "Connected · Your turn (Red)"
            # a move made by mouse in the window reaches Ann
            move = random.Random(2).choice(win.session.state.legal_moves())
            click_move(win, move)
            host_session = ann.player.host.session
            run(win, [ann], lambda: host_session.cursor == 2)
            assert host_session.history[1].move == move and host_session.history[1].seat == 1
            run(win, [ann], lambda: win.session.cursor == 2)
            win.tick(0.016)
            assert win.status.text.text == "Connected · Ann's turn (Blue)"
            # resign from the top bar: a loss, the end dialog, back to the window's own game
            win.click_widget(win.buttons["resign"])
            win.click_widget(win.dialog.yes_button)
            run(win, [ann], lambda: win.session.result is not None and ann.result is not None)
            assert ann.result.winner == 0 and ann.result.reason == "resign"
            end = win.dialog
            assert end is not None and end.title == "You lose" and end.outcome == "loss", "spoken from the window's seat"
            assert close(pixel(win.render(), end.rect.x + 6, end.rect.top - 10), theme.LOSS), "a loss's band is red"
            assert end.reason.text.startswith("Blue wins") and end.reason.text.endswith(".")
            assert "Your rating: 1000 → 9" in end.note.text  # rated: both sides sent a rating
            win.click_widget(end.new_button)
            assert not win.session.online and win.session.game.id == "nodewar" and "undo" in win.buttons and "resign" not in win.buttons
        finally:
            ann.close(leave=True)


def test_wait_with_a_code_and_play_the_friend_who_types_it(window: Any, plugins: Any, tmp_path: Path) -> None:
    win = window
    with lobby(listing=False) as server:
        cid = client(server.url, "Cid", "nodewar", tmp_path, plugins, auto_accept=True)
        try:
            cid.connect()
            panel = open_panel(win, "Dee", server.url)
            assert win.friend.mode == "codes" and not panel.play_button.visible
            win.click_widget(panel.ready_button)
            run(win, [cid], lambda: win.friend.code is not None)
            code = win.friend.code
            assert code in panel.message.text and panel.ready_button.text == "Stop waiting"
            cid.join(code.lower())
            run(win, [cid], lambda: win.session.online and cid.player.started)
            seat = win.session.seat
            if cid.seat == 0:  # seats are drawn by lot: the friend may move first
                cid.play(random.Random(3).choice(cid.legal_moves()))
                run(win, [cid], lambda: win.session.cursor == 1)
            win.tick(0.016)
            assert win.status.text.text.startswith(f"Connected · Your turn ({win.session.seat_name(seat)})")
            # the network drops: the status line says so, the link comes back by itself
            win.friend.client.drop_connection()
            run(win, [cid], lambda: win.status.text.text.startswith("Reconnecting…"))
            assert "Your turn" in win.status.text.text
            run(win, [cid], lambda: win.status.text.text.startswith("Connected · Your turn"))
            ply = win.session.cursor
            move = random.Random(4).choice(win.session.state.legal_moves())
            click_move(win, move)
            run(win, [cid], lambda: cid.player.guest.last is not None and cid.player.guest.last.ply == ply + 1)
            assert cid.player.guest.last.last["move"] == win.session.game.encode_move(move)
            assert win.status.text.text == "Connected · Cid's turn (" + win.session.seat_name(1 - seat) + ")"
            # Cid gives up: the online end screen is the local one's, a win from the window's seat
            cid.resign()
            run(win, [cid], lambda: win.session.result is not None and win.dialog is not None)
            end, result = win.dialog, win.session.result
            assert result.winner == seat and result.reason == "resign"
            assert end.title == "You win" and end.outcome == "win"
            assert close(pixel(win.render(), end.rect.x + 6, end.rect.top - 10), theme.WIN), "a win's band is green"
            words = end_words(result, win.session.game.seats, [s == seat for s in range(2)], win.session.seat_name)
            assert end.score.text == words.score and end.reason.text == words.reason
            assert (end.score.text != "") == bool(result.scores), "the score shows whenever the result has one"
        finally:
            cid.close(leave=True)


def test_a_fogged_starfall_match_as_the_guest(plugins: Any, tmp_path: Path) -> None:
    """Starfall's window as the guest under fog: North at the bottom, its own moves in the history with
    their text, the host's as North may read them, and the same number of plies as the host."""
    from pegboard.ui import make_session, open_window
    from pegboard.ui.settings import MemorySettings

    store = MemorySettings()
    store.set_setting("starfall", "welcomed", True)
    session = make_session("starfall", "standard", ["human", "skill-0"], plugins, threaded=False)
    win = open_window(session, plugins, schedule=False, settings_store=store)
    win.friend.client_options = {"store": Store(tmp_path / "window"), "workers": "inline"}
    rng = random.Random(8)
    with lobby() as server:
        ann = client(server.url, "Ann", "starfall", tmp_path, plugins, host=HostSettings(ruleset="fog_seam", seat=0))
        try:
            ann.connect()
            ann.ready()
            # Starfall's Settings → Play a friend opens the window's panel
            settings = win.open_settings()
            win.click_widget(settings.widget_for("friend"))
            assert win.dialog is win.friend.dialog and win.dialog.title == "Play a friend"
            win.friend.connect("Bob", server.url)
            run(win, [ann], lambda: win.friend.connected)
            for _ in range(100):
                win.friend.refresh_list()
                run(win, [ann], lambda: True)
                for _ in range(5):
                    win.tick(0.016)
                    ann.poll()
                    time.sleep(0.002)
                if win.friend.players:
                    break
            win.friend.pick(0)
            run(win, [ann], lambda: bool(win.friend.offer_lines))
            # the settings in sentences, never the engine's values ("enabled = False", "1000.0")
            assert "Fog: seam." in win.friend.offer_lines and "Salvage: off." in win.friend.offer_lines
            for line in win.friend.offer_lines:
                assert " = " not in line and "False" not in line and "True" not in line and ".0" not in line, line
            win.friend.accept()
            run(win, [ann], lambda: win.session.online and ann.player.started)
            view = win.board
            assert view.me == 1 and view.painter.bottom == 1 and "you are North" in view.title_text()
            host = ann.player.host.session
            while host.cursor < 8:
                if ann.my_turn:
                    ann.play(rng.choice([m for m in ann.legal_moves() if m.kind != "fire"]))
                elif win.session.input_block() is None:
                    win.session.play(rng.choice([m for m in win.session.state.legal_moves() if m.kind != "fire"]))
                run(win, [ann], lambda: ann.my_turn or win.session.input_block() is None)
            run(win, [ann], lambda: win.session.cursor == host.cursor)
            rows = win.session.history
            assert [r.number for r in rows] == list(range(1, host.cursor + 1))
            for mine, theirs in zip(rows, host.history, strict=True):
                if theirs.seat == 1:
                    assert mine.seat == 1 and mine.text == theirs.text and mine.move == theirs.move
                else:  # the host's moves as North may read them; encoded only when North saw all of them
                    assert mine.seat == 0 and mine.text == theirs.text_for(1)
                    assert mine.move == (theirs.move if theirs.text_for(1) == theirs.text else None)
            assert win.session.state.rules.fogged
        finally:
            ann.close(leave=True)
            win.close()


def test_a_window_closed_mid_match_picks_it_up_again(window: Any, plugins: Any, tmp_path: Path) -> None:
    from pegboard.ui import make_session, open_window
    from pegboard.ui.settings import MemorySettings

    win = window
    rng = random.Random(6)
    with lobby() as server:
        ann = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=0))
        try:
            join_as_guest(win, ann, server.url)
            ann.play(rng.choice(ann.legal_moves()))
            run(win, [ann], lambda: win.session.input_block() is None)
            win.session.play(rng.choice(win.session.state.legal_moves()))
            host = ann.player.host.session
            run(win, [ann], lambda: host.cursor == 2)
            win.on_close()  # the person closes the window mid-match: the match stays open
            run_until = time.monotonic() + DEADLINE
            while ann.player.peer_online and time.monotonic() < run_until:
                ann.poll()
                time.sleep(0.002)
            assert not ann.player.peer_online and host.result is None
            session = make_session("nodewar", "skirmish", ["human", "easy"], plugins, threaded=False)
            again = open_window(session, plugins, schedule=False, settings_store=MemorySettings())
            again.friend.client_options = dict(win.friend.client_options)
            try:
                again.friend.connect("Bob", server.url)  # the same name and lobby: the unfinished match comes back
                run(again, [ann], lambda: again.session.online and again.session.input_block() is not None)
                assert again.session.seat == 1 and again.friend.client.player.peer_online
                ann.play(rng.choice(ann.legal_moves()))
                run(again, [ann], lambda: again.session.cursor == 1)
                assert [r.number for r in again.session.history] == [3]  # its history starts where it came back
                assert again.session.history[0].move == host.history[2].move
                again.tick(0.016)
                assert again.status.text.text.startswith("Connected · Your turn (Red)")
            finally:
                again.on_close()
        finally:
            ann.close(leave=True)


def test_a_move_made_while_the_host_is_away_is_kept_and_played_when_it_is_back(window: Any, plugins: Any,
                                                                               tmp_path: Path) -> None:
    win = window
    rng = random.Random(9)
    with lobby() as server:
        ann = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=0))
        back = None
        try:
            join_as_guest(win, ann, server.url)
            ann.play(rng.choice(ann.legal_moves()))
            run(win, [ann], lambda: win.session.input_block() is None)
            ann.close()  # the host's program stops; the window does not know yet
            run(win, [], lambda: "Ann is away" in win.status.text.text)
            move = rng.choice(win.session.state.legal_moves())
            click_move(win, move)  # played on the board as any move
            pending = "Ann is away: your move is kept and will be sent when they are back"
            run(win, [], lambda: pending in win.status.text.text)
            assert win.session.input_block() == pending + "."
            assert win.session.cursor == 1  # not on the board as played: the host decides
            back = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=0))
            back.connect(back.resume_unfinished())  # the host's program comes back with its match
            run(win, [back], lambda: win.session.cursor == 2)
            assert back.player.host.session.history[1].move == move and win.session.history[1].move == move
            win.tick(0.016)
            assert win.status.text.text == "Connected · Ann's turn (Blue)"
        finally:
            ann.close(leave=True)
            if back is not None:
                back.close(leave=True)


def test_an_unreachable_lobby_is_one_line_in_the_panel_and_escape_closes_it(window: Any) -> None:
    import socket

    win = window
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    panel = win.play_friend()
    type_into(win, panel.name_input, "Bob")
    type_into(win, panel.lobby_input, f"ws://127.0.0.1:{port}")
    win.press(key.ENTER)  # Enter connects
    assert win.friend.connecting or win.friend.message.startswith("Connecting")
    run(win, [], lambda: not win.friend.connecting)
    assert not win.friend.connected
    assert panel.message.text == (f"Cannot reach the lobby at ws://127.0.0.1:{port}: nothing answers there. "
                                  "Is the lobby running, and is the address right?")  # never "Connect call failed (...)"
    assert panel.connect_button.enabled  # try again with another address
    type_into(win, panel.lobby_input, "http://example.org")
    win.click_widget(panel.connect_button)
    assert "ws://" in panel.message.text and win.friend.client is None
    win.press(key.ESCAPE)
    assert win.dialog is None and win.friend.dialog is None and not win.session.online


def test_a_window_back_after_the_host_closed_the_match_says_so(window: Any, plugins: Any, tmp_path: Path) -> None:
    from pegboard.ui import make_session, open_window
    from pegboard.ui.settings import MemorySettings

    win = window
    with lobby() as server:
        ann = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=0))
        try:
            join_as_guest(win, ann, server.url)
            win.on_close()  # the guest's window closes mid-match ...
            pump([ann], lambda: not ann.player.peer_online)
            ann.resign()  # ... and the host leaves the match and the lobby meanwhile
            pump([ann], lambda: ann.result is not None)
        finally:
            ann.close(leave=True)
        session = make_session("nodewar", "skirmish", ["human", "easy"], plugins, threaded=False)
        again = open_window(session, plugins, schedule=False, settings_store=MemorySettings())
        again.friend.client_options = dict(win.friend.client_options)
        try:
            again.friend.connect("Bob", server.url)
            run(again, [], lambda: again.dialog is not None)
            assert again.dialog.title == "The match is closed" and "Ann closed the match" in again.dialog.message.text
            assert not again.session.online and again.session is session
        finally:
            again.on_close()


def test_the_window_chimes_when_the_friend_has_moved_and_it_is_your_turn(window: Any, plugins: Any,
                                                                        tmp_path: Path) -> None:
    win = window
    assert win.sound.player.wait()
    rng = random.Random(9)
    with lobby() as server:
        ann = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=0))
        try:
            join_as_guest(win, ann, server.url)
            win.tick(0.5)
            win.sound.played.clear()
            ann.play(rng.choice(ann.legal_moves()))  # Ann's move: the window's turn
            run(win, [ann], lambda: win.session.input_block() is None)
            for _ in range(5):
                win.tick(0.1)
            assert list(win.sound.played) == ["move", "your_turn"]
            win.session.play(rng.choice(win.session.state.legal_moves()))  # the window's own move: no chime
            run(win, [ann], lambda: win.session.cursor == 2)
            for _ in range(5):
                win.tick(0.1)
            assert list(win.sound.played) == ["move", "your_turn", "move"]
            ann.play(rng.choice(ann.legal_moves()))
            run(win, [ann], lambda: win.session.input_block() is None)
            for _ in range(5):
                win.tick(0.1)
            assert list(win.sound.played) == ["move", "your_turn", "move", "move", "your_turn"]
        finally:
            ann.close(leave=True)


def test_a_match_that_starts_with_your_move_chimes_once(window: Any, plugins: Any, tmp_path: Path) -> None:
    win = window
    assert win.sound.player.wait()
    with lobby() as server:
        ann = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=1))
        try:
            win.sound.played.clear()
            join_as_guest(win, ann, server.url)  # the window plays Blue, who moves first
            run(win, [ann], lambda: win.session.input_block() is None)
            for _ in range(5):
                win.tick(0.1)
            assert list(win.sound.played) == ["your_turn"]
        finally:
            ann.close(leave=True)


def _is_sentence(text: str) -> bool:
    return bool(text) and not text[0].islower() and text[-1] in ".!?…"


@pytest.mark.parametrize("failure", [OSError(111, "Connect call failed ('127.0.0.1', 9)"), RuntimeError("boom {'t': 1}")])
def test_an_unexpected_connection_failure_is_a_sentence_without_the_exceptions_words(
        window: Any, monkeypatch: pytest.MonkeyPatch, failure: Exception) -> None:
    from pegboard.online.client import OnlineClient

    def fail(self: Any, ticket: Any = None) -> str:
        raise failure

    monkeypatch.setattr(OnlineClient, "connect", fail)
    win = window
    win.friend.connect("Bob", "ws://127.0.0.1:9")
    run(win, [], lambda: not win.friend.connecting)
    said = win.friend.message
    assert said.startswith("Cannot reach the lobby at ws://127.0.0.1:9: ") and _is_sentence(said), said
    assert "Connect call failed" not in said and "boom" not in said and "'" not in said, said


def test_what_the_panel_says_during_a_match_reads_as_sentences(window: Any, plugins: Any, tmp_path: Path) -> None:
    """The lobby's and the host's words (a pick, a refusal of the guest's junk) come to the window's
    panel and status line as sentences: a capital, a full stop, no Python repr."""
    from support.online_helpers import pump

    win = window
    said: list[str] = []
    original = win.friend._say

    def record(text: str) -> None:
        original(text)
        said.append(win.friend.message)

    win.friend._say = record  # what the panel shows, every time it changes
    with lobby() as server:
        bob = client(server.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
        try:
            win.friend.connect("Ann", server.url)
            run(win, [], lambda: win.friend.connected)
            win.friend.ready()
            bob.connect()
            pump([bob], lambda: bool(bob.player.players) or (bob.refresh_list() or False), deadline=10)
            bob.pick(int(bob.player.players[0]["id"]))
            run(win, [bob], lambda: win.session.online and bob.player.started)
            token = bob.player.ticket.token
            bob._call(bob._link.send({"t": "relay", "data": {"t": "explode", "token": token}}), 5.0)
            run(win, [bob], lambda: any("was refused" in s for s in said))
        finally:
            bob.close(leave=True)
    checked = 0
    for text in said:
        assert _is_sentence(text) and "{" not in text, text
        checked += 1
    assert checked >= 3
    assert "Bob's explode was refused: unknown message: a match has no message called explode." in said
    assert any(s.startswith("Bob picked you") for s in said)
