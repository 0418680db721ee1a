"""Connect Four's rules and bots on hand-built positions."""

from __future__ import annotations

import pytest

from pegboard.game import IllegalMove, InvalidMoveEncoding, InvalidPosition, Move
from pegboard_connect4.bots import EasyBot, MinimaxBot
from pegboard_connect4.rules import Connect4Game, Connect4State

STANDARD = {"board": {"columns": 7, "rows": 6, "connect": 4}}


def play(text: str, ruleset: dict[str, dict[str, int]] = STANDARD) -> Connect4State:
    """A state after the moves in ``text`` ("a b a b": column letters, Red first)."""
    game = Connect4Game(ruleset)
    state = game.new_state()
    for letter in text.split():
        state.apply(game.parse_move(letter))
    return state


@pytest.mark.parametrize(
    ("moves", "winner"),
    [
        ("a b a b a b a", 0),  # a column
        ("a a b b c c d", 0),  # a row
        ("a b b c d c c d e d d", 0),  # a rising diagonal a1 b2 c3 d4
        ("d c c b a b b a g a a", 0),  # a falling diagonal a4 b3 c2 d1
        ("a b a b a b c b", 1),  # Yellow's column
    ],
)
def test_a_line_wins_and_ends_the_game(moves: str, winner: int) -> None:
    state = play(moves)
    assert state.result is not None
    assert (state.result.winner, state.result.reason) == (winner, "line")
    assert state.legal_moves() == []
    assert state.check(3) == "the game is over" and state.check(3).rule == "game_over"


def test_three_in_a_row_is_not_yet_a_win() -> None:
    state = play("a a b b c")
    assert state.result is None
    assert state.to_move == 1


def test_a_full_column_refuses_another_disc_and_leaves_the_state_alone() -> None:
    state = play("a a a a a a")
    before = state.to_json()
    assert state.check(0) == "column a is full" and state.check(0).rule == "column_full"
    assert 0 not in state.legal_moves()
    with pytest.raises(IllegalMove) as refused:
        state.apply(0)
    assert refused.value.rule == "column_full"
    assert state.to_json() == before


def test_a_full_board_without_a_line_is_a_draw() -> None:
    state = play("a b c a b c", {"board": {"columns": 3, "rows": 2, "connect": 3}})
    assert state.result is not None
    assert (state.result.winner, state.result.reason) == (None, "board_full")


def test_undo_reopens_a_won_game() -> None:
    state = play("a b a b a b a")
    assert state.undo() == 0
    assert state.result is None
    assert state.legal_moves() == list(range(7))


def test_positions_round_trip_and_bad_ones_are_refused() -> None:
    game = Connect4Game(STANDARD)
    won = play("a b a b a b a")
    again = game.state_from_json(won.to_json())
    assert again.to_json() == won.to_json()
    assert again.result is not None and again.result.winner == 0
    empty: list[list[int]] = [[] for _ in range(7)]
    with pytest.raises(InvalidPosition, match="turns alternate"):
        game.state_from_json({"columns": [[1, 1], *empty[1:]], "to_move": 0})
    with pytest.raises(InvalidPosition, match="to_move must be 1"):
        game.state_from_json({"columns": [[0], *empty[1:]], "to_move": 0})
    with pytest.raises(InvalidPosition, match="did not move last"):  # Red has four but Yellow moved last
        game.state_from_json({"columns": [[0, 0, 0, 0], [1, 1, 1], [1], *empty[3:]], "to_move": 0})
    with pytest.raises(InvalidPosition, match="expected 7 columns"):
        game.state_from_json({"columns": empty[1:], "to_move": 0})


def test_moves_decode_only_from_their_own_shape() -> None:
    game = Connect4Game(STANDARD)
    assert game.decode_move(game.encode_move(6)) == 6
    assert game.move_text(6) == "g"
    for bad in ({"column": 7}, {"column": -1}, {"column": True}, {"column": "a"}, [3], {"column": 1, "x": 2}):
        with pytest.raises(InvalidMoveEncoding):
            game.decode_move(bad)


@pytest.mark.parametrize("bot", [EasyBot, MinimaxBot])
def test_bots_complete_their_own_line_first(bot: type[EasyBot] | type[MinimaxBot]) -> None:
    state = play("a b a b a b")  # Red to move: a wins at once (Yellow would win in b next)
    assert bot(state.game, 1).choose(state.clone(), 0.1) == 0


@pytest.mark.parametrize("bot", [EasyBot, MinimaxBot])
def test_bots_block_the_opponents_line(bot: type[EasyBot] | type[MinimaxBot]) -> None:
    state = play("a b a b a")  # Yellow to move: Red threatens a4
    view = state.clone()
    assert bot(state.game, 1).choose(view, 0.1) == 0
    assert view.to_json() == state.to_json(), "the bot leaves its view as it found it"


def test_minimax_sees_a_double_threat_coming() -> None:
    # Red has b1 c1 with a1 and d1 empty; Yellow must block one side now, and the bot (Yellow) does
    state = play("b b c")
    choice = MinimaxBot(state.game, 3).choose(state.clone(), 0.1)
    assert choice in (0, 3)


def test_one_seed_gives_one_game() -> None:
    def game_moves(seed: int) -> list[Move]:
        state = play("")
        bots = [EasyBot(state.game, seed), EasyBot(state.game, seed + 1)]
        moves: list[Move] = []
        while state.result is None:
            move = bots[state.to_move].choose(state.clone(), 0.1)
            assert isinstance(move, int)
            state.apply(move)
            moves.append(move)
        return moves

    assert game_moves(5) == game_moves(5)
    assert len({tuple(game_moves(seed)) for seed in range(6)}) > 1


def test_the_evaluation_counts_open_windows_for_each_seat() -> None:
    from pegboard_connect4.evaluator import Connect4Evaluator

    state = play("a g b g c")  # Red a1 b1 c1 (an open three to d1), Yellow g1 g2
    evaluator = Connect4Evaluator(state.game)
    evaluation = evaluator.evaluate(state)
    assert evaluation.score == evaluator.score(state) > 0
    assert evaluation.score == sum(term.contribution for term in evaluation.terms)
    threes = next(term for term in evaluation.terms if term.name == "open 3")
    assert threes.values == (1.0, 0.0), "only a1-d1 holds three of Red's discs"
    won = play("a b a b a b a")
    assert evaluator.evaluate(won).terms[0].name == "line" and evaluator.score(won) == evaluator.evaluate(won).score > 0
