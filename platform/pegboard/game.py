"""The game contract every rules engine implements.

Modelled on OpenSpiel's Game/State split and python-chess's ``Board``: a
:class:`Game` is the rules (built once from a resolved ruleset) and a
:class:`State` is one position you ``apply`` moves to and ``undo`` them from.

Moves are game-specific, hashable, immutable values (tuples or frozen
dataclasses). The platform never looks inside a move: it asks the game to
encode it to JSON, decode it back, and render it as text.

Seats are numbered ``0 .. len(game.seats) - 1``; seat 0 is the first player
named in the ruleset (Blue in Node War, South in Starfall).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic

if TYPE_CHECKING:
    import random

    from typing_extensions import TypeVar

    from pegboard.match.clock import ClockSettings
else:
    from typing import TypeVar as _TypeVar

    def TypeVar(name: str, *constraints: Any, default: Any = None, **options: Any) -> Any:  # noqa: N802
        """``typing.TypeVar`` without the PEP 696 ``default``, which only type checkers read
        (importing typing_extensions for it costs every process ~4 ms)."""
        return _TypeVar(name, *constraints, **options)

Move = Hashable
"""A game-specific move value: immutable, hashable, comparable with ``==``."""

MoveT = TypeVar("MoveT", bound=Hashable, default=Any)
"""The move type of a game: ``class MyState(State[MyMove])`` and ``class MyGame(Game[MyMove])``
let an engine declare its own move type without ``type: ignore[override]``. A bare ``State``
or ``Game`` (what the platform handles) means any move type."""

JSON = Any
"""A value made only of dict, list, str, int, float, bool and None."""

# The contract's errors live in pegboard.errors with every other error class; engines import them from either.
from pegboard.errors import IllegalMove as IllegalMove  # noqa: E402
from pegboard.errors import InvalidMoveEncoding as InvalidMoveEncoding  # noqa: E402
from pegboard.errors import InvalidPosition as InvalidPosition  # noqa: E402
from pegboard.errors import PegboardError as PegboardError  # noqa: E402


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened while a move was applied.

    ``kind`` is a stable id ("node_placed", "lines_cut", "game_over"),
    ``data`` holds JSON-able details, and ``text`` is one English sentence for
    the "explain moves" line, logs and the history panel. ``seen_by`` limits
    who may be told about it (None: everybody); see :func:`events_for`.
    """

    kind: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    text: str = ""
    seen_by: frozenset[int] | None = None

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "data": dict(self.data), "text": self.text}


def events_for(events: Sequence[Event], player: int) -> list[Event]:
    """The events ``player`` is allowed to know about."""
    return [e for e in events if e.seen_by is None or player in e.seen_by]


class Refusal(str):
    """Why a move may not be played: what :meth:`State.check` returns instead of None.

    It is the reason a person reads ("the line would pass through the node at 6,4"), as a
    string, and carries the stable machine id of the rule that refuses the move in
    :attr:`rule` ("line_through_node"), the same id :attr:`IllegalMove.rule` carries when
    :meth:`State.apply` refuses it. Being a string, a refusal prints, compares and joins
    text as its reason does (``state.check(m) == "column a is full"``), so code written
    when ``check`` returned a plain reason keeps working.
    """

    rule: str

    def __new__(cls, rule: str, reason: str) -> Refusal:
        refusal = super().__new__(cls, reason)
        refusal.rule = rule
        return refusal

    @property
    def reason(self) -> str:
        """The readable reason, as a plain string."""
        return str.__str__(self)

    @classmethod
    def of(cls, reason: str, rule: str = "illegal") -> Refusal:
        """``reason`` as a refusal: itself when it is one, else with ``rule`` (a plugin's plain string)."""
        return reason if isinstance(reason, Refusal) else cls(rule, reason)

    def shown(self) -> str:
        """The reason with the rule id, as the window's status line shows a refused move."""
        return f"{self.reason} (rule {self.rule})"

    def __repr__(self) -> str:
        return f"Refusal({self.rule!r}, {self.reason!r})"

    def __reduce__(self) -> tuple[Any, ...]:  # str's own pickling would call __new__ with the reason only
        return (Refusal, (self.rule, self.reason))


CLOCK_REASONS = frozenset({"flag", "move_time"})
"""Result reasons decided by a clock (a session's timers), which replaying the moves cannot see."""
ADJUDICATED_REASONS = CLOCK_REASONS | {"resign"}
"""Result reasons replaying the moves cannot see: a clock, or a player resigning (leaving an online match)."""


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended.

    ``winner`` is a seat index or None for a draw; ``reason`` is a stable id
    ("no_moves", "turn_limit", "territory", "flag"); ``scores`` holds any
    per-seat tallies the reason was decided on (alive nodes, squares owned).
    """

    winner: int | None
    reason: str
    scores: tuple[int, ...] | None = None
    text: str = ""

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"winner": self.winner, "reason": self.reason}
        if self.scores is not None:
            data["scores"] = list(self.scores)
        if self.text:
            data["text"] = self.text
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Result:
        scores = data.get("scores")
        return cls(
            winner=data.get("winner"),
            reason=str(data.get("reason", "")),
            scores=tuple(scores) if scores is not None else None,
            text=str(data.get("text", "")),
        )

    def sentence(self, seats: Sequence[str]) -> str:
        """``"Blue wins — no moves"``-style one-liner (the result's own text when it names the outcome)."""
        head = "Draw" if self.winner is None else f"{seats[self.winner]} wins"
        why = self.text or self.reason.replace("_", " ")
        if self.text and (head.lower() in self.text.lower() or (self.winner is None and "draw" in self.text.lower())):
            return self.text
        return f"{head} — {why}" if why else head

    def same_outcome(self, other: Result | None) -> bool:
        """True when ``other`` names the same winner for the same reason."""
        return other is not None and self.winner == other.winner and self.reason == other.reason


class State(ABC, Generic[MoveT]):
    """One position of a game, mutated in place by :meth:`apply` / :meth:`undo`.

    Search code must use ``apply``/``undo`` (cheap, incremental) rather than
    :meth:`clone` (a full copy) wherever it can.
    """

    game: Game[MoveT]

    # -- whose turn, and is it over -------------------------------------------------

    @property
    @abstractmethod
    def to_move(self) -> int:
        """Seat index of the player to act. Meaningless once :attr:`result` is set."""

    @property
    @abstractmethod
    def result(self) -> Result | None:
        """None while the game goes on, otherwise how it ended."""

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    @abstractmethod
    def ply(self) -> int:
        """Number of moves applied since the start (the undo depth)."""

    # -- moves ------------------------------------------------------------------------

    @abstractmethod
    def legal_moves(self) -> list[MoveT]:
        """Every legal move for :attr:`to_move`; empty once the game is over."""

    @abstractmethod
    def check(self, move: MoveT) -> Refusal | None:
        """None if ``move`` is legal here, otherwise a :class:`Refusal`: the reason it is not
        and the rule id, the same one :meth:`apply` raises :class:`IllegalMove` with."""

    def random_move(self, rng: random.Random) -> MoveT | None:
        """A legal move drawn uniformly at random with ``rng``; None once the game is over.

        The default picks from :meth:`legal_moves`. An engine may sample
        without listing every move (draw a candidate, :meth:`check` it), as
        long as each legal move stays equally likely; the conformance suite
        tests that.
        """
        moves = self.legal_moves()
        return moves[rng.randrange(len(moves))] if moves else None

    @abstractmethod
    def apply(self, move: MoveT) -> list[Event]:
        """Play ``move``; raise :class:`IllegalMove` (state unchanged) if it is illegal."""

    def push(self, move: MoveT) -> None:
        """Play a move already known to be legal, without building events.

        The fast path for replays and search (python-chess's ``push``). The
        caller must have checked the move; engines may skip every legality
        test here. The default simply calls :meth:`apply`.
        """
        self.apply(move)

    def advance(self, move: MoveT) -> None:
        """Play a move already known to be legal, for good: :meth:`push` without :meth:`undo`.

        A validating replay never takes a move back, so an engine may skip keeping
        what undo would need; :meth:`undo` past such a move raises instead of
        restoring. The default calls :meth:`push` (undo keeps working).
        """
        self.push(move)

    @abstractmethod
    def undo(self) -> MoveT:
        """Take back the last move and return it. Raises IndexError at the start."""

    # -- turn limits ------------------------------------------------------------------

    def can_extend(self) -> bool:
        """True when the game ended on a turn limit that players may extend."""
        return False

    def extend(self) -> None:
        """Withdraw a turn-limit result and raise the limit (see :meth:`can_extend`)."""
        raise PegboardError(f"{self.game.name} games cannot be extended here")

    def extension_turns(self) -> int | None:
        """How many turns :meth:`extend` adds, for the end-of-game dialog (None: not told)."""
        return None

    # -- clocks (see pegboard.match.clock and the ruleset's [timers] table) ---------------------

    def timeout_move(self) -> MoveT | None:
        """The move played for :attr:`to_move` when its move timer runs out.

        None (the default) means the seat loses on time instead (see
        :meth:`concede_move` and :meth:`Game.time_loss`).
        """
        return None

    def concede_move(self, seat: int, reason: str) -> MoveT | None:
        """The move by which ``seat`` gives up, when the game records a loss as a move.

        ``reason`` is ``"flag"`` or ``"move_time"`` when a clock ran out (or a
        game's own reason such as ``"resign"``). The session plays it for a seat
        that ran out of time; the default None lets :meth:`Game.time_loss`
        decide the result without a move.
        """
        return None

    # -- copies, views, serialisation ---------------------------------------------------

    @abstractmethod
    def clone(self) -> State[MoveT]:
        """An independent deep copy (undo history included)."""

    @abstractmethod
    def to_json(self) -> dict[str, JSON]:
        """The whole position as JSON (see the game's position schema).

        ``game.state_from_json(s.to_json()).to_json() == s.to_json()``.
        The undo history is not part of a position.
        """

    def observation(self, player: int) -> dict[str, JSON]:
        """What ``player`` may know, as JSON. Hidden information is removed, not masked.

        Perfect-information games return :meth:`to_json`.
        """
        return self.to_json()

    def player_view(self, player: int) -> State[MoveT]:
        """A state built only from ``player``'s observation, for bots to search.

        Perfect-information games return a clone.
        """
        return self.clone()

    def hidden_from(self, player: int) -> Sequence[str]:
        """JSON pointers (RFC 6901, e.g. ``"/board/17/star"``) into :meth:`to_json` naming what
        ``player`` may not know here.

        Only the conformance suite (:mod:`pegboard.testing`) calls it: each pointer must be
        absent from ``observation(player)`` (or null there), which proves the observation
        leaves the secret out. Perfect-information games hide nothing (the default).
        """
        return ()

    def move_text(self, move: MoveT) -> str:
        """The move in the game's text notation, as seen from this position."""
        return self.game.move_text(move)

    def move_text_for(self, move: MoveT, seat: int) -> str:
        """``move``, about to be played from this position, as the player of ``seat`` may be told of it.

        What a screen shows that player (the history, the explain line) when someone else moves.
        A game with hidden information names only what ``seat`` sees (Starfall: ``"a move out of
        sight"``); the default, right for every perfect-information game, is :meth:`move_text`.
        """
        return self.move_text(move)

    def text_for(self, seat: int) -> str:
        """The position as text with ``seat``'s side at the bottom: what a terminal shows the
        player of ``seat`` (``pegboard play --online``). The default is ``str(self)``; a board
        drawn with one side at the bottom turns half a circle for the other seat."""
        return str(self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.id} ply={self.ply} to_move={self.to_move}>"


StateT = TypeVar("StateT", bound=State, default=Any)
"""The state type a bot, evaluator or rule mod works on: ``class MyBot(Bot[MyState])``."""


class Game(ABC, Generic[MoveT]):
    """The rules of one game under one resolved ruleset.

    Built by the factory of a :class:`pegboard.specs.GameSpec` with the resolved
    ruleset mapping (already validated against the game's ruleset schema).
    """

    #: Stable id of the game ("nodewar"): the ``game`` key of its rulesets and records. Where its
    #: rulesets and schemas live is the :class:`~pegboard.specs.GameSpec`'s ``ruleset_dir`` and
    #: ``schema_dir``, folders of any name.
    id: str = ""
    #: Human name ("Node War").
    name: str = ""
    #: Seat names in turn order ("Blue", "Red").
    seats: tuple[str, ...] = ()
    #: True when some information is hidden from some player (then observation() matters).
    hidden_information: bool = False

    def __init__(self, ruleset: Mapping[str, JSON]) -> None:
        self.ruleset = ruleset

    @abstractmethod
    def new_state(self, seed: int = 0) -> State[MoveT]:
        """The starting position. All randomness of the match derives from ``seed``."""

    @abstractmethod
    def encode_move(self, move: MoveT) -> JSON:
        """A move as JSON (validated by ``move.schema.json`` in the game's ``GameSpec.schema_dir``)."""

    @abstractmethod
    def decode_move(self, data: JSON) -> MoveT:
        """The inverse of :meth:`encode_move`; raises :class:`InvalidMoveEncoding`."""

    @abstractmethod
    def move_text(self, move: MoveT) -> str:
        """A short human-readable rendering of a move."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, JSON]) -> State[MoveT]:
        """A state from a position document; raises :class:`InvalidPosition`."""

    def rating_overrides(self, ratings: Sequence[float]) -> dict[str, JSON]:
        """Ruleset data that hands the players' ratings (one per seat) to this game's rating
        handicap, to deep-merge into the ruleset before building the game for a rated match.

        The default, for games without a handicap, is ``{}``.
        """
        return {}

    def rating_gap(self, seat: int) -> float | None:
        """The rating gap (``seat`` minus its opponent) that this ruleset's handicap leaves
        for the expected score of a rated game (``Profile.start_rated(gap=...)``).

        ``None`` (the default) when no handicap is in force: the two ratings give the gap.
        """
        return None

    def timers(self) -> ClockSettings | None:
        """The chess clocks this ruleset asks for, or None for none.

        The default reads the ruleset's optional ``[timers]`` table (``enabled``,
        ``clock_seconds``, ``move_seconds``; 0 turns a timer off). Override it
        to take clocks from elsewhere.
        """
        from pegboard.match.clock import ClockSettings  # not imported with the game contract: few commands use clocks

        return ClockSettings.from_ruleset(self.ruleset)

    def time_loss(self, seat: int, reason: str, text: str = "") -> Result:
        """The result when ``seat`` runs out of time and its state has no :meth:`State.concede_move`.

        ``reason`` is ``"flag"`` (main time) or ``"move_time"``. By default the
        seat loses: with two seats the other one wins; with more, the game ends
        without a winner and ``scores`` marks the seat that lost on time with
        0 and every other seat with 1. Override it for another rule.
        """
        count = len(self.seats)
        if count == 2:
            return Result(winner=1 - seat, reason=reason, text=text)
        others = [s for s in range(count) if s != seat]
        winner = others[0] if len(others) == 1 else None
        return Result(winner=winner, reason=reason, scores=tuple(0 if s == seat else 1 for s in range(count)), text=text)

    def determinize(self, view: State, player: int, rng: random.Random) -> State:
        """A full state that ``view`` (``player``'s :meth:`State.player_view`) could be, with
        what ``player`` cannot know drawn from ``rng``: the hidden parts and, in a
        :attr:`stochastic` game, the chance still to come (a made-up seed's refills).

        Search over hidden information and chance (the built-in ``mcts`` bot) plays each
        simulation on a fresh one, so it never looks at the true state and averages over
        what it cannot know. It must not change ``view``. The default is ``view.clone()``:
        right for a game with nothing hidden and no chance, and for a stochastic game whose
        view already carries a made-up future.
        """
        return view.clone()

    def state_from_observation(self, data: Mapping[str, JSON], player: int) -> State:
        """A state built from ``State.observation(player)``: what a remote player can search and show.

        Online play sends a guest only its observation; the guest's program rebuilds
        its view with this. Perfect-information games (the default) read a position;
        games that hide information override it to accept the holes. Raises
        :class:`InvalidPosition`.
        """
        return self.state_from_json(data)
    # -- fixed-size encodings (reinforcement-learning adapters: OpenSpiel, PettingZoo) -------

    #: True when the seed given to :meth:`new_state` changes the game (a random set-up, random
    #: refills). Adapters then model the seed as a chance event the players never observe.
    stochastic: bool = False

    def ply_limit(self) -> int | None:
        """The most moves a game lasts when nobody extends it (OpenSpiel's max_game_length).

        None (the default) when the game cannot say; adapters then stop a game at a
        cap of their own and score it a draw.
        """
        return None

    def action_count(self) -> int:
        """The size of the game's fixed discrete action space under this ruleset.

        Every legal move of every position maps to one index in ``0 .. action_count() - 1``
        through :meth:`action_index`. 0 (the default) means the game offers no such
        encoding; the OpenSpiel and PettingZoo adapters then refuse it with a clear error.
        """
        return 0

    def action_index(self, move: MoveT) -> int:
        """The action index of ``move`` (see :meth:`action_count`)."""
        raise PegboardError(f"{self.name} offers no fixed action encoding")

    def action_move(self, index: int) -> MoveT:
        """The move with action index ``index``; raises ValueError for an index no move has."""
        raise PegboardError(f"{self.name} offers no fixed action encoding")

    def observation_shape(self) -> tuple[int, ...]:
        """The shape of :meth:`observation_tensor`'s array; () when the game offers none."""
        return ()

    def observation_tensor(self, observation: Mapping[str, JSON], player: int) -> list[float]:
        """``player``'s observation (:meth:`State.observation`) as a flat list of floats.

        Built from the observation alone, so it can hold nothing the player may not
        know. Its length is the product of :meth:`observation_shape`.
        """
        raise PegboardError(f"{self.name} offers no observation tensor")

    def seat_index(self, name: str) -> int:
        """The seat number for a seat name, case-insensitive; raises KeyError."""
        lowered = name.lower()
        for index, seat in enumerate(self.seats):
            if seat.lower() == lowered:
                return index
        raise KeyError(name)
