"""The Node War evaluator: term formulas on hand-built positions, symmetry, weights, CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pegboard_nodewar import EVALUATOR_TERMS, NodeWarGame, load_shipped
from pegboard_nodewar.evaluator import DEFAULT_WEIGHTS, NodeWarEvaluator, read_weights
from support.nodewar_helpers import build, random_position


def terms(state: Any) -> dict[str, Any]:
    evaluation = NodeWarEvaluator(state.game).evaluate(state)
    return {t.name: t for t in evaluation.terms}


def mirrored(game: NodeWarGame, state: Any) -> Any:
    """The same position with the colours swapped and the board flipped top to bottom."""
    doc = state.to_json()
    h = game.height
    nodes = [{"x": n["x"], "y": h - 1 - n["y"], "owner": 1 - n["owner"], "kind": n["kind"]} for n in doc["nodes"]]
    nodes.sort(key=lambda n: n["kind"] != "base")
    lines = [
        {"owner": 1 - ln["owner"], "ends": [[x, h - 1 - y] for x, y in ln["ends"]], "state": ln["state"]}
        for ln in doc["lines"]
    ]
    out = dict(doc, nodes=nodes, lines=lines, to_move=1 - doc["to_move"], result=None)
    return game.state_from_json(out)


# -- the breakdown ----------------------------------------------------------------------


def test_fourteen_terms_in_order_and_the_score_is_their_sum(game: NodeWarGame) -> None:
    state = random_position(game, 40, seed=3)
    evaluation = NodeWarEvaluator(game).evaluate(state)
    assert tuple(t.name for t in evaluation.terms) == EVALUATOR_TERMS
    assert len(evaluation.terms) == 14
    for term in evaluation.terms:
        assert term.contribution == pytest.approx(term.weight * (term.values[0] - term.values[1]))
        assert term.description
    assert evaluation.score == pytest.approx(sum(t.contribution for t in evaluation.terms))


def test_fast_score_equals_the_breakdown_score(game: NodeWarGame) -> None:
    evaluator = NodeWarEvaluator(game)
    for seed in range(4):
        state = random_position(game, 30 + 40 * seed, seed)
        assert evaluator.score(state) == pytest.approx(evaluator.evaluate(state).score)


def test_start_position_is_level(game: NodeWarGame) -> None:
    evaluation = NodeWarEvaluator(game).evaluate(game.new_state())
    assert evaluation.score == pytest.approx(0.0)
    t = {term.name: term for term in evaluation.terms}
    assert (t["alive_nodes"].values[0], t["free_base_slots"].values[0], t["mobility"].values[0]) == (1, 6, 6)
    # the radius-4 disc around 6,2 holds 48 other points; 6 of them (rows -1, -2) are off the board
    assert t["base_room"].values[0] == t["base_room"].values[1] == 42


@pytest.mark.parametrize("seed", [1, 2, 5, 8])
def test_mirrored_position_negates_the_score(game: NodeWarGame, seed: int) -> None:
    evaluator = NodeWarEvaluator(game)
    state = random_position(game, 25 + 20 * seed, seed)
    flipped = mirrored(game, state)
    assert evaluator.score(flipped) == pytest.approx(-evaluator.score(state))
    a, b = evaluator.evaluate(state), evaluator.evaluate(flipped)
    assert a.terms, "the evaluation has terms to compare"
    for ta, tb in zip(a.terms, b.terms, strict=True):
        assert (ta.values[0], ta.values[1]) == pytest.approx((tb.values[1], tb.values[0])), ta.name


# -- each formula on a hand-built position ----------------------------------------------


@pytest.fixture
def sample(game: NodeWarGame) -> Any:
    """Blue: a triangle (Base, 4,5, 8,5), a tail 8,5-8,8-8,11, a dead pair 1,6-1,9.
    Red: a chain 6,16-6,13-6,10, a node 4,6 near Blue's Base, a cut line."""
    return build(
        game,
        blue=[(4, 5), (8, 5), (8, 8), (8, 11), (1, 6), (1, 9)],
        red=[(6, 13), (6, 10), (3, 13), (4, 7)],
        lines=[
            ((6, 2), (4, 5)),
            ((6, 2), (8, 5)),
            ((4, 5), (8, 5)),
            ((8, 5), (8, 8)),
            ((8, 8), (8, 11)),
            ((1, 6), (1, 9)),
            ((4, 5), (1, 6), "cut"),
            ((6, 16), (6, 13)),
            ((6, 13), (6, 10)),
            ((6, 16), (3, 13), "cut"),
            ((6, 10), (4, 7)),
        ],
        turn=11,
    )


def test_material_terms(sample: Any) -> None:
    t = terms(sample)
    assert (t["alive_nodes"].values[0], t["alive_nodes"].values[1]) == (5, 4)  # Bases included; 3,13 is dead
    assert (t["dead_nodes"].values[0], t["dead_nodes"].values[1]) == (2, 1)


def test_structure_terms(sample: Any) -> None:
    t = terms(sample)
    # Blue: 5 live lines between 5 alive nodes -> one loop; Red: a tree
    assert (t["loop_redundancy"].values[0], t["loop_redundancy"].values[1]) == (1, 0)
    # Blue's Base: 2 lines; Red's Base: one live and one cut line
    assert (t["free_base_slots"].values[0], t["free_base_slots"].values[1]) == (4, 4)
    # free branches: Blue 4 + (4-3) + (4-3) + (4-2) + (4-1) = 11; Red (6-2) + 2 + 2 + 3 = 11
    # (the cut line still takes a slot of Red's Base)
    assert (t["mobility"].values[0], t["mobility"].values[1]) == (11, 11)
    # one live line only: Blue 8,11; Red 4,7
    assert (t["weak_points"].values[0], t["weak_points"].values[1]) == (1, 1)


def test_geometry_terms(sample: Any) -> None:
    t = terms(sample)
    # the axis runs 14 points from Base to Base; advance is measured along it
    assert t["front_line_advance"].values[0] == pytest.approx(9.0)  # 8,11 is 9 rows up
    assert t["front_line_advance"].values[1] == pytest.approx(9.0)  # 4,7 is 9 rows down
    # midline at 7 rows from each Base, band 1.5: Blue 8,8 (6 rows up); Red 6,10 (6 rows down),
    # but not 4,7 (9 rows down) nor 8,11 / 4,5 for Blue (9 and 3 rows up)
    assert (t["centre_line"].values[0], t["centre_line"].values[1]) == (1, 1)
    # lateral columns: Blue x in {6, 4, 8}; Red x in {6, 4}
    assert (t["wide_network"].values[0], t["wide_network"].values[1]) == (3, 2)
    # flanks are 3+ columns off the axis in the own half: none qualifies on both sides
    assert (t["flank_watch"].values[0], t["flank_watch"].values[1]) == (0, 0)


def test_siege_terms(sample: Any) -> None:
    t = terms(sample)
    # Red's 4,7 is within 4 + 3 of Blue's Base (dx -2, dy 5: 29 <= 49)
    assert t["base_siege"].values[0] == 1
    # Blue's 8,11 is within 7 of Red's Base (dx 2, dy -5); 8,8 is not (dx 2, dy -8)
    assert t["base_siege"].values[1] == 1
    # nobody has a node inside the other Base's radius
    assert (t["siege_presence"].values[0], t["siege_presence"].values[1]) == (0, 0)


def test_base_room_counts_empty_points_off_live_lines(game: NodeWarGame) -> None:
    state = build(game, blue=[(6, 6)], lines=[((6, 2), (6, 6))])
    t = terms(state)
    # 42 points around the Base, minus the node 6,6 and the three points inside 6,2-6,6
    assert t["base_room"].values[0] == 42 - 1 - 3
    assert t["base_room"].values[1] == 42


def test_siege_presence_needs_a_free_branch(game: NodeWarGame) -> None:
    state = build(
        game,
        blue=[(6, 6), (6, 9), (7, 12)],
        lines=[((6, 2), (6, 6)), ((6, 6), (6, 9)), ((6, 9), (7, 12))],
    )
    # 7,12 is just outside Red's Base radius (dx 1, dy -4: 17 > 16)
    assert terms(state)["siege_presence"].values[0] == 0
    state = build(
        game,
        blue=[(6, 6), (6, 9), (6, 12)],
        lines=[((6, 2), (6, 6)), ((6, 6), (6, 9)), ((6, 9), (6, 12))],
    )
    assert terms(state)["siege_presence"].values[0] == 1  # 6,12: dy -4, inside, 3 free branches


def test_opening_rush_fades_with_the_turn(game: NodeWarGame) -> None:
    lines = [((6, 2), (6, 6)), ((6, 6), (6, 9))]
    early = terms(build(game, blue=[(6, 6), (6, 9)], lines=lines, turn=1))["opening_rush"].values[0]
    late = terms(build(game, blue=[(6, 6), (6, 9)], lines=lines, turn=21))["opening_rush"].values[0]
    over = terms(build(game, blue=[(6, 6), (6, 9)], lines=lines, turn=60))["opening_rush"].values[0]
    assert early == pytest.approx((4 + 7) / 14)
    assert late == pytest.approx(early / 2)
    assert over == 0


# -- weights from the ruleset -------------------------------------------------------------


def test_weights_come_from_the_ruleset_table(game: NodeWarGame) -> None:
    table = game.ruleset["evaluator"]
    evaluator = NodeWarEvaluator(game)
    for name in EVALUATOR_TERMS:
        assert evaluator.weights[name] == pytest.approx(table[name])


def test_a_variant_can_reweight_a_term() -> None:
    ruleset = load_shipped("standard")
    ruleset["evaluator"] = dict(ruleset["evaluator"], alive_nodes=100.0, mobility=0)
    game = NodeWarGame(ruleset)
    state = build(game, blue=[(6, 6)], lines=[((6, 2), (6, 6))])
    t = {term.name: term for term in NodeWarEvaluator(game).evaluate(state).terms}
    assert t["alive_nodes"].weight == 100.0 and t["alive_nodes"].contribution == pytest.approx(100.0)
    assert t["mobility"].contribution == 0


def test_missing_table_uses_the_defaults_and_settings_are_read() -> None:
    weights, settings = read_weights({})
    assert weights == DEFAULT_WEIGHTS
    weights, settings = read_weights({"evaluator": {"opening_turns": 10, "base_room": 2, "note": "x", "flag": True}})
    assert settings["opening_turns"] == 10 and weights["base_room"] == 2.0


def test_evaluator_is_registered_for_nodewar() -> None:
    from pegboard.plugins.manager import get_plugins

    spec = get_plugins().evaluator("nodewar", "standard")
    game = NodeWarGame(load_shipped("standard"))
    assert isinstance(spec.factory(game), NodeWarEvaluator)


# -- pegboard eval --------------------------------------------------------------------------


def test_cli_eval_prints_every_term(cli: Any, tmp_path: Path, sample: Any) -> None:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(sample.to_json()))
    result = cli("eval", "nodewar", str(path), entry_points=True)
    assert result.code == 0, result.err
    for name in EVALUATOR_TERMS:
        assert name in result.out
    for header in ("Blue", "Red", "weight", "contribution"):
        assert header in result.out
    data = json.loads(cli("eval", "nodewar", str(path), "--json", entry_points=True).out)
    assert data["evaluator"] == "standard"
    assert [t["name"] for t in data["terms"]] == list(EVALUATOR_TERMS)
    expected = NodeWarEvaluator(sample.game).evaluate(sample)
    assert data["score"] == pytest.approx(expected.score)
    alive = data["terms"][0]
    assert tuple(alive["values"]) == (5, 4)
