"""Refusal: what State.check returns, a reason string that carries its rule id."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from pegboard import Refusal, load_game
from pegboard.game import IllegalMove
from support import gridtoy, toygame


def test_a_refusal_is_its_reason_and_carries_the_rule() -> None:
    refusal = Refusal("column_full", "column a is full")
    assert refusal == "column a is full" and "full" in refusal and f"{refusal}!" == "column a is full!"
    assert refusal.rule == "column_full" and refusal.reason == "column a is full" and type(refusal.reason) is str
    assert json.dumps({"why": refusal}) == '{"why": "column a is full"}'
    assert repr(refusal) == "Refusal('column_full', 'column a is full')"
    assert refusal.shown() == "column a is full (rule column_full)"


def test_a_refusal_survives_pickling_and_copying_with_its_rule() -> None:
    refusal = Refusal("take", "pile 1 holds only 2")
    for again in (pickle.loads(pickle.dumps(refusal)), copy.copy(refusal), copy.deepcopy(refusal)):
        assert isinstance(again, Refusal) and again.rule == "take" and again == refusal


def test_of_wraps_a_plain_reason_and_keeps_a_refusal() -> None:
    refusal = Refusal("take", "no")
    assert Refusal.of(refusal) is refusal
    plain = Refusal.of("a plugin's plain reason")
    assert plain.rule == "illegal" and plain == "a plugin's plain reason"


@pytest.mark.parametrize("make", [toygame.make_plugins, gridtoy.make_plugins], ids=["toy", "gridtoy"])
def test_check_and_apply_name_the_same_rule(make) -> None:
    plugins = make()
    game_id = next(iter(plugins.games()))
    state = load_game(game_id, plugins=plugins).new_state()
    bad = {"toy": (9, 1), "gridtoy": -1}[game_id]
    refusal = state.check(bad)
    assert isinstance(refusal, Refusal)
    with pytest.raises(IllegalMove) as info:
        state.apply(bad)
    assert (info.value.rule, info.value.reason) == (refusal.rule, refusal.reason)


def test_the_board_view_shows_the_rule_of_a_refused_move() -> None:
    pytest.importorskip("pyglet")
    from pegboard.match.session import Session
    from pegboard.ui.board import BoardViewBase

    plugins = gridtoy.make_plugins()
    game = load_game("gridtoy", plugins=plugins)
    session = Session(game, ["human", "human"], plugins=plugins, threaded=False)
    view = BoardViewBase(game, session)
    session.play(0)
    assert view.play(0) is False
    assert view.status == f"{game.move_text(0)} is taken (rule occupied)."
    session.undo()
    assert view.play(0) is True and view.status is None
