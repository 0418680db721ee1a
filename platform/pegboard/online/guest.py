"""The guest's side of an online match: what it was shown, and the moves it sends.

The guest never holds the position. It keeps the host's offer (the settings),
the last observation of its seat and a view rebuilt from it with
:meth:`pegboard.game.Game.state_from_observation`, which is enough to show the
board and to list the moves it may try. The host decides; a refused move comes
back with a reason. A move the lobby could not deliver (the host was away) is
*held*: kept, shown as pending, and sent again when the host is back. No I/O here either.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pegboard.errors import ProtocolError
from pegboard.game import JSON, Game, Move, PegboardError, Result, State
from pegboard.online.offer_text import settings_sentences
from pegboard.records.replay import game_for_record


@dataclass
class Update:
    """One ``state`` message as the guest understood it."""

    ply: int
    to_move: int
    view: State
    events: list[dict[str, JSON]] = field(default_factory=list)
    result: Result | None = None
    clocks: list[float | None] = field(default_factory=list)
    last: dict[str, JSON] | None = None
    earlier: dict[int, dict[str, JSON]] = field(default_factory=dict)
    """The moves before ``last`` since the previous state, by ply, told as ``last`` is."""


class GuestMatch:
    """The guest's copy of what the host showed it (see the module docstring)."""

    def __init__(self, offer: Mapping[str, Any], token: str, plugins: Any) -> None:
        try:
            self.game: Game = game_for_record({"ruleset": offer["ruleset"]}, plugins)
            self.seat = int(offer["seat"])
            self.names = [str(n) for n in offer.get("names", [])]
            self.ratings = list(offer.get("ratings", []))
            self.label = str(offer.get("label", self.game.id))
        except (KeyError, TypeError, ValueError) as exc:
            raise ProtocolError(f"the host's offer is not usable: {exc}") from exc
        except PegboardError as exc:
            raise ProtocolError(f"the host's ruleset is not usable here: {exc}") from exc
        if offer.get("game") != self.game.id or not 0 <= self.seat < len(self.game.seats):
            raise ProtocolError("the host's offer does not match its ruleset")
        self.offer = dict(offer)
        self.token = token
        self.last: Update | None = None
        self.in_flight = False
        """True from sending a move until the host answers (a new state or a refusal)."""
        self.sent: dict[str, JSON] | None = None
        """The last move message sent (kept until the host answers it)."""
        self.held: dict[str, JSON] | None = None
        """A move the host was not there to receive: sent again when it is back."""

    @property
    def host_seat(self) -> int:
        return 1 - self.seat

    def settings_lines(self) -> list[str]:
        """The host's settings in sentences for a person to read before accepting."""
        return settings_sentences(self.game.ruleset, self.label, self.game.seats[self.seat], self.seat == 0)

    def accept(self) -> dict[str, JSON]:
        return {"t": "accept", "token": self.token}

    def decline(self) -> dict[str, JSON]:
        return {"t": "decline", "token": self.token}

    def sync(self) -> dict[str, JSON]:
        """Ask for the view again (after a reconnection), saying up to which ply this side heard."""
        return {"t": "sync", "token": self.token, "seen": self.last.ply if self.last is not None else 0}

    def resign(self) -> dict[str, JSON]:
        return {"t": "resign", "token": self.token}

    def update(self, message: Mapping[str, Any]) -> Update:
        """Read a ``state`` message; raises :class:`~.ProtocolError` if it is unusable."""
        try:
            view = self.game.state_from_observation(message["obs"], self.seat)
            result = Result.from_json(message["result"]) if isinstance(message.get("result"), Mapping) else None
            update = Update(
                ply=int(message["ply"]),
                to_move=int(message["to_move"]),
                view=view,
                events=[e for e in message.get("events", []) if isinstance(e, dict)],
                result=result,
                clocks=list(message.get("clocks") or []),
                last=message.get("last") if isinstance(message.get("last"), dict) else None,
                earlier={int(e["ply"]): e for e in message.get("earlier") or [] if isinstance(e, dict) and isinstance(e.get("ply"), int)},
            )
        except (KeyError, TypeError, ValueError, PegboardError) as exc:
            raise ProtocolError(f"the host sent a state this program cannot read: {exc}") from exc
        self.last = update
        if self.held is None or update.ply != self.held.get("ply") or update.to_move != self.seat:
            self.held = None  # the game moved on (or the move was played): nothing is pending
        if self.held is None:
            self.in_flight = False
            self.sent = None
        return update

    def refused(self) -> None:
        """The host turned the last move down: the turn is ours again."""
        self.in_flight = False
        self.sent = self.held = None

    def hold(self) -> bool:
        """The lobby could not deliver the move just sent: keep it; returns True if one was kept."""
        if self.sent is None or not self.in_flight:
            return False
        self.held = self.sent
        return True

    def release(self) -> dict[str, JSON] | None:
        """The host is back: the held move to send again (it is in flight once more)."""
        held, self.held = self.held, None
        if held is not None:
            self.sent = held
            self.in_flight = True
        return held

    @property
    def pending(self) -> bool:
        """True while a move waits for the host to come back."""
        return self.held is not None

    @property
    def my_turn(self) -> bool:
        last = self.last
        return last is not None and last.result is None and last.to_move == self.seat and not self.in_flight

    def legal_moves(self) -> list[Move]:
        """Moves this side may try now, worked out from its own view."""
        if not self.my_turn or self.last is None:
            return []
        return self.last.view.legal_moves()

    def move(self, move: Move) -> dict[str, JSON]:
        """The message that plays ``move`` (the host has the last word on it)."""
        ply = self.last.ply if self.last is not None else 0
        self.in_flight = True
        self.held = None
        self.sent = {"t": "move", "token": self.token, "seat": self.seat, "ply": ply, "move": self.game.encode_move(move)}
        return self.sent
