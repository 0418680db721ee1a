"""The scripting API: Pegboard from Python scripts, notebooks and game plugins (``import pegboard``).

Each function is a thin front on the module that does the work for the CLI
too, so a script and ``pegboard match`` / ``pegboard validate`` always agree:
games come from :mod:`pegboard.rules.rulesets`, matches from :mod:`pegboard.batch.runner`,
records from :mod:`pegboard.records`, analyses from :mod:`pegboard.analysis`. Plugins load as the CLI loads them
(entry points and ``PEGBOARD_PLUGINS``); :func:`load_plugin` adds a file or a
package folder, like ``pegboard --plugin``. docs/scripting.md has examples.

This is also the public door for game plugins to the ruleset, record and profile
helpers (:func:`load_ruleset`, :func:`ruleset_from_data`, :func:`deep_merge`,
:func:`digest_of`, :class:`Ruleset`, :func:`record_from_moves`, :func:`open_profile`,
:data:`START_RATING`): a plugin imports them from here, never from the internal
subpackages. Only the rulesets are imported with this module; matches, records and
the profile are imported on first use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pegboard.game import JSON, Game, PegboardError
from pegboard.plugins import resolve
from pegboard.rules.rulesets import Ruleset, deep_merge, digest_of, load_game, load_ruleset, resolve_ruleset, ruleset_from_data

if TYPE_CHECKING:
    from types import ModuleType

    from pegboard.analysis.analyse import Analysis
    from pegboard.batch.runner import MatchReport
    from pegboard.plugins.manager import Plugins as Plugins
    from pegboard.plugins.manager import set_plugins as set_plugins
    from pegboard.ratings.elo import START_RATING as START_RATING
    from pegboard.ratings.profile import Profile as Profile
    from pegboard.ratings.profile import open_profile as open_profile
    from pegboard.records.files import record_from_moves as record_from_moves
    from pegboard.records.validate import Report
    from pegboard.specs import BotSpec, EvaluatorSpec

#: Names this module hands out from the internal modules that hold them, imported on first use.
_LAZY = {
    "Plugins": "pegboard.plugins.manager",
    "set_plugins": "pegboard.plugins.manager",
    "START_RATING": "pegboard.ratings.elo",
    "Profile": "pegboard.ratings.profile",
    "open_profile": "pegboard.ratings.profile",
    "record_from_moves": "pegboard.records.files",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'pegboard.scripting' has no attribute {name!r}")


def load_plugin(path: str | Path) -> ModuleType:
    """Load a plugin ``.py`` file or package folder into this process, as ``pegboard --plugin`` does."""
    return resolve(None).load_file(path)


def _game_id(game: str | Game) -> str:
    if isinstance(game, Game):
        return game.id
    return game.split("/", 1)[0]


def bots(game: str | Game, *, plugins: Plugins | None = None) -> dict[str, BotSpec]:
    """The bots that play ``game`` (an id, ``"<game>/<ruleset>"`` or a loaded game), weakest first, by id."""
    return dict(resolve(plugins).bots(_game_id(game)))


def evaluators(game: str | Game, *, plugins: Plugins | None = None) -> dict[str, EvaluatorSpec]:
    """The evaluators of ``game`` (as :func:`bots` takes it), by id; the first is the game's own.

    ``spec.factory(game)`` builds one; its ``evaluate(state)`` scores a position from the
    first seat's side (see :class:`~pegboard.specs.Evaluator`).
    """
    return dict(resolve(plugins).evaluators(_game_id(game)))


def _seat_bots(seats: Sequence[str] | Mapping[str, str], game: Game) -> tuple[str, ...]:
    if isinstance(seats, str):
        raise PegboardError("seats is a list of bot ids, one per seat, or a mapping of seat name to bot id")
    if not isinstance(seats, Mapping):
        chosen = tuple(seats)
        if len(chosen) != len(game.seats):
            raise PegboardError(f"{game.name} needs {len(game.seats)} bots ({', '.join(game.seats)}), got {len(chosen)}")
        return chosen
    by_seat: dict[int, str] = {}
    for name, bot in seats.items():
        try:
            by_seat[game.seat_index(name)] = bot
        except KeyError:
            raise PegboardError(f"unknown seat {name!r}: the seats are {', '.join(game.seats)}") from None
    return tuple(by_seat.get(index, "random") for index in range(len(game.seats)))


def play_match(
    game: str | Path | Game,
    seats: Sequence[str] | Mapping[str, str],
    *,
    games: int = 1,
    seed: int = 0,
    budget: float | None = None,
    extend: bool = False,
    max_plies: int = 20_000,
    jobs: int = 1,
    plugins: Plugins | None = None,
) -> MatchReport:
    """Play bot-vs-bot games exactly as ``pegboard match`` does; returns the records and the figures.

    ``game`` is what :func:`load_game` takes, or a loaded game. ``seats`` lists a
    bot id per seat (``["easy", "random"]``) or maps seat names to bot ids
    (``{"red": "hard"}``; seats left out play ``random``). Entrants change seats
    every game. ``jobs`` > 1 plays in worker processes; the moves are the same.

    The :class:`~pegboard.batch.runner.MatchReport` has ``records`` (match records,
    ready for :func:`write_record`), ``stats`` (per entrant: wins, draws,
    losses, unfinished, moves, think times), ``average_length`` and
    ``summary()`` (the same figures as JSON).
    """
    from pegboard.batch.runner import MatchPlan, run_match

    registry = resolve(plugins)
    if isinstance(game, Game):
        loaded, ruleset = game, ruleset_from_data(game.ruleset, registry)
    else:
        ruleset = resolve_ruleset(game, plugins=registry)
        loaded = load_game(ruleset, plugins=registry)
    plan = MatchPlan(
        game=loaded.id,
        bots=_seat_bots(seats, loaded),
        ruleset=ruleset,
        games=games,
        seed=seed,
        extend=extend,
        budget=budget,
        max_plies=max_plies,
        plugin_files=tuple(info.source for info in registry.info() if info.version == "local"),
    )
    return run_match(plan, jobs=jobs, plugins=registry)


def validate(record: str | Path | Mapping[str, JSON], *, plugins: Plugins | None = None) -> Report:
    """Check a match file (or an already parsed record) as ``pegboard validate`` does; never raises for bad input.

    The :class:`~pegboard.records.validate.Report` says ``ok``, the last ``stage``
    reached (syntax, schema, replay, result), the ``errors``, the ``game``, the
    number of ``moves`` and the replayed ``result``.
    """
    from pegboard.records.validate import validate_file, validate_record

    if isinstance(record, Mapping):
        return validate_record(dict(record), "<record>", resolve(plugins))
    return validate_file(record, resolve(plugins))


def read_record(path: str | Path, *, plugins: Plugins | None = None) -> dict[str, JSON]:
    """A match record from a file (JSON or a game's text format), syntax and schema checked.

    Raises :class:`~pegboard.errors.MatchFileError` naming the stage and the place.
    Use :func:`validate` to replay the moves as well.
    """
    from pegboard.records.validate import read_record as read

    return read(path, resolve(plugins))


def write_record(record: Mapping[str, JSON], path: str | Path, *, plugins: Plugins | None = None) -> Path:
    """Write a record atomically; the suffix picks the format (``.json`` or a game's text format)."""
    from pegboard.records.files import write_record as write

    return write(record, path, resolve(plugins))


def analyse(
    record: str | Path | Mapping[str, JSON],
    *,
    bot: str | None = None,
    budget: int | None = None,
    evaluator: str | None = None,
    jobs: int = 1,
    plugins: Plugins | None = None,
) -> Analysis:
    """Analyse a finished game as ``pegboard analyse`` does: a match file or a record you hold.

    Every position is judged by ``bot``'s search (default: the analysis's own alpha-beta, or
    for a game with chance its strongest own bot) under ``budget`` work units (default 4000), so the answer is the same on any machine and
    for any ``jobs`` (worker processes). The :class:`~pegboard.analysis.analyse.Analysis`
    has ``rows`` (one :class:`~pegboard.analysis.review.MoveRow` per move: win chances before
    and after, ``drop``, ``mark``, the better move and its line, an ``explanation``), ``sides``
    (per seat: accuracy, average drop, marks counted), ``curve`` (seat 0's win chance in
    every position) and ``annotated()`` (the record with its annotations, for
    :func:`write_record`). Raises :class:`~pegboard.errors.MatchFileError` for an invalid
    record and :class:`~pegboard.errors.AnalysisRefused` for a hidden-information game still
    running.
    """
    from pegboard.analysis.analyse import Analysis, analyse_all, read_analysis
    from pegboard.analysis.engine import DEFAULT_BUDGET, Settings
    from pegboard.batch.runner import LocalExecutor

    registry = resolve(plugins)
    settings = Settings(bot=bot, budget=DEFAULT_BUDGET if budget is None else budget, evaluator=evaluator)
    if isinstance(record, Mapping):
        analysis = Analysis.of_record(dict(record), settings, registry)
    else:
        analysis = read_analysis(record, settings, registry)
    files = [info.source for info in registry.info() if info.version == "local"]
    executor = LocalExecutor(jobs, files) if jobs > 1 else None
    analyse_all([analysis], executor=executor, jobs=jobs)
    return analysis


__all__ = ["analyse", "bots", "load_game", "load_plugin", "play_match", "read_record", "validate", "write_record"]
__all__ = [
    "START_RATING", "Plugins", "Profile", "Ruleset", "analyse", "bots", "deep_merge", "digest_of", "evaluators", "load_game", "load_plugin",
    "load_ruleset", "open_profile", "play_match", "read_record", "record_from_moves", "ruleset_from_data", "validate",
    "set_plugins", "write_record",
]

