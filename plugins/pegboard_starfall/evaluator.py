"""Starfall's static evaluation: named terms, one raw value per side, weighted from the ruleset.

Each term is a raw number computed the same way for each side; its contribution to the
score is ``weight * (South's value - North's value)``, so the score is from South's (seat 0's)
point of view and the mirrored position scores the negation. Weights come from the ruleset's
``[evaluator]`` table (rulesets/starfall/standard.toml, schema-checked); a term the table
leaves out keeps its default below. docs/rules/starfall.md ("Evaluation") lists the terms.

The bots call :meth:`StarfallEvaluator.side_values` (both sides' raw tuples from one pass
over the board) after every trial move, so it works on the flat arrays with no allocation
beyond a few small lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pegboard.specs import Evaluation, Evaluator, Term

from .movegen import drone_destinations, ride_bits
from .pieces import BOMB, COMMAND, HUNTER, RAIDER, SCOUT, SHIELD, SIEGE, SWEPT, TURRET, WARP

#: Term names in order, with their default weights (the same numbers as standard.toml).
DEFAULT_WEIGHTS: dict[str, float] = {
    "won": 1000.0,
    "territory": 2.0,
    "claim_reach": 0.4,
    "scout_room": 0.1,
    "drone_value": 1.0,
    "drone_power": 1.5,
    "missiles_stock": 0.4,
    "missiles_carried": 0.6,
    "turrets": 6.0,
    "command_open": -2.5,
    "siege_threats": 12.0,
    "siege_advance": 0.3,
    "asteroid_pressure": -1.0,
    "exposed": -0.6,
    "siege_power": 2.0,
    "siege_doomed": -40.0,
}
TERMS: tuple[str, ...] = tuple(DEFAULT_WEIGHTS)

DESCRIPTIONS: dict[str, str] = {
    "won": "1 if the side has won the game",
    "territory": "squares the side owns",
    "claim_reach": "squares its scouts could claim now (unowned, no asteroid, in each scout's 3x3), summed",
    "scout_room": "unowned open squares within 2 of each of its scouts, summed (room to claim next)",
    "drone_value": "its drones by kind: scout 5, warp 7, hunter 5, raider 4, siege 4, shield 3, bomb 3",
    "drone_power": "extra power of its drones (power - 1, summed; stacks and the starting shield)",
    "missiles_stock": "missiles in its Command's stock",
    "missiles_carried": "missiles its scouts and hunters carry",
    "turrets": "turrets it has built",
    "command_open": "open squares beside its Command with none of its shields beside them, while the "
                    "other side has a siege (where an enemy siege would win)",
    "siege_threats": "its sieges beside the enemy Command with no enemy shield beside them (2 each), or "
                     "able to get to such a square with one strike or step (1 each)",
    "siege_advance": "closeness of its sieges to the enemy Command: 10 - distance, summed",
    "asteroid_pressure": "asteroids on its half (they block claims and crush drones as they drift)",
    "exposed": "drone value (by kind, as drone_value) of its drones an enemy raider could land on, or an "
               "enemy shield sweep, next turn",
    "siege_power": "power of its sieges, summed (a siege alive, and stacked against missiles and turrets)",
    "siege_doomed": "its sieges the other side can end next turn: the shots its loaded scouts (1) and hunters (2) "
                    "in missile range and its turrets beside the siege can fire reach the siege's power, or three of "
                    "its drones already stand beside the siege (a fourth surrounds it)",
}

#: drone_value per kind (index = kind code; the Command and turrets count elsewhere).
KIND_VALUE = [0.0] * 10
for _kind, _value in ((SCOUT, 5), (SHIELD, 3), (RAIDER, 4), (HUNTER, 5), (WARP, 7), (SIEGE, 4), (BOMB, 3)):
    KIND_VALUE[_kind] = float(_value)

#: Squares within this Chebyshev distance of a scout count toward scout_room.
ROOM_RADIUS = 2
#: siege_doomed: a siege with this many enemy drones beside it (Command included, turrets not)
#: counts as lost, one short of the four that surround it, since one more drone stepping in (or
#: made beside it by a swap) ends it whatever its power.
SURROUND_SOON = 3


def read_weights(ruleset: Mapping[str, Any]) -> dict[str, float]:
    """Term weights from a ruleset's ``[evaluator]`` table; defaults fill the gaps."""
    weights = dict(DEFAULT_WEIGHTS)
    for key, value in (ruleset.get("evaluator") or {}).items():
        if key in weights and not isinstance(value, bool) and isinstance(value, (int, float)):
            weights[key] = float(value)
    return weights


class StarfallEvaluator(Evaluator):
    """The standard Starfall evaluation (see the module docstring and DESCRIPTIONS).

    ``evaluate(state)`` gives the score with its per-term breakdown, ``score(state)`` the
    number alone. Both work on a full state or on a player's view.
    """

    #: A score of this size fills the window's bar about three quarters of the way:
    #: fifteen squares' worth at the standard weights.
    scale = 30.0
    #: The logistic constant that turns a score into South's win chance (analysis marks moves by
    #: it): fitted by tools/calibrate_win_scale.py to 20 skill-50-against-skill-50 games, 6,192
    #: positions scored statically (17.2): a lead of 17, about eight squares, is a 73 % chance.
    win_scale = 17.0

    def __init__(self, game: Any, weights: Mapping[str, float] | None = None) -> None:
        self.game = game
        merged = read_weights(game.ruleset)
        if weights is not None:
            merged.update(weights)
        self.weights = merged
        self.w = tuple(merged[name] for name in TERMS)
        geo = game.geo
        self._room = tuple(geo.disc(sq, ROOM_RADIUS) for sq in range(geo.size))
        rules = game.rules
        self._range = int(rules.range)
        self._load = {SCOUT: int(rules.scout_load), HUNTER: int(rules.hunter_load)}

    # -- raw values ------------------------------------------------------------------------

    def side_values(self, st: Any, exposed_for: tuple[int, ...] = (0, 1)) -> tuple[list[float], list[float]]:
        """The raw value of every term (in TERMS order) for South and for North.

        ``exposed`` (the costliest term) is worked out only for the seats in ``exposed_for``
        and is 0 for the others (a search that does not weigh it skips it).
        """
        geo = st.geo
        kind, side, power, miss, owner, ast = st.kind, st.side, st.power, st.miss, st.owner, st.ast
        nbr8, half = geo.nbr8, geo.half
        drones: tuple[list[int], list[int]] = ([], [])
        for sq, k in enumerate(kind):
            if k:
                drones[side[sq]].append(sq)
        rocks = [0, 0]
        for sq, a in enumerate(ast):
            if a:
                h = half[sq]
                if h >= 0:
                    rocks[h] += 1
        result = st.winner_result
        out: tuple[list[float], list[float]] = ([], [])
        for me in (0, 1):
            enemy = me ^ 1
            value = extra = carried = 0.0
            turrets = reach = room = siege_power = 0
            sieges: list[int] = []
            for s in drones[me]:
                k = kind[s]
                if k == COMMAND:
                    continue
                if k == TURRET:
                    turrets += 1
                    continue
                value += KIND_VALUE[k]
                extra += power[s] - 1
                if k == SCOUT:
                    carried += miss[s]
                    for t in geo.disc(s, 1):
                        if owner[t] < 0 and not ast[t]:
                            reach += 1
                    for t in self._room[s]:
                        if owner[t] < 0 and not ast[t]:
                            room += 1
                elif k == HUNTER:
                    carried += miss[s]
                elif k == SIEGE:
                    sieges.append(s)
                    siege_power += power[s]
            own_cmd, their_cmd = st.cmd[me], st.cmd[enemy]
            stock = miss[own_cmd] if own_cmd >= 0 else 0
            # command_open: where an enemy siege would stand and win
            open_squares = 0
            if own_cmd >= 0 and any(kind[s] == SIEGE for s in drones[enemy]):
                for t in nbr8[own_cmd]:
                    if ast[t] or (kind[t] and not (kind[t] == SIEGE and side[t] == enemy)):
                        continue
                    if not any(kind[u] == SHIELD and side[u] == me for u in nbr8[t]):
                        open_squares += 1
            threats = 0
            advance = 0.0
            if their_cmd >= 0:
                ring = nbr8[their_cmd]
                for s in sieges:
                    advance += max(0, 10 - geo.chebyshev(s, their_cmd))
                    threats += self._siege_threat(st, s, me, ring)
            exposed = self._exposed(st, drones[enemy], me) if me in exposed_for else 0.0
            doomed = self._doomed(st, sieges, drones[enemy], enemy) if sieges else 0
            won = 1.0 if result is not None and result.winner == me else 0.0
            out[me].extend((
                won, float(owner.count(me)), float(reach), float(room), value, extra, float(stock), carried,
                float(turrets), float(open_squares), float(threats), advance, float(rocks[me]), exposed,
                float(siege_power), float(doomed),
            ))
        return out

    @staticmethod
    def _exposed(st: Any, attackers: list[int], me: int) -> float:
        """Value of ``me``'s drones the enemy raiders could land on, or its shields sweep, next turn."""
        kind, side, owner = st.kind, st.side, st.owner
        nbr8 = st.geo.nbr8
        hit: set[int] = set()
        rb = None
        for s in attackers:
            k = kind[s]
            if k == RAIDER:
                if rb is None:
                    rb = ride_bits(st, None)
                for t in drone_destinations(st, s, None, rb):
                    if kind[t] and side[t] == me:
                        hit.add(t)
            elif k == SHIELD:
                enemy = me ^ 1
                for t in nbr8[s]:
                    if owner[t] == enemy and not kind[t] and not st.ast[t]:
                        for u in nbr8[t]:
                            if kind[u] in SWEPT and side[u] == me and owner[u] == enemy:
                                hit.add(u)
        threatened: float = sum(KIND_VALUE[kind[t]] for t in hit)
        return threatened

    def _doomed(self, st: Any, sieges: list[int], shooters: list[int], enemy: int) -> int:
        """How many of ``sieges`` the side ``enemy`` can end on its next turn.

        By missiles: a scout fires once a turn and a hunter twice, each as long as it has a
        missile (the ones it carries, plus what it loads from a stocked Command it stands
        beside); turrets beside a siege fire at it first (one shot each). By a surround: a
        siege with SURROUND_SOON of ``enemy``'s drones beside it already."""
        kind, side, miss, geo = st.kind, st.side, st.miss, st.geo
        cheb = geo.chebyshev
        nbr8 = geo.nbr8
        cmd = st.cmd[enemy]
        stock = miss[cmd] if cmd >= 0 else 0
        ring = nbr8[cmd] if cmd >= 0 else ()
        reach = self._range
        doomed = 0
        for s in sieges:
            around = 0
            for t in nbr8[s]:
                k = kind[t]
                if k and k != TURRET and side[t] == enemy:
                    around += 1
            if around >= SURROUND_SOON:
                doomed += 1
                continue
            shots = 0
            for t in shooters:
                k = kind[t]
                if k == SCOUT or k == HUNTER:
                    if cheb(s, t) > reach:
                        continue
                    have = miss[t]
                    if stock and t in ring:
                        have += min(stock, self._load[k])
                    shots += min(have, 1 if k == SCOUT else 2)
                elif k == TURRET and t in nbr8[s]:
                    shots += 1
            if shots >= st.power[s]:
                doomed += 1
        return doomed

    @staticmethod
    def _siege_threat(st: Any, s: int, me: int, ring: tuple[int, ...]) -> int:
        """2 if the siege on s stands in ``ring`` unshielded, 1 if a strike or step gets it to such a square."""
        kind, side, ast = st.kind, st.side, st.ast
        nbr8 = st.geo.nbr8

        def unshielded(t: int) -> bool:
            return not any(kind[u] == SHIELD and side[u] != me for u in nbr8[t])

        if s in ring:
            return 2 if unshielded(s) else 0
        for t in nbr8[s]:
            if t in ring and not kind[t] and not ast[t] and unshielded(t):
                return 1
        for ray in st.geo.rays[s]:
            last = -1
            for t in ray:
                if ast[t] or kind[t]:
                    break
                last = t
            if last >= 0 and last in ring and unshielded(last):
                return 1
        return 0

    # -- the Evaluator protocol --------------------------------------------------------------

    def score(self, state: Any) -> float:
        """Σ weight × (South − North), South's point of view."""
        south, north = self.side_values(state)
        total = 0.0
        for w, a, b in zip(self.w, south, north, strict=False):
            total += w * (a - b)
        return total

    def evaluate(self, state: Any) -> Evaluation:
        south, north = self.side_values(state)
        terms = []
        total = 0.0
        for name, w, a, b in zip(TERMS, self.w, south, north, strict=False):
            contribution = w * (a - b) + 0.0  # + 0.0 turns -0.0 into 0.0 for display
            total += contribution
            terms.append(Term(name, values=(a, b), weight=w, contribution=contribution, description=DESCRIPTIONS[name]))
        return Evaluation(total, tuple(terms))


__all__ = ["DEFAULT_WEIGHTS", "DESCRIPTIONS", "TERMS", "StarfallEvaluator", "read_weights"]
