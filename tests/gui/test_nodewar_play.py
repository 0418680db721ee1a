"""A person plays Node War in the real (headless) window, only through clicks and keys.

One long scenario, the way someone would meet the features: moves by
clicking nodes and hints against the Easy bot, undo that takes back the bot's
answer, redo, a history jump that pauses the bot and Resume bot, Customize →
Apply mid-game (Red becomes a person and then a bot again), Customize → Start
new game on the Skirmish ruleset, a whole Skirmish game to its end with the
end-of-game dialog, export and import through the typed path of the file
dialog, an imported finished standard game whose end dialog offers 50 more
turns, and a bad import that names the line and keeps the game.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pyglet.window import key

from pegboard.plugins.manager import Plugins

pytestmark = pytest.mark.gui

BLUE, RED = (59, 130, 246), (239, 68, 68)


def pixel(image, x: float, y: float) -> tuple[int, int, int]:
    data = image.get_data("RGBA", image.width * 4)
    i = (int(round(y)) * image.width + int(round(x))) * 4
    return tuple(data[i : i + 3])


def near(a, b, tol=6) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


@pytest.fixture
def window():
    from pegboard.ui import make_session, open_window

    plugins = Plugins()
    session = make_session("nodewar", "standard", ["human", "easy"], plugins, threaded=False)
    win = open_window(session, plugins, schedule=False)
    yield win
    if not win.has_exit:
        win.close()


def click_point(window, p: int) -> None:
    window.click(*window.board.point_xy(p))


def click_move(window, move) -> None:
    """Play ``move`` the way a person does: click its source node, then its hint."""
    view = window.board
    assert view.selected is None
    click_point(window, move.src)
    assert view.selected == move.src, window.status.text.text
    assert view._hints.get(move.dst) == move, "the move is offered as a hint"
    click_point(window, move.dst)
    window.tick(0.03)  # the bot (inline in tests) answers here


def click_random_move(window, rng: random.Random) -> None:
    click_move(window, rng.choice(window.session.state.legal_moves()))


def choose(window, dialog, seat: int, bot_id: str) -> None:
    """Step the seat's ◀ value ▶ choice with clicks until it shows ``bot_id``."""
    for _ in range(len(dialog.options)):
        if dialog.seat_ids()[seat] == bot_id:
            return
        window.click_widget(dialog.choices[seat].next)
    assert dialog.seat_ids()[seat] == bot_id


def play_on(window) -> None:
    """An unfinished game was imported: answer the offer to review it with Play on."""
    offer = window.dialog
    assert offer is not None and offer.title == "Game imported" and offer.yes_button.text == "Review"
    window.click_widget(offer.no_button)
    assert window.dialog is None and window.reviewing is None


def type_path(window, path: Path) -> None:
    """Clear the focused path field with Backspace, type ``path`` and press Enter."""
    field = window.dialog.input
    assert field.focused
    field.caret = len(field.text)
    for _ in range(len(field.text)):
        window.press(key.BACKSPACE)
    assert field.text == ""
    window.type_text(str(path))
    window.press(key.ENTER)


def test_a_person_plays_node_war_against_a_bot_through_the_window(window, tmp_path):
    session, rng = window.session, random.Random(7)

    # -- moves by clicking; the Easy bot answers each one
    for expected in (2, 4, 6):
        click_random_move(window, rng)
        assert session.cursor == expected and session.history[-1].by == "easy"
    played = list(session.moves)

    # -- Ctrl+Z takes back the bot's answer too; Ctrl+Y brings both back
    window.press(key.Z, key.MOD_CTRL)
    assert session.cursor == 4 and session.to_move == 0 and session.bots_paused
    assert "paused" in window.status.text.text
    window.press(key.Y, key.MOD_CTRL)
    assert session.cursor == 6 and session.moves == played
    window.press(key.Z, key.MOD_CTRL)

    # -- a new move after undo drops the redo tail
    assert session.can_redo
    click_random_move(window, rng)
    assert session.cursor == 6 and not session.can_redo
    assert session.moves[:4] == played[:4]

    # -- a history jump to Red's turn pauses the bot until Resume bot
    window.click(*window.history.list.row_rect(3).center)
    assert session.cursor == 3 and session.to_move == 1
    window.tick(0.03)
    assert session.cursor == 3, "bots stay paused after a jump"
    assert "Resume bot" in window.status.text.text and window.buttons["resume"].enabled
    window.click_widget(window.buttons["resume"])
    window.tick(0.03)
    assert session.cursor == 4 and not session.can_redo and not window.buttons["resume"].enabled

    # -- Customize → Apply mid-game: Red becomes a person (the game goes on), then the bot again
    window.click_widget(window.buttons["customize"])
    dialog = window.dialog
    names = [name for _, name in dialog.options]
    assert names[:5] == ["Player", "Easy", "Medium", "Hard", "Expert"]
    choose(window, dialog, 1, "human")
    window.click_widget(dialog.apply_button)
    assert window.dialog is None and session.cursor == 4 and session.seats[1].is_human
    click_random_move(window, rng)
    assert session.cursor == 5 and session.to_move == 1, "no bot answered"
    click_random_move(window, rng)  # Red's move, by hand
    assert session.cursor == 6 and session.history[-1].by == "human"
    window.click_widget(window.buttons["customize"])
    choose(window, window.dialog, 1, "easy")
    window.click_widget(window.dialog.apply_button)
    click_random_move(window, rng)
    assert session.cursor == 8 and session.history[-1].by == "easy"

    # -- Customize → Start new game on another ruleset
    window.click_widget(window.buttons["customize"])
    dialog = window.dialog
    row = [r.id for r in dialog.rulesets].index("skirmish")
    window.click(*dialog.ruleset_list.row_rect(row).center)
    assert not dialog.apply_button.enabled, "another ruleset needs a new game"
    window.click_widget(dialog.new_button)
    assert session.cursor == 0 and session.game.width == 9 and session.ruleset == "nodewar/skirmish"
    assert window.board.nw is session.game, "a fresh board for the new ruleset"
    assert [c.id for c in session.seats] == ["human", "easy"]

    # -- a whole Skirmish game by clicking; export halfway through the typed path
    exported = tmp_path / "halfway.txt"
    while not session.is_over:
        click_random_move(window, rng)
        if session.cursor in (10, 11) and not exported.exists():
            window.click_widget(window.buttons["export"])
            type_path(window, exported)
            assert window.dialog is None and exported.exists()
            halfway = list(session.moves)
    lines = exported.read_text(encoding="utf-8").splitlines()
    assert "# ruleset: nodewar/skirmish" in lines and "# red: Easy" in lines
    moves = [line for line in lines if line and not line.startswith("#")]
    assert len(moves) == len(halfway) and moves[0].startswith("1 Blue grow 4,1 -> ")

    # -- the end-of-game dialog: result and reason; extend when the turn limit ended it
    end = window.dialog
    result = session.result
    assert end is not None and end.title == ("Draw" if result.winner is None else "You win" if result.winner == 0 else "You lose")
    assert end.reason.text.endswith(".")
    img = window.render()
    window.save_screenshot(tmp_path / "end.png")
    window.click_widget(end.close_button)
    assert window.dialog is None and session.is_over
    click_point(window, session.state.base[0])  # a click on the finished board brings the dialog back
    end = window.dialog
    assert end is not None and end.title in ("You win", "You lose", "Draw")
    if result.reason == "turn_limit":
        assert end.extend_button.text == "Play 20 more turns"  # Skirmish extends by 20
        window.click_widget(end.extend_button)
        assert not session.is_over and session.state.turn_limit == 100
    else:
        assert not hasattr(end, "extend_button")
        window.click_widget(end.close_button)
    assert window.dialog is None
    assert img.width == window.width

    # -- import the halfway file through the typed path: the same moves, bots paused
    window.click_widget(window.buttons["import"])
    type_path(window, exported)
    play_on(window)
    assert session.moves == halfway and session.bots_paused and not session.is_over
    assert f"Imported {len(halfway)} moves" in window.status.text.text
    assert [r.by for r in session.history] == ["import"] * len(halfway)

    # -- after an import where the bot is to move, it waits for Resume bot
    odd = tmp_path / "odd.txt"
    odd.write_text("\n".join(lines[: lines.index(moves[-1])]) + "\n", encoding="utf-8")  # one move less
    window.click_widget(window.buttons["import"])
    type_path(window, odd)
    play_on(window)
    assert session.cursor == len(halfway) - 1 and session.to_move == 1 and session.bots_paused
    window.tick(0.03)
    assert session.cursor == len(halfway) - 1, "the bot stays paused after an import"
    assert "Resume bot" in window.status.text.text
    window.click_widget(window.buttons["resume"])
    window.tick(0.03)
    assert session.cursor == len(halfway) and session.history[-1].by == "easy"

    # -- an imported standard game that hit the turn limit: the end dialog offers 50 more turns
    finished = tmp_path / "finished.txt"
    write_finished_standard_game(session, finished)
    window.click_widget(window.buttons["import"])
    type_path(window, finished)
    end = window.dialog
    assert session.ruleset == "nodewar/standard" and session.game.width == 13 and session.is_over
    assert end is not None and end.extend_button.text == "Play 50 more turns"
    assert "Imported" in window.status.text.text and "Your move" not in window.status.text.text, \
        "a finished game has no move to wait for"
    window.click_widget(end.extend_button)
    assert window.dialog is None and not session.is_over and session.state.turn_limit == 350
    assert "extended" in window.status.text.text

    # -- a bad file: the error names the line and the reason; the game is untouched
    before = list(session.moves)
    bad = tmp_path / "bad.txt"
    bad.write_text("# ruleset: nodewar/standard\n1 Blue grow 6,2 -> 6,6\n2 Red grow 6,16 -> 6,6\n", encoding="utf-8")
    window.click_widget(window.buttons["import"])
    type_path(window, bad)
    error = window.dialog
    assert error is not None and error.title == "Import failed"
    assert "line 3" in error.message.text and "unchanged" in error.message.text
    window.click_widget(error.ok)
    assert session.moves == before and session.game.width == 13


def write_finished_standard_game(session, path: Path) -> None:
    """A random standard game played past turn 300 on a window-less session, exported as .txt."""
    from pegboard import load_game
    from pegboard.match.session import Session

    game = load_game("nodewar", "standard", plugins=session.plugins)
    shadow = Session(game, ["human", "human"], plugins=session.plugins, threaded=False)
    rng = random.Random(11)
    while not shadow.is_over:
        shadow.play(rng.choice(shadow.state.legal_moves()))
    assert shadow.result.reason == "turn_limit", "seed 11 reaches the turn limit"
    shadow.export(path)


def test_a_person_and_a_friend_share_the_window_and_bots_can_watch(window):
    """Player vs Player alternates clicks; Easy vs Easy plays by itself and the person only watches."""
    session, rng = window.session, random.Random(3)
    window.click_widget(window.buttons["customize"])
    choose(window, window.dialog, 1, "human")
    window.click_widget(window.dialog.apply_button)
    for expected in (1, 2, 3):
        click_random_move(window, rng)
        assert session.cursor == expected
    assert [r.seat for r in session.history] == [0, 1, 0]
    img = window.render()
    last = session.history[-1].move
    assert near(pixel(img, *window.board.point_xy(last.dst)), BLUE, 2)

    window.click_widget(window.buttons["customize"])
    choose(window, window.dialog, 0, "easy")
    choose(window, window.dialog, 1, "easy")
    window.click_widget(window.dialog.apply_button)
    for _ in range(4):
        window.tick(0.03)
    assert session.cursor == 7 and all(r.by == "easy" for r in session.history[3:])
    window.click(*window.board.point_xy(session.state.base[session.to_move]))
    assert "is to move" in window.status.text.text, "a person cannot move for a bot"


def test_the_bot_thinks_in_another_process_while_the_window_keeps_drawing():
    """The worker `pegboard play` uses: a forked process per bot move; the status shows it thinking."""
    from pegboard.match.session import default_bot_worker
    from pegboard.ui import make_session, open_window

    plugins = Plugins()
    session = make_session("nodewar", "skirmish", ["human", "hard"], plugins, workers=default_bot_worker())
    window = open_window(session, plugins, schedule=False)
    try:
        click_random_move(window, random.Random(5))
        assert session.thinking == 1 and session.cursor == 1
        assert window.status.text.text == "Red (Hard) is thinking…"
        window.render()  # frames keep coming while it thinks
        click_point(window, session.state.base[0])
        assert window.status.text.text == "Red (Hard) is to move.", "clicks during its turn say why nothing happens"
        assert session.wait_for_bot(30)
        window.tick(0.03)
        assert session.cursor == 2 and session.thinking is None and session.history[-1].by == "hard"
    finally:
        window.close()


def test_resizing_keeps_the_board_playable(window):
    from pegboard.ui.widgets import text_width

    session = window.session
    for width, height in ((800, 600), (1024, 700), (1280, 800)):
        window.send("on_resize", width, height)
        area, board = window.board_area, window.board
        assert board.area == area and area.right <= width and area.top <= height - 40
        for p in (session.state.base[0], session.state.base[1], session.game.point(0, 0), session.game.point(12, 18)):
            x, y = board.point_xy(p)
            assert area.contains(x, y), "every lattice point is inside the board area"
        assert window.buttons["new"].rect.right < window.evalbar.rect.x
        assert all(text_width(b.shown_text()) <= b.rect.width for b in window.buttons.values())
        window.say("Showing the position after move 3. Red (Easy) is paused: press Resume bot or play its move yourself.")
        line = window.status.text
        assert text_width(line.text, line.size) <= line.rect.width, "the status sentence is shown whole"
    click_random_move(window, random.Random(1))
    assert session.cursor == 2
