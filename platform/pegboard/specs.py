"""The small frozen dataclasses that plugin hooks return.

Each spec has an ``id`` (unique within its kind and game), a human ``name``
and a ``factory`` that builds the real object. The platform only calls the
factory when the thing is used, so listing plugins is cheap.

The specs of the tools around a game (:class:`Evaluator`, :class:`EvaluatorSpec`,
:class:`Evaluation`, :class:`Term`, :class:`RendererSpec`, :class:`BenchSpec`,
:class:`Figure`) are defined in :mod:`pegboard.toolspecs` and imported from here on
first use, so a process that never evaluates, draws or benchmarks does not create them.

:func:`data_dir` is where the built-in games' rulesets and schemas live (a plugin ships its
own folders next to its code instead).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeAlias, TypeVar

from pegboard.game import JSON, Event, Game, Move, State, StateT
from pegboard.support.resources import data_dir as data_dir  # for the built-in games' GameSpec folders

if TYPE_CHECKING:
    from pegboard.toolspecs import BenchSpec as BenchSpec
    from pegboard.toolspecs import Evaluation as Evaluation
    from pegboard.toolspecs import Evaluator as Evaluator
    from pegboard.toolspecs import EvaluatorSpec as EvaluatorSpec
    from pegboard.toolspecs import Figure as Figure
    from pegboard.toolspecs import RendererSpec as RendererSpec
    from pegboard.toolspecs import Term as Term


@dataclass(frozen=True)
class GameSpec:
    """A rules engine a plugin provides.

    ``factory(ruleset)`` returns a :class:`~pegboard.game.Game` for a resolved
    ruleset mapping. ``schema_dir`` holds ``ruleset.schema.json``,
    ``move.schema.json`` and ``position.schema.json``; ``ruleset_dir`` holds the
    game's shipped ``*.toml`` rulesets, ``default_ruleset`` names the standard one.
    ``text_formats`` maps a file suffix (".txt") to a :class:`TextFormat` the
    game can read and write match records in besides JSON.
    """

    id: str
    name: str
    factory: Callable[[Mapping[str, JSON]], Game]
    seats: tuple[str, ...]
    schema_dir: Path
    ruleset_dir: Path
    default_ruleset: str = "standard"
    description: str = ""
    text_formats: Mapping[str, TextFormat] = field(default_factory=dict)
    strict_decode: bool = False
    """True when the game's ``decode_move`` refuses every value its move schema refuses (it
    may refuse more). ``pegboard validate`` then lets the replay's decoding check each move
    and runs the move schema only on a record whose replay fails, so the errors reported
    stay the schema's. ``pegboard.testing.check_game`` holds every game that says True to it."""
    hint: Callable[[Game, State[Any], int], Move | None] | None = None
    """``hint(game, state, seat)``: the move to suggest to a person playing ``seat`` (it is
    ``seat``'s turn), or None. It must judge only what ``seat`` may know (its
    ``player_view``). None (the default): the game offers no hints. The session offers
    the hint after an idle spell set by the opponent bot's :attr:`BotSpec.hint_after`."""


class TextFormat(Protocol):
    """A game-specific text format for match records (e.g. Node War's .txt export)."""

    def dumps(self, record: Mapping[str, JSON], game: Game) -> str:
        """Render a match record (see pegboard.records) as text."""

    def loads(self, text: str, resolve_ruleset: Callable[[str], Mapping[str, JSON]]) -> dict[str, JSON]:
        """Parse text into a match record dict; raise :class:`pegboard.errors.MatchFileError` naming the line.

        ``resolve_ruleset`` turns a ruleset id or path named in the file into a
        resolved ruleset mapping.
        """


class Bot(ABC, Generic[StateT]):
    """Something that picks a move; every bot a :class:`BotSpec` builds derives from it.

    ``choose`` receives a state built from the bot's own observation (never
    the full state of a hidden-information game) and a time budget in seconds.
    It must return one of ``view.legal_moves()`` and may search the view with
    apply/undo, leaving it as it found it.
    """

    @abstractmethod
    def choose(self, view: StateT, budget: float) -> Move:
        """The move to play in ``view`` within about ``budget`` seconds."""

    def cancel(self) -> None:
        """Asked from another thread to stop a search whose answer is no longer wanted.

        Optional: a bot that can stop early (checking a flag in its search loop)
        overrides it and then returns any legal move soon. The default does
        nothing; the answer is dropped either way.
        """

    def search(self, view: StateT, *, seconds: float | None = None, work: int | None = None) -> SearchResult | None:
        """The bot's best move in ``view`` with what its search found: a score, a principal line.

        Exactly one budget is given: ``seconds`` (wall time, like :meth:`choose`) or ``work``
        (a count of the bot's own work units — nodes, playouts — documented by each bot).
        Under a ``work`` budget the answer depends only on the bot's seed, the view and
        ``work``, never on the machine's speed: analysis and tests rely on that. Like
        :meth:`choose`, it leaves ``view`` as it found it. The default None means the bot
        cannot explain its choice (analysis then falls back on the game's evaluator).
        """
        return None


class SearchResult(NamedTuple):
    """What :meth:`Bot.search` found in a position.

    ``score`` is in the game's evaluator units from seat 0's point of view (as
    :meth:`~pegboard.specs.Evaluator.score`), or None when the search measures a
    ``win_chance`` instead: the side to move's chance of winning, 0 to 1 (a Monte
    Carlo search's win rate). ``line`` is the principal variation, starting with
    ``move``, as far as the bot can tell it; ``work`` the work units spent.
    """

    move: Move
    score: float | None = None
    win_chance: float | None = None
    line: tuple[Move, ...] = ()
    work: int = 0


@dataclass(frozen=True)
class BotSpec:
    """A bot for one game (``game`` id), or for every game (``game`` is None).

    ``factory(game, seed)`` returns a :class:`Bot`; the same seed must give the
    same moves. ``budget`` is the default seconds per move.
    """

    id: str
    name: str
    factory: Callable[[Game, int], Bot]
    game: str | None = None
    budget: float = 1.0
    description: str = ""
    hint_after: float | None = None
    """Seconds a person may sit idle on their turn, with this bot as the opponent, before
    the session offers the game's hint (:attr:`GameSpec.hint`); None (the default): never."""
    reads_only: bool = False
    """True when the bot never changes the state it is given (no apply/push/undo): in games
    without hidden information, headless matches then pass it a read-only view of the live
    state (:mod:`pegboard.batch.readonly`) instead of a copy per move."""


class RuleMod(Generic[StateT]):
    """A scripted rule change, active only when a ruleset names it in ``mods``.

    The platform wraps the game so that every state runs each active mod's
    methods on the engine's own state. Override what the mod changes; the
    defaults change nothing.
    """

    #: The reason the default :meth:`check` gives (the platform adds the mod's id).
    FILTERED = "not allowed by the rule mod"

    def filter_moves(self, state: StateT, moves: list[Any]) -> list[Any]:
        """The moves that stay legal (may remove moves, or add moves the engine can apply)."""
        return moves

    def check(self, state: StateT, move: Any) -> str | None:
        """A reason to refuse ``move`` (one the engine accepts), or None.

        The default refuses exactly the moves :meth:`filter_moves` removes, so
        ``check`` agrees with ``legal_moves``; it lists every legal move to find
        out, so a mod that only adds events or filters cheaply should override it.
        """
        return None if move in self.filter_moves(state, state.legal_moves()) else self.FILTERED

    def after_apply(self, state: StateT, move: Any, events: list[Event]) -> list[Event]:
        """Extra events to report after ``move``; may inspect but must not change the state."""
        return []


@dataclass(frozen=True)
class RuleModSpec:
    """A rule mod for one game; ``factory(game, options)`` returns a :class:`RuleMod`.

    ``options`` is the ruleset table ``[mod_options.<id>]`` (empty if absent).
    """

    id: str
    name: str
    game: str
    factory: Callable[[Game, Mapping[str, JSON]], RuleMod]
    description: str = ""


@dataclass(frozen=True)
class RulesetDir:
    """A folder of ``*.toml`` rulesets a plugin ships (for ``game``, or any if None)."""

    path: Path
    game: str | None = None


#: The names :mod:`pegboard.toolspecs` defines, imported on first use (see its docstring).
_TOOL_SPECS = frozenset({"BenchSpec", "Evaluation", "Evaluator", "EvaluatorSpec", "Figure", "RendererSpec", "Term"})


def __getattr__(name: str) -> Any:
    if name in _TOOL_SPECS:
        from pegboard import toolspecs

        return getattr(toolspecs, name)
    raise AttributeError(f"module 'pegboard.specs' has no attribute {name!r}")


SpecT = TypeVar("SpecT")

OneOrMany: TypeAlias = SpecT | Sequence[SpecT] | None
"""What a hook returns: one spec, a list of them, or None (see :mod:`pegboard.hookspecs`)."""


def as_list(value: Any) -> list[Any]:
    """Hooks may return one spec, a list of them, or None; flatten to a list."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


__all__ = [
    "BenchSpec",
    "Bot",
    "BotSpec",
    "Evaluation",
    "Evaluator",
    "EvaluatorSpec",
    "Event",
    "Figure",
    "GameSpec",
    "RendererSpec",
    "RuleMod",
    "RuleModSpec",
    "RulesetDir",
    "SearchResult",
    "Term",
    "TextFormat",
    "OneOrMany",
    "as_list",
]
