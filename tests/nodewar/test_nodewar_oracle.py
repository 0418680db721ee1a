"""The engine against a brute-force oracle (perft-style): same legal moves, same cuts."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pegboard_nodewar import NodeWarGame, load_shipped
from support.nodewar_oracle import Oracle, strictly_inside, touch

GAMES = {name: NodeWarGame(load_shipped(name)) for name in ("standard", "skirmish", "wide")}


def as_tuples(game: NodeWarGame, moves) -> set:
    return {(m.kind, game.xy(m.src), game.xy(m.dst)) for m in moves}


def cut_lines(doc: dict) -> set:
    return {(tuple(l["ends"][0]), tuple(l["ends"][1])) for l in doc["lines"] if l["state"] == "cut"}


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), name=st.sampled_from(["skirmish", "standard", "wide"]))
def test_engine_matches_oracle(seed: int, name: str) -> None:
    game = GAMES[name]
    rng = random.Random(seed)
    state = game.new_state()
    step = 0
    while state.result is None and step < 70:
        doc = state.to_json()
        oracle = Oracle(doc, game.params)
        moves = state.legal_moves()
        if step % 5 == 0:
            assert as_tuples(game, moves) == oracle.legal()
        move = rng.choice(moves)
        kind, s, t = move.kind, game.xy(move.src), game.xy(move.dst)
        insert = kind == "split" and any(
            l["owner"] == state.to_move and l["state"] == "live" and s in map(tuple, l["ends"])
            and strictly_inside(t, *map(tuple, l["ends"]))
            for l in doc["lines"]
        )
        expected = set() if insert else oracle.cut_by(s, t)
        state.apply(move)
        assert cut_lines(state.to_json()) - cut_lines(doc) == expected
        step += 1
    assert step >= 10  # no shipped ruleset ends within ten moves: the comparison ran


@pytest.mark.parametrize("seed", range(10))
def test_contact_test_matches_fractions(seed: int) -> None:
    from pegboard_nodewar.geometry import segments_touch

    rng = random.Random(seed)
    for _ in range(1000):
        pts = [(rng.randint(0, 6), rng.randint(0, 6)) for _ in range(4)]
        if pts[0] == pts[1] or pts[2] == pts[3]:
            continue
        flat = [c for p in pts for c in p]
        assert segments_touch(*flat) == touch(*pts), pts


@pytest.mark.parametrize("width, height", [(13, 19), (25, 13), (3, 40)])
def test_shape_keyed_contact_cache_matches_fractions(width: int, height: int) -> None:
    # Geometry.touch remembers answers by the segments' shapes and relative position: segment
    # pairs anywhere on the board (edges, wrap-around columns) must still get their own answer.
    from pegboard_nodewar.geometry import Geometry

    geo = Geometry(width, height, "euclidean", (4,))
    rng = random.Random(width * 100 + height)
    pairs = []
    for _ in range(3000):
        pts = [(rng.randrange(width), rng.randrange(height)) for _ in range(2)]
        near = [(min(width - 1, max(0, pts[0][0] + rng.randint(-5, 5))), min(height - 1, max(0, pts[0][1] + rng.randint(-5, 5)))) for _ in range(2)]
        pts += near
        if pts[0] != pts[1] and pts[2] != pts[3]:
            pairs.append(pts)
    for _ in range(2):  # the second pass answers from the cache
        for pts in pairs:
            flat = [geo.point(x, y) for x, y in pts]
            assert geo.touch(*flat) == touch(*pts), pts
    assert 2000 < len(pairs) and len(geo.touch_cache) < len(pairs)  # most draws are pairs; shapes repeat


def oracle_perft(game: NodeWarGame, state, depth: int) -> int:
    """Perft with the brute-force oracle's move lists (the engine only plays the moves)."""
    legal = Oracle(state.to_json(), game.params).legal()
    if depth == 1 or state.result is not None:
        return len(legal) if state.result is None else 1
    total = 0
    for kind, s, t in sorted(legal):
        state.apply(game.move(kind, s, t))
        total += oracle_perft(game, state, depth - 1)
        state.undo()
    return total


@pytest.mark.parametrize(
    ("name", "counts"),
    [("standard", [42, 1764, 113526]), ("skirmish", [22, 484, 14783]), ("wide", [42, 1764, 113526])],
)
def test_perft_golden_counts(name: str, counts: list[int]) -> None:
    from pegboard_nodewar.engine import perft

    state = GAMES[name].new_state()
    assert [perft(state, depth) for depth in (1, 2, 3)] == counts
    assert state.to_json() == GAMES[name].new_state().to_json()


def test_perft_matches_oracle_from_a_midgame() -> None:
    from pegboard_nodewar.engine import perft

    game = GAMES["skirmish"]
    rng = random.Random(12)
    state = game.new_state()
    for _ in range(24):
        state.push(rng.choice(state.legal_moves()))
    assert state.result is None
    assert perft(state, 2) == oracle_perft(game, state, 2)


def test_oracle_agrees_with_skirmish_golden_perft() -> None:
    game = GAMES["skirmish"]
    assert oracle_perft(game, game.new_state(), 3) == 14783


def test_a_radius_past_the_board_reaches_the_whole_board() -> None:
    # Rings are built from the disc's offsets: a huge radius (a ruleset may say 10**6) must not
    # mean 10**12 offsets, and reaches every other point.
    from pegboard_nodewar.geometry import Geometry

    geo = Geometry(9, 11, "euclidean", (2, 10**6))
    for p in (0, 40, 98):
        assert {q for q, _ in geo.rings[10**6][p]} == set(range(99)) - {p}
    assert all(len(ring) <= 12 for ring in geo.rings[2])
