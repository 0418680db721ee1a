"""Who plays each seat of a match: a person at the window or a bot."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pegboard.plugins import resolve
from pegboard.specs import BotSpec

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins

HUMAN = "human"
REMOTE = "remote"


@dataclass(frozen=True)
class SeatController:
    """Who plays one seat: a person at the window (``bot`` and ``remote`` are None), a bot,
    or a person playing from another program (``remote``: their name; an online match).

    ``budget`` overrides the bot spec's seconds per move.
    """

    bot: BotSpec | None = None
    budget: float | None = None
    remote: str | None = None

    @classmethod
    def human(cls) -> SeatController:
        return cls()

    @property
    def is_human(self) -> bool:
        """True for a person at this window (not a bot, not a remote player)."""
        return self.bot is None and self.remote is None

    @property
    def id(self) -> str:
        """``"human"`` or the bot's id (what the CLI and Customize dialog use)."""
        if self.remote is not None:
            return REMOTE
        return HUMAN if self.bot is None else self.bot.id

    @property
    def name(self) -> str:
        if self.remote is not None:
            return self.remote
        return "Player" if self.bot is None else self.bot.name

    @property
    def seconds(self) -> float:
        if self.bot is None:
            return 0.0
        return self.budget if self.budget is not None else self.bot.budget


SeatLike = SeatController | BotSpec | str | None


def seat_controller(value: SeatLike, game_id: str, plugins: Plugins | None = None) -> SeatController:
    """Turn ``"human"``, None, a :class:`BotSpec`, a bot id or a controller into a controller.

    Bot ids are looked up with ``plugins.bot(game_id, id)`` (raises ``UnknownId``).
    """
    if isinstance(value, SeatController):
        return value
    if value is None or value == HUMAN or value == "player":
        return SeatController()
    if isinstance(value, BotSpec):
        return SeatController(bot=value)
    if isinstance(value, str):
        return SeatController(bot=resolve(plugins).bot(game_id, value))
    raise TypeError(f"cannot use {value!r} as a seat")


def fresh_seed() -> int:
    """A new game seed from the operating system's randomness (31 bits: any engine and JSON take it)."""
    return secrets.randbits(31)


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of a game dealt with ``seed``."""
    return (seed * 1_000_003 + 7919 * (seat + 1)) & 0x7FFFFFFF


__all__ = ["HUMAN", "REMOTE", "SeatController", "SeatLike", "bot_seed", "fresh_seed", "seat_controller"]
