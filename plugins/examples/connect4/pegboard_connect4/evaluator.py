"""Connect Four's static evaluation, from Red's (seat 0's) side: open windows by how full they are.

``pegboard eval`` prints its terms and the window's evaluation bar shows its
score. Below a won position it is the minimax bot's leaf score.
"""

from __future__ import annotations

from pegboard.game import Game, State
from pegboard.specs import Evaluation, Evaluator, Term

from .bots import WINDOW_VALUE, open_windows, score
from .rules import Connect4State


def _connect4(state: State) -> Connect4State:
    if not isinstance(state, Connect4State):
        raise TypeError(f"the Connect Four evaluator got a {type(state).__name__}")
    return state


WON = 1000.0
"""The score of a won position (the bar is full; the minimax bot uses its own, larger value)."""


class Connect4Evaluator(Evaluator):
    """One term per window size: each seat's open windows holding that many discs, weighted."""

    scale = 40.0  # one open three is worth 32: the bar leans clearly towards a seat with a threat
    #: Red's win chance is the logistic of score / win_scale: fitted by Pegboard's
    #: tools/calibrate_win_scale.py to 40 minimax-against-minimax games (1,248 positions).
    win_scale = 6.4

    def __init__(self, game: Game) -> None:
        self.game = game

    def evaluate(self, state: State) -> Evaluation:
        c4 = _connect4(state)
        if c4.result is not None and c4.result.winner is not None:
            red_won = c4.result.winner == 0
            won = WON if red_won else -WON
            return Evaluation(won, (Term("line", (1.0, 0.0) if red_won else (0.0, 1.0), WON, won, "a complete line wins"),))
        terms = []
        for size, (red, yellow) in sorted(open_windows(c4).items()):
            weight = WINDOW_VALUE.get(size, 0.0)
            description = f"runs of {c4.game.connect} cells holding {size} disc(s) of one seat and none of the other"
            terms.append(Term(f"open {size}", (float(red), float(yellow)), weight, weight * (red - yellow), description))
        return Evaluation(sum(term.contribution for term in terms), tuple(terms))

    def score(self, state: State) -> float:
        c4 = _connect4(state)
        if c4.result is not None and c4.result.winner is not None:
            return WON if c4.result.winner == 0 else -WON
        return score(c4)
