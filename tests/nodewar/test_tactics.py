"""Hand-built positions with one clearly right idea that Hard and Expert must find.

Each test first proves the position is what it claims (the wrong moves
really lose something), then asks the bots. Expert gets a budget large
enough for its first iterations; its work budget, not the clock, decides
how far it searches, so the answer does not depend on the machine.
"""

from __future__ import annotations

from typing import Any

import pytest

from pegboard_nodewar import NodeWarGame
from pegboard_nodewar.bots import ExpertBot, HardBot, MediumBot
from support import nodewar_helpers
from support.nodewar_helpers import build

SEARCHERS = [pytest.param(HardBot, id="hard"), pytest.param(ExpertBot, id="expert")]


def choose(bot_class: type, state: Any, seed: int = 3) -> Any:
    view = state.clone()
    move = bot_class(state.game, seed).choose(view, 1.0)
    assert view.to_json() == state.to_json()  # the search left its view as it found it
    assert state.check(move) is None
    return move


def effect(state: Any, move: Any) -> tuple[int, int]:
    """(enemy nodes killed, own nodes revived) by ``move``."""
    state.push(move)
    rec = state.last_effect()
    out = (len(rec.died), len(rec.revived))
    state.undo()
    return out


def worst_reply(state: Any, move: Any) -> tuple[int, bool]:
    """After ``move``: the most nodes one reply kills, and whether some reply wins outright."""
    mover = state.to_move
    state.push(move)
    most, wins = 0, False
    for reply in state.legal_moves():
        state.push(reply)
        most = max(most, len(state.last_effect().died))
        wins = wins or (state.result is not None and state.result.winner == 1 - mover)
        state.undo()
    state.undo()
    return most, wins


# -- 1. cut the enemy line that kills the most nodes ------------------------------------------


@pytest.fixture
def cut_position(game: NodeWarGame) -> Any:
    """Red's chain 6,16-6,13-6,10-6,7 forks to 8,5 and 8,8; Blue's 4,11 and 4,8 can reach it.

    Cutting 6,13-6,10 kills four nodes, cutting 6,10-6,7 three. Only a node
    placed *on* 6,13-6,10 (at 6,11 or 6,12) stops Red from reviving them
    at once with a new line 6,13-6,10.
    """
    return build(
        game,
        blue=[(4, 5), (4, 8), (4, 11)],
        red=[(6, 13), (6, 10), (6, 7), (8, 5), (8, 8)],
        lines=[
            ((6, 2), (4, 5)),
            ((4, 5), (4, 8)),
            ((4, 8), (4, 11)),
            ((6, 16), (6, 13)),
            ((6, 13), (6, 10)),
            ((6, 10), (6, 7)),
            ((6, 7), (8, 5)),
            ((6, 7), (8, 8)),
        ],
    )


def test_cut_position_is_as_described(game: NodeWarGame, cut_position: Any) -> None:
    kills = sorted((effect(cut_position, m)[0] for m in cut_position.legal_moves()), reverse=True)
    assert kills[0] == 4 and 3 in kills
    # a cut from the side is answered by a revive that crosses the new line
    side_cut = game.parse_move("grow 4,11 -> 7,11")
    assert effect(cut_position, side_cut)[0] == 4
    cut_position.push(side_cut)
    assert effect(cut_position, game.parse_move("revive 6,13 -> 6,10"))[1] == 4
    cut_position.undo()


@pytest.mark.parametrize("bot_class", SEARCHERS)
def test_cuts_the_line_that_kills_most(game: NodeWarGame, cut_position: Any, bot_class: type) -> None:
    move = choose(bot_class, cut_position)
    assert effect(cut_position, move)[0] == 4
    assert game.move_text(move) in ("grow 4,11 -> 6,11", "grow 4,11 -> 6,12")


# -- 2. revive a large dead sub-network ---------------------------------------------------------


@pytest.fixture
def revive_position(game: NodeWarGame) -> Any:
    """Blue's 8,5-9,7 line was cut: 9,7, 9,10, 11,12 and 7,12 are dead. 8,5 can reach 9,7 again."""
    return build(
        game,
        blue=[(8, 5), (9, 7), (9, 10), (11, 12), (7, 12)],
        red=[(6, 13), (3, 12)],
        lines=[
            ((6, 2), (8, 5)),
            ((8, 5), (9, 7), "cut"),
            ((9, 7), (9, 10)),
            ((9, 10), (11, 12)),
            ((9, 10), (7, 12)),
            ((6, 16), (6, 13)),
            ((6, 13), (3, 12)),
        ],
    )


@pytest.mark.parametrize("bot_class", SEARCHERS)
def test_revives_the_dead_network(game: NodeWarGame, revive_position: Any, bot_class: type) -> None:
    assert sum(1 for m in revive_position.legal_moves() if effect(revive_position, m)[1] == 4) == 1
    move = choose(bot_class, revive_position)
    assert game.move_text(move) == "revive 8,5 -> 9,7"
    assert effect(revive_position, move) == (0, 4)


# -- 3. stop a smother of the own Base ----------------------------------------------------------


@pytest.fixture
def smother_position(game: NodeWarGame) -> Any:
    return nodewar_helpers.smother_position(game)


def test_smother_position_is_as_described(smother_position: Any) -> None:
    moves = smother_position.legal_moves()
    safe = [m for m in moves if not worst_reply(smother_position, m)[1]]
    assert 0 < len(safe) <= 3 < len(moves)


@pytest.mark.parametrize("bot_class", SEARCHERS)
def test_stops_the_smother(smother_position: Any, bot_class: type) -> None:
    move = choose(bot_class, smother_position)
    assert worst_reply(smother_position, move)[1] is False


# -- 4. refuse a move that lets the opponent cut the Base's only live line ----------------------


@pytest.fixture
def base_line_position(game: NodeWarGame) -> Any:
    """Blue's whole network hangs from the Base by 6,2-6,6; Red's 3,5 can cut it at 6,5.

    Meanwhile Blue can take a Red node at 12,13 with a cut. Taking it lets
    Red kill six Blue nodes for good (the Base could not reach them again:
    Red's new node at 6,5 blocks the way); a block on 6,5's approach, or
    cutting 3,8-3,5 (the attacker's own line) keeps them.
    """
    return build(
        game,
        blue=[(6, 6), (8, 8), (8, 11), (10, 13), (10, 9), (11, 12)],
        red=[(3, 14), (3, 11), (3, 8), (3, 5), (9, 14), (12, 13)],
        lines=[
            ((6, 2), (6, 6)),
            ((6, 6), (8, 8)),
            ((8, 8), (8, 11)),
            ((8, 11), (10, 13)),
            ((8, 8), (10, 9)),
            ((10, 9), (11, 12)),
            ((6, 16), (3, 14)),
            ((3, 14), (3, 11)),
            ((3, 11), (3, 8)),
            ((3, 8), (3, 5)),
            ((6, 16), (9, 14)),
            ((9, 14), (12, 13)),
        ],
    )


def test_base_line_position_is_as_described(game: NodeWarGame, base_line_position: Any) -> None:
    greedy = game.parse_move("grow 10,13 -> 10,14")
    assert effect(base_line_position, greedy)[0] == 1
    assert worst_reply(base_line_position, greedy)[0] == 7  # the six, and the new node 10,14
    # the one-ply bot falls for it: it is the test's point
    medium = choose(MediumBot, base_line_position)
    assert worst_reply(base_line_position, medium)[0] >= 6


@pytest.mark.parametrize("bot_class", SEARCHERS)
def test_refuses_to_leave_the_base_line_open(base_line_position: Any, bot_class: type) -> None:
    move = choose(bot_class, base_line_position)
    assert worst_reply(base_line_position, move)[0] <= 1
