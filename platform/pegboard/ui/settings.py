"""Per-game settings: what a board view offers, where the values live, and the Settings panel.

A board view lists its settings as :class:`Setting` objects
(:meth:`pegboard.ui.board.BoardView.settings`); the window shows them in a
:class:`SettingsDialog` and keeps the values in a :class:`SettingsStore`
(the local profile when one is available, else memory). Nothing here names
a game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pegboard.ui import theme
from pegboard.ui.rect import Rect
from pegboard.ui.widgets import Button, Choice, Dialog, Label

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Setting:
    """One entry of a game's Settings panel.

    ``kind`` is ``"choice"`` (one of ``options``, pairs of stored value and
    label), ``"toggle"`` (True/False) or ``"action"`` (a button that calls
    ``action``; it stores nothing). ``rule`` marks settings that change the
    rules, so changing one restarts a game under way (the window asks first).
    ``tip`` is an action button's tooltip, a plain sentence (the label and help by default).
    """

    key: str
    label: str
    kind: str = "choice"
    default: Any = None
    options: tuple[tuple[Any, str], ...] = ()
    rule: bool = False
    help: str = ""
    action: Callable[[], Any] | None = field(default=None, compare=False)
    tip: str = ""

    def choices(self) -> tuple[tuple[Any, str], ...]:
        """The values this setting cycles through, with their labels."""
        if self.kind == "toggle":
            return ((False, "Off"), (True, "On"))
        return self.options


def number_options(low: int, high: int, step: int = 1, suffix: str = "") -> tuple[tuple[Any, str], ...]:
    """``low`` to ``high`` by ``step`` as choice options ("60", "61", ...)."""
    return tuple((v, f"{v}{suffix}") for v in range(low, high + 1, step))


class SettingsStore(Protocol):
    """Where setting values persist: one JSON value per (game, key)."""

    def get_setting(self, game: str, key: str, default: Any = None) -> Any:
        """The stored value, or ``default`` when nothing is stored."""

    def set_setting(self, game: str, key: str, value: Any) -> None:
        """Store ``value`` (a JSON value) for ``game``."""


class MemorySettings:
    """A :class:`SettingsStore` that forgets everything when the program ends."""

    def __init__(self) -> None:
        self.values: dict[tuple[str, str], Any] = {}

    def get_setting(self, game: str, key: str, default: Any = None) -> Any:
        return self.values.get((game, key), default)

    def set_setting(self, game: str, key: str, value: Any) -> None:
        self.values[(game, key)] = value


def current_values(store: SettingsStore, game: str, settings: Sequence[Setting]) -> dict[str, Any]:
    """Every stored (non-action) setting of ``game``, defaults filled in."""
    return {s.key: store.get_setting(game, s.key, s.default) for s in settings if s.kind != "action"}


class SettingsDialog(Dialog):
    """One row per setting (``◀ value ▶`` or a button); Save stores the changes, Cancel drops them.

    ``on_save(changed)`` receives only the values that changed (key → value).
    """

    ROW = 34

    def __init__(self, title: str, settings: Sequence[Setting], values: Mapping[str, Any],
                 on_save: Callable[[dict[str, Any]], Any], *, note: str = "") -> None:
        super().__init__(title, 600, 130 + self.ROW * len(settings) + (24 if note else 0))
        self.settings = list(settings)
        self.values = dict(values)
        self.on_save_cb = on_save
        self.rows: list[tuple[Label, Any]] = []
        for s in self.settings:
            lab = self.add(Label(s.label, bold=True))
            if s.kind == "action":
                widget: Any = self.add(Button(s.help or s.label, self._action(s),
                                              tooltip=s.tip or f"{s.label}: {(s.help or s.label).rstrip('.…')}."))
            else:
                options = s.choices()
                values_only = [v for v, _ in options]
                current = self.values.get(s.key, s.default)
                index = values_only.index(current) if current in values_only else 0
                widget = self.add(Choice([text for _, text in options], index))
            self.rows.append((lab, widget))
        self.note = self.add(Label(note, size=theme.SMALL_FONT_SIZE, color=theme.TEXT_DIM, wrap=True))
        self.save_button = self.add(Button("Save", self.accept, primary=True,
                                           tooltip="Save: keep these settings in your profile and use them now."))
        self.cancel_button = self.add(Button("Cancel", self.close, tooltip="Cancel: close and change nothing."))

    def _action(self, setting: Setting) -> Callable[[], None]:
        def run() -> None:
            self.close()
            if setting.action is not None:
                setting.action()
        return run

    def widget_for(self, key: str) -> Any:
        """The row widget of setting ``key`` (a Choice, or a Button for actions)."""
        for s, (_lab, widget) in zip(self.settings, self.rows, strict=False):
            if s.key == key:
                return widget
        raise KeyError(key)

    def chosen(self) -> dict[str, Any]:
        """The values the rows show now."""
        out = {}
        for s, (_lab, widget) in zip(self.settings, self.rows, strict=False):
            if s.kind != "action":
                out[s.key] = s.choices()[widget.index][0]
        return out

    def changed(self) -> dict[str, Any]:
        return {k: v for k, v in self.chosen().items() if self.values.get(k) != v}

    def on_layout(self) -> None:
        r = self.rect
        y = r.top - 48
        for lab, widget in self.rows:
            y -= self.ROW
            lab.set_rect(Rect(r.x + 16, y, 230, self.ROW - 4))
            widget.set_rect(Rect(r.x + 250, y, r.width - 266, self.ROW - 4))
        self.note.set_rect(Rect(r.x + 16, r.y + 52, r.width - 32, max(0.0, y - r.y - 56)))
        self.button_row([self.save_button, self.cancel_button])

    def accept(self) -> None:
        changed = self.changed()
        self.close()
        self.on_save_cb(changed)


__all__ = ["MemorySettings", "Setting", "SettingsDialog", "SettingsStore", "current_values", "default_store", "number_options"]


def default_store() -> SettingsStore:
    """The store a window uses when none is given: the local profile (see :mod:`pegboard.ratings.profile`),
    or memory when the profile cannot be opened (the reason is logged; the window still works)."""
    from pegboard.errors import ProfileError
    from pegboard.ratings.profile import open_profile

    try:
        return open_profile()
    except ProfileError as exc:
        log.warning("settings will not be saved: %s", exc)
        return MemorySettings()
