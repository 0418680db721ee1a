"""An online player's side of the conversation, with no I/O: lobby, pairing, the match.

:class:`OnlinePlayer` reads what the lobby sends (:meth:`~OnlinePlayer.receive`),
acts as host or guest, and leaves what must go out in :attr:`~OnlinePlayer.outbox`
and what a person should hear about in :attr:`~OnlinePlayer.notices`. The
threaded :class:`~pegboard.online.client.OnlineClient` and the load tool both
drive it; so can a test, message by message.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pegboard.errors import ProtocolError
from pegboard.game import JSON, Game, Move, PegboardError, Result, State
from pegboard.online import protocol as p
from pegboard.online.guest import GuestMatch
from pegboard.online.host import JUNK_LIMIT, HostMatch
from pegboard.online.store import Store, Ticket
from pegboard.records.replay import game_for_record
from pegboard.rules.rulesets import deep_merge, load_ruleset, ruleset_from_data

if TYPE_CHECKING:
    from pegboard.ratings.profile import Profile

log = logging.getLogger("pegboard.online.player")


@dataclass(frozen=True)
class Notice:
    """Something to tell the person (or the test): ``kind`` plus a line of ``text``.

    Kinds: ``welcome``, ``list`` (``data['players']``, ``total``, ``elsewhere``),
    ``waiting`` (``data['code']``), ``paired``, ``offer`` (settings to accept), ``start``,
    ``state`` (the board changed), ``refused``, ``pending`` (a message kept until the
    other side is back), ``peer`` (``away``/``back``/``left``), ``link``
    (``reconnecting``/``connected``), ``error``, ``over`` (the result).
    """

    kind: str
    text: str = ""
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class HostSettings:
    """What the waiting player offers: the ruleset, who plays the host's seat, the seat."""

    ruleset: str | None = None
    player: str = "human"
    seat: int | None = None
    """0 or 1; None: drawn by lot at pairing."""
    seed: int | None = None
    rules: Mapping[str, Any] | None = None
    """A resolved ruleset to offer instead of ``ruleset`` (the window's current settings)."""


class OnlinePlayer:
    """One player's protocol logic (see the module docstring).

    ``game`` is the game id; ``rating`` is sent to the lobby and the peer (by default
    the ``profile``'s). With a ``profile``, a match where both sides sent a rating is
    rated: entered when it starts, its result recorded once at full weight, and a
    game's rating handicap (Starfall's asteroids from ratings) gets both ratings.
    """

    def __init__(self, lobby: str, name: str, game: str, *, plugins: Any, store: Store | None = None,
                 rating: float | None = None, host: HostSettings | None = None, auto_accept: bool = False,
                 workers: str = "thread", profile: Profile | None = None) -> None:
        self.lobby = lobby
        self.profile = profile
        if rating is None and profile is not None:
            rating = profile.rating
        self.name = p.check_name(name)
        self.game_id = p.check_game_id(game)
        self.plugins = plugins
        self.store = store or Store()
        self.rating = rating
        self.host_settings = host or HostSettings()
        self.auto_accept = auto_accept
        self.workers = workers
        self.outbox: list[dict[str, Any]] = []
        self.notices: list[Notice] = []
        self.host: HostMatch | None = None
        self.guest: GuestMatch | None = None
        self.ticket: Ticket | None = None
        self.peer_online = False
        self.peer_name = ""
        self.players: list[dict[str, Any]] = []
        self.list_total = 0  # players waiting for this game, of which ``players`` are the page from ...
        self.list_offset = 0  # ... this one on
        self.code: str | None = None
        self.lobby_mode = ""
        self._refusals_seen = 0
        self._held: list[dict[str, Any]] = []  # a guest's accept/resign the host was not there for
        self._last_sent: dict[str, dict[str, Any]] = {}
        self.on_finish: Callable[[OnlinePlayer, Result], None] | None = None
        spec = plugins.game(self.game_id)  # raises UnknownId for a game that is not installed
        if self.host_settings.rules is not None:
            self._ruleset = ruleset_from_data(self.host_settings.rules, plugins)
            if self._ruleset.game != self.game_id:
                raise PegboardError(f"a {self._ruleset.game} ruleset cannot be offered for {self.game_id}")
            self.ruleset_label = self._ruleset.ref
        else:
            self.ruleset_label = self.host_settings.ruleset or spec.default_ruleset
            self._ruleset = load_ruleset(self.ruleset_label, game=self.game_id, plugins=plugins)

    # -- the hello ---------------------------------------------------------------------------

    def hello(self) -> dict[str, Any]:
        return {"t": "hello", "v": p.PROTOCOL, "name": self.name, "game": self.game_id,
                "ruleset": self._ruleset.ref[:80], "rating": self.rating,
                "secret": self.store.name_secret(self.lobby, self.name)}

    def settings_line(self) -> str:
        data = self._ruleset.data
        text = str(data.get("name", self._ruleset.ref))
        if data.get("description"):
            text += f": {data['description']}"
        return " ".join(text.split())[: p.MAX_SETTINGS]  # one line, as the lobby wants it

    # -- commands from the person -----------------------------------------------------------------

    def refresh_list(self, offset: int = 0) -> None:
        """Ask for the players waiting for this game (``offset``: from the n-th on)."""
        self.outbox.append({"t": "list", "offset": offset} if offset else {"t": "list"})

    def ready(self) -> dict[str, Any]:
        """Go on the waiting list (or ask for a code); returns the message (a link resends it)."""
        message = {"t": "ready", "settings": self.settings_line()}
        self.outbox.append(message)
        return message

    def unready(self) -> None:
        self.outbox.append({"t": "unready"})

    def pick(self, who: int | str) -> None:
        """Play the waiting player with list id ``who`` (or that name)."""
        self.outbox.append({"t": "pick", "id": who} if isinstance(who, int) else {"t": "pick", "name": who})

    def join(self, code: str) -> None:
        self.outbox.append({"t": "join", "code": p.normalise_code(code)})

    def accept(self) -> None:
        """Play with the host's settings (the ticket is kept from now on, for a resume)."""
        if self.guest is not None and self.ticket is not None:
            self.store.save(self.ticket)
            self._relay(self.guest.accept())

    def decline(self) -> None:
        if self.guest is not None:
            self._relay(self.guest.decline())
            self.outbox.append({"t": "leave"})

    def play(self, move: Move) -> None:
        """The person's move, in either role; a host raises IllegalMove at once, a guest hears back."""
        if self.host is not None:
            self._send_updates(self.host.play_local(move))
        elif self.guest is not None:
            self._relay(self.guest.move(move))
        else:
            raise PegboardError("no match is being played")

    def resign(self) -> None:
        """Leave the match: it counts as a loss."""
        if self.host is not None:
            self._send_updates(self.host.resign_local())
        elif self.guest is not None:
            self._relay(self.guest.resign())

    def leave(self) -> None:
        """Leave the lobby room (after the end, or after resigning)."""
        self.outbox.append({"t": "leave"})

    def reset(self) -> None:
        """Forget the finished match, ready for the next pairing."""
        if self.host is not None:
            self.host.close()
        self.host = self.guest = self.ticket = None
        self.peer_online = False
        self.peer_name = ""
        self.code = None
        self._refusals_seen = 0
        self._held, self._last_sent = [], {}

    def tick(self) -> None:
        """Run the host's bots and clocks (call it often)."""
        if self.host is not None:
            self._send_updates(self.host.poll())

    # -- resuming ------------------------------------------------------------------------------

    def resume(self, ticket: Ticket) -> None:
        """Pick up the match of a saved ticket (after a crash or a kill)."""
        self.ticket = ticket
        if ticket.role == "host":
            self.host = HostMatch.resume(ticket, self.store, self.plugins, host_player=self.host_settings.player,
                                         workers=self.workers)
            self.host.on_finish = self._host_finished
        self.peer_name = ticket.names[1 - ticket.seat] if len(ticket.names) == 2 else ""

    # -- what we know -----------------------------------------------------------------------------

    @property
    def role(self) -> str | None:
        return "host" if self.host is not None else "guest" if self.guest is not None else None

    @property
    def seat(self) -> int | None:
        return self.ticket.seat if self.ticket is not None else None

    @property
    def started(self) -> bool:
        if self.host is not None:
            return self.host.accepted
        return self.guest is not None and self.guest.last is not None

    def view(self) -> State | None:
        """What to draw: the host's own seat's view, or the guest's rebuilt view."""
        if self.host is not None and self.host.session is not None and self.host.accepted:
            return self.host.session.state.player_view(self.host.host_seat)
        if self.guest is not None and self.guest.last is not None:
            return self.guest.last.view
        return None

    @property
    def to_move(self) -> int | None:
        if self.host is not None and self.host.session is not None and self.host.accepted:
            return self.host.session.to_move
        if self.guest is not None and self.guest.last is not None:
            return self.guest.last.to_move
        return None

    @property
    def result(self) -> Result | None:
        if self.host is not None and self.host.session is not None:
            return self.host.session.result
        if self.guest is not None and self.guest.last is not None:
            return self.guest.last.result
        return None

    @property
    def my_turn(self) -> bool:
        if self.guest is not None:
            return self.guest.my_turn
        return self.started and self.result is None and self.to_move == self.seat

    def legal_moves(self) -> list[Move]:
        if not self.my_turn:
            return []
        if self.host is not None and self.host.session is not None and not self.host.game.hidden_information:
            return self.host.session.state.legal_moves()  # nothing hidden: no need to copy a view first
        view = self.view()
        return view.legal_moves() if view is not None else []

    def names(self) -> list[str]:
        return list(self.ticket.names) if self.ticket is not None else []

    def turn_line(self) -> str:
        """``Your turn`` / ``Bob's turn (North)`` / the result."""
        result = self.result
        game = self._game()
        if result is not None and game is not None:
            return result.sentence(game.seats)
        if not self.started or self.to_move is None or game is None:
            return "Waiting for the match to start"
        if self.to_move == self.seat:
            return f"Your turn ({game.seats[self.to_move]})"
        names = self.names()
        who = names[self.to_move] if self.to_move < len(names) else game.seats[self.to_move]
        return f"{who}'s turn ({game.seats[self.to_move]})"

    def _game(self) -> Any:
        if self.host is not None:
            return self.host.game
        if self.guest is not None:
            return self.guest.game
        return None

    # -- messages from the lobby ------------------------------------------------------------------

    def receive(self, message: dict[str, Any]) -> None:
        """Act on one message from the lobby (see docs/online.md for the table)."""
        kind = message.get("t")
        if kind == "welcome":
            self.lobby_mode = str(message.get("lobby", ""))
            self._notice("welcome", "the lobby list is switched off: use a 4-letter code" if self.lobby_mode == "codes" else "")
        elif kind == "list":
            self.players = [e for e in message.get("players", []) if isinstance(e, dict)]
            total, elsewhere, offset = (message.get(k) for k in ("total", "elsewhere", "offset"))
            total = total if isinstance(total, int) else len(self.players)
            elsewhere = elsewhere if isinstance(elsewhere, int) else 0
            self.list_total, self.list_offset = total, offset if isinstance(offset, int) else 0
            self._notice("list", "the lobby list is switched off" if message.get("off") else f"{total} waiting",
                         players=self.players, off=bool(message.get("off")), total=total, elsewhere=elsewhere,
                         offset=self.list_offset)
        elif kind == "waiting":
            self.code = message.get("code") if isinstance(message.get("code"), str) else None
            text = f"your code: {self.code}" if self.code else "you are on the list"
            if message.get("renewed"):
                text = f"your code is now {self.code}: the old one drew too many wrong guesses, so give your friend this one"
            self._notice("waiting", text, code=self.code, renewed=bool(message.get("renewed")))
        elif kind == "undelivered":
            self._undelivered(str(message.get("of", "")), str(message.get("status", "away")))
        elif kind == "paired":
            self._paired(message)
        elif kind == "relay":
            self._relayed(message.get("data"))
        elif kind == "peer":
            self._peer(str(message.get("status")))
        elif kind == "rejoined":
            self.peer_online = bool(message.get("peer_online"))
            self._notice("link", "Connected", status="connected")
            if self.peer_online:
                self._send_held()
            if self.guest is not None or (self.ticket is not None and self.ticket.role == "guest"):
                self._relay(self._sync())
        elif kind == "rejoin_failed":
            self._notice("error", str(message.get("reason", "cannot rejoin")), retry=bool(message.get("retry")))
        elif kind == "link":
            status = str(message.get("status"))
            self._notice("link", "Reconnecting…" if status == "reconnecting" else "Connected", status=status)
        elif kind == "error":
            self._notice("error", str(message.get("reason", "error")))
        elif kind in ("unready", "pong"):
            pass
        else:
            log.info("ignored a %r message from the lobby", kind)

    def _paired(self, message: dict[str, Any]) -> None:
        given = message.get("peer")
        peer: dict[str, Any] = given if isinstance(given, dict) else {}
        self.peer_name = str(peer.get("name", "?"))
        peer_rating = peer.get("rating")
        self.peer_online = True
        role = message.get("role")
        match, token = str(message.get("match")), str(message.get("token"))
        if role == "host":
            settings = self.host_settings
            seat = settings.seat if settings.seat in (0, 1) else random.randrange(2)
            names = [self.name, self.peer_name] if seat == 0 else [self.peer_name, self.name]
            ratings = [self.rating, peer_rating] if seat == 0 else [peer_rating, self.rating]
            self.ticket = Ticket(match=match, role="host", lobby=self.lobby, game=self.game_id, seat=seat, token=token,
                                 names=names, ratings=ratings, guest_token=str(message.get("guest_token")),
                                 ruleset=self._ruleset.ref)
            game = self._rated_game(ratings)
            seed = settings.seed if settings.seed is not None else random.randrange(2**31)
            self.host = HostMatch(self.ticket, game, seed, ruleset_label=self._ruleset.ref, store=self.store,
                                  plugins=self.plugins, host_player=settings.player, workers=self.workers)
            self.host.on_finish = self._host_finished
            self._relay(self.host.offer())
            self._notice("paired", f"{self.peer_name} picked you: waiting for them to accept your settings", role="host")
        else:
            self.ticket = Ticket(match=match, role="guest", lobby=self.lobby, game=self.game_id, seat=-1, token=token,
                                 names=[], ratings=[])
            self._notice("paired", f"paired with {self.peer_name}: waiting for their settings", role="guest")

    def _relayed(self, data: Any) -> None:
        if not isinstance(data, dict):
            return
        if self.host is not None:
            self._send_updates(self.host.handle(data))
            if self.host.refused_count > self._refusals_seen:  # one message, one refusal at most
                refused = self.host.refusals[-1]
                self._notice("refused", f"{self.peer_name}'s {refused.kind} was refused: {refused.reason}", by="host")
            self._refusals_seen = self.host.refused_count
            if self.host.junk_streak >= JUNK_LIMIT:
                self.host.junk_streak = 0
                self.outbox.append({"t": "kick"})  # the seat stays theirs: the real guest may rejoin
                self._notice("peer", f"disconnected {self.peer_name}: it kept sending messages the match refused",
                             status="kicked")
            if data.get("t") == "accept" and self.host.accepted:
                self._rated_start()
                self._notice("start", "the match has started")
            elif self.host.declined:
                self._notice("peer", f"{self.peer_name} declined your settings: back on the list", status="declined")
                self._guest_left(self.host)
            return
        kind = data.get("t")
        if kind == "offer":
            self._offered(data)
        elif kind == "state":
            self._state(data)
        elif kind == "refused":
            if self.guest is not None:
                self.guest.refused()
            self._notice("refused", str(data.get("reason", "refused")), by="host")

    def _offered(self, data: dict[str, Any]) -> None:
        if self.ticket is None:
            return
        if self.guest is not None and self.guest.offer.get("match") == data.get("match"):
            return  # a repeat after a reconnection
        try:
            self.guest = GuestMatch(data, self.ticket.token, self.plugins)
        except ProtocolError as exc:
            self._notice("error", exc.reason)
            self.outbox.append({"t": "leave"})
            return
        self.ticket.seat = self.guest.seat
        self.ticket.names = self.guest.names
        self.ticket.ratings = self.guest.ratings
        self.ticket.ruleset = self.guest.label
        if data.get("accepted"):
            return
        self._notice("offer", "; ".join(self.guest.settings_lines()), lines=self.guest.settings_lines())
        if self.auto_accept:
            self.accept()

    def _state(self, data: dict[str, Any]) -> None:
        if self.guest is None:
            self._relay(self._sync())
            return
        first = self.guest.last is None
        try:
            update = self.guest.update(data)
        except ProtocolError as exc:
            self._notice("error", exc.reason)
            return
        if first:
            self._rated_start()
            self._notice("start", "the match has started")
        self._notice("state", self.turn_line(), ply=update.ply, events=update.events, last=update.last, moved=update.last,
                     earlier=update.earlier)
        if update.result is not None:
            self._over(update.result)

    def _peer(self, status: str) -> None:
        self.peer_online = status == "back"
        text = {"away": f"{self.peer_name} dropped out: waiting for them to come back",
                "back": f"{self.peer_name} is back", "left": f"{self.peer_name} left"}.get(status, status)
        self._notice("peer", text, status=status)
        if status == "back":
            self._send_held()
        if status == "back" and (self.guest is not None or (self.ticket is not None and self.ticket.role == "guest")):
            self._relay(self._sync())
        if status == "left" and self.host is not None:
            self._guest_left(self.host)
        if status == "left" and self.host is None and self.ticket is not None and self.result is None:
            # the host closed the match while this side was away: nothing more will come
            self._notice("over", f"{self.peer_name} closed the match; its result did not reach this program",
                         winner=None, reason="closed")
            self._finish_ticket()

    def _undelivered(self, of: str, status: str) -> None:
        """The lobby could not pass a relay on (the other side is away): a guest keeps its move,
        its accept or its resignation and sends it when the host is back."""
        self.peer_online = False
        if status == "left":
            self._peer("left")  # gone for good: as if the lobby had said so
            return
        if self.host is not None:
            return  # a host's updates are simply sent again: a returning guest asks for its view
        guest = self.guest
        if of == "move" and guest is not None and guest.hold():
            self._notice("pending", f"{self.peer_name or 'The host'} is away: your move is kept and will be sent "
                         "when they are back", of=of)
        elif of in ("accept", "resign") and of in self._last_sent:
            self._held.append(self._last_sent.pop(of))
            self._notice("pending", f"{self.peer_name or 'The host'} is away: your {of} is kept and will be sent "
                         "when they are back", of=of)

    def _send_held(self) -> None:
        """The other side is back: send what it was not there to receive."""
        held, self._held = self._held, []
        for data in held:
            self._relay(data)
        move = self.guest.release() if self.guest is not None else None
        if move is not None:
            self._relay(move)

    def _guest_left(self, host: HostMatch) -> None:
        """The guest said goodbye: before the start the host waits again; during the match it is a loss."""
        if not host.accepted:
            self.leave()
            self.reset()
            self.ready()
        elif host.session is not None and not host.session.is_over:
            host.session.resign(host.guest_seat)  # leaving an unfinished match counts as a loss
            self._send_updates(host.outgoing())

    # -- the end ---------------------------------------------------------------------------------

    def _host_finished(self, host: HostMatch) -> None:
        if host.session is not None and host.session.result is not None:
            self._over(host.session.result)

    def _over(self, result: Result) -> None:
        """The match ended: close the ticket and count the result, once (a repeat is ignored)."""
        ticket = self.ticket
        if ticket is None or ticket.counted:
            return
        self._finish_ticket()
        self._rated_finish(result)
        if self.on_finish is not None:
            self.on_finish(self, result)
        ticket.counted = True
        self.store.save(ticket)
        game = self._game()
        text = result.sentence(game.seats) if game is not None else result.reason
        self._notice("over", text, winner=result.winner, reason=result.reason)

    # -- ratings ---------------------------------------------------------------------------------

    def _rated_game(self, ratings: list[float | None]) -> Game:
        """The host's game with both ratings handed to the game's handicap (when it has one)."""
        data = dict(self._ruleset.data)
        if all(r is not None for r in ratings):
            probe = game_for_record({"ruleset": data}, self.plugins)
            data = deep_merge(data, probe.rating_overrides([float(r) for r in ratings if r is not None]))
        return game_for_record({"ruleset": data}, self.plugins)  # built once per ruleset

    def _rated(self) -> tuple[Profile, Ticket, Game, float] | None:
        """(profile, ticket, game, the opponent's rating) when this match counts:
        a profile here and both ratings known."""
        ticket, game = self.ticket, self._game()
        if self.profile is None or ticket is None or game is None or ticket.seat not in (0, 1) or len(ticket.ratings) != 2:
            return None
        mine, theirs = ticket.ratings[ticket.seat], ticket.ratings[1 - ticket.seat]
        if mine is None or theirs is None:
            return None
        return self.profile, ticket, game, float(theirs)

    def _rated_start(self) -> None:
        """Enter the match in the profile at full weight (a repeat, after a resume, does nothing)."""
        rated = self._rated()
        if rated is None:
            return
        profile, ticket, game, theirs = rated
        try:
            profile.start_rated(ticket.match, game=game.id, opponent=ticket.names[1 - ticket.seat],
                                opponent_rating=theirs, gap=game.rating_gap(ticket.seat))
        except PegboardError as exc:
            self._notice("error", f"the result cannot go into your profile: {exc}")

    def _rated_finish(self, result: Result) -> None:
        rated = self._rated()
        if rated is None:
            return
        profile, ticket, game, theirs = rated
        score = 0.5 if result.winner is None else 1.0 if result.winner == ticket.seat else 0.0
        try:
            profile.start_rated(ticket.match, game=game.id, opponent=ticket.names[1 - ticket.seat],
                                opponent_rating=theirs, gap=game.rating_gap(ticket.seat))  # no-op once started
            profile.finish_rated(ticket.match, score)
        except PegboardError as exc:
            self._notice("error", f"the result cannot go into your profile: {exc}")

    def _finish_ticket(self) -> None:
        if self.ticket is not None and not self.ticket.finished:
            self.ticket.finished = True
            self.store.save(self.ticket)

    # -- helpers -------------------------------------------------------------------------------------

    def _relay(self, data: dict[str, JSON]) -> None:
        if self.host is None and data.get("t") in ("accept", "resign"):
            self._last_sent[str(data["t"])] = data  # kept in case the host is away (see _undelivered)
        self.outbox.append({"t": "relay", "data": data})

    def _send_updates(self, messages: list[dict[str, JSON]]) -> None:
        for message in messages:
            self._relay(message)
        if messages and self.host is not None and any(m.get("t") == "state" for m in messages):
            session = self.host.session
            last = session.history[session.cursor - 1] if session is not None and session.cursor else None
            # the guest's move as the host's seat may read it (under fog, only what it saw)
            moved = {"seat": last.seat, "text": last.text_for(self.host.host_seat)} if last is not None else None
            self._notice("state", self.turn_line(), moved=moved)

    def _sync(self) -> dict[str, JSON]:
        """A guest asks the host for its view again; a guest that already follows the match says
        up to which ply it heard, so the host tells it the moves it missed."""
        if self.guest is not None:
            return self.guest.sync()
        return {"t": "sync", "token": self.ticket.token if self.ticket else ""}

    def _notice(self, kind: str, text: str = "", **data: Any) -> None:
        self.notices.append(Notice(kind, text, data))

    def take_notices(self) -> list[Notice]:
        notices, self.notices = self.notices, []
        return notices

    def take_outbox(self) -> list[dict[str, Any]]:
        out, self.outbox = self.outbox, []
        return out
