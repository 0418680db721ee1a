"""``Bot.search`` for Starfall's skill bots: the level's best move, its score, a line, work spent."""

from __future__ import annotations

import pytest

from pegboard_starfall.bots import SkillBot
from pegboard_starfall.evaluator import StarfallEvaluator
from support.starfall_helpers import make_game, random_positions


def positions(count: int) -> list:
    game = make_game()
    found = [st.clone() for st in random_positions(game, 3, 7, 60)][-count:]  # the deepest
    assert len(found) == count
    return found


@pytest.mark.parametrize("skill", [30, 80, 100])
def test_search_under_work_depends_only_on_seed_view_and_work(skill: int) -> None:
    st = positions(3)[2]
    game = st.game
    view = st.player_view(st.to_move)
    fresh = SkillBot(game, 5, skill).search(view.clone(), work=800)
    used = SkillBot(game, 5, skill)
    for other in positions(2):
        used.choose(other.player_view(other.to_move), 0.01)
    before = view.to_json()
    assert used.search(view, work=800) == fresh
    assert view.to_json() == before
    assert fresh.work > 0 and fresh.line[0] == fresh.move and fresh.move in view.legal_moves()


def test_skill_100_line_holds_the_reply_it_checked_and_the_score_is_the_evaluation_there() -> None:
    st = positions(3)[1]
    game = st.game
    view = st.player_view(st.to_move)
    found = SkillBot(game, 2, 100).search(view.clone(), work=3_000)
    assert len(found.line) == 2
    for move in found.line:
        assert view.check(move) is None
        view.push(move)
    assert found.score == pytest.approx(StarfallEvaluator(game).score(view), abs=1e-6)


def test_more_work_checks_more_replies() -> None:
    st = positions(2)[1]
    view = st.player_view(st.to_move)
    small = SkillBot(st.game, 1, 100).search(view.clone(), work=40)
    large = SkillBot(st.game, 1, 100).search(view.clone(), work=5_000)
    assert small.work < large.work <= 2 * 5_000 + 500


def test_search_never_plays_the_random_move() -> None:
    st = positions(2)[1]
    view = st.player_view(st.to_move)
    zero = SkillBot(st.game, 9, 0)
    searched = {zero.search(view.clone(), work=100).move for _ in range(3)}
    assert len(searched) == 1  # skill 0's choose is random; its search is its (plain) best move


def test_skill_100_weighs_its_candidates_in_several_refill_futures_and_the_legacy_one_in_one() -> None:
    from pegboard_starfall.bots import FUTURES

    st = positions(3)[1]
    game = st.game
    view = st.player_view(st.to_move)
    calls: list[int] = []
    real = game.determinize

    def spy(v, player, rng):  # type: ignore[no-untyped-def]
        calls.append(player)
        assert v is view  # samples are drawn from the bot's own view
        return real(v, player, rng)

    game.determinize = spy
    try:
        metered = SkillBot(game, 4, 100).search(view, work=2_000)
        assert calls == [view.to_move] * (FUTURES - 1)
        calls.clear()
        SkillBot(game, 4, 100, metered=False).search(view, seconds=0.05)
        SkillBot(game, 4, 90).search(view, work=2_000)
        assert calls == []
    finally:
        del game.determinize
    assert metered.move in view.legal_moves()


def test_skill_100_follow_up_picks_the_candidate_whose_reply_leaves_it_the_best_action() -> None:
    import math
    import random

    from pegboard_starfall.bots import FIRE, Knowledge, Searcher

    game = make_game()
    knowledge = Knowledge.at(100, StarfallEvaluator(game).weights)
    searcher = Searcher(game, knowledge, random.Random(0))

    def after(view, m, reply) -> float:  # type: ignore[no-untyped-def]  # the mover's best action then
        me = view.to_move
        view.push(m)
        view.push(reply)
        values = []
        for x in view.legal_moves():
            if x.kind != FIRE and x.kind in knowledge.kinds:
                view.push(x)
                values.append(searcher.value(view, me))
                view.undo()
        view.undo()
        view.undo()
        return max(values)

    reranked = 0
    for st in positions(6):
        view = st.player_view(st.to_move)
        me = view.to_move
        checked = []
        for m in [m for m in view.legal_moves() if m.kind != FIRE][:8]:
            view.push(m)
            if view.result is None:
                worst, reply = searcher.worst_reply(view, me, None)
                if reply is not None and view.check(reply) is None:
                    checked.append((worst, m, reply))
            view.undo()
        if len(checked) < 2:
            continue
        checked.sort(key=lambda p: p[0], reverse=True)
        expected = max(checked, key=lambda p: after(view, p[1], p[2]))
        before = view.to_json()
        assert searcher.follow_up(view, checked, me, math.inf) == expected[1]
        assert searcher.reply == expected[2]
        assert view.to_json() == before  # every trial move was taken back
        reranked += expected is not checked[0]
    assert reranked  # somewhere the follow-up overturns the reply check's order
