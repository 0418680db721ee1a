"""The analysis engine on the toy Nim game: win chances, marks, the search, reviews, determinism."""

from __future__ import annotations

import math
from typing import Any

import pytest

from pegboard.analysis.analyse import Analysis, analyse_all
from pegboard.analysis.engine import Settings, Verdict
from pegboard.analysis.review import Review
from pegboard.analysis.search import DECIDED, AlphaBeta
from pegboard.analysis.winchance import accuracy, logistic, mark_for
from pegboard.batch.runner import LocalExecutor
from pegboard.errors import BotError, UnknownId
from pegboard.plugins.manager import Plugins
from pegboard.records.validate import validate_record
from pegboard.rules.rulesets import load_game
from pegboard.specs import Bot, BotSpec, SearchResult
from support import toygame


def nim(plugins: Plugins, piles: list[int], turn: int = 0) -> Any:
    game = load_game("toy", "standard", plugins=plugins)
    return game, game.state_from_json({"piles": piles, "taken": [0, 0], "turn": turn, "limit": 100})


def grundy(piles: list[int]) -> int:
    """Take-1-to-3 Nim: the mover loses exactly when the XOR of the piles mod 4 is 0."""
    value = 0
    for pile in piles:
        value ^= pile % 4
    return value


# -- win chances and marks ------------------------------------------------------------------------


def test_the_logistic_is_half_at_zero_and_never_overflows() -> None:
    assert logistic(0.0, 30.0) == 0.5
    assert logistic(30.0, 30.0) == pytest.approx(1 / (1 + math.exp(-1)))
    assert logistic(1e12, 1.0) == 1.0 and logistic(-1e12, 1.0) == 0.0
    assert logistic(-30.0, 30.0) == pytest.approx(1 - logistic(30.0, 30.0))


@pytest.mark.parametrize(("drop", "mark"), [(0.0, None), (9.99, None), (10.0, "inaccuracy"), (19.9, "inaccuracy"),
                                             (20.0, "mistake"), (29.99, "mistake"), (30.0, "blunder"), (100.0, "blunder")])
def test_marks_follow_the_documented_thresholds(drop: float, mark: str | None) -> None:
    assert mark_for(drop) == mark


def test_accuracy_falls_from_100_as_the_average_drop_grows() -> None:
    assert accuracy([]) is None
    assert accuracy([0.0, 0.0]) == pytest.approx(100.0)
    figures = [accuracy([d]) for d in (0.0, 2.0, 5.0, 10.0, 30.0, 100.0)]
    assert all(a is not None for a in figures)
    assert figures == sorted(figures, reverse=True)  # type: ignore[type-var]
    assert accuracy([10.0]) == pytest.approx(103.1668 * math.exp(-0.4354) - 3.1668)
    assert accuracy([100.0]) == 0.0


def test_the_evaluator_turns_scores_into_win_chances_with_its_constant() -> None:
    evaluator = toygame.TakenEvaluator()
    assert evaluator.win_scale is None  # undeclared: the bar's curve, scale / 2
    assert evaluator.win_chance(evaluator.scale / 2) == pytest.approx(1 / (1 + math.exp(-1)))
    evaluator.win_scale = 2.0
    assert evaluator.win_chance(2.0) == pytest.approx(1 / (1 + math.exp(-1)))
    assert evaluator.win_chance(-2.0) == pytest.approx(1 - evaluator.win_chance(2.0))


# -- the analysis search --------------------------------------------------------------------------


@pytest.mark.parametrize("piles", [[1, 2, 0], [3, 1, 1], [2, 2, 3], [5, 0, 2]])
def test_the_search_finds_a_winning_move_and_leaves_the_state_as_it_was(toy_plugins: Plugins, piles: list[int]) -> None:
    game, state = nim(toy_plugins, piles)
    assert grundy(piles) != 0  # the mover can win
    before = state.to_json()
    found = AlphaBeta(toygame.TakenEvaluator()).search(state, 20_000)
    assert state.to_json() == before and state.ply == 0
    assert found.score is not None and found.score >= DECIDED  # a forced win for seat 0
    state.apply(found.move)
    assert grundy(state.piles) == 0  # the reply cannot escape
    assert found.line[0] == found.move and 1 <= len(found.line) <= 4


def test_the_search_sees_a_lost_position_and_spends_no_more_than_its_budget(toy_plugins: Plugins) -> None:
    _, state = nim(toy_plugins, [3, 4, 5], turn=1)  # seat 1 to move and winning: seat 0 is lost
    search = AlphaBeta(toygame.TakenEvaluator())
    checked = 0
    for budget in (1, 9, 50, 400, 3000):
        found = search.search(state, budget)
        assert found.work <= max(budget, len(state.legal_moves()))
        checked += 1
    assert checked == 5
    assert search.search(state, 200_000).score is not None
    assert search.search(state, 200_000).score <= -DECIDED  # type: ignore[operator]


def test_the_same_budget_gives_the_same_answer(toy_plugins: Plugins) -> None:
    _, state = nim(toy_plugins, [3, 4, 5])
    answers = {AlphaBeta(toygame.TakenEvaluator()).search(state, 700) for _ in range(3)}
    assert len(answers) == 1


def minimax(state: Any, depth: int, evaluator: Any) -> float:
    """Plain depth-limited minimax on seat 0's score (what the alpha-beta must agree with)."""
    if state.result is not None:
        return 0.0 if state.result.winner is None else (1e9 if state.result.winner == 0 else -1e9)
    if depth == 0:
        return float(evaluator.score(state))
    values = []
    for move in state.legal_moves():
        state.push(move)
        values.append(minimax(state, depth - 1, evaluator))
        state.undo()
    return max(values) if state.to_move == 0 else min(values)


def test_the_ladder_holds_the_positions_value_at_every_finished_depth(toy_plugins: Plugins) -> None:
    _, state = nim(toy_plugins, [3, 4, 2], turn=1)
    evaluator = toygame.TakenEvaluator()
    judged = AlphaBeta(evaluator).judge(state, 3000)
    assert judged.depth >= 2 and len(judged.ladder) >= 3
    assert judged.ladder[0] == evaluator.score(state)
    checked = 0
    for depth in range(1, len(judged.ladder)):
        deep, shallow = minimax(state, depth, evaluator), minimax(state, depth - 1, evaluator)
        if abs(deep) < DECIDED:
            assert judged.ladder[depth] == pytest.approx((deep + shallow) / 2)
            checked += 1
    assert checked >= 2


# -- reviews --------------------------------------------------------------------------------------


def verdict(ply: int, chance: float, best: Any) -> Verdict:
    return Verdict(ply, ply % 2, chance, None, best, (best,), (str(best),), 10, "test")


def test_rows_need_both_positions_and_measure_the_drop_for_the_mover() -> None:
    review = Review(("A", "B"), ["m1", "m2"], ["one", "two"], [0, 1])
    assert review.add([verdict(1, 0.2, "x")]) == []  # move 1 needs position 0 as well
    done = review.add([verdict(0, 0.6, "m1")])  # the best move was played: no drop
    assert [row.number for row in done] == [1]
    first = review.row(1)
    assert first is not None and first.drop == 0.0 and first.mark is None and first.best is None
    review.add([verdict(2, 0.7, None)])  # seat B moved from 0.2 (B: 0.8) to 0.7 (B: 0.3) with "x" better
    second = review.row(2)
    assert second is not None and second.drop == pytest.approx(50.0) and second.mark == "blunder"
    assert second.best == "x" and second.before == pytest.approx(0.8) and second.after == pytest.approx(0.3)
    assert review.complete and review.curve() == [0.6, 0.2, 0.7]
    a, b = review.sides()
    assert (a.moves, b.moves, b.marks["blunder"], a.accuracy) == (1, 1, 1, pytest.approx(100.0))


def test_a_move_that_loses_on_the_spot_is_a_blunder_however_little_was_left() -> None:
    review = Review(("A", "B"), ["m1", "m2"], ["one", "two"], [0, 1])
    lost = Verdict(1, None, 0.0, None, None, (), (), 0, "result")  # A's move ended the game: B won
    review.add([verdict(0, 0.15, "x"), lost])
    row = review.row(1)
    assert row is not None and row.drop == pytest.approx(15.0) and mark_for(row.drop) == "inaccuracy"
    assert row.mark == "blunder", "the best move kept the game going; the move played lost it"
    review.add([verdict(0, 0.15, "m1")])  # the loss was forced: the best move loses too, no mark
    forced = review.row(1)
    assert forced is not None and forced.drop == 0.0 and forced.mark is None


def test_the_move_is_valued_at_the_horizon_its_position_was_searched_at() -> None:
    review = Review(("A", "B"), ["m1"], ["one"], [0])
    before = verdict(0, 0.9, "best")._replace(depth=2)
    after = verdict(1, 0.1, None)._replace(depth=3, ladder=((5.0, 0.6), (3.0, 0.45), (1.0, 0.2), (0.0, 0.1)))
    review.add([before, after])
    row = review.row(1)  # searched 2 plies deep, the best move was valued 1 ply below it: ladder[1]
    assert row is not None and row.after == pytest.approx(0.45) and row.drop == pytest.approx(45.0)
    assert row.score_after == 3.0


# -- whole records --------------------------------------------------------------------------------

THROWN = toygame.THROWN_WIN  # move 3 throws the first player's win away


def toy_record(plugins: Plugins) -> dict[str, Any]:
    return toygame.record_of(THROWN, plugins, ("takemost", "human"))


def test_a_thrown_win_is_a_blunder_with_a_better_move_that_keeps_it(toy_plugins: Plugins) -> None:
    analysis = Analysis.of_record(toy_record(toy_plugins), Settings(budget=50_000), toy_plugins)
    analysis.run()
    rows = analysis.rows
    assert [row.number for row in rows] == list(range(1, len(THROWN) + 1))
    assert rows[2].mark == "blunder" and rows[2].best == {"pile": 2, "take": 1} and rows[2].drop > 90
    assert rows[2].explanation and rows[2].explanation[0].split(":")[0] in ("taken", "parity")  # a term, in words
    checked = 0
    for row in rows:
        if row.mark is None:
            continue
        game, state = nim(toy_plugins, [3, 4, 5])
        for move in THROWN[: row.number - 1]:
            state.apply(move)
        assert grundy(state.piles) != 0  # the mover could still win here ...
        state.apply(game.decode_move(row.best))
        assert grundy(state.piles) == 0  # ... and the better move keeps the win
        checked += 1
    assert checked >= 1
    seat0, seat1 = analysis.sides
    assert seat0.marks["blunder"] >= 1 and seat0.accuracy is not None and seat1.accuracy is not None
    assert seat0.accuracy < seat1.accuracy


def test_two_runs_agree_and_workers_change_nothing(toy_plugins: Plugins) -> None:
    record = toy_record(toy_plugins)
    first = Analysis.of_record(record, Settings(budget=800), toy_plugins)
    first.run()
    again = Analysis.of_record(record, Settings(budget=800), toy_plugins)
    again.run()
    spread = [Analysis.of_record(record, Settings(budget=800), toy_plugins) for _ in range(2)]
    analyse_all(spread, executor=LocalExecutor(2), jobs=2)
    assert first.to_json() == again.to_json() == spread[0].to_json() == spread[1].to_json()


def test_the_annotated_record_is_a_valid_record_that_keeps_a_persons_comments(toy_plugins: Plugins) -> None:
    record = toy_record(toy_plugins)
    record["annotations"] = [{"move": 2, "comment": "I saw nothing"}]
    analysis = Analysis.of_record(record, Settings(budget=50_000), toy_plugins)
    analysis.run()
    annotated = analysis.annotated()
    notes = {note["move"]: note for note in annotated["annotations"]}
    assert sorted(notes) == list(range(1, len(THROWN) + 1)) and notes[2]["comment"] == "I saw nothing"
    assert all(0.0 <= note["eval"]["win_chance"] <= 1.0 for note in notes.values())
    blunders = [note for note in notes.values() if note.get("mark") == "blunder"]
    assert blunders and all("better" in note for note in blunders)
    assert annotated["meta"]["analysis"]["bot"] == "alphabeta"
    report = validate_record(annotated, "annotated.json", toy_plugins)
    assert report.ok and report.stage == "annotations"
    assert "annotations" not in record or record["annotations"] == [{"move": 2, "comment": "I saw nothing"}]


class Explaining(Bot):
    """A bot with a search: always the first legal move, scored 0."""

    def choose(self, view: Any, budget: float) -> Any:
        return view.legal_moves()[0]

    def search(self, view: Any, *, seconds: float | None = None, work: int | None = None) -> SearchResult | None:
        return SearchResult(view.legal_moves()[0], win_chance=0.75, line=(view.legal_moves()[0], (9, 9)), work=work or 0)


class Broken(Bot):
    def choose(self, view: Any, budget: float) -> Any:
        return view.legal_moves()[0]

    def search(self, view: Any, *, seconds: float | None = None, work: int | None = None) -> SearchResult | None:
        raise RuntimeError("out of ideas")


def with_bots(plugins: Plugins) -> Plugins:
    class Extra:
        @staticmethod
        @toygame.hookimpl
        def pegboard_bots(game: str) -> list[BotSpec] | None:
            if game != "toy":
                return None
            return [BotSpec("explaining", "Explaining", lambda g, s: Explaining(), game="toy"),
                    BotSpec("broken", "Broken", lambda g, s: Broken(), game="toy")]

    plugins.register(Extra, name="extra-bots")
    return plugins


def test_a_bots_own_search_judges_and_its_win_chance_is_the_movers(toy_plugins: Plugins) -> None:
    plugins = with_bots(toy_plugins)
    analysis = Analysis.of_record(toy_record(plugins), Settings(bot="explaining", budget=77), plugins)
    analysis.run()
    first = analysis.review.verdicts[0]
    second = analysis.review.verdicts[1]
    assert first is not None and second is not None
    assert first.by == "explaining" and first.work == 77
    assert first.chance == pytest.approx(0.75) and second.chance == pytest.approx(0.25)  # seat 1 to move there
    assert len(first.line) == 1  # (9, 9) is no legal move: the line stops before it
    assert analysis.review.judged_by() == {"explaining": len(THROWN), "result": 1}


def test_a_bot_that_crashes_or_does_not_exist_is_one_clear_error(toy_plugins: Plugins) -> None:
    plugins = with_bots(toy_plugins)
    analysis = Analysis.of_record(toy_record(plugins), Settings(bot="broken"), plugins)
    with pytest.raises(BotError, match="bot 'broken' crashed analysing move 1: RuntimeError: out of ideas"):
        analysis.run()
    with pytest.raises(UnknownId):
        Analysis.of_record(toy_record(plugins), Settings(bot="nobody"), plugins)


def test_a_bot_without_a_search_leaves_the_judging_to_the_analysis_search(toy_plugins: Plugins) -> None:
    analysis = Analysis.of_record(toy_record(toy_plugins), Settings(bot="takemost", budget=300), toy_plugins)
    analysis.run()
    assert analysis.review.judged_by() == {"alphabeta": len(THROWN), "result": 1}
