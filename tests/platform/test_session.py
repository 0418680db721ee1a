"""The match session: history, undo/redo/jump, bots, clocks, listeners, records.

Driven with the toy connect game from tests/gui/gridtoy.py.
"""

from __future__ import annotations

import json
import sys

import pytest

from pegboard.errors import MatchImportError, SessionError, UnknownId
from pegboard.game import IllegalMove
from pegboard.match.session import Clock, ClockSettings, SeatController, Session, seat_controller
from pegboard.records.validate import validate_record
from support import gridtoy
from support.gridtoy import PASS, EventLog, GateBot, ToyGame, load_ruleset, make_plugins


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def plugins():
    return make_plugins()


def make(seats=("human", "human"), ruleset="standard", plugins=None, **kwargs) -> Session:
    plugins = plugins or make_plugins()
    kwargs.setdefault("threaded", False)
    return Session(ToyGame(load_ruleset(ruleset)), list(seats), seed=3, plugins=plugins, **kwargs)


def cell(session: Session, x: int, y: int) -> int:
    return session.game.cell(x, y)


# -- history, undo, redo, jump -------------------------------------------------------------------


def test_moves_are_recorded_with_their_events_and_text():
    s = make()
    s.play(cell(s, 0, 0))
    s.play(cell(s, 1, 0))
    assert s.cursor == 2 and len(s.history) == 2
    first = s.history[0]
    assert (first.number, first.seat, first.text, first.by) == (1, 0, "a1", "human")
    assert [e.kind for e in first.events] == ["stone_placed"]
    assert s.moves == [cell(s, 0, 0), cell(s, 1, 0)]


def test_undo_between_two_people_takes_back_one_move_and_redo_replays_it():
    s = make()
    for x in range(3):
        s.play(cell(s, x, 0))
    assert s.undo() == 1
    assert s.cursor == 2 and s.state.ply == 2 and s.can_redo
    assert s.redo() == 1
    assert s.cursor == 3 and s.state.board[cell(s, 2, 0)] == 0
    assert not s.can_redo


def test_a_new_move_after_undo_drops_the_redo_tail():
    s = make()
    for x in range(3):
        s.play(cell(s, x, 0))
    s.undo()
    s.undo()
    assert len(s.history) == 3
    s.play(cell(s, 4, 4))
    assert len(s.history) == 2 and not s.can_redo
    assert s.history[-1].move == cell(s, 4, 4)


def test_undo_against_a_bot_takes_back_the_bots_answer_too():
    s = make(("human", "first"))
    s.play(cell(s, 3, 3))
    s.poll()
    assert s.cursor == 2 and s.history[1].by == "first"
    assert s.undo() == 2
    assert s.cursor == 0 and s.to_move == 0
    assert s.bots_paused
    assert s.redo() == 2  # the human's move and the bot's answer, until the human is to move again
    assert s.cursor == 2 and s.to_move == 0


def test_undo_when_the_bot_moved_first_stops_at_the_start():
    s = make(("first", "human"))
    s.poll()
    assert s.cursor == 1
    assert s.undo() == 1
    assert s.cursor == 0 and s.bots_paused
    s.poll()
    assert s.cursor == 0, "bots stay paused after undo"


def test_undo_between_two_bots_takes_back_one_move():
    s = make(("first", "dice"))
    s.poll()
    s.poll()
    s.poll()
    assert s.cursor == 3
    assert s.undo() == 1
    assert s.cursor == 2


def test_undo_on_a_finished_game_reopens_it():
    s = make()
    for x in range(3):  # Black a1 b1 c1, White a2 b2 c2
        s.play(cell(s, x, 0))
        s.play(cell(s, x, 1))
    s.play(cell(s, 3, 0))
    assert s.is_over and s.result.winner == 0
    with pytest.raises(IllegalMove) as info:
        s.play(cell(s, 5, 4))
    assert info.value.rule == "not_your_turn"
    s.undo()
    assert not s.is_over and s.to_move == 0


def test_jump_shows_the_position_after_a_move_and_keeps_the_tail():
    s = make()
    for x in range(4):
        s.play(cell(s, x, 2))
    s.jump(1)
    assert s.cursor == 1 and s.state.ply == 1 and len(s.history) == 4
    assert s.state.board[cell(s, 1, 2)] == -1
    s.jump(4)
    assert s.state.board[cell(s, 3, 2)] == 1
    s.jump(0)
    assert s.state.ply == 0
    with pytest.raises(SessionError):
        s.jump(5)
    s.jump(2)
    s.play(cell(s, 5, 4))
    assert len(s.history) == 3


# -- bots ------------------------------------------------------------------------------------------


def test_bots_stay_paused_until_a_person_moves_or_resume():
    s = make(("human", "first"))
    s.play(cell(s, 5, 4))
    s.poll()
    s.undo()  # back to the start: the human is to move
    s.play(cell(s, 5, 3))
    assert not s.bots_paused
    s.poll()
    assert s.cursor == 2, "a person's move lets the bot answer"
    s.jump(1)  # the bot is to move, but paused
    s.poll()
    assert s.cursor == 1
    s.resume_bots()
    s.poll()
    assert s.cursor == 2 and not s.bots_paused


def test_a_person_may_play_a_paused_bots_turn_but_not_a_running_one():
    s = make(("human", "first"))
    s.play(cell(s, 0, 0))
    assert s.input_block() == "White (First) is to move."
    with pytest.raises(IllegalMove):
        s.play(cell(s, 1, 1))
    s.pause_bots()
    s.play(cell(s, 1, 1))
    assert s.cursor == 2 and s.history[1].by == "human"


def test_threaded_bot_thinks_off_the_calling_thread_and_a_stale_answer_is_dropped():
    GateBot.gate.clear()
    GateBot.calls = 0
    s = make(("human", "gate"), threaded=True)
    try:
        s.play(cell(s, 2, 2))
        s.poll()
        assert s.thinking == 1
        for _ in range(5):
            s.poll()  # never blocks while the bot waits
        assert s.cursor == 1
        s.undo()  # the position changes under the thinking bot
        assert s.thinking is None and s.cursor == 0
        GateBot.gate.set()
        assert s.wait_for_bot(10)
        s.poll()
        assert s.cursor == 0 and len(s.history) == 1, "the stale answer was not played"
        s.play(cell(s, 4, 4))
        s.poll()
        assert s.wait_for_bot(10)
        s.poll()
        assert s.cursor == 2 and s.history[1].by == "gate"
        assert GateBot.calls == 2
    finally:
        GateBot.gate.set()
        s.close()


def test_a_new_job_waits_for_a_stale_one_to_finish():
    GateBot.gate.clear()
    s = make(("human", "gate"), threaded=True)
    try:
        s.play(cell(s, 0, 0))
        s.poll()
        s.undo()
        s.play(cell(s, 1, 0))
        s.poll()  # the stale job still runs: the new one must wait, not run alongside
        assert s.thinking == 1
        GateBot.gate.set()
        for _ in range(50):
            s.wait_for_bot(10)
            s.poll()
            if s.cursor == 2:
                break
        assert s.cursor == 2 and s.moves[0] == cell(s, 1, 0)
    finally:
        GateBot.gate.set()
        s.close()


def test_process_workers_think_in_a_child_and_a_stale_job_is_killed():
    s = make(("human", "sleepy"), workers="process")
    try:
        s.play(cell(s, 2, 2))
        s.poll()
        assert s.thinking == 1 and s._bots.worker.busy
        child = s._bots.worker.proc
        assert child.is_alive()
        s.undo()
        s.poll()  # the stale child is killed at once, not waited for
        assert not s._bots.worker.busy and not child.is_alive()
        assert s.cursor == 0
        s.set_seats(["human", "first"])
        s.play(cell(s, 3, 3))
        s.poll()
        assert s.wait_for_bot(30)
        s.poll()
        assert s.cursor == 2 and s.history[1].by == "first"
        assert s.moves[1] == cell(s, 0, 0)
    finally:
        s.close()


def test_process_workers_report_a_crash_and_finish_a_bot_match():
    s = make(("crash", "human"), workers="process")
    s.poll()
    assert s.wait_for_bot(30)
    s.poll()
    assert s.cursor == 0 and "RuntimeError: boom" in s.last_error
    s = make(("first", "dice"), workers="process")
    s.run_bots()
    assert s.is_over and len(s.history) == s.cursor
    with pytest.raises(SessionError):
        make(workers="carrier pigeon")


def test_a_bot_that_returns_an_illegal_move_pauses_with_a_readable_error():
    s = make(("human", "bad"))
    seen = []
    s.add_listener(lambda ch: seen.append(ch.kind))
    s.play(cell(s, 0, 0))
    s.poll()
    assert s.cursor == 1 and s.bots_paused
    assert "illegal move" in s.last_error and "White (Bad)" in s.last_error
    assert "bot_error" in seen


def test_a_crashing_bot_is_reported_not_raised():
    s = make(("crash", "human"))
    s.poll()
    assert s.cursor == 0 and "RuntimeError: boom" in s.last_error


def test_run_bots_plays_a_bot_match_to_the_end():
    s = make(("first", "dice"), threaded=True)
    s.run_bots()
    assert s.is_over
    assert s.state.ply == s.cursor == len(s.history)


# -- seats, restart, extension --------------------------------------------------------------------


def test_set_seats_keeps_the_game_and_changes_who_plays():
    s = make()
    s.play(cell(s, 0, 0))
    s.set_seats(["human", "first"])
    assert s.cursor == 1 and s.seats[1].id == "first"
    s.poll()
    assert s.cursor == 2 and s.history[1].by == "first"


def test_restart_starts_a_new_game_with_the_next_seed_and_new_seats():
    s = make()
    s.play(cell(s, 0, 0))
    s.restart(seats=["first", "human"])
    assert s.cursor == 0 and s.history == [] and s.seed == 4
    assert s.seats[0].id == "first"
    tiny = ToyGame(load_ruleset("tiny"))
    s.restart(game=tiny, seed=9)
    assert s.game is tiny and s.seed == 9 and s.ruleset == "gridtoy/tiny"
    with pytest.raises(SessionError):
        s.restart(seats=["human"])
    assert s.game is tiny, "a refused restart changes nothing"


def test_seat_count_must_match_and_bot_ids_are_resolved(plugins):
    with pytest.raises(SessionError):
        Session(ToyGame(load_ruleset()), ["human"], plugins=plugins)
    ctl = seat_controller("dice", "gridtoy", plugins)
    assert isinstance(ctl, SeatController) and ctl.bot.id == "dice" and not ctl.is_human
    assert seat_controller("human", "gridtoy", plugins).is_human
    with pytest.raises(UnknownId):
        seat_controller("nope", "gridtoy", plugins)


def play_to_turn_limit(s: Session) -> None:
    # tiny: 3x3, connect 3, limit 4 turns: no line in four stones
    for x, y in ((0, 0), (1, 0), (2, 1), (0, 1)):
        s.play(cell(s, x, y))


def test_turn_limit_extension_withdraws_the_result():
    s = make(ruleset="tiny")
    assert not s.can_extend()
    play_to_turn_limit(s)
    assert s.result.reason == "turn_limit" and s.can_extend()
    assert s.extension_turns() == 2
    s.extend()
    assert not s.is_over
    s.play(cell(s, 2, 2))
    s.play(cell(s, 1, 1))  # White: a2? no line; limit 6 reached
    assert s.result.reason == "turn_limit"
    with pytest.raises(SessionError):
        make().extend()


# -- listeners and plugin observers -------------------------------------------------------------------


def test_listeners_and_match_event_observers_see_every_move():
    log = EventLog()
    s = make(("human", "first"), plugins=make_plugins(log))
    changes = []
    s.add_listener(changes.append)
    s.add_listener(lambda ch: 1 / 0)  # a broken listener does not stop the match
    s.play(cell(s, 0, 0))
    s.poll()
    s.undo()
    kinds = [c.kind for c in changes]
    assert kinds[:2] == ["move", "thinking"] and "undo" in kinds
    moves = [c for c in changes if c.kind == "move"]
    assert [c.by for c in moves] == ["human", "first"]
    assert [e.kind for e in log.events] == ["stone_placed", "stone_placed", "session_undo"]


# -- clocks ------------------------------------------------------------------------------------------


def test_clock_charges_the_running_seat_and_orders_deadlines():
    c = Clock(2, ClockSettings(total=10, per_move=4))
    c.start(0, 100.0)
    assert c.remaining_for(0, 103.0) == 7.0 and c.move_left(103.0) == 1.0
    assert c.deadline() == ("move", 104.0)
    c.start(1, 103.0)
    assert c.remaining == [7.0, 10.0]
    c.remaining[1] = 2.0
    assert c.deadline() == ("flag", 105.0)
    snap = c.snapshot()
    c.stop(104.0)
    c.restore(snap)
    assert c.remaining == [7.0, 2.0] and c.running is None


def test_move_timer_spans_several_moves_by_the_same_seat():
    # Starfall's missile shots leave the turn with the same seat: they must not buy a fresh timer.
    c = Clock(2, ClockSettings(total=100, per_move=4))
    c.start(0, 100.0)
    c.stop(102.0)
    c.start(0, 102.0)
    assert c.move_left(103.0) == 1.0 and c.deadline() == ("move", 104.0)
    assert c.remaining_for(0, 103.0) == 97.0
    c.start(1, 103.0)
    assert c.move_left(103.0) == 4.0


def test_move_timer_expiry_plays_the_games_timeout_move():
    t = FakeTime()
    s = make(ruleset="tiny", clock=ClockSettings(total=10, per_move=4), time_source=t)
    t.now = 3
    s.play(cell(s, 0, 0))
    assert s.clock_times() == [7.0, 10.0]
    t.now = 6.9
    assert not s.poll()
    t.now = 9.5  # White's 4 s ran out at t=7
    assert s.poll()
    assert s.history[-1].move == PASS and s.history[-1].by == "timeout"
    assert s.clock_times() == [7.0 - 2.5, 6.0]  # Black's clock restarted at t=7


def test_flag_fall_plays_the_games_concede_move_when_it_has_one():
    t = FakeTime()
    s = make(ruleset="tiny", clock=ClockSettings(total=5), time_source=t)
    t.now = 1
    s.play(cell(s, 0, 0))
    t.now = 9
    s.poll()
    assert s.result.winner == 0 and s.result.reason == "flag"
    assert s.history[-1].by == "timeout" and s.history[-1].text == "out of time"
    record = s.to_record()
    assert record["moves"][-1] == {"concede": True}
    replayed = make(ruleset="tiny")
    replayed.import_record(record)
    assert replayed.result.reason == "flag"
    s.undo()
    assert not s.is_over and s.cursor == 1


def test_timers_come_from_the_rulesets_timers_table():
    rules = load_ruleset("tiny")
    rules["timers"] = {"enabled": True, "clock_seconds": 30, "move_seconds": 0}
    assert ClockSettings.from_ruleset(rules) == ClockSettings(total=30.0, per_move=None)
    rules["timers"]["enabled"] = False
    assert ClockSettings.from_ruleset(rules) is None
    assert ClockSettings.from_ruleset(load_ruleset("tiny")) is None
    t = FakeTime()
    timed = dict(load_ruleset("tiny"), timers={"enabled": True, "clock_seconds": 10, "move_seconds": 3})
    s = Session(ToyGame(timed), ["human", "human"], plugins=make_plugins(), threaded=False, time_source=t)
    assert s.clock_settings == ClockSettings(total=10.0, per_move=3.0)
    assert make().clock is None


def test_move_timer_expiry_without_a_timeout_move_loses():
    t = FakeTime()
    plugins = make_plugins()
    s = make(plugins=plugins, clock=ClockSettings(per_move=5), time_source=t)
    t.now = 5
    s.poll()
    assert s.result.winner == 1 and s.result.reason == "move_time"
    report = validate_record(s.to_record(), "exported.match.json", plugins)  # what `pegboard validate` says
    assert report.ok, report.errors
    assert report.result["reason"] == "move_time"


def test_flag_fall_ends_the_game_and_undo_reopens_it_with_the_clocks_restored():
    t = FakeTime()
    s = make(clock=ClockSettings(total=5), time_source=t)
    t.now = 1
    s.play(cell(s, 0, 0))
    t.now = 2
    s.play(cell(s, 1, 0))
    t.now = 20
    s.poll()
    assert s.result.winner == 1 and s.result.reason == "flag"
    assert s.to_record()["result"]["reason"] == "flag"
    s.undo()
    assert not s.is_over and s.cursor == 1
    assert s.clock_times() == [4.0, 5.0]  # as they were after move 1


def test_a_paused_bots_clock_does_not_run():
    t = FakeTime()
    s = make(("human", "first"), clock=ClockSettings(total=60), time_source=t)
    s.play(cell(s, 0, 0))
    s.pause_bots()
    t.now = 30
    s.poll()
    assert s.clock_times() == [60.0, 60.0] and s.cursor == 1


# -- records ------------------------------------------------------------------------------------------


def test_export_and_import_json_round_trip(tmp_path):
    s = make(("human", "first"))
    for x in range(3):
        s.play(cell(s, x, 4))
        s.poll()
    path = s.export(tmp_path / "m.json")
    record = json.loads(path.read_text())
    assert record["format"] == "pegboard.match/1" and record["game"] == "gridtoy"
    assert record["players"][1] == {"seat": "White", "name": "First", "bot": "first"}
    assert len(record["moves"]) == 6
    other = make(("human", "first"))
    other.play(cell(other, 5, 0))
    other.import_file(path)
    assert other.moves == s.moves and other.cursor == 6 and other.bots_paused
    assert other.state.to_json() == s.state.to_json()
    other.poll()
    assert other.cursor == 6, "bots stay paused after an import"
    other.undo()
    assert other.cursor == 4


def test_export_and_import_the_games_text_format(tmp_path):
    s = make()
    for x, y in ((0, 0), (2, 3), (5, 4)):
        s.play(cell(s, x, y))
    path = s.export(tmp_path / "m.txt")
    assert path.read_text().splitlines()[2:] == ["1 Black a1", "2 White c4", "3 Black f5"]
    other = make()
    other.import_file(path)
    assert other.moves == s.moves


def test_a_bad_import_names_the_line_and_leaves_the_game_untouched(tmp_path):
    s = make()
    s.play(cell(s, 1, 1))
    before = (s.state.to_json(), list(s.history), s.cursor)
    bad = tmp_path / "bad.txt"
    bad.write_text("# toy\n1 Black a1\n\n2 White a1\n")
    with pytest.raises(MatchImportError) as info:
        s.import_file(bad)
    assert info.value.line == 4 and info.value.move_number == 2
    assert "a1 is taken" in str(info.value)
    assert (s.state.to_json(), list(s.history), s.cursor) == before
    syntax = tmp_path / "syntax.txt"
    syntax.write_text("1 Black a1\n3 White b1\n")
    with pytest.raises(MatchImportError) as info:
        s.import_file(syntax)
    assert info.value.line == 2 and "expected turn 2" in str(info.value)
    assert s.state.to_json() == before[0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "chess"}, "chess match"),
        ({"moves": [{"x": 9, "y": 9}]}, "move 1: cell 9,9 is off the board"),
        ({"moves": [{"x": 0, "y": 0}, {"x": 0, "y": 0}]}, "move 2: a1 is illegal: a1 is taken"),
        ({"result": {"winner": 0, "reason": "connect"}}, "not over"),
        ({"moves": "a1"}, "moves"),
        ({"players": [{"seat": "Black", "name": "Player", "bot": None}]}, "expected 2 players"),
    ],
)
def test_invalid_records_are_refused(change, message):
    s = make()
    record = {**s.to_record(), **change}
    s.play(cell(s, 2, 2))
    with pytest.raises(MatchImportError, match=message):
        s.import_record(record)
    assert s.cursor == 1 and s.moves == [cell(s, 2, 2)]


def test_declared_result_must_match_the_replay():
    s = make()
    for x in range(3):
        s.play(cell(s, x, 0))
        s.play(cell(s, x, 1))
    s.play(cell(s, 3, 0))
    record = s.to_record()
    record["result"] = {"winner": 1, "reason": "connect"}
    with pytest.raises(MatchImportError, match="the replay gives winner 0 by 'connect'"):
        make().import_record(record)
    record["result"] = {"winner": 0, "reason": "connect"}
    t = make()
    t.import_record(record)
    assert t.is_over and t.result.winner == 0


def test_moves_past_a_turn_limit_imply_the_extension():
    s = make(ruleset="tiny")
    play_to_turn_limit(s)
    s.extend()
    s.play(cell(s, 2, 2))
    record = s.to_record()
    t = make(ruleset="tiny")
    t.import_record(record)
    assert t.cursor == 5 and not t.is_over


def test_import_with_another_ruleset_builds_that_game():
    tiny = make(ruleset="tiny")
    tiny.play(0)
    record = tiny.to_record()
    s = make()
    s.import_record(record)
    assert s.game.width == 3 and s.cursor == 1


def test_broken_json_is_reported_with_its_line():
    s = make()
    with pytest.raises(MatchImportError) as info:
        s.import_record(s.parse_record('{\n "game": "gridtoy",\n oops}', ".json"))
    assert info.value.line == 3


def test_toygame_module_is_shared():
    assert gridtoy.ToyGame is ToyGame


def test_the_session_and_the_ui_package_never_import_pyglet():
    import subprocess

    code = "import sys, pegboard.match.session, pegboard.ui, pegboard.ui.catalog; print('pyglet' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False", out.stderr


def test_held_clocks_charge_nobody_and_the_move_timer_goes_on_where_it_stood():
    t = FakeTime()
    s = make(ruleset="tiny", clock=ClockSettings(total=100, per_move=30), time_source=t)
    t.now = 10
    assert s.clock_times() == [90.0, 100.0] and s.move_time_left() == 20.0
    s.hold_clocks(True)  # a dialog covers the board
    assert s.clocks_held
    t.now = 70  # a minute in the Settings
    assert s.clock_times() == [90.0, 100.0] and s.move_time_left() is None
    assert not s.poll(), "no timeout while held, though the move timer's 30 s have long passed"
    s.hold_clocks(False)
    assert s.clock_times() == [90.0, 100.0] and s.move_time_left() == 20.0
    t.now = 75
    assert s.clock_times() == [85.0, 100.0] and s.move_time_left() == 15.0
    t.now = 91  # the move timer's last 20 s ran out after the hold: the turn passes
    assert s.poll() and s.history[-1].by == "timeout"


def test_a_person_and_a_held_clock_a_move_played_meanwhile_starts_nobody():
    t = FakeTime()
    s = make(ruleset="tiny", clock=ClockSettings(total=100), time_source=t)
    s.hold_clocks(True)
    t.now = 5
    s.play(cell(s, 0, 0))  # a move played while held (a bot's answer arriving, say)
    t.now = 50
    assert s.clock_times() == [100.0, 100.0]
    s.hold_clocks(False)
    t.now = 60
    assert s.clock_times() == [100.0, 90.0]


def test_an_online_match_never_holds_its_clocks():
    class Remote(Session):
        online = True

    t = FakeTime()
    s = Remote(ToyGame(load_ruleset("tiny")), ["human", "human"], seed=3, plugins=make_plugins(), threaded=False,
               clock=ClockSettings(total=100), time_source=t)
    s.hold_clocks(True)
    assert not s.clocks_held
    t.now = 30
    assert s.clock_times() == [70.0, 100.0], "the other player's clock runs on their side too"


def test_the_viewer_is_the_one_persons_seat_or_the_seat_to_move_between_two():
    assert make(seats=("human", "first")).viewer == 0
    assert make(seats=("first", "human")).viewer == 1
    both = make(seats=("human", "human"))
    assert both.viewer == 0
    both.play(cell(both, 0, 0))
    assert both.viewer == 1, "the screen is handed over"
    assert make(seats=("first", "first")).viewer is None

