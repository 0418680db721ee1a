"""The platform's own plugin: what every game gets for free.

Registered by :class:`pegboard.plugins.Plugins` itself, through the same hooks
as any third-party plugin (like datasette's default plugins).
"""

from __future__ import annotations

from .bots import RandomBot
from .hookspecs import hookimpl
from .specs import BotSpec

RANDOM = BotSpec(
    id="random",
    name="Random",
    factory=lambda game, seed: RandomBot(game, seed),
    game=None,
    budget=0.0,
    description="Plays a random legal move (seeded). Works for every game.",
)


@hookimpl
def pegboard_bots(game: str) -> list[BotSpec]:
    return [RANDOM]
