"""Where a session's bots think: inline, on a thread, or in a forked process.

Every worker implements :class:`BotWorker`: ``start`` a :class:`BotJob`,
``collect`` finished ones into ``done`` (never blocking), ``cancel`` a stale
one, ``join`` to wait (tests and headless drivers), ``close`` at the end.
"""

from __future__ import annotations

import logging
import multiprocessing
import queue
import sys
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Protocol

from pegboard.game import Move, State
from pegboard.specs import Bot

log = logging.getLogger(__name__)

BOT_WORKERS = ("thread", "process", "inline")


@dataclass
class BotJob:
    """One question to a bot: the move for ``seat`` in ``view``, within ``budget`` seconds.

    ``generation`` is the session's position counter when the job was made; an
    answer for an older generation is dropped. The worker fills in ``answer``
    or ``error`` (``"ExceptionType: message"``).
    """

    generation: int
    seat: int
    bot: Bot
    view: State
    budget: float
    answer: Move | None = None
    error: str | None = None


def describe_error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def think(job: BotJob) -> None:
    """Ask the bot, storing its answer or its error on the job."""
    try:
        job.answer = job.bot.choose(job.view, job.budget)
    except BaseException as exc:  # noqa: BLE001 - reported to the session, never lost
        job.error = describe_error(exc)


class BotWorker(Protocol):
    """The protocol the session drives its bots through."""

    done: queue.Queue[BotJob]
    job: BotJob | None

    @property
    def busy(self) -> bool:
        """True while a job is running (a new one must wait)."""

    def start(self, job: BotJob) -> None:
        """Begin thinking about ``job``."""

    def collect(self) -> None:
        """Move a finished job into ``done``; never blocks."""

    def cancel(self) -> None:
        """Stop a running (stale) job as far as this worker can."""

    def join(self, timeout: float | None) -> bool:
        """Wait up to ``timeout`` seconds for the running job; True when none runs."""

    def close(self) -> None:
        """Cancel whatever runs; the worker is not used afterwards."""


class InlineWorker:
    """Thinks inside :meth:`start`, blocking the caller (headless drivers and tests)."""

    def __init__(self) -> None:
        self.done: queue.Queue[BotJob] = queue.Queue()
        self.job: BotJob | None = None

    @property
    def busy(self) -> bool:
        return False

    def start(self, job: BotJob) -> None:
        self.job = job
        think(job)
        self.done.put(job)

    def collect(self) -> None:
        """Inline jobs are done when :meth:`start` returns."""

    def cancel(self) -> None:
        """Nothing ever runs in the background."""

    def join(self, timeout: float | None) -> bool:
        return True

    def close(self) -> None:
        """Nothing to release."""


class ThreadWorker:
    """Runs one bot job at a time on a daemon thread; finished jobs wait in ``done``.

    A stale job cannot be stopped, only asked to through :meth:`Bot.cancel`;
    the next job starts when it returns.
    """

    def __init__(self) -> None:
        self.done: queue.Queue[BotJob] = queue.Queue()
        self.thread: threading.Thread | None = None
        self.job: BotJob | None = None

    @property
    def busy(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def start(self, job: BotJob) -> None:
        self.job = job
        self.thread = threading.Thread(target=self._run, args=(job,), name=f"pegboard-bot-seat{job.seat}", daemon=True)
        self.thread.start()

    def _run(self, job: BotJob) -> None:
        think(job)
        self.done.put(job)

    def collect(self) -> None:
        """Thread jobs report through ``done`` themselves."""

    def cancel(self) -> None:
        """Ask a running bot to stop early (:meth:`Bot.cancel`)."""
        if self.busy and self.job is not None:
            try:
                self.job.bot.cancel()
            except Exception:  # noqa: BLE001 - a broken cancel must not break the match
                log.exception("bot cancel() failed")

    def join(self, timeout: float | None) -> bool:
        if self.thread is not None:
            self.thread.join(timeout)
        return not self.busy

    def close(self) -> None:
        self.cancel()


def _child_think(job: BotJob, conn: Connection) -> None:
    """Body of a forked bot process: think, send ``("ok", move)`` or ``("error", text)``."""
    think(job)
    reply = ("ok", job.answer) if job.error is None else ("error", job.error)
    try:
        conn.send(reply)
    except Exception as exc:  # noqa: BLE001 - e.g. a move that cannot be pickled
        conn.send(("error", f"cannot send the move back: {describe_error(exc)}"))
    conn.close()


class ProcessWorker:
    """Runs each bot job in a forked child process, so a bot never slows the window.

    The child starts as a copy of this process (the position, the bot and its
    memory), thinks on its own CPU core and sends the move back through a pipe.
    A stale job is killed at once. The bot's own memory does not flow back
    (each move starts from the bot as the parent holds it), which keeps
    answers a function of the seed and the position.
    """

    def __init__(self) -> None:
        self.ctx = multiprocessing.get_context("fork")
        self.done: queue.Queue[BotJob] = queue.Queue()
        self.job: BotJob | None = None
        self.proc: BaseProcess | None = None
        self.conn: Connection | None = None

    @property
    def busy(self) -> bool:
        return self.job is not None

    def start(self, job: BotJob) -> None:
        receiver, sender = self.ctx.Pipe(duplex=False)
        proc = self.ctx.Process(target=_child_think, args=(job, sender), daemon=True, name=f"pegboard-bot-seat{job.seat}")
        proc.start()
        sender.close()
        self.job, self.proc, self.conn = job, proc, receiver

    def collect(self) -> None:
        """Move a finished job into ``done`` (never blocks)."""
        job, proc, conn = self.job, self.proc, self.conn
        if job is None or proc is None or conn is None:
            return
        if not conn.poll():
            if proc.is_alive():
                return
            proc.join(1.0)  # it may have answered just before ending: look again
        if conn.poll():
            try:
                kind, value = conn.recv()
            except (EOFError, OSError):
                kind, value = "error", f"the bot process ended without an answer (exit code {proc.exitcode})"
            if kind == "ok":
                job.answer = value
            else:
                job.error = str(value)
        else:
            job.error = f"the bot process ended without an answer (exit code {proc.exitcode})"
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


def default_bot_worker() -> str:
    """``"process"`` where fork is available (Linux, other Unixes), else ``"thread"``."""
    return "process" if "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin" else "thread"


def make_worker(kind: str) -> BotWorker:
    """The worker for ``kind`` (one of :data:`BOT_WORKERS`); raises ValueError otherwise."""
    if kind == "process":
        return ProcessWorker()
    if kind == "thread":
        return ThreadWorker()
    if kind == "inline":
        return InlineWorker()
    raise ValueError(f"unknown bot worker kind {kind!r} (known: {', '.join(BOT_WORKERS)})")


__all__ = [
    "BOT_WORKERS",
    "BotJob",
    "BotWorker",
    "InlineWorker",
    "ProcessWorker",
    "ThreadWorker",
    "default_bot_worker",
    "make_worker",
]
