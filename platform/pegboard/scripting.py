"""The scripting API: Pegboard from Python scripts and notebooks (``import pegboard``).

Each function is a thin front on the module that does the work for the CLI
too, so a script and ``pegboard match`` / ``pegboard validate`` always agree:
games come from :mod:`pegboard.rules.rulesets`, matches from :mod:`pegboard.batch.runner`,
records from :mod:`pegboard.records`, analyses from :mod:`pegboard.analysis`. Plugins load as the CLI loads them
(entry points and ``PEGBOARD_PLUGINS``); :func:`load_plugin` adds a file or a
package folder, like ``pegboard --plugin``. docs/scripting.md has examples.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pegboard.batch.runner import MatchPlan, MatchReport, run_match
from pegboard.game import JSON, Game, PegboardError
from pegboard.records.files import write_record as _write_record
from pegboard.records.validate import Report, validate_file, validate_record
from pegboard.records.validate import read_record as _read_record
from pegboard.rules.rulesets import Ruleset, build_game, load_ruleset, ruleset_from_data

if TYPE_CHECKING:
    from types import ModuleType

    from pegboard.analysis.analyse import Analysis
    from pegboard.plugins.manager import Plugins
    from pegboard.specs import BotSpec


def _plugins(plugins: Plugins | None) -> Plugins:
    from pegboard.plugins.manager import get_plugins

    return plugins if plugins is not None else get_plugins()


def load_plugin(path: str | Path) -> ModuleType:
    """Load a plugin ``.py`` file or package folder into this process, as ``pegboard --plugin`` does."""
    return _plugins(None).load_file(path)


def _ruleset(ref: str | Path, plugins: Plugins) -> Ruleset:
    text = str(ref)
    if not isinstance(ref, Path) and "/" not in text and "\\" not in text and not text.endswith(".toml"):
        return load_ruleset(plugins.game(text).default_ruleset, game=text, plugins=plugins)  # a bare game id
    return load_ruleset(ref, plugins=plugins)


def load_game(ref: str | Path, *, plugins: Plugins | None = None) -> Game:
    """A game ready to play: ``"nodewar"`` (its default ruleset), ``"nodewar/skirmish"`` or a ``.toml`` path.

    Raises :class:`~pegboard.errors.UnknownId` for an unknown game and
    :class:`~pegboard.errors.RulesetError` for a bad ruleset.
    """
    registry = _plugins(plugins)
    return build_game(_ruleset(ref, registry), registry)


def _game_id(game: str | Game) -> str:
    if isinstance(game, Game):
        return game.id
    return game.split("/", 1)[0]


def bots(game: str | Game, *, plugins: Plugins | None = None) -> dict[str, BotSpec]:
    """The bots that play ``game`` (an id, ``"<game>/<ruleset>"`` or a loaded game), weakest first, by id."""
    return dict(_plugins(plugins).bots(_game_id(game)))


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
    registry = _plugins(plugins)
    if isinstance(game, Game):
        loaded, ruleset = game, ruleset_from_data(game.ruleset, registry)
    else:
        ruleset = _ruleset(game, registry)
        loaded = build_game(ruleset, registry)
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
    if isinstance(record, Mapping):
        return validate_record(dict(record), "<record>", _plugins(plugins))
    return validate_file(record, _plugins(plugins))


def read_record(path: str | Path, *, plugins: Plugins | None = None) -> dict[str, JSON]:
    """A match record from a file (JSON or a game's text format), syntax and schema checked.

    Raises :class:`~pegboard.errors.MatchFileError` naming the stage and the place.
    Use :func:`validate` to replay the moves as well.
    """
    return _read_record(path, _plugins(plugins))


def write_record(record: Mapping[str, JSON], path: str | Path, *, plugins: Plugins | None = None) -> Path:
    """Write a record atomically; the suffix picks the format (``.json`` or a game's text format)."""
    return _write_record(record, path, _plugins(plugins))


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

    Every position is judged by ``bot``'s search (default: the analysis's own alpha-beta)
    under ``budget`` work units (default 4000), so the answer is the same on any machine and
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

    registry = _plugins(plugins)
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

