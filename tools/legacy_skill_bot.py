"""A plugin file with today's Starfall skill 100 of 1 Dec 2026, for measurements only.

``skill-100-legacy``: the skill-100 knowledge and reply check with the search on the clock
(0.2 s a move, the first pass cut at 1.2 s), as it was before skill 100 was metered in work
units. Load it with ``--plugin tools/legacy_skill_bot.py`` (tools/duel.py) or
``PEGBOARD_PLUGINS=tools/legacy_skill_bot.py``; it is not offered to players.
"""

from __future__ import annotations

from typing import Any

from pegboard import hookimpl
from pegboard.specs import BotSpec

#: The budget skill 100 had then.
LEGACY_BUDGET = 0.2


def _legacy(game: Any, seed: int) -> Any:
    from pegboard_starfall.bots import SkillBot

    return SkillBot(game, seed, 100, metered=False)


LEGACY = BotSpec(
    id="skill-100-legacy",
    name="Skill 100 (1 Dec 2026)",
    factory=_legacy,
    game="starfall",
    budget=LEGACY_BUDGET,
    description="Skill 100 with its reply check on the clock (0.2 s), as before it was metered; for measurements.",
)


@hookimpl
def pegboard_bots(game: str) -> BotSpec | None:
    return LEGACY if game == "starfall" else None
