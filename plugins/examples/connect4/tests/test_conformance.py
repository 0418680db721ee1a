"""Pegboard's conformance suite on this game: every shipped ruleset, two seeds each."""

from pegboard.testing import check_game


def test_connect4_keeps_the_game_contract() -> None:
    assert check_game("connect4") == ["connect4/five", "connect4/standard"]
