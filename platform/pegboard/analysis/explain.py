"""What a marked move cost, in the evaluator's own words.

The move played and the better move are each followed by the reply the analysis expects
(the first move of the principal line after them), and the two positions reached are
evaluated. The terms whose contribution moved most against the mover are named with both
seats' raw values and the term's description: "alive nodes: Blue 9 instead of 12 (alive
nodes, Base included)". A line that ends the game says so first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pegboard.game import JSON, Game, Move, State

if TYPE_CHECKING:
    from pegboard.analysis.review import MoveRow
    from pegboard.specs import Evaluation, Evaluator

#: Terms named per explanation.
TERMS_NAMED = 2


def explain(game: Game, evaluator: Evaluator | None, state: State, row: MoveRow, reply: JSON | None) -> list[str]:
    """Sentences for ``row``'s move, played in ``state`` (left as found); ``reply`` is the best
    answer the analysis found after it (encoded), if any."""
    played = [game.decode_move(row.move)] + ([game.decode_move(reply)] if reply is not None else [])
    better = [game.decode_move(move) for move in row.line_moves[:2]]
    ending, after_played = _follow(game, evaluator, state, played)
    _, after_better = _follow(game, evaluator, state, better) if better else ("", None)
    sentences = [ending] if ending else []
    if after_played is not None and after_better is not None:
        sentences.extend(_term_changes(game.seats, row.seat, after_played, after_better))
    return sentences


def _follow(game: Game, evaluator: Evaluator | None, state: State, moves: Sequence[Move]) -> tuple[str, Evaluation | None]:
    """Play ``moves`` while they are legal; (how the game ended, if it did; the evaluation there)."""
    pushed = 0
    texts: list[str] = []
    try:
        for move in moves:
            if state.result is not None or state.check(move) is not None:
                break
            texts.append(state.move_text(move))
            state.push(move)
            pushed += 1
        ending = ""
        if state.result is not None:
            sentence = state.result.sentence(game.seats)
            ending = f"after {texts[-1]}: {sentence}" if pushed > 1 else sentence
        evaluation = evaluator.evaluate(state) if evaluator is not None else None
    finally:
        for _ in range(pushed):
            state.undo()
    return ending, evaluation


def _term_changes(seats: Sequence[str], seat: int, played: Evaluation, better: Evaluation) -> list[str]:
    """The terms that moved most against ``seat`` between the better line and the line played."""
    sign = 1.0 if seat == 0 else -1.0
    by_name = {term.name: term for term in better.terms}
    changes = []
    for term in played.terms:
        other = by_name.get(term.name)
        if other is None:
            continue
        hurt = sign * (term.contribution - other.contribution)
        if hurt < -1e-9:
            changes.append((hurt, term, other))
    changes.sort(key=lambda item: item[0])
    out = []
    for _, term, other in changes[:TERMS_NAMED]:
        moved = [
            f"{seats[index]} {_number(now)} instead of {_number(then)}"
            for index, (now, then) in enumerate(zip(term.values, other.values, strict=False))
            if index < len(seats) and now != then
        ]
        label = term.name.replace("_", " ")
        text = f"{label}: {', '.join(moved)}" if moved else label
        out.append(f"{text} ({term.description})" if term.description else text)
    return out


def _number(value: float) -> str:
    return f"{value:.3g}"
