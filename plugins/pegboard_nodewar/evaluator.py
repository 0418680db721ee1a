"""Node War's static evaluation: the fourteen terms of the evaluation bar.

Every term is a raw number computed the same way for each side (Blue's raw
value, Red's raw value); its contribution to the score is
``weight * (blue - red)``, so the score is from Blue's point of view and a
mirrored position gets the negated score. Weights come from the ruleset's
``[evaluator]`` table (a mod or variant may re-weight any term); a term the
table leaves out keeps its default weight below.

The geometry behind the terms is measured along the *axis*, the segment from
a side's own Base to the enemy Base (length ``L`` lattice units):

- ``advance(p)``: how far p lies along the axis from the own Base (0..L);
- ``lateral(p)``: signed distance of p from the axis line.

Per-point tables are built once per board shape, and each term reduces to
C-level ``sum(map(...))`` passes over the alive nodes, so :meth:`score` costs
tens of microseconds (``python tools/ladder_nodewar.py --bench-eval`` prints
evaluations per second).

Terms (raw value per side; "alive" means joined to the own Base by live lines):

=====================  ==========================================================
alive_nodes            alive nodes, the Base included
dead_nodes             own nodes cut off from the Base (they still block points)
base_siege             enemy alive nodes within Base radius + node radius of the
                       own Base (they are close enough to cut the Base's lines)
mobility               free branches summed over the alive nodes
loop_redundancy        independent loops of the live network: live lines between
                       alive nodes - alive nodes + 1 (the cycle rank)
free_base_slots        free branches of the Base
front_line_advance     advance of the furthest alive node
centre_line            alive nodes within ``centre_band`` of the midline between
                       the two Bases
wide_network           distinct lateral columns (rounded lateral offset) that hold
                       an alive node
flank_watch            min(alive nodes on the left flank, on the right flank) in
                       the own half, a flank being lateral offset >= ``flank_offset``,
                       capped at ``flank_cap``
weak_points            alive regular nodes with exactly one live line (one cut
                       kills them and whatever hangs from them)
siege_presence         own alive nodes with a free branch inside the enemy Base's
                       radius (they can cut the lines leaving the enemy Base)
opening_rush           sum of advance / L over alive regular nodes, faded linearly
                       to 0 over the first ``opening_turns`` turns
base_room              empty points within the own Base's radius that lie on no
                       live line (room to grow; a Base without room is smothered)
=====================  ==========================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from math import hypot
from typing import Any

from pegboard.specs import Evaluation, Evaluator, Term

from .engine import NodeWarGame, NodeWarState
from .geometry import within
from .rules import EVALUATOR_TERMS, Params

#: Weights used when the ruleset's [evaluator] table does not name a term
#: (the same numbers as rulesets/nodewar/standard.toml).
DEFAULT_WEIGHTS: dict[str, float] = {
    "alive_nodes": 10.0,
    "dead_nodes": -4.0,
    "base_siege": -6.0,
    "mobility": 0.5,
    "loop_redundancy": 2.0,
    "free_base_slots": 3.0,
    "front_line_advance": 1.0,
    "centre_line": 1.5,
    "wide_network": 0.5,
    "flank_watch": 1.0,
    "weak_points": -2.0,
    "siege_presence": 2.0,
    "opening_rush": 1.0,
    "base_room": 1.0,
}

#: Shape settings an [evaluator] table may also set (numbers, not weights).
DEFAULT_SETTINGS: dict[str, float] = {
    "opening_turns": 40,
    "centre_band": 1.5,
    "flank_offset": 3,
    "flank_cap": 3,
}

DESCRIPTIONS: dict[str, str] = {
    "alive_nodes": "alive nodes, Base included",
    "dead_nodes": "own nodes cut off from the Base",
    "base_siege": "enemy alive nodes within Base radius + node radius of the own Base",
    "mobility": "free branches of the alive nodes",
    "loop_redundancy": "independent loops (live lines - alive nodes + 1)",
    "free_base_slots": "free branches of the Base",
    "front_line_advance": "advance of the furthest alive node towards the enemy Base",
    "centre_line": "alive nodes on the midline between the Bases",
    "wide_network": "lateral columns holding an alive node",
    "flank_watch": "min(left, right) alive flank nodes in the own half, capped",
    "weak_points": "alive regular nodes hanging by a single live line",
    "siege_presence": "own alive nodes with a free branch inside the enemy Base's radius",
    "opening_rush": "advance of alive nodes / axis length, fading over the opening",
    "base_room": "empty points in the Base's radius on no live line",
}

assert tuple(DEFAULT_WEIGHTS) == EVALUATOR_TERMS


class Tables:
    """Per-point tables of one board shape, for each side (index = seat)."""

    def __init__(self, params: Params, settings: Mapping[str, float]) -> None:
        w, h = params.width, params.height
        size = w * h
        bases = params.bases
        self.axis = hypot(bases[1][0] - bases[0][0], bases[1][1] - bases[0][1])
        length = self.axis
        band = float(settings["centre_band"])
        flank = float(settings["flank_offset"])
        siege_r = params.base_radius + params.node_radius
        self.advance: list[tuple[float, ...]] = []
        self.rush: list[tuple[float, ...]] = []
        self.centre: list[tuple[int, ...]] = []
        self.column: list[tuple[int, ...]] = []
        self.left: list[tuple[int, ...]] = []
        self.right: list[tuple[int, ...]] = []
        self.siege_zone: list[tuple[int, ...]] = []  # within Base radius + node radius of this seat's Base
        self.deep_zone: list[tuple[int, ...]] = []  # within Base radius of this seat's Base
        for seat in (0, 1):
            (bx, by), (ex, ey) = bases[seat], bases[1 - seat]
            ux, uy = (ex - bx) / length, (ey - by) / length
            adv, rush, centre, column, left, right, siege, deep = [], [], [], [], [], [], [], []
            for p in range(size):
                x, y = p % w, p // w
                raw = (x - bx) * ux + (y - by) * uy
                lat = (x - bx) * uy - (y - by) * ux
                a = min(max(raw, 0.0), length)
                adv.append(a)
                rush.append(a / length)
                centre.append(1 if abs(raw - length / 2) <= band else 0)
                column.append(round(lat))
                own_half = raw < length / 2
                left.append(1 if own_half and lat <= -flank else 0)
                right.append(1 if own_half and lat >= flank else 0)
                siege.append(1 if within(x - bx, y - by, siege_r, params.metric) else 0)
                deep.append(1 if within(x - bx, y - by, params.base_radius, params.metric) else 0)
            self.advance.append(tuple(adv))
            self.rush.append(tuple(rush))
            self.centre.append(tuple(centre))
            self.column.append(tuple(column))
            self.left.append(tuple(left))
            self.right.append(tuple(right))
            self.siege_zone.append(tuple(siege))
            self.deep_zone.append(tuple(deep))


@cache
def _tables(params: Params, settings: tuple[tuple[str, float], ...]) -> Tables:
    return Tables(params, dict(settings))


def read_weights(ruleset: Mapping[str, Any]) -> tuple[dict[str, float], dict[str, float]]:
    """Term weights and shape settings from a ruleset's ``[evaluator]`` table (defaults fill gaps)."""
    table = ruleset.get("evaluator") or {}
    weights = dict(DEFAULT_WEIGHTS)
    settings = dict(DEFAULT_SETTINGS)
    for key, value in table.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if key in weights:
            weights[key] = float(value)
        elif key in settings:
            settings[key] = float(value)
    return weights, settings


class NodeWarEvaluator(Evaluator):
    """The standard Node War evaluation (see the module docstring for every term).

    ``evaluate(state)`` returns the score with its fourteen-term breakdown;
    ``score(state)`` returns the same number without building the breakdown,
    for search.
    """

    #: The score at which the window's bar is about three quarters filled (tanh(1) of the
    #: way to one end): six alive nodes' worth at the standard weights.
    scale = 60.0
    #: The logistic constant that turns a score into Blue's win chance (analysis marks moves by
    #: it): fitted by tools/calibrate_win_scale.py to 40 Hard-against-Hard games, 1,814 positions
    #: scored by the analysis search (468; the static scores give 508). Between bots, a lead in
    #: nodes decides little until a smother is in sight, so the curve is flat: a 100-point lead is 55 %.
    win_scale = 470.0

    def __init__(self, game: NodeWarGame, weights: Mapping[str, float] | None = None) -> None:
        self.game = game
        base_weights, settings = read_weights(game.ruleset)
        if weights is not None:
            base_weights.update(weights)
        self.weights = base_weights
        self.settings = settings
        self.tables = _tables(game.params, tuple(sorted(settings.items())))
        self._w = tuple(base_weights[name] for name in EVALUATOR_TERMS)
        params = game.params
        self._node_limit = params.node_branches
        self._base_limit = params.base_branches
        self._opening = max(1.0, settings["opening_turns"])
        self._flank_cap = settings["flank_cap"]
        geo = game.geo
        self._base_ring = tuple(
            tuple(sorted(geo.reach[params.base_radius][b])) for b in game.base_points
        )

    # -- raw values ------------------------------------------------------------------

    def raw(self, state: NodeWarState, seat: int) -> tuple[float, ...]:
        """The fourteen raw values of ``seat``, in :data:`EVALUATOR_TERMS` order."""
        alive = state.alive
        mine = [p for p in state.nodes[seat] if alive[p]]
        enemy = [p for p in state.nodes[1 - seat] if alive[p]]
        return self._raw(state, seat, mine, enemy)

    def _raw(self, state: NodeWarState, seat: int, mine: list[int], enemy: list[int]) -> tuple[float, ...]:
        """:meth:`raw` given ``seat``'s and the other side's alive nodes (:meth:`score` finds
        them once for both seats)."""
        t = self.tables
        branches, links = state.branches, state.links
        nodes = state.nodes[seat]
        n_alive = len(mine)
        base = state.base[seat]
        limit = self._node_limit
        used = sum(map(branches.__getitem__, mine))
        degrees = [len(links[p]) for p in mine]
        live_lines = sum(degrees) // 2
        enemy_deep = t.deep_zone[1 - seat]
        presence = 0
        for p in mine:
            if enemy_deep[p] and branches[p] < limit:
                presence += 1
        left = sum(map(t.left[seat].__getitem__, mine))
        right = sum(map(t.right[seat].__getitem__, mine))
        rush = 0.0
        fade = 1.0 - (state.turn - 1) / self._opening
        if fade > 0.0:
            rush = (sum(map(t.rush[seat].__getitem__, mine)) - t.rush[seat][base]) * fade
        occupied, through = state.occupied, state.through
        room = 0
        for q in self._base_ring[seat]:
            if not occupied[q] and not through[q]:
                room += 1
        base_free = self._base_limit - branches[base]
        weak = degrees.count(1)
        if len(links[base]) == 1:
            weak -= 1  # the Base itself is never weak
        return (
            n_alive,
            len(nodes) - n_alive,
            sum(map(t.siege_zone[seat].__getitem__, enemy)),
            limit * n_alive + (self._base_limit - limit) - used,
            live_lines - n_alive + 1,
            base_free,
            max(map(t.advance[seat].__getitem__, mine)),
            sum(map(t.centre[seat].__getitem__, mine)),
            len(set(map(t.column[seat].__getitem__, mine))),
            min(left, right, self._flank_cap),
            weak,
            presence,
            rush,
            room,
        )

    # -- the Evaluator protocol ------------------------------------------------------

    def score(self, state: NodeWarState) -> float:
        """Σ weight × (Blue raw − Red raw), Blue's point of view."""
        alive = state.alive
        blue_alive = [p for p in state.nodes[0] if alive[p]]
        red_alive = [p for p in state.nodes[1] if alive[p]]
        blue = self._raw(state, 0, blue_alive, red_alive)
        red = self._raw(state, 1, red_alive, blue_alive)
        total = 0.0
        for w, b, r in zip(self._w, blue, red, strict=False):
            total += w * (b - r)
        return total

    def evaluate(self, state: NodeWarState) -> Evaluation:
        blue = self.raw(state, 0)
        red = self.raw(state, 1)
        terms = []
        total = 0.0
        for name, w, b, r in zip(EVALUATOR_TERMS, self._w, blue, red, strict=False):
            contribution = w * (b - r) + 0.0  # + 0.0 turns -0.0 into 0.0 for display
            total += contribution
            terms.append(Term(name, (float(b), float(r)), w, contribution, DESCRIPTIONS[name]))
        return Evaluation(total, tuple(terms))

