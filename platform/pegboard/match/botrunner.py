"""A session's bots: one :class:`~pegboard.specs.Bot` per seat (built on first use), the
worker they think on (:mod:`pegboard.match.botworkers`) and the job waiting for it.

Jobs carry the session's generation (its position counter): a job made for an older
position is stale, is cancelled where the worker can, and its answer is dropped.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator

from pegboard.match.botworkers import BotJob, BotWorker, make_worker
from pegboard.specs import Bot


class BotRunner:
    """Starts bot jobs on a worker, one at a time, and hands back the finished ones."""

    def __init__(self, workers: str) -> None:
        self.worker: BotWorker = make_worker(workers)
        self.instances: dict[int, Bot] = {}
        self.waiting: BotJob | None = None  # a job waiting for a stale one to finish
        self.thinking: tuple[int, int] | None = None  # (generation, seat) of the newest job

    def thinking_seat(self, generation: int) -> int | None:
        """The seat whose bot thinks about the position of ``generation``, or None."""
        if self.thinking and self.thinking[0] == generation:
            return self.thinking[1]
        return None

    def finished(self) -> Iterator[BotJob]:
        """Every job that has ended since the last call (stale ones included), never blocking."""
        self.worker.collect()
        while True:
            try:
                job = self.worker.done.get_nowait()
            except queue.Empty:
                return
            if self.thinking == (job.generation, job.seat):
                self.thinking = None
            yield job

    def drop_stale(self, generation: int) -> None:
        """Cancel a running job and forget a waiting one made before ``generation``."""
        running = self.worker.job
        if running is not None and running.generation != generation and self.worker.busy:
            self.worker.cancel()  # stale: kill it (a process) or ask it to stop (a thread)
        if self.waiting is not None and self.waiting.generation != generation:
            self.waiting = None  # made stale before it could start

    def queue(self, job: BotJob) -> None:
        self.waiting = job
        self.thinking = (job.generation, job.seat)

    def launch(self) -> None:
        """Start the waiting job once the worker is free."""
        if self.waiting is None:
            return
        if self.worker.busy:
            self.worker.cancel()  # a stale job still runs: stop it (threads: ours starts when it ends)
            if self.worker.busy:
                return
        job, self.waiting = self.waiting, None
        self.worker.start(job)

    def join(self, timeout: float | None) -> bool:
        return self.worker.join(timeout)

    def close(self) -> None:
        self.worker.close()
