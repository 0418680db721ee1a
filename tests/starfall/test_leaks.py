"""Fog of war leaks nothing: two real states that differ only in what a side cannot see look
the same to that side, in every channel the platform hands it.

For a player p the channels are ``observation(p)`` (and its JSON), ``hidden_from(p)``, the
legal moves (real and in ``player_view(p)``), the refusal (rule id and reason) of moves p
might try, and, after the same move is played in both
states, ``events_for(events, p)`` (kinds, texts and data). The hidden differences are made
by hand on real positions from seeded random games: an unseen star re-coloured, an enemy
drone (with power, rides and missiles) added on an unseen square, an asteroid added there,
an unseen enemy drone's missile count changed, an unseen square given to the enemy, and
(salvage) a wreck left in the dark.
"""

from __future__ import annotations

import json
import random

import pytest

from pegboard.game import events_for
from pegboard_starfall import fog
from pegboard_starfall import moves as mv
from pegboard_starfall.pieces import ALL_STARS, KIND_BY_LETTER, RED_SQUARES, SIEGE, WHITE_SQUARES
from pegboard_starfall.shapes import find_shapes
from pegboard_starfall.state import StarfallState
from support.starfall_helpers import blank, make_game, put, sq

SEAM = make_game(fog={"mode": "seam"}, salvage={"enabled": True})
DARK = make_game(fog={"mode": "dark"})


def _unseen(st: StarfallState, p: int) -> list[int]:
    vis = fog.visible(st, p)
    return [s for s in range(st.geo.size) if not vis[s]]


def _fresh(st: StarfallState) -> StarfallState:
    st.memo.forget()
    st.quiet = False
    return st


def _variant(st: StarfallState, p: int, rng: random.Random, how: str) -> StarfallState | None:
    """A copy of st that differs from it only on squares p does not see (None if impossible)."""
    other = _fresh(st.clone())
    dark = _unseen(st, p)
    geo = st.geo
    enemy = p ^ 1
    rng.shuffle(dark)
    mine_near = {t for s in range(geo.size) if st.kind[s] and st.side[s] == p for t in geo.nbr8[s]}
    for s in dark:
        if how == "recolour" and other.star[s] >= 0:
            old = other.star[s]
            for c in rng.sample(range(st.rules.colors), st.rules.colors):
                if c == old:
                    continue
                other.star[s] = c
                if not find_shapes(other.star, geo.width, geo.height):
                    return _fresh(other)
            other.star[s] = old
        elif how == "drone" and not other.kind[s] and not other.ast[s] and s not in mine_near:
            letter = rng.choice("SRHXBWG")
            kind = KIND_BY_LETTER[letter]
            other.kind[s], other.side[s] = kind, enemy
            other.power[s] = rng.randint(1, 3)
            other.ride[s] = rng.choice((ALL_STARS, RED_SQUARES, WHITE_SQUARES, 1 << rng.randrange(5)))
            other.miss[s] = rng.randint(0, 4)
            if kind == SIEGE:  # a siege's 3x3 must not change a surround count p can see
                if any(other.kind[t] and t in mine_near for t in geo.nbr8[s]):
                    other.kind[s] = 0
                    continue
            return _fresh(other)
        elif how == "asteroid" and not other.kind[s] and not other.ast[s]:
            other.ast[s], other.star[s] = 1, -1
            return _fresh(other)
        elif how == "missiles" and other.kind[s] and other.side[s] == enemy:
            other.miss[s] += rng.randint(1, 5)
            return _fresh(other)
        elif how == "owner" and other.owner[s] < 0 and not other.ast[s]:
            other.owner[s] = enemy
            other.lit[enemy] |= 1 << s
            return _fresh(other)
        elif how == "wreck" and st.rules.salvage and not other.wreck[s]:
            other.wreck[s], other.wround[s] = rng.randint(1, 3), st.round
            return _fresh(other)
    return None


def _probes(st: StarfallState, p: int) -> list:
    """Moves p might try, legal or not, from p's own drones to random squares (seeded by the
    position's turn, so both states of a pair get the same probes)."""
    rng = random.Random(st.turn * 7 + p)
    mine = [s for s in range(st.geo.size) if st.kind[s] and st.side[s] == p] or [0]
    out = []
    for _ in range(40):
        a, b = rng.choice(mine), rng.randrange(st.geo.size)
        kind = rng.choice((mv.FIRE, mv.MOVE, mv.WARP, mv.STRIKE, mv.SWAP, mv.CLAIM))
        out.append(mv.claim(a) if kind == mv.CLAIM else mv.swap(b, b + 1) if kind == mv.SWAP and b + 1 < st.geo.size
                   else mv.SfMove(kind, a, b))
    return out


def _channels(st: StarfallState, p: int) -> tuple:
    obs = st.observation(p)
    mover = p == st.to_move
    legal = sorted(st.legal_moves()) if mover else []
    reasons = [st.refusal(m) for m in _probes(st, p)] if mover else []
    view = st.player_view(p)
    return obs, json.dumps(obs, sort_keys=True), sorted(st.hidden_from(p)), legal, sorted(view.legal_moves()), reasons


def _heard(events: list, p: int) -> list:
    return [(e.kind, e.text, json.dumps(dict(e.data), sort_keys=True)) for e in events_for(events, p)]


def _positions(game, seeds, plies):
    for seed in seeds:
        rng = random.Random(seed)
        st = game.new_state(seed)
        for ply in range(max(plies) + 1):
            if st.result is not None:
                break
            if ply in plies:
                yield st.clone(), rng
            st.apply(rng.choice(st.legal_moves()))


HOWS = ("recolour", "drone", "asteroid", "missiles", "owner", "wreck")


@pytest.mark.parametrize("game", [SEAM, DARK], ids=["seam+salvage", "dark"])
def test_unseen_differences_reach_no_channel(game):
    compared_events = 0
    variants = 0
    for st, rng in _positions(game, seeds=(1, 2, 3), plies={6, 40, 90}):
        for p in (0, 1):
            for how in HOWS:
                other = _variant(st, p, rng, how)
                if other is None:
                    continue
                variants += 1
                assert _channels(st, p) == _channels(other, p), f"{how} on an unseen square shows to side {p}"
                # the same move in both: while p's view stays equal, so must what p hears
                common = sorted(set(st.legal_moves()) & set(other.legal_moves()))
                for move in rng.sample(common, min(3, len(common))):
                    ev_a, ev_b = st.apply(move), other.apply(move)
                    if st.observation(p) == other.observation(p):
                        compared_events += 1
                        assert _heard(ev_a, p) == _heard(ev_b, p), f"{how}: events of {st.move_text(move)} leak"
                    st.undo()
                    other.undo()
    assert variants >= 40 and compared_events >= 60, (variants, compared_events)


def test_warp_and_claim_legality_ignore_unseen_squares():
    """A warp's 'something to claim' is judged on seen squares only (it used to read unseen owners)."""
    st = blank(DARK)
    w = put(st, 2, 2, "W", 0)
    target = sq(st, 7, 7)
    st.lit[0] |= 1 << target  # South sees (7,7) alone, through an old claim
    st.owner[target] = 0  # ... and owns it, so only its unseen neighbours could be new
    st.memo.forget()
    assert st.check(mv.warp(w, target)) is not None
    other = _fresh(st.clone())
    for t in st.geo.nbr8[target]:
        other.owner[t] = 1  # North owns every unseen square around it: South cannot know
    assert sorted(st.legal_moves()) == sorted(other.legal_moves())


def test_hidden_from_names_unseen_squares_and_the_seed():
    st = SEAM.new_state(3)
    hidden = set(st.hidden_from(0))
    assert {"/seed", "/draws", "/lit/1", "/cleared/1"} <= hidden
    obs = st.observation(0)
    assert obs["stars"][10][5] is None and "/stars/10/5" in hidden
    assert "/stars/0/5" not in hidden and "/owners/0/5" not in hidden
    assert "cleared_this_turn" not in st.observation(1)  # South moves: its running count is private
    assert "/cleared_this_turn" in set(st.hidden_from(1))


_SQUARE_KEYS = ("a", "b", "frm", "to", "at", "by", "centre")


def _named_squares(event, w: int) -> set[int]:
    """Every square an event's data or text names."""
    import re

    data = event.data
    out = {data[k] for k in _SQUARE_KEYS if isinstance(data.get(k), int)}
    out.update(data.get("cells", ()))
    out.update(int(r) * w + int(c) for c, r in re.findall(r"\((\d+),(\d+)\)", event.text))
    return out


@pytest.mark.parametrize("game", [SEAM, DARK], ids=["seam+salvage", "dark"])
def test_every_event_names_only_squares_its_hearers_saw(game):
    """Random fogged games: a side is told only about squares it saw before or after the move."""
    heard = 0
    for seed in (5, 6):
        rng = random.Random(seed)
        st = game.new_state(seed)
        while st.result is None and st.ply < 260:
            before = [bytes(fog.visible(st, p)) for p in (0, 1)]
            events = st.apply(rng.choice(st.legal_moves()))
            after = [fog.visible(st, p) for p in (0, 1)]
            for p in (0, 1):
                for event in events_for(events, p):
                    if event.seen_by is None:
                        continue  # public by nature: pass, timeout, drift notice, game over
                    unseen = {s for s in _named_squares(event, st.geo.width) if not (before[p][s] or after[p][s])}
                    assert not unseen, f"side {p} hears {event.text!r} naming unseen {sorted(unseen)}"
                    heard += 1
    assert heard > 300
