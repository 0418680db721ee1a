"""The shell's dialogs: Customize, end of game, file picker (errors use MessageDialog)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pegboard.ui import theme
from pegboard.ui.catalog import RulesetChoice
from pegboard.ui.rect import Rect
from pegboard.ui.widgets import (
    Button,
    Choice,
    Dialog,
    Drawable,
    Label,
    ListView,
    TextInput,
    Ui,
    label,
    rect_shape,
    wrapped_height,
)


class CustomizeDialog(Dialog):
    """Who plays each seat (Player or any bot) and which ruleset; Apply / Start new game / Cancel.

    ``on_apply(seat_ids)`` keeps the game; ``on_new_game(seat_ids, ruleset_ref)`` restarts.
    Apply is only offered while the ruleset is unchanged: another ruleset needs a new game.
    """

    def __init__(self, seats: Sequence[str], current: Sequence[str], bots: Sequence[tuple[str, str]],
                 rulesets: Sequence[RulesetChoice], current_ruleset: str,
                 on_apply: Callable[[list[str]], Any], on_new_game: Callable[[list[str], str], Any]) -> None:
        height = 200 + 40 * len(seats) + min(6, max(1, len(rulesets))) * 24
        super().__init__("Customize", 560, height)
        self.options = [("human", "Player"), *bots]
        self.on_apply_cb = on_apply
        self.on_new_game_cb = on_new_game
        self.rulesets = list(rulesets)
        self.current_ruleset = current_ruleset
        self.seat_labels: list[Label] = []
        self.choices: list[Choice] = []
        ids = [o[0] for o in self.options]
        for seat, who in zip(seats, current, strict=False):
            self.seat_labels.append(self.add(Label(seat, bold=True)))
            index = ids.index(who) if who in ids else 0
            self.choices.append(self.add(Choice([o[1] for o in self.options], index)))
        self.ruleset_title = self.add(Label("Ruleset", bold=True))
        self.ruleset_list = self.add(ListView([f"{r.name}  ({r.id})" for r in self.rulesets], on_select=self._ruleset_picked))
        refs = [r.ref for r in self.rulesets]
        self.ruleset_list.selected = refs.index(current_ruleset) if current_ruleset in refs else None
        self.note = self.add(Label("", size=theme.SMALL_FONT_SIZE, color=theme.TEXT_WARN))
        self.apply_button = self.add(Button(
            "Apply", self.apply, primary=True, tooltip="Apply: these players take their seats in the game under way."))
        self.new_button = self.add(Button(
            "Start new game", self.new_game, tooltip="Start new game: a fresh game with these players and this ruleset."))
        self.cancel_button = self.add(Button("Cancel", self.close, tooltip="Cancel: close and change nothing."))
        self._ruleset_picked(self.ruleset_list.selected)

    def seat_ids(self) -> list[str]:
        return [self.options[c.index][0] for c in self.choices]

    def chosen_ruleset(self) -> str:
        index = self.ruleset_list.selected
        return self.rulesets[index].ref if index is not None and index < len(self.rulesets) else self.current_ruleset

    def _ruleset_picked(self, index: int | None) -> None:
        changed = self.chosen_ruleset() != self.current_ruleset
        self.apply_button.set_enabled(not changed)
        self.note.set_text("Another ruleset needs a new game: use Start new game." if changed else "")

    def on_layout(self) -> None:
        r = self.rect
        y = r.top - 50
        for lab, choice in zip(self.seat_labels, self.choices, strict=False):
            y -= 36
            lab.set_rect(Rect(r.x + 16, y, 110, 30))
            choice.set_rect(Rect(r.x + 130, y, r.width - 146, 30))
        y -= 34
        self.ruleset_title.set_rect(Rect(r.x + 16, y, 200, 24))
        list_bottom = r.y + 80
        self.ruleset_list.set_rect(Rect(r.x + 16, list_bottom, r.width - 32, max(24, y - 6 - list_bottom)))
        self.note.set_rect(Rect(r.x + 16, r.y + 54, r.width - 32, 20))
        self.button_row([self.apply_button, self.new_button, self.cancel_button])

    def apply(self) -> None:
        if not self.apply_button.enabled:
            return
        self.close()
        self.on_apply_cb(self.seat_ids())

    def accept(self) -> None:
        self.apply()

    def new_game(self) -> None:
        self.close()
        self.on_new_game_cb(self.seat_ids(), self.chosen_ruleset())


class ConfirmDialog(Dialog):
    """A question with two answers: ``on_yes`` runs after Yes (Enter), nothing after No (Escape)."""

    def __init__(self, title: str, message: str, on_yes: Callable[[], Any], *, yes_label: str = "Yes",
                 no_label: str = "Cancel", on_no: Callable[[], Any] | None = None) -> None:
        super().__init__(title, 520, 122 + wrapped_height(message, 488))
        self.message = self.add(Label(message, wrap=True))
        self.on_yes_cb = on_yes
        self.on_no_cb = on_no
        self.yes_button = self.add(Button(yes_label, self.accept, primary=True, tooltip=f"{yes_label} (Enter)."))
        self.no_button = self.add(Button(no_label, self.cancel, tooltip=f"{no_label} (Esc): carry on as you were."))

    def on_layout(self) -> None:
        r = self.rect
        self.message.set_rect(Rect(r.x + 16, r.y + 58, r.width - 32, r.height - 106))  # under the title
        self.button_row([self.yes_button, self.no_button])

    def accept(self) -> None:
        self.close()
        self.on_yes_cb()

    def cancel(self) -> None:
        self.close()
        if self.on_no_cb is not None:
            self.on_no_cb()


class EndGameDialog(Dialog):
    """The end-of-game screen: the result as a headline on a band coloured by how it went, the
    reason in words, the score and a note (how a rated game moved the rating), then the buttons:
    the turn-limit extension when the game offers one, New game, any ``actions`` (label,
    callback, tooltip) a caller adds (Review, say) and Close.

    ``outcome`` is ``"win"``, ``"loss"`` or ``"draw"`` from the viewer's side, or ``""`` when
    nobody at the window played (bots, or two people sharing it).
    """

    BAND = 48

    def __init__(self, title: str, reason: str, *, extend_label: str | None,
                 on_extend: Callable[[], Any], on_new_game: Callable[[], Any], note: str = "",
                 new_label: str = "New game", score: str = "", outcome: str = "",
                 new_tip: str = "New game: the same players and rules, a fresh deal.",
                 actions: Sequence[tuple[str, Callable[[], Any], str]] = ()) -> None:
        width = 560.0
        text_w = width - 2 * theme.DIALOG_PAD
        body = sum(wrapped_height(t, text_w) + theme.GAP for t in (reason, score, note) if t)
        super().__init__(title, width, self.BAND + body + 2 * theme.DIALOG_PAD + 56)
        self.outcome = outcome
        self.reason = self.add(Label(reason, wrap=True))
        self.score = self.add(Label(score, wrap=True, color=theme.TEXT_DIM))
        self.note = self.add(Label(note, wrap=True, color=theme.TEXT_WARN if note else theme.TEXT))
        self.on_extend_cb = on_extend
        self.on_new_game_cb = on_new_game
        self.buttons: list[Button] = []
        self.extend_button: Button | None = None
        if extend_label:
            self.extend_button = self.add(Button(extend_label, self._extend, primary=True,
                                                 tooltip=f"{extend_label}: the turn limit moves on and the game goes on."))
            self.buttons.append(self.extend_button)
        self.new_button = self.add(Button(new_label, self._new, primary=not extend_label, tooltip=new_tip))
        self.buttons.append(self.new_button)
        for text, callback, tip in actions:
            self.buttons.append(self.add(Button(text, self._then(callback), tooltip=tip)))
        self.close_button = self.add(Button("Close", self.close, tooltip="Close: look at the final position (a click on the board brings this back)."))
        self.buttons.append(self.close_button)

    def build_title(self, ui: Ui, layer: int) -> list[Drawable]:
        """The headline, large, on a band: green after a win, red after a loss, blue otherwise."""
        r = self.rect
        band = Rect(r.x + 1, r.top - self.BAND - 1, r.width - 2, self.BAND)
        color = {"win": theme.WIN, "loss": theme.LOSS}.get(self.outcome, theme.BUTTON_ACTIVE)
        return [rect_shape(ui, band, color, layer, sub=2, radius=theme.RADIUS - 1),
                label(ui, self.title, r.x + theme.DIALOG_PAD, band.y + band.height / 2, layer,
                      size=theme.TITLE_FONT_SIZE, bold=True, sub=3)]

    def on_layout(self) -> None:
        r, pad = self.rect, theme.DIALOG_PAD
        y = r.top - self.BAND - pad
        for part in (self.reason, self.score, self.note):
            h = wrapped_height(part.text, r.width - 2 * pad) if part.text else 0.0
            part.set_rect(Rect(r.x + pad, y - h, r.width - 2 * pad, h))
            y -= h + (theme.GAP if h else 0.0)
        self.button_row(self.buttons, y_offset=pad, height=34)

    def _then(self, callback: Callable[[], Any]) -> Callable[[], None]:
        def run() -> None:
            self.close()
            callback()
        return run

    def _extend(self) -> None:
        self.close()
        self.on_extend_cb()

    def _new(self) -> None:
        self.close()
        self.on_new_game_cb()


class FileDialog(Dialog):
    """Pick a file without system dialogs: list a folder, click to pick, or type a path.

    ``mode`` is ``"open"`` or ``"save"``; ``suffixes`` filter the listed files
    (folders always show). ``on_done(path)`` gets the chosen path; it may
    return an error string to keep the dialog open and show it.
    """

    def __init__(self, title: str, mode: str, on_done: Callable[[Path], str | None], *, folder: Path | None = None,
                 name: str = "", suffixes: Sequence[str] = ()) -> None:
        super().__init__(title, 640, 480)
        self.mode = mode
        self.on_done = on_done
        self._replace_confirmed: Path | None = None
        self.suffixes = tuple(s.lower() for s in suffixes)
        self.folder = (folder or Path.cwd()).resolve()
        self.entries: list[Path] = []
        self.folder_label = self.add(Label("", color=theme.TEXT_DIM))
        self.list = self.add(ListView(on_select=self._picked, on_activate=self._activated))
        self.path_label = self.add(Label("Path", bold=True))
        self.input = self.add(TextInput(str(self.folder / name) if name else str(self.folder) + os.sep, on_submit=lambda _t: self.accept()))
        self.input.focus(True)
        self.note = self.add(Label("", color=theme.TEXT_ERROR, size=theme.SMALL_FONT_SIZE))
        self.ok_button = self.add(Button("Save" if mode == "save" else "Open", self.accept, primary=True))
        self.cancel_button = self.add(Button("Cancel", self.close))
        self.show_folder(self.folder)

    def show_folder(self, folder: Path) -> None:
        try:
            children = sorted(folder.iterdir(), key=lambda p: (not p.is_dir(), p.name.lower()))
        except OSError as exc:
            self.note.set_text(f"Cannot list {folder}: {exc.strerror or exc}")
            return
        self.folder = folder
        entries = [folder.parent] if folder.parent != folder else []
        for child in children:
            if child.name.startswith("."):
                continue
            if child.is_dir() or not self.suffixes or any(child.name.lower().endswith(s) for s in self.suffixes):
                entries.append(child)
        self.entries = entries
        rows = []
        for entry in entries:
            if entry == folder.parent and entry != folder:
                rows.append("↑  ..")
            elif entry.is_dir():
                rows.append(f"›  {entry.name}/")
            else:
                rows.append(f"   {entry.name}")
        self.list.set_rows(rows)
        self.list.selected = None
        self.list.top = 0
        self.list.invalidate()
        self.folder_label.set_text(str(folder))
        typed = Path(self.input.text).name if not self.input.text.endswith(os.sep) else ""
        self.input.set_text(str(folder / typed) if typed else str(folder) + os.sep)

    def _picked(self, index: int) -> None:
        entry = self.entries[index]
        if entry.is_dir():
            name = "" if self.mode == "open" else Path(self.input.text).name
            self.input.set_text(str(entry / name) if name else str(entry) + os.sep)
            self.show_folder(entry)
        else:
            self.input.set_text(str(entry))
        self.note.set_text("")

    def _activated(self, index: int) -> None:
        if not self.entries[index].is_dir():
            self.accept()

    def chosen(self) -> Path:
        typed = Path(self.input.text.strip()).expanduser()
        return typed if typed.is_absolute() else self.folder / typed

    def accept(self) -> None:
        path = self.chosen()
        if not self.input.text.strip() or path.is_dir():
            self.show_folder(path if path.is_dir() else self.folder)
            return
        if self.mode == "open" and not path.is_file():
            self.note.set_text(f"No such file: {path}")
            return
        if self.mode == "save" and not path.parent.is_dir():
            self.note.set_text(f"No such folder: {path.parent}")
            return
        if self.mode == "save" and path.exists() and path != self._replace_confirmed:
            self._replace_confirmed = path  # a second Save on the same name replaces it
            self.note.set_text(f"{path.name} already exists: press Save again to replace it.")
            return
        error = self.on_done(path)
        if error:
            self.note.set_text(error)
        else:
            self.close()

    def on_layout(self) -> None:
        r = self.rect
        self.folder_label.set_rect(Rect(r.x + 16, r.top - 64, r.width - 32, 22))
        self.list.set_rect(Rect(r.x + 16, r.y + 130, r.width - 32, r.height - 200))
        self.path_label.set_rect(Rect(r.x + 16, r.y + 92, 60, 30))
        self.input.set_rect(Rect(r.x + 70, r.y + 92, r.width - 86, 30))
        self.note.set_rect(Rect(r.x + 16, r.y + 58, r.width - 32, 22))
        self.button_row([self.ok_button, self.cancel_button])
