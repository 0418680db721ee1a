"""The declared game contract: the defaults of the optional methods, a loss on time for any
number of seats, and a bot's cancel() as the thread worker uses it."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

import pytest

from pegboard.game import JSON, Event, Game, IllegalMove, Refusal, Result, State
from pegboard.match.botworkers import BotJob, ThreadWorker
from pegboard.match.clock import ClockSettings
from pegboard.match.session import Session
from pegboard.specs import Bot, BotSpec


class CountState(State[int]):
    """Seats take turns saying 1 or 2; whoever brings the count to ``goal`` wins."""

    def __init__(self, game: CountGame) -> None:
        self.game = game
        self.said: list[int] = []

    @property
    def to_move(self) -> int:
        return len(self.said) % len(self.game.seats)

    @property
    def result(self) -> Result | None:
        if sum(self.said) >= self.game.goal:
            return Result((len(self.said) - 1) % len(self.game.seats), "goal")
        return None

    @property
    def ply(self) -> int:
        return len(self.said)

    def legal_moves(self) -> list[int]:
        return [] if self.result else [1, 2]

    def check(self, move: int) -> Refusal | None:
        return None if move in self.legal_moves() else Refusal("say", "say 1 or 2")

    def apply(self, move: int) -> list[Event]:
        refusal = self.check(move)
        if refusal is not None:
            raise IllegalMove(refusal.reason, rule=refusal.rule, move=move)
        self.said.append(move)
        return [Event("said", {"n": move})]

    def undo(self) -> int:
        return self.said.pop()

    def clone(self) -> CountState:
        other = CountState(self.game)
        other.said = list(self.said)
        return other

    def to_json(self) -> dict[str, JSON]:
        return {"said": list(self.said)}


class CountGame(Game[int]):
    id = "count"
    name = "Count"

    def __init__(self, ruleset: Mapping[str, JSON], seats: int = 3, goal: int = 30) -> None:
        super().__init__(ruleset)
        self.seats = tuple(f"P{i + 1}" for i in range(seats))
        self.goal = goal

    def new_state(self, seed: int = 0) -> CountState:
        return CountState(self)

    def encode_move(self, move: int) -> JSON:
        return move

    def decode_move(self, data: JSON) -> int:
        return int(data)

    def move_text(self, move: int) -> str:
        return str(move)

    def state_from_json(self, data: Mapping[str, JSON]) -> CountState:
        state = CountState(self)
        state.said = list(data["said"])
        return state


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_optional_methods_have_their_documented_defaults() -> None:
    game = CountGame({})
    state = game.new_state()
    assert state.timeout_move() is None and state.concede_move(0, "flag") is None
    assert state.extension_turns() is None and not state.can_extend()
    assert game.timers() is None
    assert CountGame({"timers": {"enabled": True, "clock_seconds": 60}}).timers() == ClockSettings(total=60.0)
    assert state.observation(1) == state.to_json() and state.player_view(1).to_json() == state.to_json()


@pytest.mark.parametrize(
    ("seats", "loser", "winner", "scores"),
    [(2, 0, 1, None), (2, 1, 0, None), (3, 1, None, (1, 0, 1)), (4, 3, None, (1, 1, 1, 0))],
)
def test_a_loss_on_time_works_for_any_number_of_seats(seats: int, loser: int, winner: int | None, scores: tuple[int, ...] | None) -> None:
    result = CountGame({}, seats=seats).time_loss(loser, "flag", "out of time")
    assert (result.winner, result.reason, result.scores, result.text) == (winner, "flag", scores, "out of time")


def test_a_three_seat_session_ends_on_a_flag() -> None:
    clock = FakeTime()
    session = Session(CountGame({}), ["human"] * 3, clock=ClockSettings(total=10), time_source=clock, threaded=False)
    clock.now = 2
    session.play(1)  # P1 used 2 s; P2's clock runs
    clock.now = 15
    session.poll()
    assert session.result is not None and session.result.reason == "flag"
    assert session.result.winner is None and session.result.scores == (1, 0, 1)
    assert session.result.text == "P2 ran out of time"
    session.undo()
    assert session.result is None


class WaitingBot(Bot):
    """Thinks until cancelled, then answers at once."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.stop = threading.Event()

    def choose(self, view: Any, budget: float) -> Any:
        self.started.set()
        self.stop.wait(30)
        return view.legal_moves()[0]

    def cancel(self) -> None:
        self.stop.set()


def test_the_thread_worker_stops_a_stale_search_through_bot_cancel() -> None:
    bot = WaitingBot()
    worker = ThreadWorker()
    worker.start(BotJob(1, 0, bot, CountGame({}).new_state(), 5.0))
    assert bot.started.wait(10)
    assert worker.busy
    worker.cancel()
    assert worker.join(10) and not worker.busy
    assert worker.done.get_nowait().answer == 1


def test_the_default_cancel_does_nothing_and_the_bot_still_answers() -> None:
    class Plain(Bot):
        def choose(self, view: Any, budget: float) -> Any:
            return 2

    spec = BotSpec("plain", "Plain", lambda game, seed: Plain())
    session = Session(CountGame({}), [spec, "human", "human"], threaded=False)
    session.run_bots()
    assert session.moves == [2]
    Plain().cancel()
