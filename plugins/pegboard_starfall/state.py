"""The Starfall position: flat per-square arrays, apply/undo, and the turn structure.

A turn is: (start-of-turn processing, done inside the previous action's apply) then any
number of missile shots (``fire`` moves, which leave ``to_move`` unchanged) then exactly one
action that ends the turn. Undo restores a snapshot of the flat arrays taken before each
move; with 121 squares that copy costs a few microseconds and keeps every rule (cascades,
drift, random refills) exactly reversible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pegboard.game import Event, IllegalMove, Refusal, Result, State

from . import effects, fog, movegen, sampling, telling
from .memo import Memo
from .moves import (
    AIM,
    BUILD,
    CLAIM,
    CONCEDE,
    FIRE,
    MOVE,
    PASS,
    RAM,
    STRIKE,
    SWAP,
    TIMEOUT,
    WARP,
    SfMove,
)
from .pieces import SIDE_NAMES, TURRET
from .rams import ram_centre
from .rng import seed_key

if TYPE_CHECKING:
    from .game import StarfallGame

_Alt = tuple[str, Sequence[int], dict[str, Any]]
"""A fallback of a fogged event: (text, squares, data); see :meth:`StarfallState.note`."""

#: ``bytes.translate`` table: a drone's kind to 1; no drone and a turret to 0.
_DRONE_BYTES = bytes(int(k != 0 and k != TURRET) for k in range(256))
_PUBLIC_EVENTS = frozenset({"pass", "timeout", "drift", "game_over"})
_ARRAYS = ("star", "ast", "owner", "kind", "side", "power", "ride", "miss", "shots", "wreck", "wround")


class StarfallState(State):
    """One Starfall position. Arrays are indexed by square ``r * width + c``.

    ``star``: colour 0..4 or -1 (no star: a hole, or an asteroid square);
    ``ast``: 1 where an asteroid stands; ``owner``: -1, 0 (South) or 1 (North);
    ``kind``/``side``/``power``/``ride``/``miss``/``shots``: the drone or turret on the
    square (kind 0 = none; ``miss`` is carried missiles, the Command's is the stock;
    ``shots`` counts missiles fired this turn); ``wreck``/``wround``: missiles held by a
    wreck and the round it was made in (salvage).
    """

    game: StarfallGame

    def __init__(self, game: StarfallGame, seed: int = 0) -> None:
        self.game = game
        self.rules = game.rules
        #: the rules' fog switch (a property of Rules), read by every move check
        self.fogged = self.rules.fogged
        self.geo = game.geo
        #: per square, its neighbours' entries of an array in one call (effects.near_getters)
        self.near = effects.near_getters(self.geo)
        n = self.geo.size
        self.seed = seed
        self.key = seed_key(seed)
        self.draws = 0
        self.star = [-1] * n
        # small codes live in bytearrays: scans (``SIEGE in kind``, ``ast.count(1)``) run at
        # memchr speed and the undo snapshot copies them as bytes
        self.ast = bytearray(n)
        self.owner = [-1] * n
        self.kind = bytearray(n)
        self.side = bytearray(n)
        self.power = [0] * n
        self.ride = bytearray(n)
        self.miss = [0] * n
        self.shots = [0] * n
        self.wreck = [0] * n
        self.wround = [0] * n
        #: Squares each side's scouts and warps ever claimed (lit under fog), as bitmasks.
        self.lit = [0, 0]
        #: Squares where each side ever cleared stars (where its shields may stand under fog).
        self.cleared = [0, 0]
        self.cmd = [-1, -1]
        self.current = 0
        self.turn = 0
        #: Stars the mover cleared on its own half this turn (asteroid drift threshold).
        self.cleared_now = 0
        #: True when the last shape search found nothing and no star has moved since.
        self.quiet = False
        #: Asteroids the mover still has to place with ``aim`` moves (drop_target "aimed").
        self.aims = 0
        #: True when those come after the turn's action: the last one ends the turn.
        self.aim_ends = False
        self.winner_result: Result | None = None
        self._stack: list[tuple[SfMove, tuple[Any, ...] | None]] = []  # None: played by advance, no undo
        self._pending: list[tuple[str, dict[str, Any], str, tuple[int, ...], int, Sequence[_Alt]]] = []
        #: the work the state remembers (flow plans, calm layouts, each side's sight, ...): see :mod:`.memo`
        self.memo = Memo()
        #: False while ``push`` plays a move: effects skip writing the events nobody will read.
        self.telling = True
        #: Bumped by every apply and undo, so views (a renderer, a bot's cache) can tell the position changed.
        self.version = 0

    # -- State API --------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        return self.current

    @property
    def result(self) -> Result | None:
        return self.winner_result

    @property
    def ply(self) -> int:
        return len(self._stack)

    @property
    def round(self) -> int:
        """A round is a South turn and a North turn."""
        return self.turn // 2

    def legal_moves(self) -> list[SfMove]:
        if self.winner_result is not None:
            return []
        return movegen.legal_moves(self)

    def random_move(self, rng: random.Random) -> SfMove | None:
        """A uniformly random legal move, drawn without listing them all (see :mod:`.sampling`).

        The move is remembered with the position's ``version``: a ``check`` of it before the
        position changes (what the match runner does next) needs no second legality test.
        """
        move = sampling.random_move(self, rng)
        self.memo.drawn = (self.version, move)
        return move

    def check(self, move: Any) -> Refusal | None:
        """None if ``move`` is legal here, else the Refusal (see :meth:`refusal`).

        A move :meth:`random_move` just drew is accepted without a second test (the fast
        path); its slow twin is :meth:`refusal`, and
        tests/starfall/test_sampling.py::test_a_drawn_move_is_checked_again_once_the_position_changes
        holds that the shortcut ends when the position changes.
        """
        drawn = self.memo.drawn
        if drawn is not None and drawn[0] == self.version and isinstance(move, SfMove) and drawn[1] == move:
            return None
        if type(move) is SfMove and self.winner_result is None:  # refusal's own first tests, without its frame
            refusal = movegen.refusal(self, move)
        else:
            refusal = self.refusal(move)
        return None if refusal is None else Refusal(*refusal)

    def refusal(self, move: Any) -> tuple[str, str] | None:
        """None if ``move`` is legal, else (stable rule id, readable reason)."""
        if not isinstance(move, SfMove):
            return ("not_a_move", "not a Starfall move")
        if self.winner_result is not None:
            return ("game_over", "the game is over")
        return movegen.refusal(self, move)

    def apply(self, move: Any) -> list[Event]:
        refusal = self.refusal(move)
        if refusal is not None:
            raise IllegalMove(refusal[1], rule=refusal[0], move=move)
        before = (fog.visible(self, 0), fog.visible(self, 1)) if self.rules.fogged else None
        self._play(move)
        return self._flush_events(before)

    def push(self, move: Any) -> None:
        """Play a move the caller knows is legal: no legality test, no events (replays, search).

        Fast path of :meth:`apply`, held equal (board, events aside, and result) by
        tests/starfall/test_properties.py::test_push_plays_exactly_like_apply.
        """
        self._play(move, True, True)

    def advance(self, move: Any) -> None:
        """:meth:`push` for good (a validating replay): no undo snapshot is kept for this move."""
        self._play(move, False, True)

    def _play(self, move: SfMove, keep: bool = True, quiet: bool = False) -> None:
        """Play a legal move; ``keep``: with an undo snapshot; ``quiet`` (push, advance): the
        effects write no events (``telling`` is off while it plays) and none are kept."""
        self.telling = not quiet
        memo = self.memo
        try:
            self._stack.append((move, self._snapshot() if keep else None))
            self.version += 1  # (which also outdates memo.drawn)
            if memo.sight:  # only a fogged game fills it
                memo.forget()
            if self._pending:
                self._pending = []
            mover = self.current
            kind = move.kind
            if kind == MOVE:  # most moves of any game
                effects.move_drone(self, move.a, move.b)
                self._end_action()
            elif kind == FIRE:
                effects.fire(self, move.a, move.b)
                effects.after_board_change(self)
            elif kind == CONCEDE:
                self._concede(move.a, move.tag)
            elif kind == AIM:
                effects.aim(self, move.a)
                if self.winner_result is None:
                    effects.after_board_change(self)
                if self.aims == 0 and self.aim_ends:
                    self.aim_ends = False
                    self._close_turn()
            elif kind == TIMEOUT and self.aim_ends:  # the action was played; the owed asteroids are lost
                self.aims, self.aim_ends = 0, False
                self.note("timeout", f"{SIDE_NAMES[mover]}'s move timer ran out; the turn passes.")
                self._close_turn()
            else:
                if kind == SWAP:
                    effects.swap(self, move.a, move.b)
                elif kind == CLAIM:
                    effects.claim(self, move.a)
                elif kind == WARP:
                    effects.warp(self, move.a, move.b)
                elif kind == STRIKE:
                    effects.strike(self, move.a, move.b)
                elif kind == RAM:
                    effects.ram(self, move.a, move.b)
                elif kind == BUILD:
                    effects.build(self, move.a)
                elif kind == PASS:
                    self.note("pass", f"{SIDE_NAMES[mover]} has no action and passes.")
                elif kind == TIMEOUT:
                    self.aims = 0
                    self.note("timeout", f"{SIDE_NAMES[mover]}'s move timer ran out; the turn passes.")
                self._end_action()
            if memo.sight:  # a sight worked out mid-move saw a half-played position
                memo.forget()
        finally:
            self.telling = True
        if quiet and self._pending:
            self._pending = []

    def undo(self) -> SfMove:
        if not self._stack:
            raise IndexError("nothing to undo")
        move, snap = self._stack[-1]
        if snap is None:
            raise IndexError("that move was played for good (advance) and cannot be taken back")
        self._stack.pop()
        self._restore(snap)
        self.version += 1
        self.memo.forget()
        return move

    def clone(self) -> StarfallState:
        other = StarfallState.__new__(StarfallState)
        other.__dict__.update(self.__dict__)
        for name in _ARRAYS:
            setattr(other, name, getattr(self, name)[:])
        other.lit = list(self.lit)
        other.cleared = list(self.cleared)
        other.cmd = list(self.cmd)
        other._stack = [(m, snap if snap is None else tuple(x[:] if isinstance(x, list) else x for x in snap))
                        for m, snap in self._stack]
        other._pending = []
        other.memo = self.memo.copy()
        return other

    def to_json(self) -> dict[str, Any]:
        from .position import state_to_json

        return state_to_json(self)

    def observation(self, player: int) -> dict[str, Any]:
        return fog.observation(self, player)

    def hidden_from(self, player: int) -> list[str]:
        """JSON pointers (RFC 6901) into :meth:`to_json` that ``player`` may not know.

        The conformance suite checks that each is absent from (or null in) the observation.
        """
        return fog.hidden_from(self, player)

    def move_text_for(self, move: Any, seat: int) -> str:
        """``move``, about to be played here, as ``seat`` may read it (see :mod:`.telling`)."""
        return telling.move_text_for(self, move, seat)

    def player_view(self, player: int) -> StarfallState:
        from .position import state_from_json

        return state_from_json(self.game, fog.observation(self, player), view_of=player, cls=StarfallState)

    def reach(self, sq: int) -> dict[str, list[int]]:
        """Where the drone on ``sq`` (either side's) could go and what it could hit on its turn.

        For the "tap a drone" view: ``moves`` (squares it can end a move on), ``takes``
        (those holding an enemy drone or turret it would end), ``strikes``/``rams`` (where a
        siege's strike stops / where a bomb's blasts would centre), ``fires`` (missile targets,
        ignoring whether it has a missile or shots left) and ``sweeps`` (for a shield: the
        enemy drones a move to each square would sweep, flattened). Under fog this uses what
        the drone's side sees; call it on a ``player_view`` to show only what a player knows.
        """
        from .pieces import BOMB, HUNTER, SCOUT, SHIELD, SIEGE, SWEPT

        empty: dict[str, list[int]] = {"moves": [], "takes": [], "strikes": [], "rams": [], "fires": [], "sweeps": []}
        k = self.kind[sq]
        if not k:
            return empty
        side = self.side[sq]
        vis = fog.visible(self, side) if self.rules.fogged else None
        out = dict(empty)
        out["moves"] = movegen.drone_destinations(self, sq, vis)
        out["takes"] = [t for t in out["moves"] if self.kind[t] and self.side[t] != side]
        if k == SIEGE:
            out["strikes"] = movegen.strike_ends(self, sq, vis)
        elif k == BOMB:
            out["rams"] = [c for d in range(8) if (c := ram_centre(self, sq, d, vis)) is not None]
        elif k in (SCOUT, HUNTER):
            out["fires"] = movegen.fire_targets(self, sq, vis)
        elif k == SHIELD:
            swept: set[int] = set()
            for t in out["moves"]:
                if self.owner[t] == side:
                    swept.update(u for u in self.geo.nbr8[t] if self.kind[u] in SWEPT and self.side[u] != side
                                 and self.owner[u] == side)
            out["sweeps"] = sorted(swept)
        return out

    def concede(self, seat: int, reason: str = "resign") -> list[Event]:
        """Seat ``seat`` loses now: ``reason`` "flag" (clock out), "move_time" or "resign".

        Recorded as a ``concede`` move so match records replay to the same result.
        """
        return self.apply(self.concede_move(seat, reason))

    def concede_move(self, seat: int, reason: str = "resign") -> SfMove:
        """The move by which ``seat`` loses (the session plays it when a clock flag falls)."""
        from .moves import concede

        return concede(seat, reason)

    def timeout_move(self) -> SfMove:
        """The move played when the mover's move timer runs out: the turn passes."""
        from .moves import TIMEOUT_MOVE

        return TIMEOUT_MOVE

    def __str__(self) -> str:
        from .text import render

        return render(self)

    def text_for(self, seat: int) -> str:
        from .text import render

        return render(self, bottom=seat)

    # -- turn structure ---------------------------------------------------------------

    def start_turn(self) -> None:
        """Start-of-turn processing for ``self.current`` (flow, turrets, loading, wrecks, siege win)."""
        n = self.geo.size
        self.cleared_now = 0
        if self.shots.count(0) != n:  # most turns fire nothing: no new list
            self.shots = [0] * n
        effects.flow_and_cascade(self)
        effects.surround(self)
        if self.winner_result is not None:
            return
        # each of these also tests its own condition; here they save a call on the many turns without turrets or salvage
        if TURRET in self.kind:
            effects.turrets_fire(self)
        effects.load_all(self)
        if self.rules.salvage:
            effects.fade_wrecks(self)
        effects.siege_win(self)

    def _end_action(self) -> None:
        if self.winner_result is not None:
            return
        if self.cleared_now >= self.rules.drift_threshold:  # drift_if_due's own test, without its call on most turns
            effects.drift_if_due(self)
        if self.aims and self.winner_result is None:
            self.aim_ends = True  # the mover aims first (aim moves); the last one closes the turn
            return
        self._close_turn()

    def _close_turn(self) -> None:
        """After the action (and any aimed asteroids): surrounds, territory, the turn cap, next turn."""
        if self.winner_result is not None:
            return
        effects.surround(self)
        if self.winner_result is not None:
            return
        owner = self.owner
        seen, owned = self.memo.owned
        if seen != owner:  # a list compare skips equal (the same small int) entries fast
            owned = len(owner) - owner.count(-1)
            self.memo.owned = (owner[:], owned)
        if owned >= self.rules.target:  # else neither side can have reached the target
            self._territory_win()
            if self.winner_result is not None:
                return
        if self.turn + 1 >= self.rules.max_turns:
            s, n = self.territory()
            winner = 0 if s > n else 1 if n > s else None
            if winner is None:
                text = f"Turn limit reached with equal squares ({s}-{n}): a draw."
            else:
                text = f"Turn limit reached: {SIDE_NAMES[winner]} owns more squares ({s}-{n})."
            self.finish(winner, "turn_limit", text)
            return
        self.current ^= 1
        self.turn += 1
        self.start_turn()

    def _territory_win(self) -> None:
        """The mover, else the other side, wins if it holds the target's number of squares."""
        target = self.rules.target
        counts = self.territory()
        mover = self.current
        for seat in (mover, mover ^ 1):
            if counts[seat] >= target:
                self.finish(seat, "territory", f"{SIDE_NAMES[seat]} holds {counts[seat]} squares, reaching {target}.")
                return

    def territory(self) -> tuple[int, int]:
        owner = self.owner
        return owner.count(0), owner.count(1)

    def finish(self, winner: int | None, reason: str, text: str) -> None:
        self.winner_result = Result(winner=winner, reason=reason, scores=self.territory(), text=text)
        self.note("game_over", text, winner=winner, reason=reason)

    def _concede(self, seat: int, reason: str) -> None:
        what = {"flag": "runs out of clock", "move_time": "runs out of move time"}.get(reason, "resigns")
        self.finish(seat ^ 1, reason, f"{SIDE_NAMES[seat]} {what}: {SIDE_NAMES[seat ^ 1]} wins.")

    # -- helpers used by effects and movegen ----------------------------------------------

    def note(self, kind: str, text: str, squares: Sequence[int] = (),
             alt: Sequence[_Alt] = (), **data: Any) -> None:
        """Queue an event for the side whose turn it is.

        Under fog, ``squares`` are every square the text and data speak of: a side hears the
        event only if it saw all of them (before or after the move). ``alt`` holds fallbacks,
        tried in order, for the sides that did not: (text, squares, data), heard by a side that
        saw all of those squares; a fallback with no squares is private to the acting side.
        """
        self._pending.append((kind, data, text, tuple(squares), self.current, alt))

    def _flush_events(self, before: tuple[bytearray, bytearray] | None = None) -> list[Event]:
        """Events from the queue; under fog each reaches only the sides that saw what it names.

        A side hears an event when it saw every square the event names, before or after the
        move (``before``: each side's sight when the move began); otherwise it may hear one of
        the event's fallbacks (say, "a drone comes into sight at ..."), or nothing. Events that
        name no square go to both sides if they are public by nature (a pass, a timeout,
        asteroid drift, the end of the game), otherwise only to their side.
        """
        pending, self._pending = self._pending, []
        if not self.rules.fogged:
            return [Event(kind, data, text) for kind, data, text, _, _, _ in pending]
        views = [fog.visible(self, 0), fog.visible(self, 1)]
        if before is not None:
            views = [bytearray(x | y for x, y in zip(a, b, strict=False)) for a, b in zip(views, before, strict=False)]
        out = []
        for kind, data, text, squares, side, alt in pending:
            if not squares:
                out.append(Event(kind, data, text, None if kind in _PUBLIC_EVENTS else frozenset({side})))
                continue
            full = frozenset(p for p in (0, 1) if all(views[p][s] for s in squares))
            if full:
                out.append(Event(kind, data, text, full))
            rest = {0, 1} - full
            for alt_text, alt_squares, alt_data in alt:
                if not rest:
                    break
                if alt_squares:
                    got = {p for p in rest if all(views[p][s] for s in alt_squares)}
                else:
                    got = rest & {side}
                if got:
                    out.append(Event(kind, alt_data, alt_text, frozenset(got)))
                    rest -= got
        return out

    def drone_count(self, side: int) -> int:
        """Drones of ``side`` toward the cap: every drone (a stack once), no turret.

        Held equal to a square-by-square count by
        tests/starfall/test_fast_path_twins.py::test_drone_count_is_a_count_of_the_drones_on_the_board.
        """
        drones = self.kind.translate(_DRONE_BYTES)  # 1 where a drone stands, else 0
        # the side bytes are 0 or 1 (an empty square may keep a stale 1): one AND of the two
        # rows read as integers leaves a 1 bit exactly where a North drone stands
        north = (int.from_bytes(drones, "little") & int.from_bytes(self.side, "little")).bit_count()
        return north if side else drones.count(1) - north

    def command_stock(self, side: int) -> int:
        return self.miss[self.cmd[side]] if self.cmd[side] >= 0 else 0

    def _snapshot(self) -> tuple[Any, ...]:
        # tuples of ints and bytes, not lists: the garbage collector does not track them, so
        # a long game's undo stack costs nothing at each collection
        return (
            tuple(self.star), bytes(self.ast), tuple(self.owner), bytes(self.kind), bytes(self.side),
            tuple(self.power), bytes(self.ride), tuple(self.miss), tuple(self.shots), tuple(self.wreck),
            tuple(self.wround),
            tuple(self.lit), tuple(self.cleared), self.current, self.turn, self.draws,
            self.winner_result, self.cleared_now, self.quiet, self.aims, self.aim_ends,
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (star, ast, owner, kind, side, power, ride, miss, shots, wreck, wround, lit, cleared, self.current,
         self.turn, self.draws, self.winner_result, self.cleared_now, self.quiet, self.aims, self.aim_ends) = snap
        self.star, self.ast, self.owner, self.kind = list(star), bytearray(ast), list(owner), bytearray(kind)
        self.side, self.power, self.ride, self.miss = bytearray(side), list(power), bytearray(ride), list(miss)
        self.shots, self.wreck, self.wround = list(shots), list(wreck), list(wround)
        self.lit = list(lit)
        self.cleared = list(cleared)


__all__ = ["StarfallState"]
