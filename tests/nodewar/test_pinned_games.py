"""Seeded Hard and Expert games, pinned by the digest of their records.

Speed work must never change what the engine or the search bots do: the same
plan and game index must keep producing exactly these moves and results. (The
random bot is not pinned: it draws its moves through ``State.random_move``,
whose sampling may change as long as it stays uniform.) A deliberate change to
a bot's play updates the digests here, with the reason in the commit.

Expert runs on a small budget. Its search is counted in work units, so the
moves do not depend on the machine, except through the wall-clock guard that
stops a search on a machine far too slow; the test turns the guard off, so a
busy machine cannot cut a search short and change a move.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from pegboard.batch.runner import MatchPlan, play_game

CASES = [
    (("hard", "medium"), 1, None, 0, 29, "17a8b8db581a4354"),
    (("expert", "hard"), 2, 0.05, 0, 60, "b40f6bb649e3303d"),
    (("hard", "expert"), 3, 0.05, 1, 45, "b939bb7d2fcb4204"),
    (("easy", "medium"), 4, None, 0, 48, "b7933a121867887a"),
]


def digest(record: dict) -> str:
    kept = {key: record[key] for key in ("moves", "result") if key in record}
    return hashlib.sha256(json.dumps(kept, sort_keys=True).encode()).hexdigest()[:16]


@pytest.mark.parametrize(("bots", "seed", "budget", "index", "plies", "expected"), CASES, ids=lambda v: str(v))
def test_seeded_bot_games_are_unchanged(
    bots: tuple[str, str], seed: int, budget: float | None, index: int, plies: int, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pegboard_nodewar import bots as nodewar_bots

    monkeypatch.setattr(nodewar_bots, "guard", lambda budget: float("inf"))
    outcome = play_game(MatchPlan(game="nodewar", bots=bots, seed=seed, budget=budget, max_plies=60), index)
    assert outcome.plies == plies
    assert digest(outcome.record) == expected
