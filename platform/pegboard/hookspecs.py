"""The Pegboard plugin API: every hook a plugin may implement.

Hooks are called with keyword arguments, so an implementation may accept
only the arguments it needs. Hooks that "return specs" may return one spec,
a list of specs, or None. The per-game hooks (bots, evaluators, renderers, rule
mods, benchmarks) are asked about one ``game`` at a time, but every spec names its
game and the platform keeps only that game's specs: an implementation may leave
out ``game`` and return all of its specs, with no ``if game == ...`` test.

Write a plugin as a module with functions decorated by
``pegboard.hookimpl`` and register it with an entry point in the
``pegboard`` group, or load a single file with ``pegboard --plugin FILE.py``
or the ``PEGBOARD_PLUGINS`` environment variable (``os.pathsep``-separated).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    import typer

    from pegboard.game import Event
    from pegboard.match.session import Session
    from pegboard.specs import BenchSpec, BotSpec, EvaluatorSpec, GameSpec, OneOrMany, RendererSpec, RuleModSpec, RulesetDir

hookspec = pluggy.HookspecMarker("pegboard")
hookimpl = pluggy.HookimplMarker("pegboard")


@hookspec
def pegboard_games() -> OneOrMany[GameSpec]:
    """Return the :class:`~pegboard.specs.GameSpec` (or a list) of games this plugin provides.

    A game's id must be unique across all plugins.
    """


@hookspec
def pegboard_bots(game: str) -> OneOrMany[BotSpec]:
    """Return :class:`~pegboard.specs.BotSpec` objects for the game with id ``game``.

    Specs of other games are dropped by the platform. A spec whose ``game`` is None
    is offered for every game.
    """


@hookspec
def pegboard_evaluators(game: str) -> OneOrMany[EvaluatorSpec]:
    """Return :class:`~pegboard.specs.EvaluatorSpec` objects for the game with id ``game``."""


@hookspec
def pegboard_renderers(game: str) -> OneOrMany[RendererSpec]:
    """Return the :class:`~pegboard.specs.RendererSpec` that draws ``game`` in the window."""


@hookspec
def pegboard_ruleset_dirs() -> OneOrMany[str | os.PathLike[str] | RulesetDir]:
    """Return folders of ruleset ``*.toml`` files (paths or :class:`~pegboard.specs.RulesetDir`).

    Mods use this to ship variants; each file names its game inside.
    """


@hookspec
def pegboard_rule_mods(game: str) -> OneOrMany[RuleModSpec]:
    """Return :class:`~pegboard.specs.RuleModSpec` objects for ``game``.

    A rule mod only runs when the resolved ruleset lists its id in ``mods``,
    so the plain engine pays nothing for mods that are installed but unused.
    """


@hookspec
def pegboard_benchmarks(game: str) -> OneOrMany[BenchSpec]:
    """Return :class:`~pegboard.specs.BenchSpec` objects that ``pegboard bench`` runs for ``game``."""


@hookspec
def pegboard_commands(app: typer.Typer) -> None:
    """Add commands to the ``pegboard`` CLI; ``app`` is the root :class:`typer.Typer`."""


@hookspec
def pegboard_match_event(session: Session, event: Event) -> None:
    """Observe a match as it is played: called once per :class:`~pegboard.game.Event`.

    ``session`` is the :class:`pegboard.view.Session` being played. Use it
    for logging, statistics or streaming. Exceptions raised here are reported
    and do not stop the match.
    """
