"""The quieter hand (hint after 30 s against skill <= 50), the evaluator's terms, the CLI."""

from __future__ import annotations

import json

import pytest

from pegboard.match.session import Session
from pegboard.plugins.manager import Plugins
from pegboard.rules.rulesets import load_game
from pegboard_starfall import moves as mv
from pegboard_starfall.evaluator import TERMS, StarfallEvaluator
from support.starfall_helpers import blank, own, paint, put, quiet, sq


@pytest.fixture(scope="module")
def plugins() -> Plugins:
    return Plugins()


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _session(plugins: Plugins, opponent: str, clock: FakeClock) -> Session:
    game = load_game("starfall", "standard", plugins=plugins)
    return Session(game, ["human", opponent], seed=5, plugins=plugins, workers="inline", time_source=clock)


def test_hint_is_offered_after_30_idle_seconds_against_skill_50_or_less(plugins):
    clock = FakeClock()
    s = _session(plugins, "skill-50", clock)
    assert not s.hint_due(0.0)  # the position is first seen now: the idle time starts
    assert not s.hint_due(29.9)
    assert s.hint_due(30.0)
    move = s.hint()
    assert move is not None and move.kind == mv.SWAP and s.state.check(move) is None
    assert s.hint() == move  # worked out once per position
    clock.now = 40.0
    s.play(s.state.legal_moves()[-1])  # the person moves: now the bot is to move
    assert not s.hint_due(100.0) and s.hint() is None
    clock.now = 45.0
    s.run_bots(max_moves=50)  # the bot answers at t = 45 (until it is the person's turn again)
    assert s.to_move == 0 and not s.is_over
    assert not s.hint_due(74.9)  # idle since the bot's move
    assert s.hint_due(75.0)


@pytest.mark.parametrize("opponent", ["skill-60", "skill-100", "random"])
def test_no_hint_against_stronger_bots_or_other_bots(plugins, opponent):
    s = _session(plugins, opponent, FakeClock())
    assert not s.hint_due(0.0)
    assert not s.hint_due(10_000.0)
    assert s.hint() is None


def test_hint_names_the_best_swap_by_the_skill_100_terms(game):
    from pegboard_starfall.bots import hint

    st = blank(game)
    # a swap finishing a 4-line (a scout) and one finishing only a 3-line (nothing)
    paint(st, [(0, 2), (1, 2), (3, 2), (2, 3)])  # (2,2)<->(2,3) makes a 4-line on row 2
    paint(st, [(7, 3), (8, 3), (9, 4)], color=4)  # (9,3)<->(9,4) makes a 3-line only
    assert quiet(st)
    st.legal_moves()
    assert hint(game, st, 0) == mv.swap(sq(st, 2, 2), sq(st, 2, 3))
    assert hint(game, st, 1) is None  # not North's turn


def test_evaluator_terms_are_per_side_and_mirror(game):
    ev = StarfallEvaluator(game)
    st = blank(game)
    own(st, [(c, 0) for c in range(11)], 0)
    put(st, 2, 3, "S", 0)
    put(st, 2, 7, "R", 1, ride="red")
    result = ev.evaluate(st)
    assert [t.name for t in result.terms] == list(TERMS)
    by = {t.name: t for t in result.terms}
    assert by["territory"].values == (11.0, 0.0)
    assert by["drone_value"].values == (5.0, 4.0)
    assert by["claim_reach"].values[0] == 9.0
    assert abs(sum(t.contribution for t in result.terms) - result.score) < 1e-9
    assert result.score == pytest.approx(ev.score(st))


def test_evaluator_weights_come_from_the_ruleset():
    from support.starfall_helpers import make_game

    game = make_game(evaluator={"territory": 3.0})
    assert StarfallEvaluator(game).weights["territory"] == 3.0


def test_cli_eval_hint_and_skill_errors(cli, tmp_path, game):
    pos = tmp_path / "pos.json"
    st = blank(game)
    paint(st, [(0, 2), (1, 2), (3, 2), (2, 3)])
    pos.write_text(json.dumps(st.to_json()))
    result = cli("eval", "starfall", pos, "--json", entry_points=True)
    assert result.code == 0, result.err
    assert [t["name"] for t in json.loads(result.out)["terms"]] == list(TERMS)
    result = cli("hint", "starfall", pos, entry_points=True)
    assert result.code == 0 and result.out.strip() == "swap c3-c4"
    for args in (("--north", "skill-35"), ("--north", "skill-x"), ("--skill", "101"), ("--skill", "x")):
        result = cli("match", "starfall", *args, entry_points=True)
        assert result.code == 2 and len(result.err_lines) == 1 and result.err_lines[0].startswith("error: ")
        assert "Traceback" not in result.err
        if args[1] == "skill-35":  # the known levels in number order
            assert "skill-0, skill-10, skill-20" in result.err and result.err.rstrip().endswith("skill-90, skill-100)")


def test_cli_play_and_match_take_skill_bots(cli, monkeypatch):
    import sys
    import types

    calls = []
    fake = types.ModuleType("pegboard.ui")
    fake.DisplayUnavailable = RuntimeError
    fake.launch = lambda game, ruleset, seats, seed=None: calls.append((game, ruleset, seats)) or 0
    monkeypatch.setitem(sys.modules, "pegboard.ui", fake)
    import pegboard

    monkeypatch.setattr(pegboard, "ui", fake, raising=False)
    assert cli("play", "starfall", "--north", "skill-30", entry_points=True).code == 0
    assert cli("play", "starfall", "--skill", "20", entry_points=True).code == 0
    assert calls == [("starfall", "standard", ["human", "skill-30"]), ("starfall", "standard", ["human", "skill-20"])]
    result = cli("match", "starfall", "--south", "skill-100", "--north", "skill-50", "--max-plies", "4", "--json",
                 entry_points=True)
    assert result.code == 0, result.err
    entrants = json.loads(result.out)["entrants"]
    assert [e["bot"] for e in entrants] == ["skill-100", "skill-50"]
    assert sum(e["moves"] for e in entrants) == 4
