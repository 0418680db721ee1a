"""The Ray executor (``pip install pegboard[ray]``): the runner's tasks as Ray tasks.

``RayExecutor(address=None)`` starts a local Ray instance (``cpus`` CPUs, default: all)
the first time it is used and stops it when the process exits; with an ``address``
("ray://head:10001", "auto", "host:6379") it joins that cluster instead and leaves it
running. If Ray is already initialised in this process (a test session, a notebook), that
instance is used as it is. Every worker node needs pegboard (and the plugins the command
loads) installed; see docs/scale.md.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pegboard.errors import MissingExtra
from pegboard.game import PegboardError


def _ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise MissingExtra("ray", f"--executor ray ({exc})") from None
    return ray


_loaded: tuple[str, ...] | None = None  # the plugin files this Ray worker's manager was built with


def _task(plugin_files: tuple[str, ...], fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    # A Ray worker outlives one command: rebuild its plugins when a task names other files.
    global _loaded
    if _loaded != plugin_files:
        from pegboard.plugins.manager import Plugins, set_plugins

        set_plugins(Plugins(plugin_files=list(plugin_files)))
        _loaded = plugin_files
    return fn(*args)


class RayExecutor:
    """Runs each task as one Ray task and yields results as they finish (see :class:`pegboard.batch.runner.Executor`)."""

    def __init__(self, address: str | None = None, cpus: int | None = None, plugin_files: Sequence[str] = ()) -> None:
        self.address = address
        self.cpus = cpus
        self.plugin_files = tuple(plugin_files)

    def connect(self) -> Any:
        ray = _ray()
        if not ray.is_initialized():
            options: dict[str, Any] = {
                "include_dashboard": False,
                "logging_level": logging.ERROR,  # not the "token authentication is enabled" notice on every run
                "log_to_driver": False,
                "configure_logging": True,
            }
            if self.address is None:
                options["num_cpus"] = self.cpus or os.cpu_count() or 1
            try:
                ray.init(address=self.address, **options)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = self.address or "a local instance"
                raise PegboardError(f"cannot start Ray on {where}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
        return ray

    def run(self, fn: Callable[..., Any], args: Sequence[tuple[Any, ...]]) -> Iterator[Any]:
        ray = self.connect()
        remote = ray.remote(num_cpus=1, max_retries=0)(_task)
        pending = [remote.remote(self.plugin_files, fn, a) for a in args]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    try:
                        yield ray.get(ref)
                    except ray.exceptions.RayTaskError as exc:
                        # the task's own exception (a BotError ...), not Ray's wrapper with the remote traceback
                        cause = exc.cause
                        if isinstance(cause, BaseException):
                            raise cause from None
                        raise PegboardError(f"a Ray task failed: {str(exc).splitlines()[0]}") from None
        finally:
            # not force=True: a force-cancelled task that is just finishing can make Ray abort the
            # driver ("Tried to complete task that was not pending", seen in a test run on 6 Dec)
            for ref in pending:
                ray.cancel(ref)
