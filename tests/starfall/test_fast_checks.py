"""Starfall's quick legality tests agree with the full rules.

``movegen.refusal`` first tries a short test for drone moves and swaps that only accepts; what it
does not accept goes through the full rules (``movegen._refusal``), which name the rule and the
reason. ``Reach`` answers "can this drone end a move here?" one square at a time. These tests compare
both with the full answers over random positions and random candidate moves, legal and illegal.
"""

from __future__ import annotations

import random

import pytest

from pegboard.game import InvalidMoveEncoding
from pegboard_starfall import moves as mv
from pegboard_starfall.movegen import Reach, _refusal, _vis, drone_destinations, refusal
from pegboard_starfall.pieces import COMMAND, TURRET
from support.starfall_helpers import LINE, blank, make_game, put, random_positions, sq

VARIANTS = {
    "standard": {},
    "fog_seam": {"fog": {"mode": "seam"}},
    "fog_dark": {"fog": {"mode": "dark"}},
    "small_long_range": {"board": {"width": 7, "height": 9}, "win": {"target": 40}, "missiles": {"range": 5}},
}


def _positions(variant: str, seed: int, every: int):
    return random_positions(make_game(**VARIANTS[variant]), seed, every, max_ply=300)


def _candidates(st, rng: random.Random) -> list[mv.SfMove]:
    """The legal moves, every orthogonal pair as a swap, and random drone moves and swaps
    (off the board, diagonal, from empty squares, onto anything)."""
    n = st.geo.size
    out = list(st.legal_moves())
    out += [mv.swap(a, b) for a, b, _, _ in st.geo.swap_pairs]
    drones = [s for s in range(n) if st.kind[s]]
    for _ in range(150):
        a = rng.choice(drones) if rng.random() < 0.8 else rng.randrange(-2, n + 2)
        out.append(mv.SfMove(mv.MOVE, a, rng.randrange(-2, n + 2)))
        x, y = rng.randrange(n), rng.randrange(-1, n + 1)
        out.append(mv.SfMove(mv.SWAP, min(x, y), max(x, y)))
    out += [mv.SfMove(mv.MOVE, drones[0], 3, "x"), mv.SfMove(mv.SWAP, 5, 4)]  # malformed
    return out


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_reach_is_the_destination_list_for_every_drone(variant):
    checked = 0
    for st in _positions(variant, seed=5, every=13):
        vis = _vis(st)
        for s in range(st.geo.size):
            if st.kind[s] and st.kind[s] not in (COMMAND, TURRET):
                reach = Reach(st, s, vis)
                got = [t for t in range(st.geo.size) if t in reach]
                assert got == drone_destinations(st, s, vis), (variant, st.ply, s)
                checked += 1
    assert checked >= 10


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_quick_accept_agrees_with_the_full_rules(variant):
    rng = random.Random(variant)
    checked = 0
    for st in _positions(variant, seed=9, every=17):
        if st.aims:
            continue
        legal = set(st.legal_moves())
        for m in _candidates(st, rng):
            full = _refusal(st, m)
            assert refusal(st, m) == full, (variant, st.ply, m)
            assert (full is None) == (m in legal), (variant, st.ply, m, full)
            checked += 1
    assert checked >= 100


def test_a_swap_of_two_stars_of_one_colour_is_left_to_the_full_rules():
    st = blank(make_game())
    for c in (2, 3, 4):  # a standing line of one colour through (3, 4) and (4, 4)
        st.star[sq(st, c, 4)] = LINE
    put(st, 8, 8, "R", 0)
    m = mv.swap(sq(st, 3, 4), sq(st, 4, 4))
    assert refusal(st, m) == _refusal(st, m)
    st.star[sq(st, 2, 4)] = 0
    assert refusal(st, m) == _refusal(st, m) == ("swap", "that swap makes no line, so it snaps back")


def _decoded(geo, data):
    try:
        return mv.decode(geo, data)
    except InvalidMoveEncoding as exc:
        return ("error", str(exc))


def _full_decoded(geo, data):
    try:
        return mv._decode(geo, data)
    except InvalidMoveEncoding as exc:
        return ("error", str(exc))


def test_decoding_a_two_square_move_quickly_gives_what_the_full_reader_gives():
    geo = make_game(**VARIANTS["small_long_range"]).geo
    rng = random.Random(3)
    values = [0, 1, 6, 7, 8, 9, -1, True, False, 1.0, "1", None]
    for _ in range(3000):
        kind = rng.choice(["swap", "move", "fire", "warp", "strike", "claim", "ram", "jump", 3, None])
        keys = rng.choice([("a", "b"), ("from", "to"), ("a", "to"), ("at", "b")])
        data: dict = {"type": kind} if kind is not None else {}
        for key in keys:
            shape = rng.random()
            if shape < 0.8:
                data[key] = [rng.choice(values[:4]) if rng.random() < 0.8 else rng.choice(values),
                             rng.choice(values[:5]) if rng.random() < 0.8 else rng.choice(values)]
            elif shape < 0.9:
                data[key] = (rng.randrange(7), rng.randrange(9))  # a tuple is not a JSON list
            else:
                data[key] = [rng.randrange(7), rng.randrange(9), 0]
        if rng.random() < 0.1:
            data["extra"] = 1
        assert _decoded(geo, data) == _full_decoded(geo, data), data
    assert mv.decode(geo, {"type": "swap", "a": [4, 2], "b": [3, 2]}) == mv.swap(geo.sq(3, 2), geo.sq(4, 2))
    assert _decoded(geo, ["swap"]) == _full_decoded(geo, ["swap"])
    assert _decoded(geo, {"type": ["swap"]}) == _full_decoded(geo, {"type": ["swap"]})


def test_a_move_played_for_good_cannot_be_undone_but_later_ones_can():
    game = make_game()
    st, ref = game.new_state(4), game.new_state(4)
    rng = random.Random(4)
    for _ in range(30):
        m = st.random_move(rng)
        st.advance(m)
        ref.push(m)
    assert st.to_json() == ref.to_json() and st.ply == ref.ply == 30
    m = st.legal_moves()[0]
    st.push(m)
    assert st.undo() == m
    before = st.to_json()
    with pytest.raises(IndexError, match="for good"):
        st.undo()
    assert st.to_json() == before and st.ply == 30
    copy = st.clone()
    copy.push(m)
    assert copy.undo() == m and copy.to_json() == before


@pytest.mark.parametrize("data", [
    {"type": "concede", "seat": True, "reason": "resign"},
    {"type": "concede", "seat": 0},
    {"type": "ram", "from": [3, 3], "dir": [True, 0]},
    {"type": "aim", "at": [3, 3], "extra": 1},
    {"type": "pass", "a": [0, 0]},
    {"type": "move", "from": [3, 3], "to": [3, 4], "note": "x"},
])
def test_decode_refuses_what_the_move_schema_refuses(data):
    geo = make_game().geo
    with pytest.raises(InvalidMoveEncoding):
        mv.decode(geo, data)


@pytest.mark.parametrize("data", [
    {"type": "concede", "seat": 1.0, "reason": "flag"},  # JSON Schema integers include 1.0: still read
    {"type": "ram", "from": [3, 3], "dir": [1.0, 0]},
    {"type": "aim"},
])
def test_decode_still_reads_what_it_read_before(data):
    assert mv.decode(make_game().geo, data) == mv._decode(make_game().geo, data)


def _spoiled(how: str) -> dict:
    import copy

    from pegboard.records.files import record_from_moves
    from pegboard.rules.rulesets import load_ruleset
    from pegboard_starfall.game import StarfallGame

    ruleset = dict(load_ruleset("standard", game="starfall").data)
    game = StarfallGame(ruleset)
    st = game.new_state(6)
    rng = random.Random(6)
    moves = []
    while st.result is None and len(moves) < 60:
        m = st.random_move(rng)
        st.push(m)
        moves.append(m)
    record = copy.deepcopy(record_from_moves(game, ruleset, 6, ["random", "random"], moves, st.result))
    encoded = record["moves"]
    if how in ("extra key", "both"):
        encoded[30] = {**encoded[30], "note": "hi"}
    if how in ("illegal early", "both"):
        encoded[5] = {"type": "swap", "a": [0, 0], "b": [0, 1]} if encoded[5]["type"] != "swap" else {"type": "pass"}
    if how == "off board":
        encoded[30] = {"type": "move", "from": [3, 3], "to": [40, 1]}
    if how == "bool seat":
        encoded.append({"type": "concede", "seat": True, "reason": "resign"})
    return record


@pytest.mark.parametrize("how", ["none", "extra key", "illegal early", "both", "off board", "bool seat"])
def test_validate_verdicts_do_not_depend_on_strict_decode(how, monkeypatch):
    import dataclasses

    from pegboard.plugins.manager import get_plugins
    from pegboard.records.validate import validate_record

    record = _spoiled(how)
    strict = validate_record(record, "r.match.json").to_json()
    games = get_plugins().games()
    monkeypatch.setitem(games, "starfall", dataclasses.replace(games["starfall"], strict_decode=False))
    assert validate_record(record, "r.match.json").to_json() == strict
    assert strict["ok"] == (how == "none")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("kind", [mv.FIRE, mv.STRIKE])
def test_the_quick_accept_of_a_shot_or_a_strike_agrees_with_the_full_rules(variant, kind):
    rng = random.Random(variant + kind)
    accepted = 0
    for st in _positions(variant, seed=3, every=11):
        if st.aims:
            continue
        n = st.geo.size
        legal = set(st.legal_moves())
        drones = [s for s in range(n) if st.kind[s]]
        for _ in range(60):  # from any drone (either side, any kind) or square, to anywhere
            a = rng.choice(drones) if rng.random() < 0.8 else rng.randrange(-2, n + 2)
            m = mv.SfMove(kind, a, rng.randrange(-2, n + 2))
            full = _refusal(st, m)
            assert refusal(st, m) == full, (variant, st.ply, m)
            assert (full is None) == (m in legal), (variant, st.ply, m, full)
        for m in legal:
            if m.kind == kind:
                assert refusal(st, m) is None and _refusal(st, m) is None
                accepted += 1
    assert accepted >= 3
