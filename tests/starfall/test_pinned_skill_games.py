"""Seeded skill-bot games stay move for move what they were: engine speed-ups change no game.

Each case plays one game through the match runner (what ``pegboard match`` does), capped
at a few plies to keep the test short, and compares a digest of the record's moves and
result (the record's ``meta`` holds think times, so it is left out) with the digest the
engine gave before the speed work of issue #14 (with the bots' weights and ladder of
30 Nov 2026, 14:50; the skill-50 game re-pinned at 15:53 when ``exposed`` moved from
skill 50 to 60; the three games that end re-pinned in December when result texts began naming
squares as the History does, "f8" for "(5,7)": the same moves; all re-pinned on 2 Dec when the
ruleset's ``[evaluator]`` table, which the record holds, gained ``siege_power`` and ``siege_doomed``: the same moves). Every level from 10 to 90 is in one of the games; skill-100 is not,
because its search stops on the clock, so its games depend on the machine's speed. A
failure here means a rule, the legal-move order, the random draws or a bot's evaluation
changed: if that was meant, say why in the commit and update the digest.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from pegboard.batch.runner import MatchPlan, play_game

#: (ruleset, (south bot, north bot), match seed, ply cap, moves played, digest)
PINNED = (
    ("standard", ("skill-60", "skill-20"), 3, 80, 80, "5254a12bda6d20f3"),
    ("standard", ("skill-90", "skill-50"), 1, 60, 60, "f8de8371027de06e"),
    ("quick", ("skill-90", "skill-50"), 5, 60, 25, "ebbb0137a12b671a"),
    ("fog_seam", ("skill-40", "skill-10"), 7, 100, 100, "dce429ca1f266cd0"),
    ("open_sky", ("skill-80", "skill-30"), 2, 100, 53, "7e40ed37429c35c8"),
    ("salvage", ("skill-70", "skill-40"), 4, 100, 35, "abd2e39ec53d7699"),
)


def record_digest(record: dict[str, Any]) -> str:
    """The first 16 hex digits of SHA-256 over the record's game, ruleset, seed, moves and result."""
    keep = {k: record[k] for k in ("game", "ruleset", "seed", "moves", "result") if k in record}
    return hashlib.sha256(json.dumps(keep, sort_keys=True).encode()).hexdigest()[:16]


@pytest.mark.parametrize(("ruleset", "bots", "seed", "cap", "plies", "digest"), PINNED,
                         ids=[f"{p[0]}-{p[1][0]}-v-{p[1][1]}" for p in PINNED])
def test_seeded_skill_bot_game_is_unchanged(ruleset: str, bots: tuple[str, str], seed: int, cap: int,
                                            plies: int, digest: str) -> None:
    outcome = play_game(MatchPlan("starfall", bots, ruleset, seed=seed, max_plies=cap), 0)
    assert len(outcome.record["moves"]) == plies
    assert record_digest(outcome.record) == digest


def test_the_digest_sees_a_changed_move() -> None:
    outcome = play_game(MatchPlan("starfall", ("skill-60", "skill-20"), "standard", seed=3, max_plies=6), 0)
    record = dict(outcome.record)
    before = record_digest(record)
    moves = list(record["moves"])
    moves[-1] = {"type": "pass"}
    record["moves"] = moves
    assert record_digest(record) != before
    record["meta"] = {"think_seconds": [9.9]}  # think times never count
    assert record_digest(record) == record_digest({**record, "meta": {}})
