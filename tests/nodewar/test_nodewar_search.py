"""``Bot.search`` for Node War's Hard and Expert: best move, score from Blue's side, line, work."""

from __future__ import annotations

import pytest

from pegboard_nodewar import NodeWarGame
from pegboard_nodewar.bots import WIN, ExpertBot, HardBot, SearchBot
from pegboard_nodewar.evaluator import NodeWarEvaluator
from support.nodewar_helpers import random_position, smother_position

WORK = 30_000


@pytest.mark.parametrize("cls", [HardBot, ExpertBot])
def test_search_under_work_depends_only_on_seed_view_and_work(game: NodeWarGame, cls: type[SearchBot]) -> None:
    state = random_position(game, 30, 5)
    fresh = cls(game, 7).search(state.clone(), work=WORK)
    used = cls(game, 7)
    for plies in (10, 20):  # a bot that has already thought elsewhere answers the same
        used.choose(random_position(game, plies, 1), 0.01)
    view = state.clone()
    again = used.search(view, work=WORK)
    assert again == fresh
    assert view.to_json() == state.to_json()
    assert fresh.work > 0 and fresh.win_chance is None


@pytest.mark.parametrize("cls", [HardBot, ExpertBot])
def test_search_line_is_legal_and_starts_with_the_move(game: NodeWarGame, cls: type[SearchBot]) -> None:
    state = random_position(game, 40, 3)
    found = cls(game, 2).search(state.clone(), work=WORK)
    assert found.line and found.line[0] == found.move
    assert len(found.line) >= 2  # the best reply the search expects
    for move in found.line:
        assert state.check(move) is None
        state.push(move)


def test_expert_score_is_the_evaluation_at_the_end_of_its_line_from_blues_side(game: NodeWarGame) -> None:
    evaluator = NodeWarEvaluator(game)
    for seed, plies in ((1, 31), (4, 40)):  # Red to move in one, Blue in the other
        state = random_position(game, plies, seed)
        bot = ExpertBot(game, 3)
        bot.schedule = bot.schedule[:1]  # one two-ply iteration without quiescence: the line is exact
        found = bot.search(state.clone(), work=10**7)
        for move in found.line:
            state.push(move)
        assert len(found.line) == 2 and found.score == pytest.approx(evaluator.score(state), abs=1e-2)


def test_more_work_buys_more_iterations(game: NodeWarGame) -> None:
    state = random_position(game, 30, 8)
    small, large = ExpertBot(game, 1), ExpertBot(game, 1)
    small.search(state.clone(), work=500)
    found = large.search(state.clone(), work=60_000)
    assert small.iterations < large.iterations
    assert found.work <= 60_000 + 5_000  # a unit over the limit stops the search at its next check


@pytest.mark.parametrize("cls", [HardBot, ExpertBot])
def test_a_won_position_scores_as_won_for_the_winner(game: NodeWarGame, cls: type[SearchBot]) -> None:
    state = smother_position(game, to_move=1)  # Red smothers Blue's Base with one cut
    found = cls(game, 1).search(state.clone(), seconds=1.0)
    state.apply(found.move)
    assert state.result is not None and state.result.winner == 1
    assert found.score is not None and found.score <= -WIN / 2


def test_search_wants_exactly_one_budget(game: NodeWarGame) -> None:
    with pytest.raises(ValueError):
        ExpertBot(game, 1).search(random_position(game, 10, 1))
