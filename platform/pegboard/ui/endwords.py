"""What the end-of-game screen says: a headline, the reason as a sentence, the score (no pyglet)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pegboard.game import Result


@dataclass(frozen=True)
class EndWords:
    """The end screen's words: ``outcome`` is "win", "loss" or "draw" for the one person at the
    window, or "" when nobody or several people played there."""

    headline: str
    reason: str
    score: str
    outcome: str


def end_words(result: Result, seats: Sequence[str], humans: Sequence[bool],
              seat_name: Callable[[int], str] | None = None) -> EndWords:
    """The words for ``result``; ``humans`` says which seats a person plays at this window."""
    name = seat_name or (lambda seat: seats[seat])
    people = [i for i, human in enumerate(humans) if human]
    me = people[0] if len(people) == 1 else None
    if result.winner is None:
        headline, outcome = "Draw", ("draw" if me is not None else "")
    elif me is not None:
        won = result.winner == me
        headline, outcome = ("You win" if won else "You lose"), ("win" if won else "loss")
    else:
        headline, outcome = f"{name(result.winner)} wins", ""
    return EndWords(headline, _sentence(result, seats), _score(result, seats), outcome)


def _sentence(result: Result, seats: Sequence[str]) -> str:
    """The reason as a sentence: the game's own text, else its reason id in words."""
    text = (result.text or result.reason.replace("_", " ")).strip()
    if not text:
        return ""
    # say who won unless the game's own words already do
    named = "draw" if result.winner is None else seats[result.winner].lower()
    if named not in text.lower():
        text = f"{'Draw' if result.winner is None else seats[result.winner] + ' wins'}: {text}"
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def _score(result: Result, seats: Sequence[str]) -> str:
    """``"Score: Blue 23 – Red 19"`` from the tallies the result was decided on ("" without)."""
    if not result.scores or len(result.scores) != len(seats):
        return ""
    return "Score: " + " – ".join(f"{seat} {value}" for seat, value in zip(seats, result.scores, strict=True))


__all__ = ["EndWords", "end_words"]
