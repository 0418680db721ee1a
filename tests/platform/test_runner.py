"""The headless match runner: seeding, colours, stats, worker processes, bot failures."""

from __future__ import annotations

from typing import Any

import pytest

from pegboard import hookimpl
from pegboard.batch.runner import MatchPlan, derive_seed, entrant_labels, play_game, run_match
from pegboard.errors import BotError, UnknownId
from pegboard.game import PegboardError, State
from pegboard.plugins.manager import Plugins
from pegboard.records.validate import validate_record
from pegboard.specs import Bot, BotSpec


def moves_of(report: Any) -> list[list[Any]]:
    return [outcome.record["moves"] for outcome in report.outcomes]


def test_derive_seed_is_stable_and_distinct() -> None:
    assert derive_seed(0, 0, "game") == derive_seed(0, 0, "game")
    seeds = {derive_seed(s, i, p) for s in (0, 1) for i in range(5) for p in ("game", "bot0", "bot1")}
    assert len(seeds) == 30
    assert all(0 <= s < 2**32 for s in seeds)
    assert derive_seed(7, 3, "game") == 1910915759  # pinned: records must replay across releases


def test_same_plan_same_games_and_seed_changes_them(toy_plugins: Plugins) -> None:
    plan = MatchPlan("toy", ("random", "random"), ruleset="toy/standard", games=4, seed=3)
    first = run_match(plan, jobs=1, plugins=toy_plugins)
    assert moves_of(first) == moves_of(run_match(plan, jobs=1, plugins=toy_plugins))
    other = run_match(MatchPlan("toy", ("random", "random"), ruleset="toy/standard", games=4, seed=4), jobs=1, plugins=toy_plugins)
    assert moves_of(first) != moves_of(other)
    # game i alone reproduces game i of the match
    assert play_game(plan, 2, toy_plugins).record["moves"] == moves_of(first)[2]


def test_worker_processes_play_the_same_games(toy_plugins: Plugins) -> None:
    plan = MatchPlan("toy", ("random", "takemost"), ruleset="toy/short", games=5, seed=11)
    serial = run_match(plan, jobs=1, plugins=toy_plugins)
    parallel = run_match(plan, jobs=2, plugins=toy_plugins)
    assert moves_of(serial) == moves_of(parallel)
    assert [o.index for o in parallel.outcomes] == [0, 1, 2, 3, 4]


def test_colours_alternate_and_stats_add_up(toy_plugins: Plugins) -> None:
    plan = MatchPlan("toy", ("takemost", "random"), ruleset="toy/standard", games=6, seed=1)
    seen: list[int] = []
    report = run_match(plan, jobs=1, plugins=toy_plugins, progress=lambda o: seen.append(o.index))
    assert seen == list(range(6))
    assert [o.seats for o in report.outcomes] == [(0, 1), (1, 0)] * 3
    for outcome in report.outcomes:
        players = outcome.record["players"]
        assert [p["bot"] for p in players] == [plan.bots[e] for e in outcome.seats]
        assert len(outcome.record["meta"]["think_seconds"]) == len(outcome.record["moves"])
        assert validate_record(outcome.record, "mem", toy_plugins).ok
    takemost, rand = report.stats
    assert takemost.label == "takemost" and rand.label == "random"
    assert takemost.wins == rand.losses and takemost.losses == rand.wins
    assert takemost.wins + takemost.draws + takemost.losses == 6
    assert takemost.moves + rand.moves == sum(o.plies for o in report.outcomes)
    assert report.average_length == sum(o.plies for o in report.outcomes) / 6
    assert takemost.think_max >= takemost.think_mean >= 0


def test_entrant_labels_number_repeated_bots() -> None:
    assert entrant_labels(("random", "random")) == ["random #1", "random #2"]
    assert entrant_labels(("a", "b")) == ["a", "b"]


def test_turn_limit_ends_games_unless_extended(toy_plugins: Plugins) -> None:
    plan = MatchPlan("toy", ("random", "random"), ruleset="toy/short", games=2)
    plain = run_match(plan, jobs=1, plugins=toy_plugins)
    assert all(o.plies == 4 and o.record["result"]["reason"] == "turn_limit" for o in plain.outcomes)
    extended = run_match(MatchPlan("toy", ("random", "random"), ruleset="toy/short", games=2, extend=True), jobs=1, plugins=toy_plugins)
    assert all(o.plies > 4 for o in extended.outcomes)
    assert all(validate_record(o.record, "mem", toy_plugins).ok for o in extended.outcomes)


def test_ply_cap_records_an_unfinished_game(toy_plugins: Plugins) -> None:
    report = run_match(MatchPlan("toy", ("random", "random"), ruleset="toy/standard", max_plies=2), jobs=1, plugins=toy_plugins)
    outcome = report.outcomes[0]
    assert not outcome.finished and "result" not in outcome.record and outcome.record["meta"]["stopped"] == "ply cap 2"
    assert report.stats[0].unfinished == 1 and report.stats[0].wins == 0
    assert validate_record(outcome.record, "mem", toy_plugins).ok


def test_bad_plans_fail_before_playing(toy_plugins: Plugins) -> None:
    with pytest.raises(UnknownId, match="unknown bot for toy 'deep'"):
        run_match(MatchPlan("toy", ("random", "deep")), plugins=toy_plugins)
    with pytest.raises(UnknownId, match="unknown game"):
        run_match(MatchPlan("chess", ("random", "random")), plugins=toy_plugins)
    with pytest.raises(PegboardError, match="needs 2 bots"):
        run_match(MatchPlan("toy", ("random",)), plugins=toy_plugins)
    with pytest.raises(PegboardError, match="unknown ruleset toy/huge"):
        run_match(MatchPlan("toy", ("random", "random"), ruleset="huge"), plugins=toy_plugins)


class Cheater(Bot):
    def choose(self, view: State, budget: float) -> Any:
        return (0, 99)


class Crasher(Bot):
    def choose(self, view: State, budget: float) -> Any:
        raise RuntimeError("boom")


class BadBots:
    @hookimpl
    def pegboard_bots(self, game: str) -> list[BotSpec]:
        return [BotSpec("cheater", "Cheater", lambda g, s: Cheater()), BotSpec("crasher", "Crasher", lambda g, s: Crasher())]


def test_a_bot_that_cheats_or_crashes_is_reported(toy_plugins: Plugins) -> None:
    toy_plugins.register(BadBots(), name="badbots")
    with pytest.raises(BotError, match="bot 'cheater' played an illegal move in game 1 at move 1: you may take 1 to 3 tokens"):
        run_match(MatchPlan("toy", ("cheater", "random")), plugins=toy_plugins)
    with pytest.raises(BotError, match="bot 'crasher' crashed in game 1 at move 2: RuntimeError: boom"):
        run_match(MatchPlan("toy", ("random", "crasher")), plugins=toy_plugins)
