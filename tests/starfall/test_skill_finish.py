"""Skill 100 plays to finish: its sieges stay out of the other side's missile fire until an
attack can stand, and once the sky is shared out its siege attack weighs more (the stall
breaker). The legacy skill 100 (tools/legacy_skill_bot.py) keeps the 1 Dec 2026 knowledge."""

from __future__ import annotations

import dataclasses
import random

from pegboard_starfall import moves as mv
from pegboard_starfall.bots import BEATEN_BONUS, FINISH_TERMS, Knowledge, Searcher, SkillBot, beaten
from pegboard_starfall.evaluator import DEFAULT_WEIGHTS, TERMS, StarfallEvaluator
from support.starfall_helpers import blank, make_game, own, put, sq

DOOMED = TERMS.index("siege_doomed")
POWER = TERMS.index("siege_power")


def _attack(game, missiles: int):
    """South's siege on f6 can strike to f10, beside North's Command on f11 with no North
    shield anywhere; North's only drone is a hunter on i10, three squares from f10, carrying
    ``missiles``, and North's Command holds no stock."""
    st = blank(game)
    siege = put(st, 5, 5, "X", 0)
    put(st, 8, 9, "H", 1, ride="all", missiles=missiles)
    st.miss[st.cmd[1]] = 0
    strike = mv.strike(siege, sq(st, 5, 9))
    assert strike in st.legal_moves()
    return st, strike


def test_siege_doomed_counts_the_shots_in_range_against_the_siege_power(game):
    ev = StarfallEvaluator(game)
    st = blank(game)
    siege = put(st, 5, 5, "X", 0)
    put(st, 8, 7, "S", 1, missiles=1)  # three squares away: one shot
    south, _ = ev.side_values(st)
    assert (south[DOOMED], south[POWER]) == (1.0, 1.0)
    st.power[siege] = 2  # stacked: one shot no longer brings it down
    assert ev.side_values(st)[0][DOOMED] == 0.0
    put(st, 2, 5, "H", 1, ride="all", missiles=1)  # a hunter with one missile adds one shot
    assert ev.side_values(st)[0][DOOMED] == 1.0
    st.miss[sq(st, 8, 7)] = 0
    assert ev.side_values(st)[0][DOOMED] == 0.0
    put(st, 9, 9, "S", 1, missiles=5)  # out of range: no shot
    assert ev.side_values(st)[0][DOOMED] == 0.0
    checked = sum(1 for s in range(st.geo.size) if st.kind[s])
    assert checked >= 5


def test_siege_doomed_counts_a_siege_one_drone_short_of_a_surround(game):
    """Three enemy drones beside a siege (turrets not counted) doom it whatever its power: the
    fourth that steps in surrounds it."""
    ev = StarfallEvaluator(game)
    st = blank(game, to_move=1)
    siege = put(st, 5, 5, "X", 0, power=3)
    put(st, 4, 4, "R", 1)
    put(st, 6, 4, "R", 1)
    put(st, 4, 6, "T", 1)  # a turret fires at a siege but does not surround it
    assert ev.side_values(st)[0][DOOMED] == 0.0
    put(st, 6, 6, "G", 1, power=2)
    assert ev.side_values(st)[0][DOOMED] == 1.0
    # and the engine agrees: a fourth drone stepping in ends the siege at full power
    raider = put(st, 5, 2, "R", 1, ride="all")
    step = next(m for m in st.legal_moves() if m.kind == mv.MOVE and m.a == raider and m.b == sq(st, 5, 4))
    st.push(step)
    assert st.kind[siege] == 0


def test_a_scout_beside_its_stocked_command_counts_the_missile_it_will_load(game):
    ev = StarfallEvaluator(game)
    st = blank(game)
    put(st, 5, 7, "X", 0)
    put(st, 4, 10, "S", 1)  # beside North's Command, nothing carried
    st.miss[st.cmd[1]] = 0
    assert ev.side_values(st)[0][DOOMED] == 0.0
    st.miss[st.cmd[1]] = 3
    assert ev.side_values(st)[0][DOOMED] == 1.0


def test_skill_100_keeps_its_siege_out_of_fire_where_the_legacy_one_strikes(game):
    st, strike = _attack(game, missiles=2)
    legacy = SkillBot(game, 3, 100, metered=False)
    assert legacy.searcher.best(st.clone(), st.legal_moves(), 0.3) == strike
    for seed in (3, 4, 5):
        assert SkillBot(game, seed, 100).search(st.clone(), work=3_000).move != strike, seed
    # what the legacy bot did not see: the hunter's two shots bring the siege down
    st.push(strike)
    hunter, target = sq(st, 8, 9), sq(st, 5, 9)
    for _ in range(2):
        st.push(mv.fire(hunter, target))
    assert st.kind[target] == 0


def test_skill_100_strikes_when_the_attack_can_stand_and_the_siege_wins(game):
    st, strike = _attack(game, missiles=0)
    for seed in (3, 4, 5):
        found = SkillBot(game, seed, 100).search(st.clone(), work=3_000)
        assert found.move == strike, seed
    st.push(strike)
    assert st.result is None
    answers = 0
    for m in st.legal_moves():  # no answer North has saves its Command
        st.push(m)
        if st.result is None and st.to_move == 1:
            st.undo()
            continue
        assert st.result is not None and st.result.winner == 0, m
        answers += 1
        st.undo()
    assert answers >= 20


def test_the_stall_breaker_wakes_once_neither_side_can_reach_the_target(game):
    k = Knowledge.at(100, dict(DEFAULT_WEIGHTS))
    searcher = Searcher(game, k, random.Random(1))
    st = blank(game)
    own(st, [(c, r) for r in range(5) for c in range(11)], 0)  # 55, with 55 free
    assert not searcher.shared_out(st)
    searcher.pick_weights(st)
    assert searcher.own == k.own
    own(st, [(c, r) for r in range(5, 11) for c in range(11)], 1)  # the whole sky owned: 55 v 66
    assert searcher.shared_out(st)
    searcher.pick_weights(st)
    assert searcher.own == k.stall_own and searcher.own != k.own
    advance = TERMS.index("siege_advance")
    assert searcher.own[advance] > k.own[advance]


def test_the_legacy_knowledge_has_no_finishing_terms_and_no_stall_breaker():
    weights = dict(DEFAULT_WEIGHTS)
    new, old = Knowledge.at(100, weights), Knowledge.at(100, weights, finish=False)
    for name in FINISH_TERMS:
        i = TERMS.index(name)
        assert new.own[i] and not old.own[i]
    assert new.breaks_stalls and not old.breaks_stalls
    assert not Knowledge.at(90, weights).breaks_stalls
    assert all(not Knowledge.at(90, weights).own[TERMS.index(n)] for n in FINISH_TERMS)


def _lost_count(game, north_rows: int = 6):
    """South to move; North owns the top ``north_rows`` rows (11 squares each), South the
    rest; each side has only its Command."""
    st = blank(game)
    own(st, [(c, r) for r in range(11 - north_rows) for c in range(11)], 0)
    own(st, [(c, r) for r in range(11 - north_rows, 11) for c in range(11)], 1)
    return st


def test_skill_100_resigns_a_count_it_has_lost_with_no_siege_to_win_it_back(game):
    st = _lost_count(game)  # North 66 of 121: South can neither reach 69 first nor win at the cap
    assert beaten(st)
    move = SkillBot(game, 3, 100).choose(st.clone(), 0.05)
    assert move == st.concede_move(0, "resign")
    st.apply(move)
    assert (st.result.winner, st.result.reason) == (1, "resign")


def test_skill_100_plays_on_while_it_can_still_draw_on_squares_or_holds_a_siege(game):
    st = blank(game)
    own(st, [(c, r) for r in range(5, 11) for c in range(11)][:60], 1)  # 60: not more than half
    assert not beaten(st)
    st = _lost_count(game)
    put(st, 5, 3, "X", 0)  # a siege of its own: a siege win is still on
    assert not beaten(st)
    move = SkillBot(game, 3, 100).choose(st.clone(), 0.05)
    assert move.kind != mv.CONCEDE and st.check(move) is None
    st = _lost_count(game)
    st.current = st.turn = 1  # the side ahead never resigns
    assert not beaten(st)


def test_no_resignation_where_claims_take_the_other_sides_land():
    taking = make_game(claims={"take_enemy": True})
    st = _lost_count(taking)
    assert not beaten(st)  # the land can still change hands


def test_only_the_metered_skill_100_resigns_and_its_search_never_does(game):
    st = _lost_count(game)
    weights = dict(DEFAULT_WEIGHTS)
    assert Knowledge.at(100, weights).concedes
    assert not Knowledge.at(100, weights, finish=False).concedes  # the legacy bot
    assert not any(Knowledge.at(skill, weights).concedes for skill in range(0, 100, 10))
    for bot in (SkillBot(game, 3, 90), SkillBot(game, 3, 100, metered=False)):
        assert bot.choose(st.clone(), 0.05).kind != mv.CONCEDE
    found = SkillBot(game, 3, 100).search(st.clone(), work=200)  # analysis and hints want a real move
    assert found.move.kind != mv.CONCEDE and st.check(found.move) is None


def test_a_session_plays_skill_100s_resignation_as_the_games_end(game):
    """The window's session takes the resignation like any answer: the game ends, the record keeps it."""
    from pegboard.match.session import Session

    session = Session(game, ["skill-100", "human"], seed=1, threaded=False)
    session.state = _lost_count(game)  # South (the bot) to move, 55 squares to North's 66
    session.poll()
    assert (session.result.winner, session.result.reason) == (1, "resign")
    last = session.history[-1]
    assert (last.by, last.text) == ("skill-100", "resigns")  # the history reads "South: resigns"
    assert session.result.text == "South resigns: North wins."
    assert game.encode_move(last.move) == {"type": "concede", "seat": 0, "reason": "resign"}


def _hunt(game):
    """South to move owns 62 squares, North 53; the six squares b4-d5 around South's scout on
    c4 are free. North's last siege, on i8, has three South raiders beside it and a fourth one step
    away; a South shield keeps South's Command covered."""
    st = blank(game)
    free = {(c, r) for c in (1, 2, 3) for r in (3, 4)}
    south = [(c, r) for r in range(6) for c in range(11) if (c, r) not in free]
    north = [(c, r) for r in range(6, 11) for c in range(11)]
    own(st, south + north[:2], 0)
    own(st, north[2:], 1)
    put(st, 2, 3, "S", 0)
    put(st, 5, 1, "G", 0)
    siege = put(st, 8, 7, "X", 1)
    for c, r in ((7, 6), (9, 6), (7, 8)):
        put(st, c, r, "R", 0, ride="all")
    put(st, 9, 9, "R", 0, ride="all")
    return st, siege


def _searchers(game):
    k = Knowledge.at(100, dict(DEFAULT_WEIGHTS))
    return Searcher(game, k, random.Random(1)), Searcher(game, dataclasses.replace(k, concedes=False), random.Random(1))


def test_the_side_ahead_counts_a_beaten_opponent_as_a_bonus(game):
    """Once the mover owns more than half the board, a position where the other side has no
    siege left (so it would resign) is worth BEATEN_BONUS more to skill 100."""
    st, siege = _hunt(game)
    assert (st.owner.count(0), st.owner.count(1)) == (62, 53)
    hunter, plain = _searchers(game)
    assert hunter.value(st, 0) == plain.value(st, 0)  # the siege stands: no bonus
    st.kind[siege] = 0
    assert hunter.value(st, 0) - plain.value(st, 0) == BEATEN_BONUS
    assert hunter.value(st, 1) == plain.value(st, 1)  # never for the side behind
    st.owner[sq(st, 0, 0)] = st.owner[sq(st, 1, 0)] = -1  # 60 squares: not more than half
    assert hunter.value(st, 0) == plain.value(st, 0)
    for rules in ({"claims": {"take_enemy": True}}, {"fog": {"mode": "seam"}}):
        other = make_game(**rules)
        assert not Searcher(other, Knowledge.at(100, dict(DEFAULT_WEIGHTS)), random.Random(1)).beaten_bonus, rules


def test_skill_100_surrounds_the_last_siege_of_a_side_that_has_lost_the_count(game):
    st, siege = _hunt(game)
    ring = st.geo.nbr8[siege]
    for seed in (3, 4, 5):
        bot = SkillBot(game, seed, 100)
        move = bot.search(st.clone(), work=3_000).move
        assert (move.kind, move.a, move.b in ring) == (mv.MOVE, sq(st, 9, 9), True), seed
        bot.searcher.beaten_bonus = 0.0  # without the bonus the six free squares weigh more
        assert bot.search(st.clone(), work=3_000).move.kind == mv.CLAIM, seed
    st.push(move)  # the engine agrees: the fourth raider surrounds the siege
    assert st.kind[siege] == 0 and beaten(st)


def test_the_first_pass_plays_a_drone_arriving_beside_an_enemy_siege_or_turret_in_full(game):
    """Moved alone, a drone would neither complete a surround nor take a turret's shot: skill
    100 scores such moves by playing them; the legacy knowledge keeps the shortcut."""
    st, siege = _hunt(game)
    put(st, 0, 9, "T", 1)
    scout = put(st, 0, 7, "S", 0, ride="all")
    into_fire = next(m for m in st.legal_moves() if m.kind == mv.MOVE and m.a == scout and m.b == sq(st, 0, 8))
    surround = next(m for m in st.legal_moves() if m.kind == mv.MOVE and m.a == sq(st, 9, 9) and m.b == sq(st, 8, 8))
    k = Knowledge.at(100, dict(DEFAULT_WEIGHTS))
    assert k.exact_arrivals and not Knowledge.at(100, dict(DEFAULT_WEIGHTS), finish=False).exact_arrivals
    for knowledge, exact in ((k, True), (dataclasses.replace(k, exact_arrivals=False), False)):
        searcher = Searcher(game, knowledge, random.Random(1))
        moves = [m for m in st.legal_moves() if m.kind == mv.MOVE]
        scores = {m: score for score, m in searcher.ranked(st, moves, 0)}
        for m in (into_fire, surround):
            st.push(m)
            full = searcher.value(st, 0)
            st.undo()
            assert (abs(scores[m] - full) < 1e-3) == exact, (m, exact)
