"""Which sound the window plays when, and the sound settings (on/off, volume) in the profile.

:class:`SoundCues` listens to the session the window shows. For a move it asks the board view
(:meth:`pegboard.ui.board.BoardView.sound_cues`) which cues the move's events make, and gives
it only the events the person's seat may know (:func:`pegboard.game.events_for`), so under fog
a sound never tells what that seat cannot see. The rest is game-agnostic: the end of the game
(win or loss, for the person at the window), the person's clock or move timer falling under
30 seconds, and in an online match the other player's move that makes it your turn.

Undo, redo, jumps, imports and restarts are silent. The cues of one move play one after
another, ``GAP`` seconds apart, at most ``MAX_CUES`` of them; when moves come faster than
their sounds (bots playing each other quickly) only the newest few wait to play. The settings are kept in the
settings store (the local profile) under the name ``"sound"``.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pegboard.errors import ProfileError
from pegboard.game import events_for
from pegboard.ui import cues
from pegboard.ui.settings import Setting, SettingsStore, number_options
from pegboard.ui.sound import SoundPlayer, shared_player

if TYPE_CHECKING:
    from pegboard.match.history import Change
    from pegboard.match.session import Session
    from pegboard.ui.board import BoardView

log = logging.getLogger(__name__)

STORE = "sound"
"""The settings store's "game" under which the sound settings are kept."""
ON_KEY, VOLUME_KEY = "sound_on", "sound_volume"
DEFAULT_VOLUME = 70  # percent
LOW_CLOCK = 30.0  # seconds: the clock_low cue
GAP = 0.12  # seconds between the cues of one move
MAX_CUES = 3
MAX_PENDING = 4  # cues waiting to play; older ones are dropped
CLOCK_CHECK = 0.25  # seconds between looks at the clocks

VOLUMES = range(10, 101, 10)  # percent: the Settings panel's steps
SOUND_SETTING = Setting(
    "sound", "Sound", default=DEFAULT_VOLUME, options=((0, "Off"), *number_options(10, 100, 10, "%")),
    help="The volume of the sound effects, or Off (the M key turns them off and on again).")
"""The Settings panel's sound row (every game's panel shows it): 0 is off, else the volume in percent."""


class SoundCues:
    """Turns session changes and the clocks into cues, and plays them unless sound is off.

    ``played`` keeps the last cues sent to the player, newest last (the window's tests read it).
    """

    def __init__(self, store: SettingsStore, player: SoundPlayer | None = None) -> None:
        self.store = store
        self.player = player if player is not None else shared_player()
        self.enabled = bool(_read(store, ON_KEY, True))
        volume = _read(store, VOLUME_KEY, DEFAULT_VOLUME)
        self.volume = volume if volume in VOLUMES else DEFAULT_VOLUME
        self.played: deque[str] = deque(maxlen=64)
        self._queue: list[tuple[float, str]] = []  # (when, cue) still to play
        self._now = 0.0
        self._clock_wait = 0.0
        self._low: set[int | str] = set()  # seats (and "move") already told their time is short
        self._my_turn = False
        if self.enabled:
            self.player.load()

    # -- settings ---------------------------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        """The Settings panel's sound row as it shows now: 0 when sound is off, else the volume."""
        return {SOUND_SETTING.key: self.volume if self.enabled else 0}

    def apply_settings(self, changed: Mapping[str, Any]) -> None:
        """Keep and use the sound row of ``changed`` (other keys are ignored): Off turns sound
        off and keeps the volume for the M key to come back to; a volume turns sound on."""
        value = changed.get(SOUND_SETTING.key)
        if value != 0 and value not in VOLUMES:
            return
        if value:
            self.volume = value
            _write(self.store, VOLUME_KEY, value)
        self.set_enabled(bool(value))

    def set_enabled(self, enabled: bool) -> None:
        self.enabled = enabled
        _write(self.store, ON_KEY, enabled)
        if enabled:
            self.player.load()
        else:
            self._queue.clear()
            self.player.close()

    def toggle(self) -> bool:
        """Sound on if it was off and off if it was on (the M key); returns the new state."""
        self.set_enabled(not self.enabled)
        return self.enabled

    # -- what to play -------------------------------------------------------------------------------

    def watch(self, session: Session) -> None:
        """A session is shown (the window's own, or an online match): forget the last one's state.
        An online match shown on your turn (it starts with you, or you come back to it) chimes."""
        self._queue.clear()
        self._low.clear()
        self._my_turn = False

    def on_change(self, change: Change, session: Session, view: BoardView | None) -> None:
        """The shown session changed: queue the cues it makes."""
        if change.kind == "move" and view is not None:
            self._queue_move(change, session, view)
        elif change.kind == "result":
            self._queue_result(session)
        self._check_turn(session)

    def _queue_move(self, change: Change, session: Session, view: BoardView) -> None:
        hearer = person_seat(session)
        if hearer is None:
            hearer = change.seat
        known = events_for(change.events, hearer) if hearer is not None else [e for e in change.events if e.seen_by is None]
        try:
            asked = list(view.sound_cues(known))
        except Exception:  # noqa: BLE001 - a broken view costs its sounds, not the game
            log.exception("the board view's sound_cues failed")
            asked = [cues.MOVE]
        wanted = [c for c in dict.fromkeys(asked) if c in cues.MOVE_CUES]
        self._enqueue(wanted[:MAX_CUES])

    def _queue_result(self, session: Session) -> None:
        result = session.result
        if result is None or result.winner is None:
            return  # a draw: the move's own sound is the last
        me = person_seat(session)
        self._enqueue([cues.WIN if me is None or result.winner == me else cues.LOSS])

    def _check_turn(self, session: Session) -> None:
        mine = _my_online_turn(session)
        if mine and not self._my_turn:
            self._enqueue([cues.YOUR_TURN])
        self._my_turn = mine

    def _enqueue(self, names: Sequence[str]) -> None:
        if not self.enabled or not names:
            return
        start = max([self._now, *(when + GAP for when, _ in self._queue)])
        self._queue.extend((start + i * GAP, name) for i, name in enumerate(names))
        if len(self._queue) > MAX_PENDING:  # a burst of moves: only the newest cues, without lag
            self._queue = [(self._now + i * GAP, name) for i, (_, name) in enumerate(self._queue[-MAX_PENDING:])]

    # -- every frame -------------------------------------------------------------------------------

    def tick(self, dt: float, session: Session) -> None:
        """Play the cues that are due; now and then look at the clocks."""
        self._now += dt
        if session.online:
            self._check_turn(session)
        if session.clock is not None:
            self._clock_wait -= dt
            if self._clock_wait <= 0:
                self._clock_wait = CLOCK_CHECK
                self._check_clocks(session)
        if self._queue:
            due = [name for when, name in self._queue if when <= self._now]
            self._queue = [(when, name) for when, name in self._queue if when > self._now]
            for name in due:
                self._play(name)

    def _check_clocks(self, session: Session) -> None:
        if session.is_over:
            return
        seat = session.to_move
        persons = {i for i, c in enumerate(session.seats) if c.is_human}
        for i, left in enumerate(session.clock_times()):
            if left is not None:
                self._note_time(i, left, i == seat and i in persons)
        settings = session.clock_settings
        per_move = settings.per_move if settings is not None else None
        left = session.move_time_left()
        if per_move is not None and per_move > LOW_CLOCK and left is not None:
            self._note_time("move", left, seat in persons)

    def _note_time(self, key: int | str, left: float, running_for_person: bool) -> None:
        if left >= LOW_CLOCK:
            self._low.discard(key)
        elif key not in self._low and running_for_person:
            self._low.add(key)
            self._enqueue([cues.CLOCK_LOW])

    def _play(self, name: str) -> None:
        if self.enabled and self.player.play(name, self.volume / 100):
            self.played.append(name)

    def close(self) -> None:
        self._queue.clear()
        self.player.close()


def person_seat(session: Session) -> int | None:
    """The seat of the one person at this window (None with nobody, or two people sharing it)."""
    humans = [i for i, c in enumerate(session.seats) if c.is_human]
    return humans[0] if len(humans) == 1 else None


def _my_online_turn(session: Session) -> bool:
    """In an online match: the game is on and this side may move now."""
    return session.online and not session.is_over and session.input_block() is None


def _read(store: SettingsStore, key: str, default: Any) -> Any:
    try:
        return store.get_setting(STORE, key, default)
    except ProfileError as exc:  # a profile that cannot be read leaves the defaults
        log.warning("cannot read the sound setting %s: %s", key, exc)
        return default


def _write(store: SettingsStore, key: str, value: Any) -> None:
    try:
        store.set_setting(STORE, key, value)
    except ProfileError as exc:  # the setting still holds for this window
        log.warning("cannot keep the sound setting %s: %s", key, exc)


__all__ = ["SOUND_SETTING", "STORE", "SoundCues", "person_seat"]
