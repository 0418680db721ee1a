"""A match being played: a :class:`~pegboard.match.line.MatchLine` with seats, bots, clocks and hints.

:class:`Session` is the one object the window, online play, the terminal and the tests
play a match through; it never imports pyglet. Every public method is called from one
thread (the UI's). Bots think on a worker (:mod:`pegboard.match.botrunner`) about a copy
of the position, and :meth:`Session.poll`, called every frame, plays their answers; an
answer to an old position (after an undo, say) is dropped, never played. Records are
written and read back through :mod:`pegboard.match.recordio`, which runs the stages
``pegboard validate`` runs.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pegboard.errors import MatchImportError, SessionError
from pegboard.game import JSON, Event, Game, IllegalMove, Move, Refusal
from pegboard.match.botrunner import BotRunner
from pegboard.match.botworkers import BOT_WORKERS, BotJob, default_bot_worker
from pegboard.match.clock import Clock, ClockSettings
from pegboard.match.hints import HintTimer, hint_delay
from pegboard.match.history import Change, PlyRecord
from pegboard.match.line import MatchLine
from pegboard.match.matchclock import MatchClock
from pegboard.match.recordio import ImportedMatch
from pegboard.match.seats import HUMAN, SeatController, SeatLike, bot_seed, fresh_seed, seat_controller
from pegboard.specs import Bot

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins

log = logging.getLogger(__name__)


class Session(MatchLine):
    """A match being played (see the module docstring).

    ``seats`` holds one entry per seat of ``game``: a :class:`SeatController`,
    ``"human"``, a :class:`BotSpec` or a bot id. ``ruleset`` is the ruleset
    reference shown to people and written into records ("nodewar/standard");
    by default it is made from the game's resolved ruleset. ``plugins`` (a
    :class:`pegboard.plugins.manager.Plugins`) resolves bot ids, receives
    ``pegboard_match_event`` notices and builds games for imported records.
    Undo follows the Node War rulings, generalised: it takes back at least one
    move and goes on until a person is to move (between two people or two bots,
    one move); redo mirrors it; afterwards the bots stay paused until a person
    moves or :meth:`resume_bots` is called.
    ``clock`` is a :class:`ClockSettings`, None (no clocks) or ``"ruleset"``
    (the default: the ruleset's ``[timers]`` table decides); ``time_source`` returns seconds (tests pass
    a fake). ``fresh_seeds`` makes every :meth:`restart` without a seed deal from a new seed drawn from
    the operating system (:func:`fresh_seed`), as the window does; otherwise a restart uses seed + 1, so
    a run started from a chosen seed stays reproducible. ``workers`` says where bots think: ``"thread"`` (a daemon thread,
    the default), ``"process"`` (a forked child per move: true parallelism,
    stale answers are killed; what the window uses where fork exists) or
    ``"inline"`` (inside :meth:`poll`, blocking: headless drivers and tests).
    ``threaded=False`` is a shorthand for ``workers="inline"``.
    """

    online: bool = False
    """True for a match played over the network (:class:`pegboard.online.remote.OnlineSession`): its
    rules, seats and seed are the host's, so a board view must not restart it, change its seats or
    offer undo, and its state is this side's own view."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[SeatLike],
        seed: int = 0,
        *,
        ruleset: str | None = None,
        plugins: Plugins | None = None,
        clock: ClockSettings | str | None = "ruleset",
        time_source: Callable[[], float] = time.monotonic,
        threaded: bool = True,
        workers: str | None = None,
        fresh_seeds: bool = False,
    ) -> None:
        self._time = time_source
        self.fresh_seeds = fresh_seeds
        self.workers = workers or ("thread" if threaded else "inline")
        if self.workers not in BOT_WORKERS:
            raise SessionError(f"unknown bot worker kind {self.workers!r} (known: {', '.join(BOT_WORKERS)})")
        self.threaded = self.workers != "inline"
        self._clock_mode = clock
        self._bots = BotRunner(self.workers)
        self.last_error: str | None = None
        self._hints = HintTimer()
        super().__init__(game, seed, ruleset=ruleset, plugins=plugins)
        self.seats = self._controllers(seats)
        self._sync_clock()

    # -- construction helpers -------------------------------------------------------------

    def _new_line(self, game: Game, seed: int, ruleset: str | None) -> None:
        super()._new_line(game, seed, ruleset)
        self.bots_paused = False
        self._new_clocks(game)

    def _new_clocks(self, game: Game) -> None:
        mode = self._clock_mode
        settings = game.timers() if mode == "ruleset" else mode if isinstance(mode, ClockSettings) and mode.enabled else None
        self._clocks = MatchClock(len(game.seats), settings)

    @property
    def clock(self) -> Clock | None:
        """The chess clocks of this game (None without clocks)."""
        return self._clocks.clock

    @property
    def clock_settings(self) -> ClockSettings | None:
        return self._clocks.settings

    def _controllers(self, seats: Sequence[SeatLike], game: Game | None = None) -> list[SeatController]:
        game = game or self.game
        if len(seats) != len(game.seats):
            raise SessionError(
                f"{game.name or game.id} has {len(game.seats)} seats ({', '.join(game.seats)}), got {len(seats)}"
            )
        return [seat_controller(s, game.id, self._plugins) for s in seats]

    # -- reading the match ------------------------------------------------------------------

    @property
    def has_human(self) -> bool:
        return any(s.is_human for s in self.seats)

    @property
    def thinking(self) -> int | None:
        """The seat whose bot is thinking about the current position, or None."""
        return self._bots.thinking_seat(self._generation)

    @property
    def viewer(self) -> int | None:
        """The seat whose eyes a screen showing this match takes: the one person's seat (a
        person against bots, or online); the seat to move when people share the screen; None
        when only bots play (nothing is hidden from someone who holds no seat)."""
        humans = [i for i, c in enumerate(self.seats) if c.is_human]
        if not humans:
            return None
        return humans[0] if len(humans) == 1 else self.to_move

    def player_label(self, seat: int) -> str:
        """``"Blue"`` for a person, ``"Red (Expert)"`` for a bot."""
        ctl = self.seats[seat]
        name = self.seat_name(seat)
        return name if ctl.is_human else f"{name} ({ctl.name})"

    def bot_to_move(self) -> bool:
        return not self.is_over and not self.seats[self.to_move].is_human

    def input_block(self) -> str | None:
        """Why a person cannot move now (None when they can); the status line shows it."""
        if self.is_over:
            return "The game is over."
        seat = self.to_move
        if not self.seats[seat].is_human and not self.bots_paused:
            return f"{self.player_label(seat)} is to move."
        return None

    def check(self, move: Move) -> Refusal | None:
        """None if a person may play ``move`` now, otherwise the :class:`Refusal` saying why not
        (the rules', or ``not_your_turn`` while a bot is to move or the game is over)."""
        blocked = self.input_block()
        if blocked:
            return Refusal("not_your_turn", blocked)
        return self.state.check(move)

    # -- playing --------------------------------------------------------------------------------

    def play(self, move: Move) -> list[Event]:
        """A person plays ``move`` for the seat to move; raises :class:`IllegalMove`.

        Allowed on a person's turn, and on a paused bot's turn (the person
        plays that move by hand). A person's move lets paused bots go on.
        """
        blocked = self.input_block()
        if blocked:
            raise IllegalMove(blocked, rule="not_your_turn", move=move)
        events = self._apply(move, by=HUMAN)
        if self.bots_paused:
            self.bots_paused = False
            self._emit("resumed")
        self._sync_clock()
        return events

    def _moved(self) -> tuple[float | None, ...] | None:
        now = self._time()
        self._clocks.stop(now)
        self._hints.mark(self._generation, now)
        self.last_error = None
        return self._clocks.snapshot()

    # -- undo / redo ------------------------------------------------------------------------

    def _repositioned(self) -> None:
        self._clocks.restore(self.history[self.cursor - 1].clock if self.cursor > 0 else self._clocks.initial)
        self.bots_paused = True
        self._sync_clock()

    def undo(self) -> int:
        """Take back moves until a person is to move (at least one); returns how many."""
        if not self.can_undo and self._adjudicated is None:
            return 0
        taken = 0
        if self.cursor > 0:
            self._step_back()
            taken = 1
            if self.has_human:
                while self.cursor > 0 and not self.seats[self.state.to_move].is_human:
                    self._step_back()
                    taken += 1
        self._navigated("undo", taken)
        return taken

    def redo(self) -> int:
        """Replay undone moves until a person is to move (at least one); returns how many."""
        if not self.can_redo:
            return 0
        self._step_forward()
        taken = 1
        if self.has_human:
            while self.can_redo and not self.state.is_over and not self.seats[self.state.to_move].is_human:
                self._step_forward()
                taken += 1
        self._navigated("redo", taken)
        return taken

    # -- bots -------------------------------------------------------------------------------------

    def pause_bots(self) -> None:
        if not self.bots_paused:
            self.bots_paused = True
            self._generation += 1
            self._sync_clock()
            self._emit("paused")

    def resume_bots(self) -> None:
        """Let bots play again (the Resume bot button)."""
        if self.bots_paused:
            self.bots_paused = False
            self._sync_clock()
            self._emit("resumed")

    # -- hints ---------------------------------------------------------------------------------------

    def hint_due(self, now: float | None = None) -> bool:
        """True when the window should offer the game's hint now: a person is to move, has
        sat idle for the opponent bot's ``hint_after`` seconds, and the game has a hint
        (see :mod:`pegboard.match.hints`). Call it every frame; ``now`` defaults to the session's clock."""
        if self.is_over or self._hint_function() is None:
            return False
        return self._hints.due(self.seats, self.to_move, self._generation, self._time() if now is None else now)

    def hint(self) -> Move | None:
        """The game's suggestion for the person to move (worked out once per position), or
        None when no hint is offered in this match (see :meth:`hint_due`)."""
        hint = self._hint_function()
        if self.is_over or hint is None or hint_delay(self.seats, self.to_move) is None:
            return None
        return self._hints.suggestion(self._generation, lambda: hint(self.game, self.state, self.to_move))

    def _hint_function(self) -> Any:
        try:
            return self.plugins.game(self.game.id).hint
        except LookupError:  # a game built outside the plugins (tests): no spec, no hint
            return None

    def _bot(self, seat: int) -> Bot:
        bot = self._bots.instances.get(seat)
        if bot is None:
            spec = self.seats[seat].bot
            assert spec is not None
            bot = self._bots.instances[seat] = spec.factory(self.game, bot_seed(self.seed, seat))
        return bot

    def poll(self, now: float | None = None) -> bool:
        """Advance the match without blocking: play finished bot answers, run clocks,
        start a bot that is due. Call it every frame. Returns True if the position changed."""
        changed = self._finish_done_jobs()
        now = self._time() if now is None else now
        for _ in range(8):  # catch up when polls were late (several timers may have run out)
            if not self._check_clock(now):
                break
            changed = True
        self._maybe_start_bot()
        if not self.threaded:  # an inline bot has already answered
            changed |= self._finish_done_jobs()
        return changed

    def _finish_done_jobs(self) -> bool:
        changed = False
        for job in self._bots.finished():
            changed |= self._finish(job)
        return changed

    def _finish(self, job: BotJob) -> bool:
        if job.generation != self._generation:
            return False  # stale: the position changed while the bot thought
        label = self.player_label(job.seat)
        if job.error is not None:
            return self._bot_failed(f"{label} failed: {job.error}")
        try:
            self._apply(job.answer, by=self.seats[job.seat].id)
        except IllegalMove as exc:
            return self._bot_failed(f"{label} chose an illegal move: {exc.reason}")
        self._sync_clock()
        return True

    def _bot_failed(self, message: str) -> bool:
        log.error(message)
        self.last_error = message
        self.bots_paused = True
        self._generation += 1
        self._sync_clock()
        self._emit("bot_error", text=message)
        return False

    def _maybe_start_bot(self) -> None:
        bots = self._bots
        bots.drop_stale(self._generation)
        if bots.waiting is None:
            if not self.bot_to_move() or self.bots_paused or self.thinking is not None:
                return
            seat = self.to_move
            budget = self._clocks.budget(seat, self.seats[seat].seconds, self._time())
            bots.queue(BotJob(self._generation, seat, self._bot(seat), self.state.player_view(seat), budget))
            self._emit("thinking", seat=seat, text=f"{self.player_label(seat)} is thinking")
        bots.launch()

    def wait_for_bot(self, timeout: float | None = 30.0) -> bool:
        """Block until the running bot job ends (tests and headless drivers only)."""
        return self._bots.join(timeout)

    def run_bots(self, max_moves: int = 10_000, timeout: float = 60.0) -> int:
        """Let bots play until a person is to move, bots pause or the game ends (blocking)."""
        played = 0
        while played < max_moves:
            start = self.cursor
            self.poll()
            if not self.wait_for_bot(timeout):
                raise SessionError("bot did not answer in time")
            self.poll()
            if self.cursor == start:
                break
            played += self.cursor - start
        return played

    # -- seats, new games, extensions -----------------------------------------------------------

    def set_seats(self, seats: Sequence[SeatLike]) -> None:
        """Change who plays from now on, keeping the game (Customize → Apply). Bots resume."""
        controllers = self._controllers(seats)
        for seat, ctl in enumerate(controllers):
            if ctl != self.seats[seat]:
                self._bots.instances.pop(seat, None)
        self.seats = controllers
        self.bots_paused = False
        self._generation += 1
        self._sync_clock()
        self._emit("seats")

    def restart(
        self, *, game: Game | None = None, seed: int | None = None, seats: Sequence[SeatLike] | None = None,
        ruleset: str | None = None,
    ) -> None:
        """Start a new game (same game and seats unless given; the seed as the class docstring says)."""
        new_game = game or self.game
        if seed is None:
            seed = fresh_seed() if self.fresh_seeds else self.seed + 1
        new_seed = seed
        controllers = self._controllers(self.seats if seats is None else seats, new_game)
        label = ruleset or (self.ruleset if game is None else None)
        self._new_line(new_game, new_seed, label)
        self.seats = controllers
        self._bots.instances = {}
        self._sync_clock()
        self._session_event("restart", "new game", seed=self.seed)
        self._emit("restart")

    def can_extend(self) -> bool:
        """True when the game ended on a turn limit that may be extended."""
        return self._adjudicated is None and self.state.is_over and self.state.can_extend()

    def extend(self) -> None:
        """Withdraw a turn-limit result and play on (the end-of-game dialog's extension)."""
        if not self.can_extend():
            raise SessionError("this game cannot be extended now")
        self.state.extend()
        self._generation += 1
        self._sync_clock()
        self._session_event("extend", "turn limit extended")
        self._emit("extend")

    def extension_turns(self) -> int | None:
        """How many turns an extension adds, when the game tells (:meth:`State.extension_turns`)."""
        return self.state.extension_turns()

    # -- clocks -------------------------------------------------------------------------------------

    def hold_clocks(self, held: bool) -> None:
        """Stop the clocks while ``held`` (the window holds them while a dialog covers the board)
        and let them run again after, the time in between charged to nobody, the move timer's
        included. An online match never holds: the other player's time runs on their side too."""
        if self.online or held == self._clocks.held:
            return
        self._clocks.hold(held, self._time())
        self._sync_clock()

    @property
    def clocks_held(self) -> bool:
        """True while :meth:`hold_clocks` holds the clocks."""
        return self._clocks.held

    def _clock_should_run(self) -> bool:
        if self.is_over or self._clocks.held:
            return False
        return self.seats[self.to_move].is_human or not self.bots_paused

    def _sync_clock(self) -> None:
        if self._clocks.clock is not None:
            self._clocks.sync(self.to_move, self._clock_should_run(), self._time())

    def _check_clock(self, now: float) -> bool:
        expired = self._clocks.expired(now)
        if expired is None:
            return False
        kind, seat, when = expired
        if kind == "move":
            fallback = self.state.timeout_move()
            if fallback is not None:
                self._apply(fallback, by="timeout")
                if self.clock is not None and not self.is_over:
                    self.clock.start(self.to_move, when)
                return True
        self._flag(seat, "flag" if kind == "flag" else "move_time")
        return True

    def move_time_left(self, now: float | None = None) -> float | None:
        """Seconds left on the running move timer (None without one or while stopped)."""
        return self._clocks.move_left(self._time() if now is None else now)

    def clock_times(self, now: float | None = None) -> list[float | None]:
        """Each seat's remaining main time (None without a clock)."""
        return self._clocks.times(len(self.game.seats), self._time() if now is None else now)

    # -- records ------------------------------------------------------------------------------------

    def _players(self) -> list[dict[str, JSON]]:
        return [{"name": ctl.name, "bot": None if ctl.is_human else ctl.id} for ctl in self.seats]

    def _take_over(self, imported: ImportedMatch) -> None:
        super()._take_over(imported)
        self._bots.instances = {}
        self._new_clocks(imported.game)
        self.bots_paused = True
        self._sync_clock()
        self._session_event("import", f"imported {len(imported.plies)} moves")
        self._emit("import", text=f"{len(imported.plies)} moves")

    # -- shutting down ------------------------------------------------------------------------------

    def close(self) -> None:
        """Drop any bot answer still being computed and forget listeners."""
        self._generation += 1
        self._bots.close()
        self._broadcast.listeners.clear()


__all__ = [
    "BOT_WORKERS",
    "HUMAN",
    "Change",
    "Clock",
    "ClockSettings",
    "MatchImportError",
    "PlyRecord",
    "SeatController",
    "SeatLike",
    "Session",
    "SessionError",
    "default_bot_worker",
    "fresh_seed",
    "seat_controller",
]
