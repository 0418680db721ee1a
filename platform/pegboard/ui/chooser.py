"""The game chooser: what ``pegboard play`` opens when no game is named.

Each installed game is a card with its picture (the renderer's
:attr:`~pegboard.specs.RendererSpec.picture`), its name and its one line (the GameSpec's
description); the game played last (kept in the local profile) is selected when it opens,
so a person never needs to know a game id. A click selects a card; a double click, Enter or
Play opens the game. The arrow keys move between cards.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pyglet
from pyglet.window import key

from pegboard.ui import icons, theme
from pegboard.ui.catalog import GameChoice
from pegboard.ui.rect import Rect
from pegboard.ui.settings import SettingsStore
from pegboard.ui.shell import ShellWindow
from pegboard.ui.widgets import (
    Button,
    Drawable,
    Label,
    Panel,
    Ui,
    Widget,
    fit_wrapped,
    label,
    release_buttons,
    rounded_box,
    wrapped_height,
)

log = logging.getLogger(__name__)

#: Where the profile keeps the game played last (``settings_store.get_setting(SHELL, LAST_GAME)``).
SHELL = "pegboard"
LAST_GAME = "last_game"
DOUBLE_CLICK = 0.5


def last_game(store: SettingsStore, choices: Sequence[GameChoice]) -> int:
    """The index of the game played last among ``choices`` (the first one when none was)."""
    ids = [c.id for c in choices]
    last = store.get_setting(SHELL, LAST_GAME)
    return ids.index(last) if last in ids else 0


def remember_game(store: SettingsStore, game_id: str) -> None:
    """Keep ``game_id`` as the game played last (the chooser selects it next time)."""
    try:
        store.set_setting(SHELL, LAST_GAME, game_id)
    except Exception:  # noqa: BLE001 - a profile that cannot be written must not stop the game
        log.warning("could not keep %s as the last game played", game_id, exc_info=True)


class GameCard(Widget):
    """One game: its picture (or a tile with the chooser icon), name and one line."""

    def __init__(self, choice: GameChoice, on_press: Callable[[GameCard], Any]) -> None:
        super().__init__()
        self.choice = choice
        self.on_press = on_press
        self.selected = False
        #: Room under the picture for the name and the description (the same on every card).
        self.words_height = 60.0
        self._image: Any = None
        if choice.picture is not None:
            try:
                self._image = pyglet.image.load(str(choice.picture))
            except Exception:  # noqa: BLE001 - a broken picture file: the tile instead
                log.warning("cannot read the picture of %s: %s", choice.id, choice.picture, exc_info=True)

    def set_selected(self, selected: bool) -> None:
        if selected != self.selected:
            self.selected = selected
            self.invalidate()

    def picture_rect(self) -> Rect:
        r, pad = self.rect, theme.DIALOG_PAD
        height = max(0.0, r.height - 2 * pad - self.words_height)
        return Rect(r.x + pad, r.top - pad - height, r.width - 2 * pad, height)

    def needed_words_height(self, width: float) -> float:
        """The name and the description's height for a card ``width`` wide."""
        description = fit_wrapped(self.choice.description, width - 2 * theme.DIALOG_PAD, 3, theme.SMALL_FONT_SIZE)
        return 28 + wrapped_height(description, width - 2 * theme.DIALOG_PAD, theme.SMALL_FONT_SIZE) + 4

    def _description(self) -> str:
        return fit_wrapped(self.choice.description, self.rect.width - 2 * theme.DIALOG_PAD, 3, theme.SMALL_FONT_SIZE)

    def build(self, ui: Ui, layer: int) -> Iterable[Drawable]:
        r, pad = self.rect, theme.DIALOG_PAD
        edge = theme.FOCUS if self.selected else theme.BUTTON_HOVER if self.hover else theme.PANEL_BORDER
        fill = theme.CARD_SELECTED if self.selected else theme.BUTTON if self.hover else theme.PANEL
        items = rounded_box(ui, r, fill, layer, border=edge, radius=theme.RADIUS + 2)
        pic = self.picture_rect()
        items += self._picture(ui, layer, pic)
        y = pic.y - 6
        items.append(label(ui, self.choice.name, r.x + pad, y - 11, layer, size=theme.TITLE_FONT_SIZE, bold=True))
        items.append(label(ui, self._description(), r.x + pad, y - 26, layer, size=theme.SMALL_FONT_SIZE,
                           color=theme.TEXT_DIM, anchor_y="top", width=r.width - 2 * pad, multiline=True))
        return items

    def _picture(self, ui: Ui, layer: int, box: Rect) -> list[Drawable]:
        if box.width <= 4 or box.height <= 4:
            return []
        items = rounded_box(ui, box, theme.BOARD_BACKGROUND, layer, radius=theme.RADIUS, sub=2)
        if self._image is None:
            size = min(box.width, box.height) * 0.45
            return items + icons.draw("games", *box.center, size, theme.TEXT_DIM, ui.batch, ui.group(layer, 3))
        scale = min(box.width / self._image.width, box.height / self._image.height)
        sprite = pyglet.sprite.Sprite(self._image, batch=ui.batch, group=ui.group(layer, 3))
        sprite.scale = scale
        sprite.position = (box.x + (box.width - self._image.width * scale) / 2,
                           box.y + (box.height - self._image.height * scale) / 2, 0)
        return [*items, sprite]

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        self.on_press(self)
        return True


class GameChooser(Panel):
    """The chooser's content: a heading, the cards in a row (or rows), the Play button."""

    def __init__(self, choices: Sequence[GameChoice], selected: int, on_choose: Callable[[str], Any]) -> None:
        super().__init__(color=theme.BACKGROUND, border=None)
        self.radius = 0
        self.on_choose = on_choose
        self.heading = self.add(Label("Choose a game", size=theme.TITLE_FONT_SIZE, bold=True))
        self.hint = self.add(Label("Click a game to pick it; double-click it, or press Play, to start.",
                                   size=theme.SMALL_FONT_SIZE, color=theme.TEXT_DIM))
        self.cards = [self.add(GameCard(choice, self._pressed)) for choice in choices]
        self.play_button = self.add(Button("Play", self.play, primary=True, icon="resume"))
        self.selected = -1
        self._last_press: tuple[int, float] = (-1, 0.0)
        self.select(selected)

    @property
    def choice(self) -> GameChoice | None:
        return self.cards[self.selected].choice if 0 <= self.selected < len(self.cards) else None

    def select(self, index: int) -> None:
        if not self.cards:
            self.play_button.set_enabled(False)
            self.hint.set_text("No game is installed: add a game plugin (see docs/plugins.md).")
            return
        self.selected = index % len(self.cards)
        for i, card in enumerate(self.cards):
            card.set_selected(i == self.selected)
        name = self.cards[self.selected].choice.name
        self.play_button.set_text(f"Play {name}", "Play")
        self.on_layout()

    def play(self) -> None:
        if self.choice is not None:
            self.on_choose(self.choice.id)

    def _pressed(self, card: GameCard) -> None:
        index = self.cards.index(card)
        now = time.monotonic()
        double = self._last_press[0] == index and now - self._last_press[1] < DOUBLE_CLICK
        self._last_press = (-1, 0.0) if double else (index, now)
        self.select(index)
        if double:
            self.play()

    def on_layout(self) -> None:
        r, pad = self.rect, 2 * theme.DIALOG_PAD
        self.heading.set_rect(Rect(r.x + pad, r.top - pad - 28, r.width - 2 * pad, 28))
        self.hint.set_rect(Rect(r.x + pad, r.top - pad - 52, r.width - 2 * pad, 20))
        button_w = max(120.0, self.play_button.natural_width())
        self.play_button.set_rect(Rect(r.right - pad - button_w, r.y + pad, button_w, 40))
        top, bottom = r.top - pad - 68, r.y + pad + 40 + theme.DIALOG_PAD
        n = len(self.cards)
        if not n:
            return
        gap = theme.DIALOG_PAD
        width = r.width - 2 * pad
        per_row = max(1, min(n, int((width + gap) // (220 + gap))))  # cards at least 220 wide
        rows = math.ceil(n / per_row)
        card_w = min(440.0, (width - gap * (per_row - 1)) / per_row)
        card_h = min(card_w * 1.05, (top - bottom - gap * (rows - 1)) / rows)
        row_w = per_row * card_w + gap * (per_row - 1)
        top -= max(0.0, (top - bottom) - (rows * card_h + gap * (rows - 1))) / 2  # centred in the space
        words = max(card.needed_words_height(card_w) for card in self.cards)
        for i, card in enumerate(self.cards):
            card.words_height = words
            row, col = divmod(i, per_row)
            in_row = min(per_row, n - row * per_row)
            x0 = r.x + (r.width - (in_row * card_w + gap * (in_row - 1))) / 2 if in_row < per_row else \
                r.x + (r.width - row_w) / 2
            y = top - (row + 1) * card_h - row * gap
            card.set_rect(Rect(x0 + col * (card_w + gap), y, card_w, max(0.0, card_h)))

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if symbol in (key.RIGHT, key.DOWN, key.TAB):
            self.select(self.selected + 1)
        elif symbol in (key.LEFT, key.UP):
            self.select(self.selected - 1)
        elif symbol in (key.ENTER, key.RETURN, key.NUM_ENTER, key.SPACE):
            self.play()
        else:
            return False
        return True


class ChooserWindow(ShellWindow, pyglet.window.Window):  # type: ignore[misc]  # pyglet picks the platform's Window class at import: Any to mypy
    """The window that shows the :class:`GameChooser`; ``on_choose(game_id)`` runs on a choice."""

    def __init__(self, choices: Sequence[GameChoice], store: SettingsStore, on_choose: Callable[[str], Any], *,
                 width: int = 1280, height: int = 800, ui_scale: float | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("caption", "Pegboard — choose a game")
        kwargs.setdefault("resizable", True)
        self.hold_events_while_created()
        super().__init__(width=width, height=height, **kwargs)
        self.setup_shell(ui_scale)
        self.ui = Ui()
        self.chooser = GameChooser(choices, last_game(store, choices), on_choose)
        red, green, blue = (c / 255 for c in theme.BACKGROUND)
        pyglet.gl.glClearColor(red, green, blue, 1.0)
        self.on_resize(width, height)
        self.release_held_events()

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self.ui.width, self.ui.height = self.layout_size
        self.chooser.set_rect(Rect(0, 0, *self.layout_size))
        self.chooser.on_layout()

    def on_draw(self) -> None:
        self.clear()
        self.chooser.sync(self.ui)
        self.ui.draw()

    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        self.chooser.on_mouse_motion(x / self.ui_scale, y / self.ui_scale)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        self.chooser.on_mouse_press(x / self.ui_scale, y / self.ui_scale, button, modifiers)

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> None:
        release_buttons()

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        self.chooser.on_key_press(symbol, modifiers)
        return True  # Escape must not close the window either

    def layout_rects(self) -> list[tuple[str, Rect, Widget | None]]:
        """Every separate thing the chooser shows (see :meth:`MatchWindow.layout_rects`)."""
        c = self.chooser
        return [("heading", c.heading.rect, c.heading), ("hint", c.hint.rect, c.hint),
                ("play", c.play_button.rect, c.play_button),
                *[(f"card {card.choice.id}", card.rect, card) for card in c.cards]]


__all__ = ["LAST_GAME", "SHELL", "ChooserWindow", "GameCard", "GameChooser", "last_game", "remember_game"]
