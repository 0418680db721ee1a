"""Headless bot-vs-bot matches: seeded, alternating colours, in parallel worker processes.

Every game of a match gets its own game seed and bot seeds derived from the
match seed and the game's index (:func:`derive_seed`), so any single game can
be replayed or re-run alone and ``-j`` never changes the moves played.
Entrants rotate through the seats: in game ``i`` seat ``s`` is played by
entrant ``(s + i) % seats`` (with two seats, colours alternate).

Parallel runs use the process-wide plugin manager
(:func:`pegboard.plugins.manager.get_plugins`); forked workers inherit it, spawned
workers rebuild it from entry points, ``PEGBOARD_PLUGINS`` and
:attr:`MatchPlan.plugin_files`.

Where the work runs is an :class:`Executor`: local processes (the default) or Ray
tasks (``pegboard[ray]``, :mod:`pegboard.batch.rayexec`), chosen by :func:`make_executor`.
Both run the same task functions and report each result as it finishes.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pegboard.batch.readonly import ReadOnlyState
from pegboard.errors import BotError
from pegboard.game import JSON, PegboardError, Refusal
from pegboard.plugins import resolve
from pegboard.records.files import record_from_moves
from pegboard.rules.rulesets import Ruleset, build_game, load_ruleset

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins


def derive_seed(seed: int, index: int, purpose: str) -> int:
    """A stable 32-bit seed for one purpose ("game", "bot0" ...) of game ``index``."""
    digest = hashlib.sha256(f"pegboard:{seed}:{index}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def default_jobs() -> int:
    return max(1, min(2, os.cpu_count() or 1))


@dataclass(frozen=True)
class MatchPlan:
    """What to play: ``bots`` are the entrants' bot ids, in seat order for game 1.

    ``ruleset`` is a ruleset id, ``"<game>/<id>"``, a ``.toml`` path, or an
    already resolved :class:`~pegboard.rules.rulesets.Ruleset` (the scripting API
    passes the one a loaded game was built from).
    """

    game: str
    bots: tuple[str, ...]
    ruleset: str | Ruleset = "standard"
    games: int = 1
    seed: int = 0
    extend: bool = False
    """Play on past a turn limit whenever the game allows it (until ``max_plies``)."""
    budget: float | None = None
    """Seconds per move for every bot; None uses each bot's own default."""
    max_plies: int = 20_000
    plugin_files: tuple[str, ...] = ()

    @property
    def ruleset_label(self) -> str:
        """The ruleset as the results table names it."""
        return self.ruleset.ref if isinstance(self.ruleset, Ruleset) else str(self.ruleset)

    def resolve_ruleset(self, plugins: Plugins) -> Ruleset:
        if isinstance(self.ruleset, Ruleset):
            if self.ruleset.game != self.game:
                raise PegboardError(f"the ruleset {self.ruleset.ref} is not a {self.game} ruleset")
            return self.ruleset
        return load_ruleset(self.ruleset, game=self.game, plugins=plugins)

    def seats_for(self, index: int) -> tuple[int, ...]:
        """Entrant index playing each seat in game ``index`` (0-based)."""
        n = len(self.bots)
        return tuple((seat + index) % n for seat in range(n))


@dataclass
class GameOutcome:
    """One finished (or capped) game of a match."""

    index: int
    seats: tuple[int, ...]
    record: dict[str, JSON]
    winner_entrant: int | None
    finished: bool
    plies: int
    think: list[tuple[int, float]]
    """(entrant, seconds) for every move."""


@dataclass
class EntrantStats:
    """Totals for one entrant over a match."""

    label: str
    bot: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    moves: int = 0
    think_total: float = 0.0
    think_max: float = 0.0

    @property
    def think_mean(self) -> float:
        return self.think_total / self.moves if self.moves else 0.0


@dataclass
class MatchReport:
    """What :func:`run_match` returns: the plan, one outcome per game (in game order) and
    each entrant's wins, draws, losses and think times."""

    plan: MatchPlan
    outcomes: list[GameOutcome] = field(default_factory=list)
    stats: list[EntrantStats] = field(default_factory=list)

    @property
    def records(self) -> list[dict[str, JSON]]:
        return [o.record for o in self.outcomes]

    @property
    def average_length(self) -> float:
        return sum(o.plies for o in self.outcomes) / len(self.outcomes) if self.outcomes else 0.0

    def summary(self) -> dict[str, JSON]:
        """The results table's figures as JSON (``pegboard match --json`` prints this plus the files written)."""
        plan = self.plan
        return {
            "game": plan.game,
            "ruleset": plan.ruleset_label,
            "seed": plan.seed,
            "games": len(self.outcomes),
            "average_length": self.average_length,
            "entrants": [
                {"label": r.label, "bot": r.bot, "wins": r.wins, "draws": r.draws, "losses": r.losses,
                 "unfinished": r.unfinished, "moves": r.moves, "think_max": r.think_max, "think_mean": r.think_mean}
                for r in self.stats
            ],
        }


def entrant_labels(bots: tuple[str, ...]) -> list[str]:
    """Bot ids, numbered when one bot plays more than one entrant ("random #1")."""
    labels = []
    for index, bot in enumerate(bots):
        if bots.count(bot) > 1:
            labels.append(f"{bot} #{bots[:index].count(bot) + 1}")
        else:
            labels.append(bot)
    return labels


def check_plan(plan: MatchPlan, plugins: Plugins | None = None) -> None:
    """Fail early (before any worker starts) on an unknown game, bot or ruleset."""
    plugins = resolve(plugins)
    spec = plugins.game(plan.game)
    if len(plan.bots) != len(spec.seats):
        raise PegboardError(f"{spec.name} needs {len(spec.seats)} bots ({', '.join(spec.seats)}), got {len(plan.bots)}")
    for bot in plan.bots:
        plugins.bot(plan.game, bot)
    plan.resolve_ruleset(plugins)
    if plan.games < 1:
        raise PegboardError("the number of games must be at least 1")


def play_game(plan: MatchPlan, index: int, plugins: Plugins | None = None) -> GameOutcome:
    """Play game ``index`` (0-based) of ``plan``; deterministic for a given plan and index."""
    plugins = resolve(plugins)
    ruleset = plan.resolve_ruleset(plugins)
    game = build_game(ruleset, plugins)
    seats = plan.seats_for(index)
    game_seed = derive_seed(plan.seed, index, "game")
    specs = [plugins.bot(plan.game, plan.bots[entrant]) for entrant in seats]
    bots = [spec.factory(game, derive_seed(plan.seed, index, f"bot{seat}")) for seat, spec in enumerate(specs)]
    budgets = [spec.budget if plan.budget is None else plan.budget for spec in specs]
    state = game.new_state(game_seed)
    # A bot that only reads sees the live state through one read-only view; others get a copy per move.
    shared = ReadOnlyState(state) if not game.hidden_information else None
    views = [shared if spec.reads_only else None for spec in specs]
    moves: list[Any] = []
    think: list[tuple[int, float]] = []
    while True:
        if state.result is not None:
            if plan.extend and state.can_extend():
                state.extend()
            else:
                break
        if state.ply >= plan.max_plies:
            break
        seat = state.to_move
        view = views[seat] or state.player_view(seat)
        started = time.perf_counter()
        try:
            move = bots[seat].choose(view, budgets[seat])
        except Exception as exc:  # noqa: BLE001 - a bot bug must not kill the whole match silently
            raise BotError(f"bot {specs[seat].id!r} crashed in game {index + 1} at move {state.ply + 1}: {type(exc).__name__}: {exc}") from exc
        elapsed = time.perf_counter() - started
        refusal = state.check(move)
        if refusal is not None:
            raise BotError(f"bot {specs[seat].id!r} played an illegal move in game {index + 1} at move {state.ply + 1}: {Refusal.of(refusal).shown()}")
        state.push(move)  # checked just above; the events are not needed here
        moves.append(move)
        think.append((seats[seat], elapsed))
    result = state.result
    players = [{"name": spec.name, "bot": spec.id} for spec in specs]
    meta: dict[str, JSON] = {
        "generator": "pegboard match",
        "game_number": index + 1,
        "match_seed": plan.seed,
        "think_seconds": [round(seconds, 6) for _, seconds in think],
    }
    if result is None:
        meta["stopped"] = f"ply cap {plan.max_plies}"
    record = record_from_moves(game, ruleset, game_seed, players, moves, result, meta)
    winner = seats[result.winner] if result is not None and result.winner is not None else None
    return GameOutcome(index, seats, record, winner, result is not None, len(moves), think)


def summarise(plan: MatchPlan, outcomes: list[GameOutcome]) -> list[EntrantStats]:
    stats = [EntrantStats(label, bot) for label, bot in zip(entrant_labels(plan.bots), plan.bots, strict=True)]
    for outcome in outcomes:
        for entrant, row in enumerate(stats):
            if not outcome.finished:
                row.unfinished += 1
            elif outcome.winner_entrant is None:
                row.draws += 1
            elif outcome.winner_entrant == entrant:
                row.wins += 1
            else:
                row.losses += 1
        for entrant, seconds in outcome.think:
            row = stats[entrant]
            row.moves += 1
            row.think_total += seconds
            row.think_max = max(row.think_max, seconds)
    return stats


def init_worker(plugin_files: tuple[str, ...]) -> None:
    """Process-pool initializer: make sure a worker has the parent's plugins.

    Forked workers inherit the manager; spawned ones rebuild it from entry
    points, ``PEGBOARD_PLUGINS`` and ``plugin_files`` (each file once).
    """
    import warnings

    from pegboard.plugins import manager

    if manager._current is None:
        files = {str(Path(f).resolve()): f for f in [*manager.env_plugin_files(), *plugin_files]}
        with warnings.catch_warnings():  # the parent process has said so once already
            warnings.simplefilter("ignore", manager.PluginShadowed)
            manager.set_plugins(manager.Plugins(plugin_files=list(files.values())))


def play_task(plan: MatchPlan, index: int) -> GameOutcome:
    """Game ``index`` of ``plan`` with the process-wide plugins: the task executors run."""
    return play_game(plan, index)


# -- where the work runs -------------------------------------------------------------------------


class Executor(Protocol):
    """Runs independent tasks and yields each result as soon as it is done (any order).

    ``run(fn, args)`` calls ``fn(*a)`` for every ``a`` in ``args``; ``fn`` must be a
    module-level function (it may run in another process or on another machine). An
    exception in a task is raised from the iterator.
    """

    def run(self, fn: Callable[..., Any], args: Sequence[tuple[Any, ...]]) -> Iterator[Any]: ...


class LocalExecutor:
    """``jobs`` worker processes on this machine; with one job (or one task) everything runs in-process."""

    def __init__(self, jobs: int | None = None, plugin_files: Sequence[str] = ()) -> None:
        self.jobs = default_jobs() if jobs is None else max(1, jobs)
        self.plugin_files = tuple(plugin_files)

    def run(self, fn: Callable[..., Any], args: Sequence[tuple[Any, ...]]) -> Iterator[Any]:
        if self.jobs == 1 or len(args) <= 1:
            for a in args:
                yield fn(*a)
            return
        from concurrent.futures import ProcessPoolExecutor, as_completed  # ~10 ms: only when a pool runs

        with ProcessPoolExecutor(max_workers=min(self.jobs, len(args)), initializer=init_worker, initargs=(self.plugin_files,)) as pool:
            futures = [pool.submit(fn, *a) for a in args]
            try:
                for future in as_completed(futures):
                    yield future.result()
            except BaseException:
                for future in futures:
                    future.cancel()
                raise


EXECUTORS = ("local", "ray")


def make_executor(kind: str = "local", *, jobs: int | None = None, address: str | None = None, plugin_files: Sequence[str] = ()) -> Executor:
    """The executor named ``kind``: "local" (processes) or "ray" (tasks on a Ray cluster;
    ``address`` as ``ray.init`` takes it, default: a local instance with ``jobs`` CPUs)."""
    if kind == "local":
        if address is not None:
            raise PegboardError("--address needs --executor ray")
        return LocalExecutor(jobs, plugin_files)
    if kind == "ray":
        from pegboard.batch.rayexec import RayExecutor

        return RayExecutor(address=address, cpus=jobs, plugin_files=plugin_files)
    raise PegboardError(f"unknown executor {kind!r} (choose from {', '.join(EXECUTORS)})")


def run_match(
    plan: MatchPlan,
    *,
    jobs: int | None = None,
    plugins: Plugins | None = None,
    progress: Callable[[GameOutcome], None] | None = None,
    executor: Executor | None = None,
) -> MatchReport:
    """Play every game of ``plan`` on ``executor`` (default: ``jobs`` local processes; 1 plays in this process)."""
    plugins = resolve(plugins)
    check_plan(plan, plugins)
    outcomes: list[GameOutcome] = []
    if executor is None and (jobs == 1 or plan.games == 1):
        # in this process, with this plugin manager (tests pass a private one)
        for index in range(plan.games):
            outcome = play_game(plan, index, plugins)
            outcomes.append(outcome)
            if progress:
                progress(outcome)
    else:
        runner = executor or LocalExecutor(jobs, plan.plugin_files)
        for outcome in runner.run(play_task, [(plan, index) for index in range(plan.games)]):
            outcomes.append(outcome)
            if progress:
                progress(outcome)
    outcomes.sort(key=lambda o: o.index)
    return MatchReport(plan, outcomes, summarise(plan, outcomes))
