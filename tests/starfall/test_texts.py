"""What Starfall tells people reads as plain words: squares in the History's notation ("e2",
never an engine tuple such as "(4,1)"), directions by the compass, and every move as each side
may be told of it."""

from __future__ import annotations

import random
import re

import pytest

from pegboard.match.session import Session
from pegboard.plugins.manager import Plugins
from pegboard.ui.catalog import load_game
from pegboard_starfall import moves as mv

TUPLE = re.compile(r"\(\s*[-+]?\d+\s*,\s*[-+]?\d+\s*\)|[-+]\d,\s*[-+]\d")
SQUARE = re.compile(r"\b[a-k](?:1[01]|[1-9])\b")
RULESETS = ("standard", "fog_seam", "fog_dark", "salvage", "open_sky", "quick")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_text_a_game_tells_names_squares_as_the_history_does(ruleset):
    game, _ref = load_game(Plugins(), "starfall", ruleset)
    rng = random.Random(11)
    told = 0
    for seed in (1, 2):
        st = game.new_state(seed)
        for _ply in range(260):
            if st.result is not None:
                break
            move = st.random_move(rng)
            texts = [mv.text(st.geo, move), *(st.move_text_for(move, seat) for seat in (0, 1))]
            texts += [e.text for e in st.apply(move)]
            if st.result is not None:
                texts.append(st.result.text)
            for text in texts:
                assert not TUPLE.search(text), f"{ruleset}: engine coordinates in {text!r}"
                told += 1
    assert told >= 400


def test_a_ram_reads_its_direction_by_the_compass():
    geo = load_game(Plugins(), "starfall", "standard")[0].geo
    assert mv.text(geo, mv.ram(geo.sq(4, 2), 4)) == "ram e3 north-east"
    assert mv.text(geo, mv.ram(geo.sq(4, 2), 3)) == "ram e3 south"


def test_a_resignation_reads_as_a_sentence_for_the_side_that_resigns():
    plugins = Plugins()
    game, ref = load_game(plugins, "starfall", "standard")
    session = Session(game, ["human", "human"], seed=2, ruleset=ref, plugins=plugins, threaded=False)
    assert session.to_move == 0
    session.resign(1)  # North leaves while South is to move
    last = session.history[-1]
    assert last.seat == 1 and last.text == "resigns"
    assert session.result.winner == 0 and session.result.text == "North resigns: South wins."


def test_a_hidden_move_reads_out_of_sight_and_a_half_seen_one_names_only_what_is_seen():
    game, _ref = load_game(Plugins(), "starfall", "fog_seam")
    st = game.new_state(4)
    geo = st.geo
    rng = random.Random(3)
    kinds: dict[str, int] = {}
    for _ply in range(300):
        if st.result is not None:
            break
        move = st.random_move(rng)
        if st.to_move == 1 and move.a >= 0:
            told = st.move_text_for(move, 0)
            visible = st.observation(0)["visible"]
            named_by_move = (move.a,) if move.b < 0 or move.kind == mv.RAM else (move.a, move.b)  # a ram's b: a direction
            seen = [geo.name(sq) for sq in named_by_move if visible[geo.row[sq]][geo.col[sq]]]
            named = SQUARE.findall(told)
            assert set(named) <= set(seen), f"{told!r} names squares South cannot see"
            if not named:
                assert told == "a move out of sight" or told == mv.text(geo, move)
            kinds[told.split(" ")[0]] = kinds.get(told.split(" ")[0], 0) + 1
            assert st.move_text_for(move, 1) == mv.text(geo, move), "the mover reads its own move in full"
        st.apply(move)
    assert kinds.get("a", 0) >= 10, "moves out of sight came up"
