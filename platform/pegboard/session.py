"""A match being played: seats, history, undo/redo/jump, bots, clocks, records.

:class:`Session` is the one object the window, the tests and any headless
driver use to play a match. It owns the live :class:`~pegboard.game.State`,
remembers every move (with its events) so it can step back and forth, runs
bots off the calling thread, keeps optional chess clocks, and tells listeners
about every change. It never imports pyglet.

Threading model: every public method must be called from one thread (the UI
thread). Bots think on a daemon worker thread on a *copy* of the position;
their answers are picked up by :meth:`Session.poll`, which the UI calls every
frame. Each change of position bumps a generation counter, so an answer
computed for an old position (after an undo, say) is dropped, never played.

Undo follows the Node War rulings, generalised: it takes back at least one
move and keeps going until a person is to move (when any seat is a person);
between two people or two bots it takes back one move. Redo mirrors it. After
undo, redo, jump or import the bots stay paused until a person moves or
:meth:`Session.resume_bots` is called.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .game import CLOCK_REASONS, JSON, Event, Game, IllegalMove, InvalidMoveEncoding, Move, PegboardError, Result, State
from .specs import Bot, BotSpec

log = logging.getLogger(__name__)

HUMAN = "human"
RECORD_FORMAT = "pegboard.match/1"


class SessionError(PegboardError):
    """A session operation cannot be done now (nothing to undo, wrong seat count ...)."""


class MatchImportError(PegboardError):
    """A match record was refused; the current game is untouched.

    ``line`` is the line of the file (text formats) and ``move_number`` the
    1-based move that failed, when known.
    """

    def __init__(self, reason: str, *, line: int | None = None, move_number: int | None = None) -> None:
        where = []
        if line is not None:
            where.append(f"line {line}")
        if move_number is not None:
            where.append(f"move {move_number}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)
        self.reason = reason
        self.line = line
        self.move_number = move_number


# -- seats ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatController:
    """Who plays one seat: a person at the window (``bot`` is None) or a bot.

    ``budget`` overrides the bot spec's seconds per move.
    """

    bot: BotSpec | None = None
    budget: float | None = None

    @classmethod
    def human(cls) -> SeatController:
        return cls()

    @property
    def is_human(self) -> bool:
        return self.bot is None

    @property
    def id(self) -> str:
        """``"human"`` or the bot's id (what the CLI and Customize dialog use)."""
        return HUMAN if self.bot is None else self.bot.id

    @property
    def name(self) -> str:
        return "Player" if self.bot is None else self.bot.name

    @property
    def seconds(self) -> float:
        if self.bot is None:
            return 0.0
        return self.budget if self.budget is not None else self.bot.budget


SeatLike = SeatController | BotSpec | str | None


def seat_controller(value: SeatLike, game_id: str, plugins: Any = None) -> SeatController:
    """Turn ``"human"``, None, a :class:`BotSpec`, a bot id or a controller into a controller.

    Bot ids are looked up with ``plugins.bot(game_id, id)`` (raises ``UnknownId``).
    """
    if isinstance(value, SeatController):
        return value
    if value is None or value == HUMAN or value == "player":
        return SeatController()
    if isinstance(value, BotSpec):
        return SeatController(bot=value)
    if isinstance(value, str):
        if plugins is None:
            from .plugins import get_plugins

            plugins = get_plugins()
        return SeatController(bot=plugins.bot(game_id, value))
    raise TypeError(f"cannot use {value!r} as a seat")


# -- clocks ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClockSettings:
    """Chess-clock settings: ``total`` seconds per seat and ``per_move`` seconds a move.

    Either may be None (no main clock / no move timer).
    """

    total: float | None = None
    per_move: float | None = None

    @property
    def enabled(self) -> bool:
        return self.total is not None or self.per_move is not None

    @classmethod
    def from_ruleset(cls, ruleset: Mapping[str, JSON]) -> ClockSettings | None:
        """Read the optional ``[timers]`` table: ``enabled``, ``clock_seconds``, ``move_seconds``.

        A value of 0 (or a missing key) turns that timer off; ``enabled = false`` turns both off.
        """
        table = ruleset.get("timers")
        if not isinstance(table, Mapping) or not table.get("enabled", False):
            return None
        total = _opt_float(table.get("clock_seconds"))
        per_move = _opt_float(table.get("move_seconds"))
        settings = cls(total=total or None, per_move=per_move or None)
        return settings if settings.enabled else None


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


class Clock:
    """Per-seat remaining time plus a per-move timer, driven by explicit timestamps.

    Nothing here reads the wall clock: callers pass ``now`` (seconds, any
    monotonic origin), so tests can move time by hand.
    """

    def __init__(self, seats: int, settings: ClockSettings) -> None:
        self.settings = settings
        self.remaining: list[float | None] = [settings.total] * seats
        self.running: int | None = None
        self.started_at = 0.0
        # The move timer covers a whole turn: several moves in a row by one seat (Starfall's
        # missile shots before its action) share one timer, so it restarts only for a new seat.
        self.turn_seat: int | None = None
        self.turn_started_at = 0.0

    def start(self, seat: int, now: float) -> None:
        """Start ``seat``'s clock (stopping whichever ran); a new seat starts a new move timer."""
        self.stop(now)
        self.running = seat
        self.started_at = now
        if seat != self.turn_seat:
            self.turn_seat = seat
            self.turn_started_at = now

    def stop(self, now: float) -> None:
        """Stop the running clock and charge it the time used."""
        if self.running is not None:
            left = self.remaining[self.running]
            if left is not None:
                self.remaining[self.running] = max(0.0, left - max(0.0, now - self.started_at))
            self.running = None

    def remaining_for(self, seat: int, now: float) -> float | None:
        left = self.remaining[seat]
        if left is not None and seat == self.running:
            left = max(0.0, left - max(0.0, now - self.started_at))
        return left

    def move_left(self, now: float) -> float | None:
        """Seconds left on the move timer of the running seat (None: no timer or stopped)."""
        if self.running is None or self.settings.per_move is None:
            return None
        return max(0.0, self.settings.per_move - max(0.0, now - self.turn_started_at))

    def deadline(self) -> tuple[str, float] | None:
        """The next expiry of the running seat: ``("flag" | "move", when)``, or None."""
        if self.running is None:
            return None
        options: list[tuple[float, str]] = []
        left = self.remaining[self.running]
        if left is not None:
            options.append((self.started_at + left, "flag"))
        if self.settings.per_move is not None:
            options.append((self.turn_started_at + self.settings.per_move, "move"))
        if not options:
            return None
        when, kind = min(options)  # a flag at the same instant as the move timer wins
        return kind, when

    def snapshot(self) -> tuple[float | None, ...]:
        return tuple(self.remaining)

    def restore(self, snapshot: Sequence[float | None]) -> None:
        self.running = None
        self.turn_seat = None
        self.remaining = list(snapshot)


# -- history and change notices ---------------------------------------------------------------


@dataclass(frozen=True)
class PlyRecord:
    """One move of the history: who played it, how it reads, and what it did."""

    number: int
    seat: int
    move: Move
    text: str
    events: tuple[Event, ...]
    by: str
    clock: tuple[float | None, ...] | None = None


@dataclass(frozen=True)
class Change:
    """A notice sent to session listeners.

    ``kind``: ``move`` (a move was played; ``by`` is ``human``, a bot id or
    ``timeout``), ``undo``, ``redo``, ``jump``, ``restart``, ``import``,
    ``seats``, ``extend``, ``result`` (the game just ended), ``thinking`` (a bot
    started), ``bot_error``, ``paused``, ``resumed``. ``ply`` is the position
    after the change.
    """

    kind: str
    ply: int
    move: Move | None = None
    seat: int | None = None
    events: tuple[Event, ...] = ()
    by: str = ""
    text: str = ""


Listener = Callable[[Change], None]


# -- the bot worker -----------------------------------------------------------------------------


@dataclass
class _Job:
    generation: int
    seat: int
    bot: Bot
    view: State
    budget: float
    answer: Move | None = None
    error: str | None = None  # "ExceptionType: message"


def _describe_error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


class _ThreadWorker:
    """Runs one bot job at a time on a daemon thread; finished jobs wait in ``done``.

    A stale job cannot be stopped (only asked to, through the bot's ``cancel()``
    or ``stop()``); the next job starts when it returns.
    """

    def __init__(self) -> None:
        self.done: queue.Queue[_Job] = queue.Queue()
        self.thread: threading.Thread | None = None
        self.job: _Job | None = None

    @property
    def busy(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def start(self, job: _Job) -> None:
        self.job = job
        self.thread = threading.Thread(target=self.run, args=(job,), name=f"pegboard-bot-seat{job.seat}", daemon=True)
        self.thread.start()

    def run(self, job: _Job) -> None:
        try:
            job.answer = job.bot.choose(job.view, job.budget)
        except BaseException as exc:  # noqa: BLE001 - reported to the session, never lost
            job.error = _describe_error(exc)
        self.done.put(job)

    def collect(self) -> None:
        """Thread jobs report through ``done`` themselves."""

    def cancel(self) -> None:
        """Ask a running bot to stop early, if it knows how (``cancel()`` or ``stop()``)."""
        if self.busy and self.job is not None:
            for name in ("cancel", "stop"):
                hook = getattr(self.job.bot, name, None)
                if callable(hook):
                    try:
                        hook()
                    except Exception:  # noqa: BLE001
                        log.exception("bot %s() failed", name)
                    break

    def join(self, timeout: float | None) -> bool:
        if self.thread is not None:
            self.thread.join(timeout)
        return not self.busy

    def close(self) -> None:
        self.cancel()


def _child_think(bot: Bot, view: State, budget: float, conn: Any) -> None:
    """Body of a forked bot process: think, send ``("ok", move)`` or ``("error", text)``."""
    try:
        reply: tuple[str, Any] = ("ok", bot.choose(view, budget))
    except BaseException as exc:  # noqa: BLE001
        reply = ("error", _describe_error(exc))
    try:
        conn.send(reply)
    except Exception as exc:  # noqa: BLE001 - e.g. a move that cannot be pickled
        conn.send(("error", f"cannot send the move back: {_describe_error(exc)}"))
    conn.close()


class _ProcessWorker:
    """Runs each bot job in a forked child process, so a bot never slows the window.

    The child starts as a copy of this process (the position, the bot and its
    memory), thinks on its own CPU core and sends the move back through a pipe.
    A stale job is killed at once. The bot's own memory does not flow back
    (each move starts from the bot as the parent holds it), which keeps
    answers a function of the seed and the position.
    """

    def __init__(self) -> None:
        import multiprocessing

        self.ctx = multiprocessing.get_context("fork")
        self.done: queue.Queue[_Job] = queue.Queue()
        self.job: _Job | None = None
        self.proc: Any = None
        self.conn: Any = None

    @property
    def busy(self) -> bool:
        return self.job is not None

    def start(self, job: _Job) -> None:
        receiver, sender = self.ctx.Pipe(duplex=False)
        proc = self.ctx.Process(target=_child_think, args=(job.bot, job.view, job.budget, sender), daemon=True,
                                name=f"pegboard-bot-seat{job.seat}")
        proc.start()
        sender.close()
        self.job, self.proc, self.conn = job, proc, receiver

    def collect(self) -> None:
        """Move a finished job into ``done`` (never blocks)."""
        job = self.job
        if job is None:
            return
        if not self.conn.poll():
            if self.proc.is_alive():
                return
            self.proc.join(1.0)  # it may have answered just before ending: look again
        if self.conn.poll():
            try:
                kind, value = self.conn.recv()
            except (EOFError, OSError):
                kind, value = "error", f"the bot process ended without an answer (exit code {self.proc.exitcode})"
            if kind == "ok":
                job.answer = value
            else:
                job.error = str(value)
        else:
            job.error = f"the bot process ended without an answer (exit code {self.proc.exitcode})"
        self._reap()
        self.done.put(job)

    def _reap(self) -> None:
        if self.proc is not None:
            self.proc.join(1.0)
            if self.proc.is_alive():
                self.proc.kill()
                self.proc.join(1.0)
        if self.conn is not None:
            self.conn.close()
        self.job = self.proc = self.conn = None

    def cancel(self) -> None:
        """Kill the running job (it is stale: its answer would be dropped anyway)."""
        if self.proc is not None and self.proc.is_alive():
            self.proc.kill()
        if self.job is not None:
            self._reap()

    def join(self, timeout: float | None) -> bool:
        if self.conn is not None:
            self.conn.poll(timeout)
            if not self.conn.poll() and self.proc is not None:
                self.proc.join(0.1)
        self.collect()
        return not self.busy

    def close(self) -> None:
        self.cancel()


BOT_WORKERS = ("thread", "process", "inline")


def default_bot_worker() -> str:
    """``"process"`` where fork is available (Linux, other Unixes), else ``"thread"``."""
    import multiprocessing
    import sys

    return "process" if "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin" else "thread"


# -- the session --------------------------------------------------------------------------------


class Session:
    """A match being played (see the module docstring).

    ``seats`` holds one entry per seat of ``game``: a :class:`SeatController`,
    ``"human"``, a :class:`BotSpec` or a bot id. ``ruleset`` is the ruleset
    reference shown to people and written into records ("nodewar/standard");
    by default it is made from the game's resolved ruleset. ``plugins`` (a
    :class:`pegboard.plugins.Plugins`) resolves bot ids, receives
    ``pegboard_match_event`` notices and builds games for imported records.
    ``clock`` is a :class:`ClockSettings`, None (no clocks) or ``"ruleset"``
    (the default: the ruleset's ``[timers]`` table decides); ``time_source`` returns seconds (tests pass
    a fake). ``workers`` says where bots think: ``"thread"`` (a daemon thread,
    the default), ``"process"`` (a forked child per move: true parallelism,
    stale answers are killed; what the window uses where fork exists) or
    ``"inline"`` (inside :meth:`poll`, blocking: headless drivers and tests).
    ``threaded=False`` is a shorthand for ``workers="inline"``.
    """

    def __init__(
        self,
        game: Game,
        seats: Sequence[SeatLike],
        seed: int = 0,
        *,
        ruleset: str | None = None,
        plugins: Any = None,
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
        self._worker: _ThreadWorker | _ProcessWorker = _ProcessWorker() if self.workers == "process" else _ThreadWorker()
        self._waiting: _Job | None = None  # a job waiting for a stale one to finish
        self._thinking: tuple[int, int] | None = None  # (generation, seat)
        self.last_error: str | None = None
        self._setup(game, seed, ruleset)
        self.seats = self._controllers(seats)
        self._bots: dict[int, Bot] = {}
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
        self._generation = getattr(self, "_generation", 0) + 1
        self.clock_settings = self._clock_settings(game)
        self.clock: Clock | None = Clock(len(game.seats), self.clock_settings) if self.clock_settings else None
        self._initial_clock = self.clock.snapshot() if self.clock else None

    def _clock_settings(self, game: Game) -> ClockSettings | None:
        mode = self._clock_mode
        if mode == "ruleset":
            return ClockSettings.from_ruleset(game.ruleset) if isinstance(game.ruleset, Mapping) else None
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
    def plugins(self) -> Any:
        if self._plugins is None:
            from .plugins import get_plugins

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
        self.last_error = None
        self._notify(events)
        self._emit("move", move=move, seat=seat, events=record.events, by=by, text=text)
        if self.state.result is not None:
            self._emit("result", text=_result_text(self, self.state.result))
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

    def _finish(self, job: _Job) -> bool:
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
            self._waiting = _Job(self._generation, seat, self._bot(seat), view, self._budget(seat))
            self._thinking = (self._generation, seat)
            self._emit("thinking", seat=seat, text=f"{self.player_label(seat)} is thinking")
        if self._worker.busy:
            self._worker.cancel()  # a stale job still runs: stop it (threads: ours starts when it ends)
            if self._worker.busy:
                return
        job, self._waiting = self._waiting, None
        if self.workers == "inline":
            self._worker.run(job)  # type: ignore[union-attr]
        else:
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
        """How many turns an extension adds, when it can be told.

        Reads ``State.extension_turns`` if the game offers it; otherwise extends a
        clone and compares its ``turn_limit`` (or ``limit``) before and after.
        """
        value = getattr(self.state, "extension_turns", None)
        value = value() if callable(value) else value
        if isinstance(value, int):
            return value
        if not self.can_extend():
            return None
        probe = self.state.clone()
        for name in ("turn_limit", "limit"):
            before = getattr(probe, name, None)
            if isinstance(before, int):
                try:
                    probe.extend()
                except PegboardError:
                    return None
                after = getattr(probe, name, None)
                return after - before if isinstance(after, int) and after > before else None
        return None

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
            fallback = _timeout_move(self.state)
            if fallback is not None:
                self._apply(fallback, by="timeout")
                if self.clock is not None and not self.is_over:
                    self.clock.start(self.to_move, when)
                return True
        self._flag(seat, "flag" if kind == "flag" else "move_time")
        return True

    def _flag(self, seat: int, reason: str) -> None:
        """``seat`` ran out of time: the game's own concede move if it has one, else adjudicate."""
        move = _concede_move(self.state, seat, reason)
        if move is not None:
            try:
                self._apply(move, by="timeout")
            except IllegalMove:
                log.exception("the game refused its own concede move")
            else:
                if self.state.result is not None:
                    return
        seats = len(self.game.seats)
        winner = (seat + 1) % seats if seats == 2 else None
        what = "ran out of time" if reason == "flag" else "ran out of move time"
        self._adjudicated = Result(winner=winner, reason=reason, text=f"{self.seat_name(seat)} {what}")
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
        record: dict[str, JSON] = {
            "format": RECORD_FORMAT,
            "game": self.game.id,
            "ruleset": _plain(self.game.ruleset),
            "seed": self.seed,
            "players": [
                {"seat": self.seat_name(i), "name": ctl.name, "bot": None if ctl.is_human else ctl.id}
                for i, ctl in enumerate(self.seats)
            ],
            "moves": [self.game.encode_move(m) for m in self.moves],
        }
        if self.result is not None:
            record["result"] = self.result.to_json()
        return record

    def export(self, path: str | Path) -> Path:
        """Write the match to ``path``: JSON for ``.json``, else the game's text format for the suffix."""
        from . import records

        target = Path(path)
        suffix = ".json" if target.name.lower().endswith(".json") else target.suffix.lower()
        try:
            text = records.dumps_record(self.to_record(), suffix, self.plugins)
            return records.write_text_atomic(target, text)
        except records.MatchFileError as exc:
            raise SessionError(exc.reason) from exc
        except OSError as exc:
            raise SessionError(f"cannot write {target}: {exc.strerror or exc}") from exc

    def _text_format(self, suffix: str) -> Any:
        try:
            spec = self.plugins.game(self.game.id)
        except Exception:  # noqa: BLE001 - an unregistered game simply has no text formats
            return None
        return dict(spec.text_formats).get(suffix.lower())

    def text_suffixes(self) -> list[str]:
        """File suffixes this game's matches can be written in besides ``.json``."""
        try:
            return list(self.plugins.game(self.game.id).text_formats)
        except Exception:  # noqa: BLE001
            return []

    def import_file(self, path: str | Path) -> None:
        """Replace the game by the match in ``path`` (JSON or a game's text format).

        The file goes through :mod:`pegboard.records` (syntax, schema) and every
        move is replayed on a fresh state first; on any problem
        :class:`MatchImportError` is raised and nothing changes.
        """
        from . import records

        try:
            record = records.parse_record(records.read_text(path), path, self.plugins)
        except (PegboardError, ValueError, KeyError) as exc:
            raise _import_error(exc) from exc
        self.import_record(record, source=str(path))

    def parse_record(self, text: str, suffix: str = ".json") -> dict[str, JSON]:
        """Parse a record from text (format by ``suffix``); raises :class:`MatchImportError`."""
        from . import records

        try:
            return dict(records.parse_record(text, Path(f"record{suffix}"), self.plugins))
        except (PegboardError, ValueError, KeyError) as exc:
            raise _import_error(exc) from exc

    def import_record(self, record: Mapping[str, JSON], *, source: str | None = None) -> None:
        """Replace the game by ``record`` after checking and replaying it; see :meth:`import_file`."""
        if not isinstance(record, Mapping):
            raise MatchImportError("a match record must be a JSON object")
        game_id = record.get("game")
        if game_id != self.game.id:
            raise MatchImportError(f"this is a {game_id} match, not {self.game.id}")
        from . import records

        errors = records.check_schema(dict(record), self.plugins, source)
        if errors:
            raise _import_error(errors[0])
        game, state, plies, result = self._replay(record)
        self._generation += 1
        self.game = game
        self.seed = int(record.get("seed", 0) or 0)
        ref = record["ruleset"].get("id") if isinstance(record.get("ruleset"), Mapping) else None
        self.ruleset = f"{game.id}/{ref}" if ref else _ruleset_label(game)
        self.state = state
        self.history = plies
        self.cursor = len(plies)
        self._adjudicated = result
        self._bots = {}
        self.clock_settings = self._clock_settings(game)
        self.clock = Clock(len(game.seats), self.clock_settings) if self.clock_settings else None
        self._initial_clock = self.clock.snapshot() if self.clock else None
        self.bots_paused = True
        self._sync_clock()
        self._session_event("import", f"imported {len(plies)} moves")
        self._emit("import", text=f"{len(plies)} moves")

    def _replay(self, record: Mapping[str, JSON]) -> tuple[Game, State, list[PlyRecord], Result | None]:
        game = self._game_for(record.get("ruleset"))
        if len(game.seats) != len(self.seats):
            raise MatchImportError("the record's game has a different number of seats")
        moves = record.get("moves", [])
        if not isinstance(moves, list):
            raise MatchImportError("'moves' must be a list")
        lines = _move_lines(record)
        try:
            state = game.new_state(int(record.get("seed", 0) or 0))
        except (TypeError, ValueError) as exc:
            raise MatchImportError(f"bad seed: {exc}") from exc
        plies: list[PlyRecord] = []
        for index, data in enumerate(moves, start=1):
            line = lines[index - 1] if index - 1 < len(lines) else None
            try:
                move = game.decode_move(data)
            except (InvalidMoveEncoding, ValueError, TypeError, KeyError) as exc:
                raise MatchImportError(f"cannot read the move: {exc}", line=line, move_number=index) from exc
            if state.is_over and state.can_extend():
                state.extend()  # moves past a turn limit imply the extension
            if state.is_over:
                raise MatchImportError("move after the end of the game", line=line, move_number=index)
            seat = state.to_move
            text = state.move_text(move)
            try:
                events = state.apply(move)
            except IllegalMove as exc:
                raise MatchImportError(f"illegal move {text}: {exc.reason}", line=line, move_number=index) from exc
            plies.append(PlyRecord(index, seat, move, text, tuple(events), by="import"))
        declared = record.get("result")
        adjudicated: Result | None = None
        if isinstance(declared, Mapping):
            claim = Result.from_json(declared)
            if state.result is not None:
                if not claim.same_outcome(state.result):
                    raise MatchImportError(
                        f"the record says {claim.reason} (winner {claim.winner}) but the moves give "
                        f"{state.result.reason} (winner {state.result.winner})"
                    )
            elif claim.reason in CLOCK_REASONS:
                adjudicated = claim  # decided by a clock, which replay cannot see
            else:
                raise MatchImportError(f"the record declares a result ({claim.reason}) but the game is not over")
        return game, state, plies, adjudicated

    def _game_for(self, ruleset: Any) -> Game:
        if ruleset is None or _plain(ruleset) == _plain(self.game.ruleset):
            return self.game
        from . import records

        try:
            return records.game_for_record({"ruleset": ruleset}, self.plugins)
        except Exception as exc:  # noqa: BLE001 - any failure to build means a bad ruleset
            raise MatchImportError(f"the record's ruleset is not usable: {exc}") from exc

    # -- shutting down ------------------------------------------------------------------------------

    def close(self) -> None:
        """Drop any bot answer still being computed and forget listeners."""
        self._generation += 1
        self._worker.close()
        self._listeners.clear()


# -- helpers ------------------------------------------------------------------------------------


def _import_error(exc: BaseException) -> MatchImportError:
    """A records/text-format error as a :class:`MatchImportError` (keeping line and move)."""
    if isinstance(exc, MatchImportError):
        return exc
    reason = getattr(exc, "reason", None) or str(exc)
    json_path = getattr(exc, "json_path", None)
    if json_path and getattr(exc, "move", None) is None:
        reason = f"{json_path}: {reason}"
    return MatchImportError(str(reason), line=getattr(exc, "line", None), move_number=getattr(exc, "move", None))


def _bot_seed(seed: int, seat: int) -> int:
    return (seed * 1_000_003 + 7919 * (seat + 1)) & 0x7FFFFFFF


def _timeout_move(state: State) -> Move | None:
    """The move a game plays when a move timer runs out (``State.timeout_move()``), if any."""
    hook = getattr(state, "timeout_move", None)
    if not callable(hook):
        return None
    move = hook()
    return move


def _concede_move(state: State, seat: int, reason: str) -> Move | None:
    """The move by which ``seat`` loses on time, when the game records that as a move.

    Uses ``State.concede_move(seat, reason)`` if present; otherwise, for games with
    ``State.concede(seat, reason)`` (which applies it), applies and takes it back to learn it.
    """
    maker = getattr(state, "concede_move", None)
    if callable(maker):
        return maker(seat, reason)
    concede = getattr(state, "concede", None)
    if not callable(concede):
        return None
    try:
        concede(seat, reason)
    except (PegboardError, ValueError):
        return None
    return state.undo()


def _ruleset_label(game: Game) -> str:
    rid = game.ruleset.get("id") if isinstance(game.ruleset, Mapping) else None
    return f"{game.id}/{rid}" if rid else game.id


def _plain(value: Any) -> Any:
    """A JSON-plain copy (tuples to lists, mappings to dicts) for records and comparisons."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _move_lines(record: Mapping[str, JSON]) -> list[int]:
    """Source line of each move, when a text format recorded them in ``meta.lines``."""
    meta = record.get("meta")
    lines = meta.get("lines") if isinstance(meta, Mapping) else None
    return [int(n) for n in lines] if isinstance(lines, list) else []


def _result_text(session: Session, result: Result) -> str:
    return result_sentence(session.game, result)


def result_sentence(game: Game, result: Result) -> str:
    """``"Blue wins: no_moves"``-style one-liner (the result's own text when it has one)."""
    head = "Draw" if result.winner is None else f"{game.seats[result.winner]} wins"
    why = result.text or result.reason.replace("_", " ")
    if result.text and (head.lower() in result.text.lower() or (result.winner is None and "draw" in result.text.lower())):
        return result.text  # the game's own sentence already names the outcome
    return f"{head} — {why}" if why else head


__all__ = [
    "HUMAN",
    "Change",
    "Clock",
    "ClockSettings",
    "MatchImportError",
    "PlyRecord",
    "SeatController",
    "Session",
    "SessionError",
    "default_bot_worker",
    "result_sentence",
    "seat_controller",
]
