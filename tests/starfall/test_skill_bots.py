"""The Starfall bot family: skills, determinism, fog, what the ladder knows, the CLI names."""

from __future__ import annotations

import random

import pytest

from pegboard_starfall import moves as mv
from pegboard_starfall.bots import LADDER, SKILLS, Knowledge, Searcher, SkillBot, guard
from pegboard_starfall.evaluator import DEFAULT_WEIGHTS, TERMS
from pegboard_starfall.fog import visible
from support.starfall_helpers import blank, own, put, sq


def _midgame(game, seed: int = 3, plies: int = 40):
    st = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if st.result is not None:
            break
        st.apply(rng.choice(st.legal_moves()))
    assert st.result is None
    return st


def _play(game, skills, seed, plies):
    st = game.new_state(seed)
    bots = [SkillBot(game, seed + 1, skills[0]), SkillBot(game, seed + 2, skills[1])]
    played = []
    while st.result is None and len(played) < plies:
        view = st.player_view(st.to_move)
        before = view.to_json()
        m = bots[st.to_move].choose(view, 0.05)
        assert view.to_json() == before  # the search puts its view back as it found it
        assert st.check(m) is None
        st.apply(m)
        played.append(m)
    return played


def test_same_seed_same_moves_and_every_move_legal(game):
    assert _play(game, (40, 70), 11, 12) == _play(game, (40, 70), 11, 12)


def test_skill_must_be_a_ladder_level(game):
    for bad in (35, -10, 101):
        with pytest.raises(ValueError):
            SkillBot(game, 0, bad)


def test_each_level_keeps_what_the_levels_below_know():
    weights = dict(DEFAULT_WEIGHTS)
    previous = Knowledge.at(0, weights)
    assert [t for t, w in zip(TERMS, previous.own, strict=True) if w] == ["won"]
    assert [step.level for step in LADDER] == list(SKILLS[1:])
    for skill in SKILLS[1:]:
        k = Knowledge.at(skill, weights)
        assert all(not old or new for old, new in zip(previous.own, k.own, strict=True))
        assert previous.kinds <= k.kinds
        assert k.own != previous.own or k.kinds != previous.kinds or k.replies != previous.replies or (
            k.theirs != previous.theirs
        )
        previous = k
    assert "build" not in Knowledge.at(30, weights).kinds and "build" in Knowledge.at(40, weights).kinds


def test_a_claim_that_reaches_the_target_is_the_best_move(game):
    st = blank(game)
    own(st, [(c, r) for r in range(5) for c in range(11)], 0)  # South's whole half: 55
    own(st, [(0, 5), (1, 5), (2, 5), (0, 8), (1, 8)], 0)  # 60
    scout = put(st, 8, 6, "S", 0)  # its 3x3 (columns 7-9, rows 5-7) is open: 9 more reach 69
    assert st.territory()[0] == 60
    for skill in (10, 50, 90):
        best = Searcher(game, Knowledge.at(skill, dict(DEFAULT_WEIGHTS)), random.Random(1)).best(
            st, st.legal_moves(), 0.05)
        assert best == mv.claim(scout), skill


def test_takes_are_known_from_30(game):
    st = blank(game)
    raider = put(st, 2, 3, "R", 0, ride="red")
    put(st, 3, 4, "H", 1, ride="all")  # a hunter a red raider can step onto and take
    weights = dict(DEFAULT_WEIGHTS)
    take = mv.move(raider, sq(st, 3, 4))
    assert take in st.legal_moves()
    assert Searcher(game, Knowledge.at(30, weights), random.Random(1)).best(st, st.legal_moves(), 0.05) == take


def test_under_fog_the_move_depends_only_on_what_the_bot_sees(seam_game):
    st = _midgame(seam_game)
    me = st.to_move
    vis = visible(st, me)
    hidden = [s for s in range(st.geo.size) if not vis[s] and st.star[s] >= 0 and not st.kind[s]]
    assert hidden
    other = st.clone()
    for s in hidden:  # repaint every unseen star: same observation, different position
        other.star[s] = (other.star[s] + 1) % seam_game.rules.colors
    other.memo.forget()
    assert other.to_json() != st.to_json()
    assert other.observation(me) == st.observation(me)
    for skill in (50, 90):
        a = SkillBot(seam_game, 7, skill).choose(st.player_view(me), 0.05)
        b = SkillBot(seam_game, 7, skill).choose(other.player_view(me), 0.05)
        assert a == b


def test_skill_100_wall_clock_guard_leaves_room_below_two_seconds() -> None:
    assert guard(0.0) == 0.5
    assert guard(0.2) == pytest.approx(1.3)
    assert guard(0.4) == pytest.approx(1.8)  # the default budget: one trial move's overrun stays under 2 s
    assert guard(1.0) == pytest.approx(2.4)
    assert guard(-1.0) == 0.5
