"""Property tests on random playouts: the engine's invariants hold after every move."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pegboard_nodewar import MOVE_KINDS, Move, NodeWarGame, NodeWarState, load_shipped
from pegboard_nodewar.engine import BASE, LIVE, REGULAR

GAMES = {name: NodeWarGame(load_shipped(name)) for name in ("standard", "skirmish", "wide")}
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def reachable(state: NodeWarState, seat: int) -> set[int]:
    """Nodes joined to ``seat``'s Base through live lines, recomputed from the line list alone."""
    doc = state.to_json()
    game = state.game
    graph: dict[int, list[int]] = {}
    for line in doc["lines"]:
        if line["owner"] == seat and line["state"] == "live":
            a, b = (game.point(*p) for p in line["ends"])
            graph.setdefault(a, []).append(b)
            graph.setdefault(b, []).append(a)
    start = state.base[seat]
    seen, todo = {start}, [start]
    while todo:
        for q in graph.get(todo.pop(), []):
            if q not in seen:
                seen.add(q)
                todo.append(q)
    return seen


def assert_invariants(state: NodeWarState) -> None:
    game = state.game
    doc = state.to_json()
    ends: dict[int, int] = {}
    for line in doc["lines"]:
        for p in line["ends"]:
            q = game.point(*p)
            ends[q] = ends.get(q, 0) + 1
    for p in state.order:
        assert state.branches[p] == ends.get(p, 0)
        assert state.branches[p] <= game.limit_of[state.kind[p]]
    for seat in (0, 1):
        alive = {p for p in state.nodes[seat] if state.alive[p]}
        assert alive == reachable(state, seat)
    # The per-point counters and insert sets agree with the line list.
    counts = ([0] * game.geo.size, [0] * game.geo.size)
    inserts: dict[int, set[int]] = {p: set() for p in state.order}
    for a, b, o, line_state in zip(state.la, state.lb, state.lowner, state.lstate, strict=True):
        if line_state == LIVE:
            for q in game.geo.inside(a, b):
                counts[o][q] += 1
            inserts[a] |= set(game.geo.inside(a, b))
            inserts[b] |= set(game.geo.inside(a, b))
    assert state.own_through[0] == counts[0] and state.own_through[1] == counts[1]
    assert all(state.insert_points[p] == inserts[p] for p in state.order)
    # No node inside a live line; live lines of different owners never touch.
    live = [(a, b, o) for a, b, o, s in zip(state.la, state.lb, state.lowner, state.lstate, strict=True) if s == LIVE]
    for a, b, _owner in live:
        assert all(state.owner[q] == -1 for q in game.geo.inside(a, b))
    for i, (a, b, o) in enumerate(live):
        for c, d, o2 in live[i + 1 :]:
            if o != o2:
                assert not game.geo.touch(a, b, c, d)


def playout(game: NodeWarGame, seed: int, length: int):
    rng = random.Random(seed)
    state = game.new_state()
    for _ in range(length):
        if state.result is not None:
            break
        yield state, rng
        state.apply(rng.choice(state.legal_moves()))
    yield state, rng


@SETTINGS
@given(seed=st.integers(0, 10**9), name=st.sampled_from(sorted(GAMES)))
def test_invariants_hold_on_random_playouts(seed: int, name: str) -> None:
    checked = 0
    for state, _ in playout(GAMES[name], seed, 90):
        assert_invariants(state)
        checked += 1
        if state.result is None:
            for seat in (0, 1):
                assert state.has_move(seat) == bool(state.moves_for(seat))
    assert checked >= 2  # the start and at least one move: the playout ran


@SETTINGS
@given(seed=st.integers(0, 10**9), name=st.sampled_from(sorted(GAMES)))
def test_undo_restores_position_exactly(seed: int, name: str) -> None:
    undone = 0
    for state, rng in playout(GAMES[name], seed, 90):
        if state.result is not None:
            break
        undone += 1
        before = state.to_json()
        moves = state.legal_moves()
        move = rng.choice(moves)
        state.apply(move)
        assert state.undo() == move
        assert state.to_json() == before
        assert state.legal_moves() == moves
        # Round trip through JSON as well.
        assert state.game.state_from_json(before).to_json() == before
    assert undone >= 1


@SETTINGS
@given(seed=st.integers(0, 10**9), name=st.sampled_from(sorted(GAMES)))
def test_check_agrees_with_legal_moves(seed: int, name: str) -> None:
    game = GAMES[name]
    radius = max(game.params.base_radius, game.params.node_radius)
    checked = 0
    for i, (state, _rng) in enumerate(playout(game, seed, 60)):
        if i % 7:
            continue
        legal = set(state.legal_moves())
        assert len(legal) == len(state.legal_moves())  # no duplicates
        candidates = set()
        for s in state.order:
            for q, _ in game.geo.rings[radius][s]:
                for kind in MOVE_KINDS:
                    candidates.add(Move(kind, s, q))
        assert legal <= candidates
        for move in candidates:
            assert (state.check(move) is None) == (move in legal), (move, state.check(move))
        checked += len(candidates)
    assert checked >= 50  # candidates were checked at the start position at least


@SETTINGS
@given(seed=st.integers(0, 10**9))
def test_clone_is_independent(seed: int) -> None:
    game = GAMES["skirmish"]
    *_, (state, rng) = playout(game, seed, 40)
    copy = state.clone()
    assert copy.to_json() == state.to_json()
    if copy.result is None:
        copy.apply(rng.choice(copy.legal_moves()))
        assert copy.to_json() != state.to_json()
    while copy.ply:
        copy.undo()
    assert copy.to_json() == game.new_state().to_json()


def test_playouts_end_and_counts_are_consistent() -> None:
    game = GAMES["skirmish"]
    rng = random.Random(7)
    for _ in range(5):
        state = game.new_state()
        while state.result is None:
            state.push(rng.choice(state.legal_moves()))
        assert state.result.reason in ("no_moves", "turn_limit")
        if state.result.reason == "turn_limit":
            assert state.turn - 1 == state.turn_limit
            assert state.result.scores == state.alive_counts()
        assert_invariants(state)
        assert [state.kind[p] for p in state.order[:2]] == [BASE, BASE]
        assert all(state.kind[p] == REGULAR for p in state.order[2:])
