"""The UI-free online client: what a window or a terminal calls to play a friend.

:class:`OnlineClient` runs the network on a background thread (its own asyncio
loop) and does everything else on the thread that calls :meth:`~OnlineClient.poll`
(the UI thread, every frame): the lobby, pairing, and the match as host or
guest. Typical use::

    client = OnlineClient("ws://127.0.0.1:8765", "Ann", "starfall")
    client.connect()                  # raises LobbyUnreachable (one readable line)
    client.refresh_list()             # or client.ready(), client.pick(id), client.join("ABCD")
    every frame:
        for notice in client.poll():  # Notice(kind, text, data); see player.Notice
            ...
        client.view(), client.my_turn, client.legal_moves(), client.status_line()
    client.play(move); client.resign(); client.close()

``OnlineClient.resume_unfinished()`` picks up a match this machine was playing
when its program was closed or killed.
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING, Any

from pegboard.errors import LobbyUnreachable
from pegboard.game import Move, Result, State
from pegboard.online import protocol as p
from pegboard.online.link import Link
from pegboard.online.player import HostSettings, Notice, OnlinePlayer
from pegboard.online.store import Store, Ticket
from pegboard.plugins import resolve

if TYPE_CHECKING:
    from pegboard.ratings.profile import Profile

__all__ = ["HostSettings", "LobbyUnreachable", "Notice", "OnlineClient"]


class OnlineClient:
    """One player online (see the module docstring).

    ``host`` describes what this player offers when it waits (ruleset, who plays
    its seat: ``"human"`` or a bot id, the seat); ``auto_accept`` accepts a host's
    settings without asking (bots, tests). ``cafile`` is the certificate authority a
    ``wss://`` lobby is checked against instead of the system's (a PEM file).
    """

    def __init__(self, lobby: str, name: str, game: str, *, plugins: Any = None, store: Store | None = None,
                 rating: float | None = None, host: HostSettings | None = None, auto_accept: bool = False,
                 workers: str = "thread", open_timeout: float = 5.0, profile: Profile | None = None,
                 cafile: str | None = None) -> None:
        from pegboard.online.tls import client_context

        plugins = resolve(plugins)
        p.check_lobby_url(lobby)
        self._tls = client_context(cafile) if lobby.startswith("wss:") or cafile is not None else None
        self.player = OnlinePlayer(lobby, name, game, plugins=plugins, store=store, rating=rating, host=host,
                                   auto_accept=auto_accept, workers=workers, profile=profile)
        self._open_timeout = open_timeout
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="pegboard-online", daemon=True)
        self._link: Link | None = None
        self.wakeup = threading.Event()
        """Set whenever a message arrives (a terminal loop may wait on it)."""

    # -- connecting -------------------------------------------------------------------------------

    def connect(self, ticket: Ticket | None = None) -> str:
        """Connect and say hello (and rejoin ``ticket``'s match); returns ``list`` or ``codes``."""
        if ticket is not None:
            self.player.resume(ticket)
        if not self._thread.is_alive():
            self._thread.start()
        self._link = Link(self.player.lobby, self.player.hello(), open_timeout=self._open_timeout,
                          on_message=self.wakeup.set, tls=self._tls)
        if ticket is not None:
            self._link.match, self._link.token = ticket.match, ticket.token
        mode = self._call(self._link.open(), self._open_timeout + 5)
        self.player.lobby_mode = mode
        return str(mode)

    def resume_unfinished(self) -> Ticket | None:
        """The newest unfinished match of this player in this game and lobby on this machine
        (pass it to :meth:`connect`)."""
        for ticket in self.player.store.unfinished(self.player.game_id):
            seat = ticket.seat
            if ticket.lobby == self.player.lobby and 0 <= seat < len(ticket.names) and ticket.names[seat] == self.player.name:
                return ticket
        return None

    def _call(self, coroutine: Any, timeout: float) -> Any:
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result(timeout)
        except TimeoutError:
            future.cancel()
            raise LobbyUnreachable(f"the lobby at {self.player.lobby} did not answer in time") from None

    # -- the person's commands (all from the UI thread) -----------------------------------------

    def refresh_list(self, offset: int = 0) -> None:
        """Ask for the players waiting for this game (``offset``: the next page)."""
        self.player.refresh_list(offset)
        self._flush()

    def ready(self) -> None:
        """I'm ready to play: go on the list (or get a 4-letter code)."""
        self.player.ready()
        self._flush()

    def unready(self) -> None:
        self.player.unready()
        self._flush()

    def pick(self, who: int | str) -> None:
        self.player.pick(who)
        self._flush()

    def join(self, code: str) -> None:
        """Join with a 4-letter code; a mistyped code raises ProtocolError at once."""
        self.player.join(code)
        self._flush()

    def accept(self) -> None:
        self.player.accept()
        self._flush()

    def decline(self) -> None:
        self.player.decline()
        self._flush()

    def play(self, move: Move) -> None:
        self.player.play(move)
        self._flush()

    def resign(self) -> None:
        """Leave the match now: it counts as a loss."""
        self.player.resign()
        self._flush()

    # -- every frame ---------------------------------------------------------------------------------

    def poll(self) -> list[Notice]:
        """Handle what arrived, run the host's bots and clocks, send what is due; returns the news."""
        self.wakeup.clear()
        link = self._link
        if link is not None:
            while True:
                try:
                    message = link.inbox.popleft()
                except IndexError:
                    break
                self.player.receive(message)
        self.player.tick()
        self._flush()
        return self.player.take_notices()

    def _flush(self) -> None:
        link = self._link
        if link is None:
            return
        for message in self.player.take_outbox():
            asyncio.run_coroutine_threadsafe(link.send(message), self._loop)

    # -- what the UI shows -----------------------------------------------------------------------

    @property
    def status(self) -> str:
        """``Connected``, ``Reconnecting…``, ``Connecting…`` or ``Offline``."""
        state = self._link.status if self._link is not None else "offline"
        return {"connected": "Connected", "reconnecting": "Reconnecting…", "rejoining": "Reconnecting…",
                "connecting": "Connecting…"}.get(state, "Offline")

    def status_line(self) -> str:
        """The status bar: connection and whose turn (``Connected · Your turn (South)``)."""
        line = self.status
        player = self.player
        if player.guest is not None and player.guest.pending:
            return f"{line} · {player.peer_name or 'The host'} is away: your move is kept and will be sent when they are back"
        if player.started or player.result is not None:
            line += f" · {player.turn_line()}"
        if player.ticket is not None and not player.peer_online and player.result is None:
            line += f" · {player.peer_name or 'the other player'} is away"
        return line

    @property
    def my_turn(self) -> bool:
        return self.player.my_turn

    @property
    def seat(self) -> int | None:
        return self.player.seat

    @property
    def result(self) -> Result | None:
        return self.player.result

    def view(self) -> State | None:
        return self.player.view()

    def legal_moves(self) -> list[Move]:
        return self.player.legal_moves()

    # -- closing ---------------------------------------------------------------------------------------

    def next_match(self) -> None:
        """Leave the finished match's room and forget it (then :meth:`ready` or :meth:`pick` again)."""
        self.player.leave()
        self._flush()
        self.player.reset()

    def drop_connection(self) -> None:
        """Cut the network without leaving (tests: what a lost Wi-Fi does); the client reconnects."""
        if self._link is not None:
            self._call(self._link.drop(), 5.0)

    def close(self, *, leave: bool = False) -> None:
        """Stop the network. ``leave=True`` first tells the lobby this player is gone for good."""
        link = self._link
        if link is not None and self._thread.is_alive():
            if leave:
                self.player.leave()
                self._flush()
            try:
                self._call(link.close(), 6.0)
            except LobbyUnreachable:
                pass
        if self.player.host is not None:
            self.player.host.close()
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5.0)
