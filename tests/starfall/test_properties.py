"""Property tests over random play: invariants, exact undo, check == legal_moves, replay."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as hs

from pegboard_starfall import moves as mv
from pegboard_starfall.pieces import BOMB, TURRET
from support.starfall_helpers import make_game

GAMES = {
    "standard": make_game(),
    "seam": make_game(fog={"mode": "seam"}, salvage={"enabled": True}),
    "dark": make_game(fog={"mode": "dark"}),
    "small_cap": make_game(drones={"cap": 4}, asteroids={"base": 6, "drift_threshold": 4}),
    "quick": make_game(board={"width": 9, "height": 9}, win={"target": 45}),
}


def invariants(st):
    rules = st.rules
    for s in range(st.geo.size):
        if st.ast[s]:
            assert st.kind[s] == 0, "a drone stands on an asteroid"
            assert st.star[s] == -1
        if st.kind[s]:
            assert 1 <= st.power[s] <= rules.max_power
            assert st.miss[s] >= 0
    for side in (0, 1):
        bombs = sum(1 for s in range(st.geo.size) if st.kind[s] == BOMB and st.side[s] == side)
        assert st.drone_count(side) - bombs <= rules.drone_cap
        assert not any(st.kind[s] == TURRET and st.power[s] != 1 for s in range(st.geo.size))


def fogged_moves_stay_in_sight(st, legal):
    from pegboard_starfall import fog
    from pegboard_starfall.movegen import ram_centre
    from pegboard_starfall.pieces import SHIELD

    vis = fog.visible(st, st.to_move)
    me = st.to_move
    for m in legal:
        if m.kind in (mv.SWAP, mv.FIRE, mv.MOVE, mv.WARP, mv.STRIKE):
            assert vis[m.a] and vis[m.b], m
        elif m.kind == mv.BUILD:
            assert vis[m.a]
        elif m.kind == mv.RAM:
            assert vis[ram_centre(st, m.a, m.b, None)]
        if m.kind == mv.MOVE and st.kind[m.a] == SHIELD:
            assert st.owner[m.b] == me or st.cleared[me] >> m.b & 1


def random_candidates(st, rng, n=30):
    size = st.geo.size
    kinds = [mv.SWAP, mv.FIRE, mv.MOVE, mv.CLAIM, mv.WARP, mv.STRIKE, mv.RAM, mv.BUILD, mv.PASS]
    out = []
    for _ in range(n):
        k = rng.choice(kinds)
        a = rng.randrange(size)
        b = rng.randrange(8) if k == mv.RAM else rng.choice([a + 1, a - 1, a + st.geo.width, rng.randrange(size)])
        if k in (mv.CLAIM, mv.BUILD, mv.PASS) and rng.random() < 0.8:
            b = -1
        if k == mv.PASS and rng.random() < 0.8:
            a = -1
        if k == mv.SWAP and 0 <= b < size:
            out.append(mv.swap(a, b) if rng.random() < 0.8 else mv.SfMove(k, b, a))
        elif 0 <= b < size or b == -1 or k == mv.RAM:
            out.append(mv.SfMove(k, a, b))
    return out


@settings(max_examples=25, deadline=None)
@given(hs.sampled_from(sorted(GAMES)), hs.integers(0, 10**6), hs.integers(20, 90))
def test_random_play_keeps_every_invariant(name, seed, plies):
    game = GAMES[name]
    rng = random.Random(seed)
    st = game.new_state(seed)
    invariants(st)
    for _ in range(plies):
        if st.result is not None:
            break
        legal = st.legal_moves()
        legal_set = set(legal)
        if st.rules.fogged:
            fogged_moves_stay_in_sight(st, legal)
        assert len(legal_set) == len(legal), "duplicate moves"
        for m in rng.sample(legal, min(8, len(legal))):
            assert st.check(m) is None, m
        for m in random_candidates(st, rng):
            assert (st.check(m) is None) == (m in legal_set), m
        m = rng.choice(legal)
        before = st.to_json()
        st.apply(m)
        invariants(st)
        if rng.random() < 0.3:
            after = st.to_json()
            assert st.undo() == m
            assert st.to_json() == before
            st.apply(m)
            assert st.to_json() == after  # the same draws again
        j = st.to_json()
        assert game.state_from_json(j).to_json() == j


@settings(max_examples=10, deadline=None)
@given(hs.integers(0, 10**6))
def test_record_replays_exactly(seed):
    game = GAMES["standard"]
    rng = random.Random(seed)
    st = game.new_state(seed)
    record = []
    for _ in range(80):
        if st.result is not None:
            break
        m = rng.choice(st.legal_moves())
        record.append(game.encode_move(m))
        st.apply(m)
    replay = game.new_state(seed)
    for data in record:
        replay.apply(game.decode_move(data))
    assert replay.to_json() == st.to_json()


def test_undo_to_the_start():
    game = GAMES["seam"]
    st = game.new_state(11)
    start = st.to_json()
    rng = random.Random(2)
    for _ in range(50):
        st.apply(rng.choice(st.legal_moves()))
    while st.ply:
        st.undo()
    assert st.to_json() == start


def test_clone_is_independent():
    game = GAMES["standard"]
    st = game.new_state(5)
    rng = random.Random(5)
    for _ in range(10):
        st.apply(rng.choice(st.legal_moves()))
    copy = st.clone()
    snapshot = st.to_json()
    while copy.ply:
        copy.undo()
    copy.apply(copy.legal_moves()[0])
    assert st.to_json() == snapshot
    st.undo()
    assert st.ply == 9


def test_push_plays_exactly_like_apply():
    """push (replays, search) skips the legality test and the events, nothing else."""
    game = make_game(fog={"mode": "seam"})
    rng = random.Random(4)
    a, b = game.new_state(4), game.new_state(4)
    for _ in range(150):
        if a.result is not None:
            break
        move = rng.choice(a.legal_moves())
        a.apply(move)
        assert b.push(move) is None
        assert a.to_json() == b.to_json() and b._pending == []
    for _ in range(20):
        assert a.undo() == b.undo()
    assert a.to_json() == b.to_json()


def test_every_move_explains_itself_in_one_line():
    """Each move played returns events; the first describes the move itself; texts are one line."""
    game = make_game()
    kinds_seen = set()
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        st = game.new_state(seed)
        while st.result is None:
            m = rng.choice(st.legal_moves())
            events = st.apply(m)
            assert events, f"{st.move_text(m)} produced no event"
            first = events[0].kind
            expected = {"fire": "missile"}.get(m.kind, m.kind)
            assert first == expected or (m.kind == mv.PASS and first == "pass"), (m, [e.kind for e in events])
            kinds_seen.add(m.kind)
            for e in events:
                assert e.text and "\n" not in e.text and e.text.endswith("."), e.text
    assert {mv.SWAP, mv.MOVE, mv.FIRE, mv.CLAIM} <= kinds_seen
