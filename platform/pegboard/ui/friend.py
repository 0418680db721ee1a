"""Play a friend from the match window: the lobby panel, then the match in the same window.

:class:`FriendPlay` is the window's side of :mod:`pegboard.online`: it owns the
:class:`~pegboard.online.client.OnlineClient`, polls it once per frame (never
blocking: connecting runs on a thread), keeps :class:`FriendDialog` (name, lobby
address, the waiting list, I'm ready to play, a 4-letter code, the host's
settings to accept) up to date, and once the match starts hands the window an
:class:`~pegboard.online.remote.OnlineSession` to draw and drive. It works for
every game: the window's own game and settings are what a waiting player offers.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any, Protocol

from pegboard.errors import ProtocolError
from pegboard.game import PegboardError
from pegboard.support.sentences import as_sentence
from pegboard.ui import theme
from pegboard.ui.dialogs import EndGameDialog
from pegboard.ui.endwords import end_words
from pegboard.ui.rect import Rect
from pegboard.ui.settings import SettingsStore
from pegboard.ui.widgets import Button, Dialog, Label, ListView, MessageDialog, TextInput

if TYPE_CHECKING:
    from pegboard.match.session import Session
    from pegboard.online.client import OnlineClient
    from pegboard.online.player import Notice
    from pegboard.online.remote import OnlineSession
    from pegboard.ratings.profile import Profile

log = logging.getLogger(__name__)

DEFAULT_LOBBY = "ws://127.0.0.1:8765"
STORE_KEY = "online"  # the settings store's "game" under which the name and lobby are kept


class FriendHost(Protocol):
    """What :class:`FriendPlay` needs from the window."""

    session: Session
    plugins: Any
    settings_store: SettingsStore

    def open_dialog(self, dialog: Dialog) -> Dialog:
        """Show ``dialog`` modally."""

    def close_dialog(self, dialog: Dialog) -> None:
        """Close ``dialog`` if shown."""

    def say(self, text: str | None) -> None:
        """A line in the status bar."""

    def switch_session(self, session: Session) -> None:
        """Show and drive ``session`` from now on."""


class FriendPlay:
    """The window's online play (see the module docstring).

    ``client_options`` go to every :class:`OnlineClient` it makes (tests pass a
    store folder or ``workers="inline"``).
    """

    def __init__(self, host: FriendHost, *, client_options: dict[str, Any] | None = None) -> None:
        self.host = host
        self.client_options = dict(client_options or {})
        self.client: OnlineClient | None = None
        self.session: OnlineSession | None = None
        self.local: Session | None = None
        self.dialog: FriendDialog | None = None
        self.profile: Profile | None = None
        self.mode = ""  # "list" or "codes" once connected
        self.message = ""
        self.players: list[dict[str, Any]] = []
        self.others = 0  # waiting players of other games
        self.unlisted = 0  # waiting players of this game past the first page
        self.waiting = False
        self.code: str | None = None
        self.offer_lines: list[str] = []
        self.paired = False
        self.end_note = ""  # what the end dialog says when no result came (the host closed the match)
        self._connecting: threading.Thread | None = None
        self._connect_outcome: tuple[str, str] | None = None  # ("ok", mode) or ("error", reason)

    # -- what the panel shows ------------------------------------------------------------------

    @property
    def game_id(self) -> str:
        return (self.local or self.host.session).game.id

    @property
    def connected(self) -> bool:
        return self.client is not None and bool(self.mode)

    @property
    def connecting(self) -> bool:
        return self._connecting is not None

    @property
    def in_match(self) -> bool:
        return self.session is not None

    def saved(self, key: str, default: str) -> str:
        value = self.host.settings_store.get_setting(STORE_KEY, key, default)
        return value if isinstance(value, str) and value else default

    def status_line(self) -> str:
        """``Connected · Your turn (South)`` (the window's status line during the match)."""
        return self.client.status_line() if self.client is not None else "Offline"

    # -- the person's commands -----------------------------------------------------------------

    def open_panel(self) -> Dialog | None:
        """Settings → Play a friend (or the top bar's button)."""
        if self.session is not None:
            self.host.say("You are already playing online: finish or resign this match first.")
            return None
        self.dialog = FriendDialog(self, self.saved("name", self._default_name()), self.saved("lobby", DEFAULT_LOBBY))
        self.host.open_dialog(self.dialog)
        return self.dialog

    def _default_name(self) -> str:
        profile = self._profile()
        return profile.name if profile is not None and profile.name else ""

    def _profile(self) -> Profile | None:
        if self.profile is None:
            from pegboard.ratings.profile import open_profile

            try:
                self.profile = open_profile()
            except PegboardError as exc:  # no usable profile: play unrated
                log.warning("online play without a profile: %s", exc)
        return self.profile

    def connect(self, name: str, lobby: str) -> None:
        """Connect (on a thread: the window keeps drawing) and pick up an unfinished match."""
        from pegboard.online import protocol as p
        from pegboard.online.client import HostSettings, OnlineClient

        if self.client is not None:
            return
        try:
            name = p.check_name(name.strip())
            lobby = lobby.strip()
            p.check_lobby_url(lobby)
            rules = dict(self.host.session.game.ruleset)
            client = OnlineClient(lobby, name, self.game_id, plugins=self.host.plugins, profile=self._profile(),
                                  host=HostSettings(rules=rules), **self.client_options)
        except ProtocolError as exc:
            self._say(exc.reason)
            return
        except PegboardError as exc:
            self._say(str(exc))
            return
        self.host.settings_store.set_setting(STORE_KEY, "name", name)
        self.host.settings_store.set_setting(STORE_KEY, "lobby", lobby)
        self.client = client
        ticket = client.resume_unfinished()

        def run() -> None:
            from pegboard.errors import LobbyUnreachable
            from pegboard.online.link import OPEN_TIMEOUT, unreachable_reason

            try:
                mode = client.connect(ticket)
                self._connect_outcome = ("ok", mode)
            except LobbyUnreachable as exc:
                self._connect_outcome = ("error", exc.reason)
            except Exception as exc:  # noqa: BLE001 - whatever it was, the panel says it and stays usable
                log.exception("connecting to the lobby failed")
                # in words, never the exception's own text ("Connect call failed ('127.0.0.1', 8765)")
                self._connect_outcome = ("error", f"Cannot reach the lobby at {lobby}: {unreachable_reason(exc, OPEN_TIMEOUT)}")

        self._connect_outcome = None
        self._connecting = threading.Thread(target=run, name="pegboard-connect", daemon=True)
        self._connecting.start()
        self._say(f"Connecting to {lobby}…" + (" (picking up your unfinished match)" if ticket else ""))

    def refresh_list(self) -> None:
        if self.connected and self.client is not None:
            self.client.refresh_list()

    def ready(self) -> None:
        """I'm ready to play (again: stop waiting)."""
        if not self.connected or self.client is None or self.paired:
            return
        if self.waiting:
            self.client.unready()
            self.waiting, self.code = False, None
            self._say("You are off the list.")
            if self.mode == "list":
                self.client.refresh_list()
        else:
            self.client.ready()
            self.waiting = True
            self._say("Going on the list…")

    def pick(self, index: int) -> None:
        if not self.connected or self.client is None or not 0 <= index < len(self.players):
            return
        entry = self.players[index]
        self.client.pick(int(entry["id"]))
        self._say(f"Asking to play {entry.get('name')}…")

    def join(self, code: str) -> None:
        from pegboard.online import protocol as p

        if not self.connected or self.client is None:
            return
        try:
            self.client.join(code)
        except ProtocolError as exc:
            self._say(exc.reason)
            return
        self._say(f"Joining {p.normalise_code(code)}…")

    def accept(self) -> None:
        if self.client is not None and self.offer_lines:
            self.client.accept()
            self.offer_lines = []
            self._say("Accepted: the match is starting…")

    def decline(self) -> None:
        if self.client is not None and self.offer_lines:
            self.client.decline()
            self.offer_lines = []
            self.paired = False
            self._say("Declined. Pick someone else, or wait for a friend.")
            if self.mode == "list":
                self.client.refresh_list()

    def cancel(self) -> None:
        """Close the panel and leave the lobby (nothing is under way)."""
        if self.dialog is not None:
            self.host.close_dialog(self.dialog)
            self.dialog = None
        if self.session is None:
            self._disconnect(leave=True)

    def resign(self) -> None:
        """Leave the match under way: a loss."""
        if self.session is not None and not self.session.is_over:
            self.session.resign()

    def leave(self) -> None:
        """After the match (or to stop following it): back to the window's own game."""
        session, local = self.session, self.local
        self.session = self.local = None
        self._disconnect(leave=True)
        if local is not None:
            self.host.switch_session(local)
        if session is not None:
            session.close()
        self.host.say("Back to your own game.")

    def close(self) -> None:
        """The window closes: an unfinished match stays open to pick up later."""
        under_way = self.session is not None and not self.session.is_over
        if self.session is not None:
            self.session.close()
        self._disconnect(leave=not under_way, wait=True)
        if self.profile is not None:
            self.profile.close()
            self.profile = None

    def _disconnect(self, *, leave: bool, wait: bool = False) -> None:
        """Close the client: in the background (closing waits on the network), or now with
        ``wait`` (the window is closing)."""
        client, self.client = self.client, None
        connecting, self._connecting = self._connecting, None
        if client is not None:

            def close() -> None:
                if connecting is not None:
                    connecting.join(15.0)  # a connection still being opened: close it once it is
                try:
                    client.close(leave=leave)
                except Exception:  # noqa: BLE001 - closing must not break the window
                    log.exception("closing the online client failed")

            if wait and (connecting is None or not connecting.is_alive()):
                close()
            else:
                threading.Thread(target=close, name="pegboard-disconnect", daemon=True).start()  # never wait in the UI
        self.mode, self.players, self.waiting, self.code, self.offer_lines, self.paired = "", [], False, None, [], False

    # -- every frame --------------------------------------------------------------------------

    def tick(self) -> None:
        """Poll the network (the window calls this every frame)."""
        if self._connecting is not None:
            outcome = self._connect_outcome
            if outcome is None:
                return
            self._connecting = None
            if outcome[0] == "error":
                client, self.client = self.client, None
                if client is not None:
                    client.close()
                self._say(outcome[1])
                return
            self.mode = outcome[1]
            self._say("Connected. " + ("Pick a player, or say you are ready to play." if self.mode == "list"
                                       else "The list is off: wait for a friend (you get a code) or type theirs."))
            if self.mode == "list" and self.client is not None:
                self.client.refresh_list()
        client = self.client
        if client is None or not self.mode:
            return
        try:
            notices = client.poll()
        except PegboardError as exc:
            self._say(str(exc))
            return
        for notice in notices:
            if self.client is not client:
                break  # the match was left while reading the news
            self._notice(notice)
        if self.client is client and self.session is None and client.player.started:
            self._begin()
        if notices and self.dialog is not None:
            self.dialog.refresh()

    def _notice(self, notice: Notice) -> None:
        client = self.client
        assert client is not None
        kind = notice.kind
        if self.session is None and client.player.started and (kind == "state" or client.player.host is not None):
            # a guest's match begins at the first state it hears of (a resumed one mid-game)
            ply = notice.data.get("ply") if kind == "state" else None
            self._begin(ply if isinstance(ply, int) else None)
        if kind == "list":
            self.players = [e for e in notice.data.get("players", []) if e.get("game") == self.game_id]
            self.others = int(notice.data.get("elsewhere", 0))  # the lobby lists one game: the others are counted
            self.unlisted = max(0, int(notice.data.get("total", 0)) - len(self.players))
            if notice.data.get("off"):
                self.mode = "codes"
        elif kind == "waiting":
            self.waiting = True
            self.code = notice.data.get("code")
            if notice.data.get("renewed"):
                self._say(f"Your code is now {self.code}: the old one drew too many wrong guesses. Read your friend this one.")
            else:
                self._say(f"Your code is {self.code}: read it to your friend." if self.code
                          else "You are on the list: wait for someone to pick you.")
        elif kind == "paired":
            self.paired = True
            self.waiting = False
            self._say(notice.text)
        elif kind == "offer":
            self.offer_lines = list(notice.data.get("lines", [notice.text]))
            self._say("The host's settings are below: accept to play, or decline.")
        elif kind in ("state", "over"):
            if self.session is not None:
                self.session.receive(notice)
            if kind == "over":
                self._finished(notice)
        elif kind == "refused":
            # the host reads what its guest sent (the notice says so); the guest, that its move was turned down
            self._say(notice.text if client.player.host is not None else f"The host refused that: {notice.text}")
        elif kind == "peer":
            if notice.data.get("status") == "declined":
                self.paired = False
                self.waiting = True
            self._say(notice.text)
        elif kind == "error":
            self.paired = client.player.ticket is not None  # a pick or a code that failed: still in the lobby
            self._say(notice.text)

    def _begin(self, first_ply: int | None = None) -> None:
        from pegboard.online.remote import OnlineSession

        client = self.client
        assert client is not None
        self.session = OnlineSession(client, first_ply=first_ply)
        self.local = self.host.session
        self.offer_lines, self.paired, self.waiting, self.code = [], False, False, None
        self.end_note = ""
        if self.dialog is not None:
            self.host.close_dialog(self.dialog)
            self.dialog = None
        self.host.switch_session(self.session)
        seat = self.session.seat
        self.host.say(f"Playing {client.player.peer_name} online: you are {self.session.seat_name(seat)}.")

    def _finished(self, notice: Notice) -> None:
        if notice.data.get("reason") == "closed":  # the host closed the match while this side was away
            self.end_note = notice.text
            if self.session is not None:
                self.leave()
            self.host.open_dialog(MessageDialog("The match is closed", notice.text))

    def rating_note(self) -> str:
        """The end dialog's line about ratings (the result is in the profile by then)."""
        profile, client = self.profile, self.client
        if client is None or client.player.ticket is None:
            return self.end_note
        ticket = client.player.ticket
        if profile is None:
            return "Not rated: this program has no profile."
        rows = profile.history(limit=1)
        if rows and rows[0].match_id == ticket.match:
            before, after = rows[0].rating_before, rows[0].rating_after
            return f"Your rating: {before:.0f} → {after:.0f} ({after - before:+.1f})."
        return f"Not rated: {client.player.peer_name or 'the other player'} plays without a rating."

    def end_dialog(self) -> Dialog:
        """The end of the online match: the result, the rating change, back to your own game."""
        session = self.session
        assert session is not None
        result = session.result
        if result is None:
            return EndGameDialog("The match is over", self.end_note, extend_label=None, on_extend=lambda: None,
                                 on_new_game=self.leave, new_label="Back to your game",
                                 new_tip="Back to your game: leave the online match for the game you had open.")
        seats = session.game.seats
        # the person at this window plays one seat: the band and headline speak from it
        words = end_words(result, seats, [seat == session.seat for seat in range(len(seats))], session.seat_name)
        return EndGameDialog(words.headline, words.reason, score=words.score, outcome=words.outcome, extend_label=None,
                             on_extend=lambda: None, on_new_game=self.leave, note=self.rating_note(),
                             new_label="Back to your game", new_tip="Back to your game: leave the online match for the game you had open.")

    def _say(self, text: str) -> None:
        text = as_sentence(text)  # the lobby's and the host's words too: a sentence with its capital and stop
        self.message = text
        if self.dialog is not None:
            self.dialog.refresh()
        elif text:
            self.host.say(text)


#: The tooltip of I'm ready to play, and of Stop waiting (the same button while your name is listed).
READY_TIPS = ("I'm ready to play: put your name on the list until someone picks you.",
              "Stop waiting: take your name off the list.")


class FriendDialog(Dialog):
    """The Play a friend panel: name, lobby address, the waiting list, I'm ready to play,
    a 4-letter code, the host's settings to accept; Cancel leaves the lobby."""

    def __init__(self, play: FriendPlay, name: str, lobby: str) -> None:
        super().__init__("Play a friend", 660, 560)
        self.play = play
        self.name_label = self.add(Label("Your name", bold=True))
        self.name_input = self.add(TextInput(name, on_submit=lambda _t: self.connect()))
        self.lobby_label = self.add(Label("Lobby", bold=True))
        self.lobby_input = self.add(TextInput(lobby, on_submit=lambda _t: self.connect()))
        self.connect_button = self.add(Button("Connect", self.connect, primary=True,
                                              tooltip="Connect: join the lobby under your name and see who is waiting."))
        self.message = self.add(Label("", wrap=True, size=theme.SMALL_FONT_SIZE, color=theme.TEXT_WARN))
        self.list_title = self.add(Label("", bold=True))
        self.list = self.add(ListView(on_select=lambda _i: self.refresh(), on_activate=self._activate))
        self.play_button = self.add(Button("Play this player", self.pick, tooltip="Play this player: ask the player picked in the list for a match."))
        self.refresh_button = self.add(Button("Refresh", play.refresh_list, tooltip="Refresh: ask the lobby again who is waiting to play."))
        self.ready_button = self.add(Button("I'm ready to play", play.ready, tooltip=READY_TIPS[0]))
        self.code_label = self.add(Label("Code", bold=True))
        self.code_input = self.add(TextInput("", on_submit=lambda _t: self.join()))
        self.join_button = self.add(Button("Join", self.join, tooltip="Join: play the person who read you this 4-letter code."))
        self.accept_button = self.add(Button("Accept", play.accept, primary=True, tooltip="Accept: play this match under the host's settings."))
        self.decline_button = self.add(Button("Decline", play.decline, tooltip="Decline: say no to this match and stay in the lobby."))
        self.cancel_button = self.add(Button("Cancel", self.cancel, tooltip="Cancel: leave the lobby and go back to your game."))
        self.name_input.focus(not name)
        self.refresh()

    # -- actions ---------------------------------------------------------------------------------

    def connect(self) -> None:
        self.play.connect(self.name_input.text, self.lobby_input.text)
        self.refresh()

    def pick(self) -> None:
        if self.list.selected is not None:
            self.play.pick(self.list.selected)

    def _activate(self, index: int) -> None:
        if not self.play.offer_lines:
            self.play.pick(index)

    def join(self) -> None:
        if self.code_input.text.strip():
            self.play.join(self.code_input.text.strip())

    def accept(self) -> None:
        """Enter: connect, join a typed code, or accept the host's settings."""
        if self.play.offer_lines:
            self.play.accept()
        elif not self.play.connected and not self.play.connecting:
            self.connect()
        elif self.code_input.focused:
            self.join()
        elif self.list.selected is not None:
            self.pick()

    def cancel(self) -> None:
        self.play.cancel()

    # -- what it shows -----------------------------------------------------------------------------

    def refresh(self) -> None:
        """Bring every part up to date with the controller (called after each change)."""
        play = self.play
        online = play.connected
        self.message.set_text(play.message)
        self.connect_button.set_enabled(not online and not play.connecting)
        self.connect_button.set_text("Connected" if online else "Connecting…" if play.connecting else "Connect")
        offer = bool(play.offer_lines)
        if offer:
            self.list_title.set_text("The host's settings")
            self.list.set_rows(play.offer_lines)
        elif play.mode == "codes":
            self.list_title.set_text("The list is switched off on this lobby: use a code")
            self.list.set_rows([])
        else:
            others = f" (+{play.others} in other games)" if play.others else ""
            more = f", the first {len(play.players)} of {len(play.players) + play.unlisted}" if play.unlisted else ""
            self.list_title.set_text(f"Waiting to play{more}{others}" if online else "Waiting to play (connect first)")
            self.list.set_rows([_row(e) for e in play.players])
        lobby_phase = online and not offer and not play.paired
        self.list.selectable = lobby_phase
        self.play_button.show(lobby_phase and play.mode == "list")
        self.play_button.set_enabled(self.list.selected is not None and not play.waiting)
        self.refresh_button.show(lobby_phase and play.mode == "list")
        self.ready_button.show(lobby_phase)
        self.ready_button.set_text("Stop waiting" if play.waiting else "I'm ready to play")
        self.ready_button.tooltip = READY_TIPS[1] if play.waiting else READY_TIPS[0]
        for widget in (self.code_label, self.code_input, self.join_button):
            widget.show(lobby_phase and not play.waiting)
        self.accept_button.show(offer)
        self.decline_button.show(offer)
        if self.rect.width:
            self.on_layout()  # the shown buttons take their places
        self.invalidate()
        for child in self.walk():
            child.invalidate()

    def on_layout(self) -> None:
        r = self.rect
        top = r.top - 50
        self.name_label.set_rect(Rect(r.x + 16, top - 30, 92, 30))
        self.name_input.set_rect(Rect(r.x + 108, top - 30, 170, 30))
        self.lobby_label.set_rect(Rect(r.x + 292, top - 30, 56, 30))
        self.lobby_input.set_rect(Rect(r.x + 348, top - 30, r.right - 16 - (r.x + 348), 30))
        self.connect_button.set_rect(Rect(r.right - 136, top - 70, 120, 30))
        self.message.set_rect(Rect(r.x + 16, top - 76, r.width - 170, 40))
        self.list_title.set_rect(Rect(r.x + 16, top - 108, r.width - 32, 24))
        list_bottom = r.y + 104
        self.list.set_rect(Rect(r.x + 16, list_bottom, r.width - 32, max(24, top - 112 - list_bottom)))
        row_y = r.y + 60
        x = r.x + 16
        for button in (self.play_button, self.refresh_button, self.ready_button):
            w = button.natural_width() + 8
            button.set_rect(Rect(x, row_y, w, 32))
            x += w + 8
        self.code_label.set_rect(Rect(r.x + 16, r.y + 14, 48, 32))
        self.code_input.set_rect(Rect(r.x + 66, r.y + 14, 84, 32))
        self.join_button.set_rect(Rect(r.x + 158, r.y + 14, 82, 32))
        self.button_row([b for b in (self.accept_button, self.decline_button, self.cancel_button) if b.visible])


def _row(entry: dict[str, Any]) -> str:
    """One waiting player: name, game, ruleset, rating, and the host's settings line."""
    rating = entry.get("rating")
    shown = f"{rating:.0f}" if isinstance(rating, (int, float)) else "unrated"
    settings = entry.get("settings") or ""
    return f"{entry.get('name')}  ·  {entry.get('game')}  ·  {entry.get('ruleset')}  ·  {shown}" + (
        f"  —  {settings}" if settings else "")


__all__ = ["DEFAULT_LOBBY", "FriendDialog", "FriendHost", "FriendPlay"]
