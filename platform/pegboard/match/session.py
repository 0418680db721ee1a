"""A match being played: seats, history, undo/redo/jump, bots, clocks, records.

:class:`Session` is the one object the window, the tests and any headless
driver use to play a match. It owns the live :class:`~pegboard.game.State`,
remembers every move (with its events) so it can step back and forth, runs
bots through a :mod:`pegboard.match.botworkers` worker, keeps optional chess clocks
(:mod:`pegboard.match.clock`), and tells listeners about every change
(:mod:`pegboard.match.history`). Records are read, checked, replayed and written by
:mod:`pegboard.records`, the same code ``pegboard validate`` and ``convert``
use. It never imports pyglet.

Threading model: every public method must be called from one thread (the UI
thread). Bots think on a worker (a thread, a forked process, or inline) on a
*copy* of the position; their answers are picked up by :meth:`Session.poll`,
which the UI calls every frame. Each change of position bumps a generation
counter, so an answer computed for an old position (after an undo, say) is
dropped, never played.

Undo follows the Node War rulings, generalised: it takes back at least one
move and keeps going until a person is to move (when any seat is a person);
between two people or two bots it takes back one move. Redo mirrors it. After
undo, redo, jump or import the bots stay paused until a person moves or
:meth:`Session.resume_bots` is called.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard.errors import MatchFileError, MatchImportError, RulesetError, SessionError
from pegboard.game import JSON, Event, Game, IllegalMove, Move, PegboardError, Result, State
from pegboard.match.botworkers import BOT_WORKERS, BotJob, default_bot_worker, make_worker
from pegboard.match.clock import Clock, ClockSettings
from pegboard.match.hints import HintTimer, hint_delay
from pegboard.match.history import Change, Listener, PlyRecord
from pegboard.match.seats import HUMAN, SeatController, SeatLike, seat_controller
from pegboard.records.files import FORMAT, parse_record, read_text, record_from_moves, write_record
from pegboard.records.replay import plain
from pegboard.records.validate import load_record
from pegboard.specs import Bot

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins

log = logging.getLogger(__name__)

RECORD_FORMAT = FORMAT


class Session:
    """A match being played (see the module docstring).

    ``seats`` holds one entry per seat of ``game``: a :class:`SeatController`,
    ``"human"``, a :class:`BotSpec` or a bot id. ``ruleset`` is the ruleset
    reference shown to people and written into records ("nodewar/standard");
    by default it is made from the game's resolved ruleset. ``plugins`` (a
    :class:`pegboard.plugins.manager.Plugins`) resolves bot ids, receives
    ``pegboard_match_event`` notices and builds games for imported records.
    ``clock`` is a :class:`ClockSettings`, None (no clocks) or ``"ruleset"``
    (the default: the ruleset's ``[timers]`` table decides); ``time_source`` returns seconds (tests pass
    a fake). ``workers`` says where bots think: ``"thread"`` (a daemon thread,
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
    ) -> None:
        self._plugins = plugins
        self._listeners: list[Listener] = []
        self._time = time_source
        self.workers = workers or ("thread" if threaded else "inline")
        if self.workers not in BOT_WORKERS:
            raise SessionError(f"unknown bot worker kind {self.workers!r} (known: {', '.join(BOT_WORKERS)})")
        self.threaded = self.workers != "inline"
        self._clock_mode = clock
        self._worker = make_worker(self.workers)
        self._waiting: BotJob | None = None  # a job waiting for a stale one to finish
        self._thinking: tuple[int, int] | None = None  # (generation, seat)
        self.last_error: str | None = None
        self._generation = 0
        self._setup(game, seed, ruleset)
        self.seats = self._controllers(seats)
        self._bots: dict[int, Bot] = {}
        self._hints = HintTimer()
        self._sync_clock()

    # -- construction helpers -------------------------------------------------------------

    def _setup(self, game: Game, seed: int, ruleset: str | None) -> None:
        self.game = game
        self.seed = int(seed)
        self.ruleset = ruleset or _ruleset_label(game)
        self.state: State = game.new_state(self.seed)
        self.history: list[PlyRecord] = []
        self.cursor = 0
        self.bots_paused = False
        self._adjudicated: Result | None = None
        self._generation += 1
        self.clock_settings = self._clock_settings(game)
        self.clock: Clock | None = Clock(len(game.seats), self.clock_settings) if self.clock_settings else None
        self._initial_clock = self.clock.snapshot() if self.clock else None

    def _clock_settings(self, game: Game) -> ClockSettings | None:
        mode = self._clock_mode
        if mode == "ruleset":
            return game.timers()
        if isinstance(mode, ClockSettings) and mode.enabled:
            return mode
        return None

    def _controllers(self, seats: Sequence[SeatLike], game: Game | None = None) -> list[SeatController]:
        game = game or self.game
        if len(seats) != len(game.seats):
            raise SessionError(
                f"{game.name or game.id} has {len(game.seats)} seats ({', '.join(game.seats)}), got {len(seats)}"
            )
        return [seat_controller(s, game.id, self._plugins) for s in seats]

    @property
    def plugins(self) -> Plugins:
        if self._plugins is None:
            from pegboard.plugins.manager import get_plugins

            self._plugins = get_plugins()
        return self._plugins

    # -- listeners --------------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(change)`` after every change (see :class:`Change`)."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _emit(self, kind: str, **kwargs: Any) -> None:
        change = Change(kind=kind, ply=self.cursor, **kwargs)
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:  # noqa: BLE001 - a broken listener must not break the match
                log.exception("session listener failed on %s", kind)

    def _notify(self, events: Iterable[Event]) -> None:
        plugins = self._plugins
        if plugins is None:
            return
        for event in events:
            try:
                plugins.notify(self, event)
            except Exception:  # noqa: BLE001
                log.exception("pegboard_match_event observer failed")

    def _session_event(self, kind: str, text: str, **data: JSON) -> None:
        """Tell pegboard_match_event observers about a session-level step (undo, restart ...)."""
        self._notify([Event(kind=f"session_{kind}", data=dict(data, ply=self.cursor), text=text)])

    # -- reading the match ------------------------------------------------------------------

    @property
    def ply(self) -> int:
        return self.cursor

    @property
    def moves(self) -> list[Move]:
        """The moves leading to the current position."""
        return [r.move for r in self.history[: self.cursor]]

    @property
    def result(self) -> Result | None:
        """How the game ended (a clock flag included), or None."""
        return self._adjudicated or self.state.result

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def to_move(self) -> int:
        return self.state.to_move

    @property
    def can_undo(self) -> bool:
        return self.cursor > 0

    @property
    def can_redo(self) -> bool:
        return self.cursor < len(self.history)

    @property
    def has_human(self) -> bool:
        return any(s.is_human for s in self.seats)

    @property
    def thinking(self) -> int | None:
        """The seat whose bot is thinking about the current position, or None."""
        if self._thinking and self._thinking[0] == self._generation:
            return self._thinking[1]
        return None

    def seat_name(self, seat: int) -> str:
        return self.game.seats[seat]

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

    def check(self, move: Move) -> str | None:
        """None if a person may play ``move`` now, otherwise the reason they may not."""
        blocked = self.input_block()
        if blocked:
            return blocked
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

    def _apply(self, move: Move, *, by: str) -> list[Event]:
        seat = self.state.to_move
        try:
            text = self.state.move_text(move)
        except Exception:  # noqa: BLE001 - a move the game cannot render is refused by apply below
            text = repr(move)
        now = self._time()
        events = self.state.apply(move)  # raises IllegalMove with the state unchanged
        if self.clock is not None:
            self.clock.stop(now)
        del self.history[self.cursor :]  # a new move drops the redo tail
        self.cursor += 1
        record = PlyRecord(
            number=self.cursor,
            seat=seat,
            move=move,
            text=text,
            events=tuple(events),
            by=by,
            clock=self.clock.snapshot() if self.clock else None,
        )
        self.history.append(record)
        self._adjudicated = None
        self._generation += 1
        self._hints.mark(self._generation, now)
        self.last_error = None
        self._notify(events)
        self._emit("move", move=move, seat=seat, events=record.events, by=by, text=text)
        if self.state.result is not None:
            self._emit("result", text=self.state.result.sentence(self.game.seats))
        return events

    # -- undo / redo / jump -------------------------------------------------------------------------

    def _step_back(self) -> None:
        self.state.undo()
        self.cursor -= 1

    def _step_forward(self) -> None:
        self.state.apply(self.history[self.cursor].move)
        self.cursor += 1

    def _after_navigation(self, kind: str, taken: int) -> None:
        self._adjudicated = None
        self._generation += 1
        self._restore_clock()
        self.bots_paused = True
        self._sync_clock()
        self._session_event(kind, f"{kind} to move {self.cursor}", moves=taken)
        self._emit(kind, text=f"{taken} move(s)")

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
        self._after_navigation("undo", taken)
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
        self._after_navigation("redo", taken)
        return taken

    def jump(self, ply: int) -> None:
        """Show the position after move ``ply`` (0 = the start); the redo tail is kept."""
        if not 0 <= ply <= len(self.history):
            raise SessionError(f"no position after move {ply} (history has {len(self.history)} moves)")
        start = self.cursor
        while self.cursor > ply:
            self._step_back()
        while self.cursor < ply:
            self._step_forward()
        self._after_navigation("jump", abs(ply - start))

    def _restore_clock(self) -> None:
        if self.clock is None:
            return
        snap = self.history[self.cursor - 1].clock if self.cursor > 0 else self._initial_clock
        if snap is not None:
            self.clock.restore(snap)

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
        delay = hint_delay(self.seats, self.to_move)
        if delay is None:
            return False
        now = self._time() if now is None else now
        return self._hints.idle(self._generation, now) >= delay

    def hint(self) -> Move | None:
        """The game's suggestion for the person to move (worked out once per position), or
        None when no hint is offered in this match (see :meth:`hint_due`)."""
        hint = self._hint_function()
        if self.is_over or hint is None or hint_delay(self.seats, self.to_move) is None:
            return None
        known, move = self._hints.cached(self._generation)
        if not known:
            move = hint(self.game, self.state, self.to_move)
            self._hints.store(self._generation, move)
        return move

    def _hint_function(self) -> Any:
        try:
            return self.plugins.game(self.game.id).hint
        except LookupError:  # a game built outside the plugins (tests): no spec, no hint
            return None

    def _bot(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            spec = self.seats[seat].bot
            assert spec is not None
            bot = spec.factory(self.game, _bot_seed(self.seed, seat))
            self._bots[seat] = bot
        return bot

    def _budget(self, seat: int) -> float:
        budget = self.seats[seat].seconds
        if self.clock is not None:
            now = self._time()
            for limit in (self.clock.move_left(now), self.clock.remaining_for(seat, now)):
                if limit is not None:
                    budget = min(budget, max(0.05, limit * 0.8))
        return budget

    def poll(self, now: float | None = None) -> bool:
        """Advance the match without blocking: play finished bot answers, run clocks,
        start a bot that is due. Call it every frame. Returns True if the position changed."""
        self._worker.collect()
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
        while True:
            try:
                job = self._worker.done.get_nowait()
            except queue.Empty:
                return changed
            changed |= self._finish(job)

    def _finish(self, job: BotJob) -> bool:
        if self._thinking == (job.generation, job.seat):
            self._thinking = None
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
        running = self._worker.job
        if running is not None and running.generation != self._generation and self._worker.busy:
            self._worker.cancel()  # stale: kill it (a process) or ask it to stop (a thread)
        if self._waiting is not None and self._waiting.generation != self._generation:
            self._waiting = None  # made stale before it could start
        if self._waiting is None:
            if not self.bot_to_move() or self.bots_paused or self.thinking is not None:
                return
            seat = self.to_move
            view = self.state.player_view(seat)
            self._waiting = BotJob(self._generation, seat, self._bot(seat), view, self._budget(seat))
            self._thinking = (self._generation, seat)
            self._emit("thinking", seat=seat, text=f"{self.player_label(seat)} is thinking")
        if self._worker.busy:
            self._worker.cancel()  # a stale job still runs: stop it (threads: ours starts when it ends)
            if self._worker.busy:
                return
        job, self._waiting = self._waiting, None
        self._worker.start(job)

    def wait_for_bot(self, timeout: float | None = 30.0) -> bool:
        """Block until the running bot job ends (tests and headless drivers only)."""
        return self._worker.join(timeout)

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
                self._bots.pop(seat, None)
        self.seats = controllers
        self.bots_paused = False
        self._generation += 1
        self._sync_clock()
        self._emit("seats")

    def restart(
        self, *, game: Game | None = None, seed: int | None = None, seats: Sequence[SeatLike] | None = None,
        ruleset: str | None = None,
    ) -> None:
        """Start a new game (same game, seats and next seed unless given)."""
        new_game = game or self.game
        new_seed = self.seed + 1 if seed is None else seed
        controllers = self._controllers(self.seats if seats is None else seats, new_game)
        label = ruleset or (self.ruleset if game is None else None)
        self._setup(new_game, new_seed, label)
        self.seats = controllers
        self._bots = {}
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

    def _clock_should_run(self) -> bool:
        if self.is_over:
            return False
        return self.seats[self.to_move].is_human or not self.bots_paused

    def _sync_clock(self) -> None:
        if self.clock is None:
            return
        now = self._time()
        if self._clock_should_run():
            if self.clock.running != self.to_move:
                self.clock.start(self.to_move, now)
        else:
            self.clock.stop(now)

    def _check_clock(self, now: float) -> bool:
        if self.clock is None or self.clock.running is None:
            return False
        deadline = self.clock.deadline()
        if deadline is None or now < deadline[1]:
            return False
        kind, when = deadline
        seat = self.clock.running
        self.clock.stop(when)
        if kind == "move":
            fallback = self.state.timeout_move()
            if fallback is not None:
                self._apply(fallback, by="timeout")
                if self.clock is not None and not self.is_over:
                    self.clock.start(self.to_move, when)
                return True
        self._flag(seat, "flag" if kind == "flag" else "move_time")
        return True

    def resign(self, seat: int) -> None:
        """``seat`` gives up (or leaves an online match): the other side wins by ``resign``.

        Played as the game's own concede move when it has one (the record replays to the
        result), else adjudicated like a clock flag.
        """
        if self.is_over:
            raise SessionError("the game is already over")
        if not 0 <= seat < len(self.game.seats):
            raise SessionError(f"no seat {seat}")
        self._flag(seat, "resign")

    def _flag(self, seat: int, reason: str) -> None:
        """``seat`` ran out of time or resigned: the game's own concede move if it has one, else adjudicate."""
        move = self.state.concede_move(seat, reason)
        if move is not None:
            try:
                self._apply(move, by="resign" if reason == "resign" else "timeout")
            except IllegalMove:
                log.exception("the game refused its own concede move")
            else:
                if self.state.result is not None:
                    return
        what = {"flag": "ran out of time", "resign": "resigned"}.get(reason, "ran out of move time")
        self._adjudicated = self.game.time_loss(seat, reason, f"{self.seat_name(seat)} {what}")
        del self.history[self.cursor :]
        self._generation += 1
        self._session_event("flag", self._adjudicated.text, seat=seat)
        self._emit("result", seat=seat, text=self._adjudicated.text)

    def move_time_left(self, now: float | None = None) -> float | None:
        """Seconds left on the running move timer (None without one or while stopped)."""
        if self.clock is None:
            return None
        return self.clock.move_left(self._time() if now is None else now)

    def clock_times(self, now: float | None = None) -> list[float | None]:
        """Each seat's remaining main time (None without a clock)."""
        if self.clock is None:
            return [None] * len(self.game.seats)
        now = self._time() if now is None else now
        return [self.clock.remaining_for(s, now) for s in range(len(self.game.seats))]

    # -- records ------------------------------------------------------------------------------------

    def to_record(self) -> dict[str, JSON]:
        """The match up to the current position as a ``pegboard.match/1`` record."""
        players = [{"name": ctl.name, "bot": None if ctl.is_human else ctl.id} for ctl in self.seats]
        return record_from_moves(self.game, self.game.ruleset, self.seed, players, self.moves, self.result)

    def export(self, path: str | Path) -> Path:
        """Write the match to ``path``: JSON for ``.json``, else the game's text format for the suffix."""
        target = Path(path)
        try:
            return write_record(self.to_record(), target, self.plugins)
        except MatchFileError as exc:
            raise SessionError(exc.reason) from exc
        except OSError as exc:
            raise SessionError(f"cannot write {target}: {exc.strerror or exc}") from exc

    def text_suffixes(self) -> list[str]:
        """File suffixes this game's matches can be written in besides ``.json``."""
        spec = self.plugins.games().get(self.game.id)
        return [] if spec is None else list(spec.text_formats)

    def import_file(self, path: str | Path) -> None:
        """Replace the game by the match in ``path`` (JSON or a game's text format).

        The file goes through :mod:`pegboard.records` (syntax, schema, replay,
        result: what ``pegboard validate`` runs); on any problem
        :class:`MatchImportError` is raised and nothing changes.
        """
        try:
            record = parse_record(read_text(path), path, self.plugins)
        except PegboardError as exc:
            raise _import_error(exc) from exc
        self.import_record(record, source=str(path))

    def parse_record(self, text: str, suffix: str = ".json") -> dict[str, JSON]:
        """Parse a record from text (format by ``suffix``); raises :class:`MatchImportError`."""
        try:
            record = parse_record(text, Path(f"record{suffix}"), self.plugins)
        except PegboardError as exc:
            raise _import_error(exc) from exc
        if not isinstance(record, dict):
            raise MatchImportError("a match record must be a JSON object")
        return record

    def import_record(self, record: Mapping[str, JSON], *, source: str | None = None) -> None:
        """Replace the game by ``record`` after checking and replaying it; see :meth:`import_file`."""
        if not isinstance(record, Mapping):
            raise MatchImportError("a match record must be a JSON object")
        game_id = record.get("game")
        if game_id != self.game.id:
            raise MatchImportError(f"this is a {game_id} match, not {self.game.id}")
        same_rules = plain(record.get("ruleset")) == plain(self.game.ruleset)
        try:
            replayed = load_record(dict(record), self.plugins, path=source, game=self.game if same_rules else None)
        except PegboardError as exc:
            raise _import_error(exc) from exc
        game = replayed.game
        if len(game.seats) != len(self.seats):
            raise MatchImportError("the record's game has a different number of seats")
        plies = [PlyRecord(m.number, m.seat, m.move, m.text, m.events, by="import") for m in replayed.moves]
        self._generation += 1
        self.game = game
        self.seed = int(record.get("seed", 0) or 0)
        ref = replayed.ruleset_id
        self.ruleset = f"{game.id}/{ref}" if ref else _ruleset_label(game)
        self.state = replayed.state
        self.history = plies
        self.cursor = len(plies)
        self._adjudicated = replayed.result if replayed.state.result is None else None
        self._bots = {}
        self.clock_settings = self._clock_settings(game)
        self.clock = Clock(len(game.seats), self.clock_settings) if self.clock_settings else None
        self._initial_clock = self.clock.snapshot() if self.clock else None
        self.bots_paused = True
        self._sync_clock()
        self._session_event("import", f"imported {len(plies)} moves")
        self._emit("import", text=f"{len(plies)} moves")

    # -- shutting down ------------------------------------------------------------------------------

    def close(self) -> None:
        """Drop any bot answer still being computed and forget listeners."""
        self._generation += 1
        self._worker.close()
        self._listeners.clear()


# -- helpers ------------------------------------------------------------------------------------


def _import_error(exc: PegboardError) -> MatchImportError:
    """A records/ruleset error as a :class:`MatchImportError` (keeping line and move)."""
    if isinstance(exc, MatchImportError):
        return exc
    if isinstance(exc, MatchFileError):
        reason = exc.reason if exc.move is not None or not exc.json_path else f"{exc.json_path}: {exc.reason}"
        return MatchImportError(reason, line=exc.line, move_number=exc.move)
    if isinstance(exc, RulesetError):
        return MatchImportError(exc.reason, line=exc.line)
    return MatchImportError(str(exc))


def _bot_seed(seed: int, seat: int) -> int:
    return (seed * 1_000_003 + 7919 * (seat + 1)) & 0x7FFFFFFF


def _ruleset_label(game: Game) -> str:
    rid = game.ruleset.get("id")
    return f"{game.id}/{rid}" if rid else game.id


def result_sentence(game: Game, result: Result) -> str:
    """``"Blue wins — no moves"``-style one-liner (see :meth:`Result.sentence`)."""
    return result.sentence(game.seats)


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
    "result_sentence",
    "seat_controller",
]
