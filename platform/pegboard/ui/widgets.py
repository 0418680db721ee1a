"""Small retained-mode widgets for pyglet: Button, Panel, Dialog, TextInput, ListView ...

Every widget owns the pyglet shapes and labels it put into a shared
:class:`Ui` batch and rebuilds them only when it is invalidated (its text,
size, hover or state changed), so a frame costs one ``batch.draw()``.

Coordinates are window pixels with the origin at the bottom-left. Event
methods return True when they used the event. A game's board view may reuse
these widgets with its own :class:`Ui`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal, TypeVar

import pyglet
from pyglet import shapes
from pyglet.window import key

from pegboard.ui import theme, typeface
from pegboard.ui.rect import Rect

typeface.register()  # before the first label or measurement names the font

Drawable = Any

# Layers: higher draws on top. Each layer has four sub-levels (back, shapes, text, top).
LAYER_BASE = 0
LAYER_OVERLAY = 10
LAYER_DIALOG = 20
LAYER_TOOLTIP = 30


class Ui:
    """A batch plus draw-order groups shared by widgets, and the screen size."""

    def __init__(self, batch: pyglet.graphics.Batch | None = None) -> None:
        self.batch = batch or pyglet.graphics.Batch()
        self._groups: dict[int, pyglet.graphics.Group] = {}
        self.width = 0
        self.height = 0

    def group(self, level: int, sub: int = 0) -> pyglet.graphics.Group:
        """The group for draw ``level`` (see :meth:`Widget.sync`) and ``sub`` (0 back .. 3 top)."""
        order = level * 4 + sub
        found = self._groups.get(order)
        if found is None:
            found = self._groups[order] = pyglet.graphics.Group(order=order)
        return found

    def draw(self) -> None:
        self.batch.draw()


_measure_cache: dict[tuple[str, float, bool], float] = {}
_fonts: dict[tuple[float, bool], Any] = {}


def text_width(text: str, size: float = theme.FONT_SIZE, bold: bool = False) -> float:
    """Width in pixels of ``text`` in the shell font (cached): what a one-line Label's
    ``content_width`` would be, summed from the font's glyph advances without making a Label."""
    cache_key = (text, size, bold)
    width = _measure_cache.get(cache_key)
    if width is None:
        font = _fonts.get((size, bold))
        if font is None:
            font = _fonts[size, bold] = pyglet.font.load(theme.FONT_NAME, size, weight="bold" if bold else "normal",
                                                         dpi=96)
        glyphs, offsets = font.get_glyphs(text)
        width = float(sum(g.advance for g in glyphs) + sum(o.x_advance for o in offsets))
        if len(_measure_cache) > 20_000:  # wrapping tries many candidate lines: keep the cache bounded
            _measure_cache.clear()
        _measure_cache[cache_key] = width
    return width


def fit_text(text: str, width: float, size: float = theme.FONT_SIZE, *, keep_end: bool = False) -> str:
    """``text`` shortened with an ellipsis so it fits ``width`` pixels."""
    if width <= 0 or text_width(text, size) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        part = "…" + text[len(text) - mid :] if keep_end else text[:mid] + "…"
        if text_width(part, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return "…" + text[len(text) - lo :] if keep_end else text[:lo] + "…"


def label(
    ui: Ui, text: str, x: float, y: float, layer: int, *, size: float = theme.FONT_SIZE, color: theme.RGB = theme.TEXT,
    anchor_x: Literal["left", "center", "right"] = "left", anchor_y: Literal["top", "bottom", "center", "baseline"] = "center",
    bold: bool = False, width: float | None = None,
    multiline: bool = False, sub: int = 2,
) -> pyglet.text.Label:
    """A label in the shell font placed in ``layer``."""
    return pyglet.text.Label(
        text, x=x, y=y, font_name=theme.FONT_NAME, font_size=size, color=(*color, 255), anchor_x=anchor_x,
        anchor_y=anchor_y, weight="bold" if bold else "normal", width=int(width) if width else None,
        multiline=multiline, batch=ui.batch, group=ui.group(layer, sub),
    )


def _rgba(color: Sequence[int]) -> tuple[int, int, int] | tuple[int, int, int, int]:
    if len(color) == 4:
        return (color[0], color[1], color[2], color[3])
    return (color[0], color[1], color[2])


def rect_shape(ui: Ui, r: Rect, color: Sequence[int], layer: int, sub: int = 0, radius: float = 0) -> Drawable:
    if radius > 0 and r.width > 2 * radius and r.height > 2 * radius:
        return shapes.RoundedRectangle(r.x, r.y, r.width, r.height, radius, color=_rgba(color), batch=ui.batch, group=ui.group(layer, sub))
    return shapes.Rectangle(r.x, r.y, r.width, r.height, color=_rgba(color), batch=ui.batch, group=ui.group(layer, sub))


def box_shape(ui: Ui, r: Rect, color: Sequence[int], layer: int, sub: int = 1, thickness: float = 1) -> Drawable:
    return shapes.Box(r.x, r.y, r.width, r.height, thickness=thickness, color=_rgba(color), batch=ui.batch, group=ui.group(layer, sub))


def line_height(size: float = theme.FONT_SIZE, bold: bool = False) -> float:
    """The distance between two lines of wrapped text in the shell font (what pyglet spaces them by)."""
    text_width("", size, bold)  # loads the font into the cache
    font = _fonts[size, bold]
    return float(font.ascent - font.descent)


def wrapped_lines(text: str, width: float, size: float = theme.FONT_SIZE, bold: bool = False) -> int:
    """How many lines ``text`` takes when wrapped at ``width`` pixels, breaking at spaces as
    pyglet's multiline labels do (a word wider than the line takes a line of its own)."""
    lines = 0
    space = text_width(" ", size, bold)
    limit = int(width) - 1  # labels wrap at their whole-pixel width, a line that just touches it included
    for paragraph in text.split("\n"):
        lines += 1
        used = 0.0
        for word in paragraph.split(" "):
            w = text_width(word, size, bold)
            if used and used + space + w > limit:
                lines += 1
                used = w
            else:
                used += (space if used else 0.0) + w
    return lines


def fit_wrapped(text: str, width: float, lines: int, size: float = theme.FONT_SIZE, bold: bool = False) -> str:
    """``text``, or as many of its first words as fit in ``lines`` wrapped lines, then "…"."""
    if lines <= 0:
        return ""
    if wrapped_lines(text, width, size, bold) <= lines:
        return text
    words = text.split(" ")
    lo, hi = 0, len(words)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if wrapped_lines(" ".join(words[:mid]) + " …", width, size, bold) <= lines:
            lo = mid
        else:
            hi = mid - 1
    return " ".join(words[:lo]) + " …" if lo else fit_text(text, width, size)


def wrapped_height(text: str, width: float, size: float = theme.FONT_SIZE, bold: bool = False) -> float:
    """How tall ``text`` is when wrapped at ``width`` pixels (for sizing labels and dialogs)."""
    return wrapped_lines(text, width, size, bold) * line_height(size, bold) if text else 0.0


W = TypeVar("W", bound="Widget")


class Widget:
    """Base widget: a rectangle, children, cached drawables, event routing."""

    def __init__(self, *, layer: int | None = None) -> None:
        self.rect = Rect(0, 0, 0, 0)
        self.visible = True
        self.enabled = True
        self.hover = False
        self.layer = layer
        self.children: list[Widget] = []
        self._items: list[Drawable] = []
        self._dirty = True

    # -- tree and geometry ------------------------------------------------------------------

    def add(self, child: W) -> W:
        self.children.append(child)
        return child

    def set_rect(self, rect: Rect) -> None:
        if rect != self.rect:
            self.rect = rect
            self.invalidate()
            self.on_layout()

    def on_layout(self) -> None:
        """Place children after :attr:`rect` changed."""

    def invalidate(self) -> None:
        self._dirty = True

    def show(self, visible: bool = True) -> None:
        if visible != self.visible:
            self.visible = visible
            self.invalidate()

    def set_enabled(self, enabled: bool) -> None:
        if enabled != self.enabled:
            self.enabled = enabled
            self.invalidate()

    def set_hover(self, hover: bool) -> None:
        if hover != self.hover:
            self.hover = hover
            self.invalidate()

    def contains(self, x: float, y: float) -> bool:
        return self.visible and self.rect.contains(x, y)

    # -- drawing ------------------------------------------------------------------------------

    def build(self, ui: Ui, layer: int) -> Iterable[Drawable]:
        """Create this widget's own drawables (children build their own)."""
        return ()

    def sync(self, ui: Ui, layer: int = LAYER_BASE, depth: int = 0) -> None:
        """Bring the drawables up to date; call once per frame before drawing.

        A child draws above its parent: ``build`` receives a draw level made of
        the widget's layer and its depth in the tree (at most 15 deep).
        """
        base = self.layer if self.layer is not None else layer
        if not self.visible:
            self.clear()
            return
        if self._dirty:
            self._delete_items()
            self._items = list(self.build(ui, base * 16 + min(depth, 15)))
            self._dirty = False
        for child in self.children:
            child.sync(ui, base, depth + 1)

    def _delete_items(self) -> None:
        for item in self._items:
            item.delete()
        self._items = []

    def clear(self) -> None:
        """Delete every drawable of this widget and its children (they rebuild when shown)."""
        self._delete_items()
        self._dirty = True
        for child in self.children:
            child.clear()

    delete = clear

    # -- events ---------------------------------------------------------------------------------

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        for child in reversed(self.children):
            if child.enabled and child.contains(x, y) and child.on_mouse_press(x, y, button, modifiers):
                return True
        return False

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        for child in reversed(self.children):
            if child.visible and child.on_mouse_release(x, y, button, modifiers):
                return True
        return False

    def on_mouse_motion(self, x: float, y: float) -> None:
        for child in self.children:
            if child.visible:
                child.set_hover(child.enabled and child.contains(x, y))
                child.on_mouse_motion(x, y)

    def on_mouse_scroll(self, x: float, y: float, scroll_x: float, scroll_y: float) -> bool:
        for child in reversed(self.children):
            if child.contains(x, y) and child.on_mouse_scroll(x, y, scroll_x, scroll_y):
                return True
        return False

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        for child in self.children:
            if child.visible and child.on_key_press(symbol, modifiers):
                return True
        return False

    def on_text(self, text: str) -> bool:
        for child in self.children:
            if child.visible and child.on_text(text):
                return True
        return False

    def on_text_motion(self, motion: int, select: bool = False) -> bool:
        """pyglet's text-editing motion (``key.MOTION_*``); ``select`` when Shift was held."""
        for child in self.children:
            if child.visible and child.on_text_motion(motion, select):
                return True
        return False

    def on_mouse_drag(self, x: float, y: float) -> bool:
        """The pointer moved with a button held (a text field selects with it)."""
        for child in reversed(self.children):
            if child.visible and child.on_mouse_drag(x, y):
                return True
        return False

    def walk(self) -> Iterable[Widget]:
        yield self
        for child in self.children:
            yield from child.walk()


class Label(Widget):
    """Text in a rectangle; ``wrap`` breaks lines at the rectangle's width."""

    def __init__(self, text: str = "", *, size: float = theme.FONT_SIZE, color: theme.RGB = theme.TEXT, bold: bool = False,
                 wrap: bool = False, align: str = "left", layer: int | None = None) -> None:
        super().__init__(layer=layer)
        self.text = text
        self.size = size
        self.color = color
        self.bold = bold
        self.wrap = wrap
        self.align = align

    def set_text(self, text: str, color: theme.RGB | None = None) -> None:
        if text != self.text or (color is not None and color != self.color):
            self.text = text
            if color is not None:
                self.color = color
            self.invalidate()

    def build(self, ui: Ui, layer: int) -> Iterable[Drawable]:
        r = self.rect
        if self.wrap:
            return [label(ui, self.text, r.x, r.top, layer, size=self.size, color=self.color, bold=self.bold,
                          anchor_y="top", width=max(10, r.width), multiline=True)]
        x = {"center": r.x + r.width / 2, "right": r.right}.get(self.align, r.x)
        anchor: Literal["left", "center", "right"] = "center" if self.align == "center" else "right" if self.align == "right" else "left"
        return [label(ui, fit_text(self.text, r.width, self.size), x, r.y + r.height / 2, layer, size=self.size,
                      color=self.color, bold=self.bold, anchor_x=anchor)]


_held: set[Button] = set()  # buttons drawn pressed until the mouse button comes up


def release_buttons() -> None:
    """The mouse button came up: every pressed button goes back to its resting look."""
    for button in list(_held):
        button.set_pressed(False)


class Button(Widget):
    """A clickable button: an optional icon (a name in :data:`pegboard.ui.icons.ICONS`) and a text.

    ``fit`` says how much of it shows: ``"full"`` (icon and text), ``"short"`` (icon and
    ``short_text``) or ``"icon"`` (the icon alone; the tooltip then names the button). It
    looks different at rest, under the pointer, while pressed, when disabled and when
    ``toggled`` (on/off buttons such as History).
    """

    FITS = ("full", "short", "icon")

    def __init__(self, text: str, on_click: Callable[[], Any] | None = None, *, short_text: str | None = None,
                 primary: bool = False, layer: int | None = None, tooltip: str = "", icon: str | None = None) -> None:
        super().__init__(layer=layer)
        self.text = text
        self.short_text = short_text or text
        self.on_click = on_click
        self.primary = primary
        self.toggled = False
        self.fit = "full"
        self.tooltip = tooltip
        self.icon = icon
        self.pressed = False

    @property
    def compact(self) -> bool:
        """True when the button shows less than its full text."""
        return self.fit != "full"

    @compact.setter
    def compact(self, compact: bool) -> None:
        self.set_fit("short" if compact else "full")

    def set_fit(self, fit: str) -> None:
        fit = fit if fit != "icon" or self.icon else "short"
        if fit != self.fit:
            self.fit = fit
            self.invalidate()

    def shown_text(self, fit: str | None = None) -> str:
        """The words drawn at ``fit`` (the current one by default)."""
        fit = fit or self.fit
        return "" if fit == "icon" and self.icon else self.short_text if fit != "full" else self.text

    def natural_width(self, fit: str | bool = "full") -> float:
        """How wide the button wants to be at ``fit`` (True means ``"short"``)."""
        fit = "short" if fit is True else "full" if fit is False else fit
        text = self.shown_text(fit)
        icon = theme.ICON_SIZE if self.icon else 0.0
        gap = theme.ICON_GAP if self.icon and text else 0.0
        return icon + gap + (text_width(text) if text else 0.0) + 2 * theme.BUTTON_PAD

    def set_toggled(self, toggled: bool) -> None:
        if toggled != self.toggled:
            self.toggled = toggled
            self.invalidate()

    def set_pressed(self, pressed: bool) -> None:
        if pressed != self.pressed:
            self.pressed = pressed
            (_held.add if pressed else _held.discard)(self)
            self.invalidate()

    def set_text(self, text: str, short_text: str | None = None) -> None:
        if text != self.text:
            self.text = text
            self.short_text = short_text or text
            self.invalidate()

    def fill_color(self) -> theme.RGB:
        if not self.enabled:
            return theme.BUTTON_DISABLED
        if self.pressed:
            return theme.BUTTON_PRESSED_ACTIVE if self.toggled or self.primary else theme.BUTTON_PRESSED
        if self.toggled or self.primary:
            return theme.BUTTON_ACTIVE_HOVER if self.hover else theme.BUTTON_ACTIVE
        return theme.BUTTON_HOVER if self.hover else theme.BUTTON

    def build(self, ui: Ui, layer: int) -> Iterable[Drawable]:
        r = self.rect
        ink = theme.TEXT if self.enabled else theme.TEXT_DISABLED
        edge = theme.FOCUS if self.hover and self.enabled and not self.pressed else None
        items = rounded_box(ui, r, self.fill_color(), layer, border=edge)
        drop = 1 if self.pressed else 0  # a pressed button's face sinks a pixel
        text = fit_text(self.shown_text(), r.width - 8 - (theme.ICON_SIZE + theme.ICON_GAP if self.icon else 0))
        icon_w = theme.ICON_SIZE if self.icon else 0.0
        gap = theme.ICON_GAP if self.icon and text else 0.0
        content = icon_w + gap + (text_width(text) if text else 0.0)
        x = r.x + max(theme.BUTTON_PAD / 2, (r.width - content) / 2)
        cy = r.y + r.height / 2 - drop
        if self.icon:
            from pegboard.ui import icons

            items += icons.draw(self.icon, x + icon_w / 2, cy, theme.ICON_SIZE, ink, ui.batch, ui.group(layer, 2))
        if text:
            items.append(label(ui, text, x + icon_w + gap, cy, layer, color=ink))
        return items

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if not self.enabled:
            return True
        self.set_pressed(True)
        self.click()
        return True

    def click(self) -> None:
        if self.enabled and self.on_click is not None:
            self.on_click()


def rounded_box(ui: Ui, r: Rect, fill: Sequence[int], layer: int, *, border: Sequence[int] | None = None,
                radius: float = theme.RADIUS, sub: int = 0, alpha: int = 255) -> list[Drawable]:
    """A filled rectangle with rounded corners and an optional one-pixel rounded border (drawn in
    ``sub``, the fill over it in ``sub + 1``: shapes in one group may draw in any order)."""
    if r.width <= 0 or r.height <= 0:
        return []
    fill_rgba = (*fill[:3], alpha)
    if border is None:
        return [rect_shape(ui, r, fill_rgba, layer, sub=sub, radius=radius)]
    inner = Rect(r.x + 1, r.y + 1, max(0.0, r.width - 2), max(0.0, r.height - 2))
    return [rect_shape(ui, r, (*border[:3], alpha), layer, sub=sub, radius=radius),
            rect_shape(ui, inner, fill_rgba, layer, sub=sub + 1, radius=max(0.0, radius - 1))]


class Panel(Widget):
    """A filled rectangle with an optional border and title, holding children."""

    def __init__(self, *, title: str = "", color: theme.RGB = theme.PANEL, border: theme.RGB | None = theme.PANEL_BORDER,
                 layer: int | None = None, alpha: int = 255) -> None:
        super().__init__(layer=layer)
        self.title = title
        self.color = color
        self.border = border
        self.alpha = alpha

    #: Corner radius; a full-width bar sets 0.
    radius: float = theme.RADIUS

    def build(self, ui: Ui, layer: int) -> Iterable[Drawable]:
        r = self.rect
        items = rounded_box(ui, r, self.color, layer, border=self.border, radius=self.radius, alpha=self.alpha)
        return items + self.build_title(ui, layer) if self.title else items

    def build_title(self, ui: Ui, layer: int) -> list[Drawable]:
        """The title's drawables (a subclass may draw it its own way)."""
        r = self.rect
        return [label(ui, self.title, r.x + theme.DIALOG_PAD, r.top - theme.DIALOG_PAD - 8, layer,
                      size=theme.TITLE_FONT_SIZE, bold=True)]

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        super().on_mouse_press(x, y, button, modifiers)
        return True  # a click on a panel never falls through to what lies under it


class Tooltip(Panel):
    """A short label that floats near the pointer (a button's tooltip after a short hover).

    It never takes a click: :meth:`contains` is always False.
    """

    def __init__(self) -> None:
        super().__init__(color=theme.TOOLTIP, border=theme.PANEL_BORDER, layer=LAYER_TOOLTIP)
        self.label = self.add(Label("", size=theme.SMALL_FONT_SIZE))
        self.visible = False

    @property
    def text(self) -> str:
        return self.label.text

    def pop_up(self, text: str, x: float, y: float, screen_width: float, screen_height: float) -> None:
        """Show ``text`` just below and right of the pointer at (x, y), kept inside the screen."""
        width = min(screen_width - 8, text_width(text, theme.SMALL_FONT_SIZE) + 20)
        height = 26.0
        left = min(max(4.0, x + 12), screen_width - width - 4)
        bottom = y - height - 18
        if bottom < 4:
            bottom = min(screen_height - height - 4, y + 18)
        self.label.set_text(text)
        self.set_rect(Rect(left, bottom, width, height))
        self.show(True)

    def on_layout(self) -> None:
        r = self.rect
        self.label.set_rect(Rect(r.x + 10, r.y, r.width - 20, r.height))

    def contains(self, x: float, y: float) -> bool:
        return False


class Clipboard:
    """The clipboard text fields copy to and paste from: the window's (the system clipboard)
    once :meth:`use` names one, else a private one that lives as long as the program."""

    def __init__(self) -> None:
        self.window: Any = None
        self._text = ""

    def use(self, window: Any) -> None:
        """Read and write ``window``'s clipboard (pyglet's ``get_clipboard_text`` / ``set_clipboard_text``)."""
        self.window = window

    def get_text(self) -> str:
        if self.window is not None:
            try:
                return str(self.window.get_clipboard_text())
            except Exception:  # noqa: BLE001 - headless windows have no clipboard (NotImplementedError), X may refuse
                pass
        return self._text

    def set_text(self, text: str) -> None:
        self._text = text
        if self.window is not None:
            try:
                self.window.set_clipboard_text(text)
            except Exception:  # noqa: BLE001 - as in get_text: the private copy still holds it
                pass


#: The clipboard every text field uses (the window hands it the system's).
clipboard = Clipboard()


class TextInput(Widget):
    """A one-line text field built on pyglet's own editing: an ``IncrementalTextLayout`` with a ``Caret``.

    A click places the caret, a drag or Shift+click selects, a double click selects a word;
    Ctrl+A selects everything (typing then replaces it), Ctrl+C / Ctrl+X / Ctrl+V copy, cut and
    paste through :data:`clipboard`; the arrows, Home, End, Backspace and Delete edit as usual
    (they reach the field as pyglet's text-motion events); Enter calls ``on_submit(text)``;
    every change calls ``on_change(text)``. Line breaks are never inserted (a pasted one becomes
    a space). The public API is small: :attr:`text`, :meth:`set_text`, :meth:`focus`,
    :attr:`focused`, :meth:`select_all` and :attr:`selection`.
    """

    def __init__(self, text: str = "", *, on_submit: Callable[[str], Any] | None = None,
                 on_change: Callable[[str], Any] | None = None, placeholder: str = "",
                 layer: int | None = None) -> None:
        super().__init__(layer=layer)
        self.on_submit = on_submit
        self.on_change = on_change
        self.placeholder = placeholder
        self.focused = False
        self.document = pyglet.text.document.UnformattedDocument(_one_line(text))
        self.document.set_style(0, 0, {"font_name": theme.FONT_NAME, "font_size": theme.FONT_SIZE,
                                       "color": (*theme.TEXT, 255)})
        self._layout: Any = None  # the IncrementalTextLayout and Caret, made when first drawn
        self._caret: Any = None
        self._ui: Ui | None = None
        self._pending: tuple[int, int] = (len(self.document.text),) * 2  # (mark, position) before a layout exists
        self._last_press = (0.0, 0.0)  # when and where the last press was

    # -- the public API -----------------------------------------------------------------------

    @property
    def text(self) -> str:
        return str(self.document.text)

    def set_text(self, text: str) -> None:
        """Replace the text (no ``on_change``: the program, not the person, changed it); the caret goes to the end."""
        text = _one_line(text)
        if text != self.document.text:
            self._place(0, 0)  # drop the selection first: it must not outlive the text it covered
            self.document.text = text
        self._place(len(text), len(text))

    def focus(self, focused: bool = True) -> None:
        if focused != self.focused:
            self.focused = focused
            if self._caret is not None:
                self._caret.visible = focused
                if not focused:
                    self._place(self.selection[1], self.selection[1])
            self.invalidate()

    def select_all(self) -> None:
        self._place(0, len(self.document.text))

    @property
    def selection(self) -> tuple[int, int]:
        """(start, end) of the selected text; equal when nothing is selected (the caret's place)."""
        if self._caret is None:
            mark, position = self._pending
        else:
            position = self._caret.position
            mark = self._caret.mark if self._caret.mark is not None else position
        return min(mark, position), max(mark, position)

    # -- drawing ----------------------------------------------------------------------------------

    def build(self, ui: Ui, layer: int) -> Iterable[Drawable]:
        r = self.rect
        edge = theme.FOCUS if self.focused else theme.PANEL_BORDER
        items = rounded_box(ui, r, theme.INPUT, layer, border=edge, radius=4)
        if not self.document.text and self.placeholder and not self.focused:
            items.append(label(ui, self.placeholder, r.x + 8, r.y + r.height / 2, layer, color=theme.TEXT_DIM))
        self._ensure_layout(ui, layer)
        return items

    def _ensure_layout(self, ui: Ui, layer: int) -> None:
        r = self.rect
        width, height = max(1, int(r.width - 16)), max(1, int(r.height - 4))
        if self._layout is None or self._ui is not ui:
            self._drop_layout()
            self._ui = ui
            self._layout = pyglet.text.layout.IncrementalTextLayout(
                self.document, x=int(r.x + 8), y=int(r.y + 2), width=width, height=height, multiline=False,
                batch=ui.batch, group=ui.group(layer, 2))
            self._caret = pyglet.text.caret.Caret(self._layout, color=(*theme.FOCUS, 255))
            self._caret.visible = self.focused
            self._place(*self._pending)
        else:
            self._layout.position = (int(r.x + 8), int(r.y + 2), 0)
            if (self._layout.width, self._layout.height) != (width, height):
                self._layout.width, self._layout.height = width, height

    def _place(self, mark: int, position: int) -> None:
        self._pending = (mark, position)
        if self._caret is not None:
            self._caret.position = position
            self._caret.mark = mark if mark != position else None

    def _drop_layout(self) -> None:
        if self._caret is not None:
            mark, position = self._caret.mark, self._caret.position
            self._pending = (position if mark is None else mark, position)
            self._caret.delete()
            self._caret = None
        if self._layout is not None:
            self._layout.delete()
            self._layout = None
        self._ui = None

    def clear(self) -> None:
        self._drop_layout()
        super().clear()

    delete = clear

    # -- editing ------------------------------------------------------------------------------------

    def _changed(self, before: str) -> None:
        if self.document.text != before and self.on_change is not None:
            self.on_change(self.text)

    def _edit(self, action: Callable[[], Any]) -> None:
        """Run an edit on the caret (made first if the field was never drawn) and report a change."""
        if self._caret is None:
            if self._ui is None:
                self._ensure_layout(Ui(), LAYER_BASE)  # an undrawn field still edits (tests, early keys)
        before = self.text
        action()
        self._changed(before)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        self.focus(True)
        if self._caret is None:
            return True
        now = time.monotonic()
        last_time, last_x = self._last_press
        double = now - last_time < ListView.DOUBLE_CLICK and abs(x - last_x) <= 4
        self._last_press = (0.0 if double else now, x)  # a third click starts afresh
        if modifiers & key.MOD_SHIFT:
            if self._caret.mark is None:
                self._caret.mark = self._caret.position
            self._caret.select_to_point(int(x), int(y))
        elif double:
            self._caret.select_word(int(x), int(y))
        else:
            self._caret.move_to_point(int(x), int(y))
        return True

    def on_mouse_drag(self, x: float, y: float) -> bool:
        """The pointer moved with the button held after a press in the field: select up to it."""
        if self._caret is None or not self.focused:
            return False
        if self._caret.mark is None:
            self._caret.mark = self._caret.position
        self._caret.select_to_point(int(x), int(y))
        return True

    def on_text(self, text: str) -> bool:
        if not self.focused:
            return False
        text = _one_line(text)
        if text:
            self._edit(lambda: self._insert(text))
        return True

    def on_text_motion(self, motion: int, select: bool = False) -> bool:
        """pyglet's editing motions (arrows, Home, End, Backspace, Delete; with Shift: select)."""
        if not self.focused:
            return False
        if motion in (key.MOTION_COPY, key.MOTION_PASTE, key.MOTION_UP, key.MOTION_DOWN,
                      key.MOTION_PREVIOUS_PAGE, key.MOTION_NEXT_PAGE):
            return True  # copy and paste come as Ctrl+C / Ctrl+V key presses; one line has no up or down
        if motion in (key.MOTION_BACKSPACE, key.MOTION_DELETE) and self.selection[1] > self.selection[0]:
            self._edit(self._delete_selected)
        elif motion in _LINE_ENDS:
            self._edit(lambda: self._to_end(motion in _LINE_STARTS, select))
        elif select:
            self._edit(lambda: self._caret.on_text_motion_select(motion))
        else:
            self._edit(lambda: self._caret.on_text_motion(motion))
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if not self.focused:
            return False
        ctrl = modifiers & (key.MOD_CTRL | key.MOD_COMMAND)
        if ctrl and symbol == key.A:
            self.select_all()
        elif ctrl and symbol in (key.C, key.X):
            start, end = self.selection
            if end > start:
                clipboard.set_text(self.text[start:end])
                if symbol == key.X:
                    self._edit(self._delete_selected)
        elif ctrl and symbol == key.V:
            pasted = _one_line(clipboard.get_text())
            if pasted:
                self._edit(lambda: self._insert(pasted))
        elif symbol in (key.ENTER, key.RETURN, key.NUM_ENTER):
            if self.on_submit is not None:
                self.on_submit(self.text)
        else:
            # editing keys arrive again as text motions (pyglet sends both): claim them here so
            # the dialog does not treat them as shortcuts
            return symbol in _EDITING_KEYS
        return True


    def _to_end(self, start: bool, select: bool) -> None:
        """Home / End: one line's ends are the text's (pyglet 2.1.19's Home adds the layout's x
        to the position, so the caret is not asked)."""
        position = 0 if start else len(self.text)
        mark = self._caret.position if self._caret.mark is None else self._caret.mark
        self._place(mark if select else position, position)

    def _insert(self, text: str) -> None:
        """Type ``text`` at the caret, replacing the selection."""
        self._delete_selected()
        self._caret.on_text(text)

    def _delete_selected(self) -> None:
        start, end = self.selection
        if end > start:
            # drop the selection while the text still covers it: pyglet 2.1's layout keeps a stale
            # range when a selection outlives its text (the next insert then fails)
            self._place(start, start)
            self.document.delete_text(start, end)
            self._place(start, start)


_LINE_STARTS = frozenset((key.MOTION_BEGINNING_OF_LINE, key.MOTION_BEGINNING_OF_FILE))
_LINE_ENDS = _LINE_STARTS | {key.MOTION_END_OF_LINE, key.MOTION_END_OF_FILE}
_EDITING_KEYS = frozenset((key.BACKSPACE, key.DELETE, key.LEFT, key.RIGHT, key.HOME, key.END, key.UP, key.DOWN))


def _one_line(text: str) -> str:
    return text.replace("\r\n", " ").replace("\r", " ").replace("\n", " ")


class ListView(Widget):
    """A scrolling list of text rows; a click selects a row (``on_select(index)``).

    A second click on the same row within half a second calls ``on_activate``.
    ``row_style(index)`` may return ``"current"``, ``"dim"`` or ``"normal"``.
    """

    DOUBLE_CLICK = 0.5

    def __init__(self, rows: Sequence[str] = (), *, on_select: Callable[[int], Any] | None = None,
                 on_activate: Callable[[int], Any] | None = None, row_style: Callable[[int], str] | None = None,
                 row_height: int = theme.ROW_HEIGHT, layer: int | None = None, selectable: bool = True) -> None:
        super().__init__(layer=layer)
        self.rows = list(rows)
        self.on_select = on_select
        self.on_activate = on_activate
        self.row_style = row_style
        self.row_height = row_height
        self.selectable = selectable
        self.selected: int | None = None
        self.hover_row: int | None = None
        self.top = 0  # index of the first visible row
        self._last_click: tuple[int, float] | None = None
        # a row's drawables by what they show, kept across rebuilds: a scroll or a new row moves
        # the old labels instead of laying their text out again (pyglet text is slow to build)
        self._row_items: dict[Any, tuple[float, list[Drawable]]] = {}

    @property
    def visible_rows(self) -> int:
        return max(1, int(self.rect.height // self.row_height))

    def set_rows(self, rows: Sequence[str]) -> None:
        rows = list(rows)
        if rows != self.rows:
            self.rows = rows
            self.top = max(0, min(self.top, len(rows) - self.visible_rows))
            if self.selected is not None and self.selected >= len(rows):
                self.selected = None
            self.invalidate()

    def select(self, index: int | None) -> None:
        if index != self.selected:
            self.selected = index
            self.invalidate()

    def ensure_visible(self, index: int) -> None:
        if index < self.top:
            self.top = index
        elif index >= self.top + self.visible_rows:
            self.top = index - self.visible_rows + 1
        self.top = max(0, min(self.top, max(0, len(self.rows) - self.visible_rows)))
        self.invalidate()

    def row_at(self, x: float, y: float) -> int | None:
        if not self.rect.contains(x, y):
            return None
        index = self.top + int((self.rect.top - y) // self.row_height)
        return index if 0 <= index < len(self.rows) else None

    def row_rect(self, index: int) -> Rect:
        """Where row ``index`` is drawn (it may be scrolled out of view)."""
        slot = index - self.top
        return Rect(self.rect.x, self.rect.top - (slot + 1) * self.row_height, self.rect.width, self.row_height)

    def build(self, ui: Ui, layer: int) -> Iterable[Drawable]:
        r = self.rect
        items: list[Drawable] = [rect_shape(ui, r, theme.INPUT, layer, sub=0)]
        fresh: dict[Any, tuple[float, list[Drawable]]] = {}
        repeats: dict[Any, int] = {}
        scroll = len(self.rows) > self.visible_rows
        text_room = r.width - (22 if scroll else 12)
        for index in range(self.top, min(len(self.rows), self.top + self.visible_rows)):
            row = self.row_rect(index)
            style = self.row_style(index) if self.row_style else "normal"
            if index == self.selected or style == "current":
                items.append(rect_shape(ui, row, theme.ROW_CURRENT, layer, sub=1))
            elif index == self.hover_row and self.selectable:
                items.append(rect_shape(ui, row, theme.ROW_HOVER, layer, sub=1))
            shows = (self.row_key(index), style, text_room, row.x, row.width, layer, id(ui))
            row_key = (shows, repeats.get(shows, 0))  # identical rows each keep their own labels
            repeats[shows] = row_key[1] + 1
            old = self._row_items.pop(row_key, None)
            if old is None:
                fresh[row_key] = (row.y, self.build_row(ui, layer, index, row, text_room, style))
            else:
                built_y, row_items = old
                for item in row_items:
                    item.y += row.y - built_y
                fresh[row_key] = (row.y, row_items)
        self._drop_rows()
        self._row_items = fresh
        if scroll:
            track = Rect(r.right - 8, r.y + 2, 6, r.height - 4)
            fraction = self.visible_rows / len(self.rows)
            thumb_h = max(16.0, track.height * fraction)
            offset = self.top / max(1, len(self.rows) - self.visible_rows)
            thumb_y = track.top - thumb_h - offset * (track.height - thumb_h)
            items.append(rect_shape(ui, Rect(track.x, thumb_y, 6, thumb_h), theme.BUTTON_HOVER, layer, sub=1))
        items.append(box_shape(ui, r, theme.PANEL_BORDER, layer, sub=3))
        return items

    def row_key(self, index: int) -> Any:
        """What row ``index`` shows (hashable): a row whose key, style and width are unchanged
        is moved, not rebuilt. Subclasses that draw more than ``rows[index]`` extend it."""
        return self.rows[index]

    def _drop_rows(self) -> None:
        for _y, row_items in self._row_items.values():
            for item in row_items:
                item.delete()
        self._row_items = {}

    def clear(self) -> None:
        self._drop_rows()
        super().clear()

    delete = clear

    def build_row(self, ui: Ui, layer: int, index: int, row: Rect, text_room: float, style: str) -> list[Drawable]:
        """The text of row ``index`` drawn in ``row`` (subclasses draw columns here)."""
        color = theme.TEXT_DIM if style == "dim" else theme.TEXT
        return [label(ui, fit_text(self.rows[index], text_room), row.x + 8, row.y + row.height / 2, layer, color=color)]

    def set_hover(self, hover: bool) -> None:
        super().set_hover(hover)
        if not hover and self.hover_row is not None:
            self.hover_row = None
            self.invalidate()

    def on_mouse_motion(self, x: float, y: float) -> None:
        row = self.row_at(x, y) if self.hover else None
        if row != self.hover_row:
            self.hover_row = row
            self.invalidate()

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        index = self.row_at(x, y)
        if index is None or not self.selectable:
            return True
        now = time.monotonic()
        double = self._last_click is not None and self._last_click[0] == index and now - self._last_click[1] < self.DOUBLE_CLICK
        self._last_click = (index, now)
        self.select(index)
        if self.on_select is not None:
            self.on_select(index)
        if double and self.on_activate is not None:
            self.on_activate(index)
        return True

    def on_mouse_scroll(self, x: float, y: float, scroll_x: float, scroll_y: float) -> bool:
        step = -int(scroll_y) if scroll_y else 0
        new_top = max(0, min(self.top + step * 3, max(0, len(self.rows) - self.visible_rows)))
        if new_top != self.top:
            self.top = new_top
            self.invalidate()
        return True


class Choice(Widget):
    """``◀ value ▶``: pick one of a few options (a click on the value cycles forward)."""

    def __init__(self, options: Sequence[str], index: int = 0, *, on_change: Callable[[int], Any] | None = None,
                 layer: int | None = None) -> None:
        super().__init__(layer=layer)
        self.options = list(options)
        self.index = index
        self.on_change = on_change
        self.prev = self.add(Button("◀", lambda: self.step(-1), tooltip="Back: the choice before this one."))
        self.next = self.add(Button("▶", lambda: self.step(1), tooltip="Next: the choice after this one."))
        self.value = self.add(Button(self.options[index] if self.options else "", lambda: self.step(1),
                                     tooltip="Click to move on to the next choice."))

    def on_layout(self) -> None:
        r = self.rect
        self.prev.set_rect(Rect(r.x, r.y, 32, r.height))
        self.next.set_rect(Rect(r.right - 32, r.y, 32, r.height))
        self.value.set_rect(Rect(r.x + 36, r.y, max(0, r.width - 72), r.height))

    def step(self, delta: int) -> None:
        if self.options:
            self.set_index((self.index + delta) % len(self.options))
            if self.on_change is not None:
                self.on_change(self.index)

    def set_index(self, index: int) -> None:
        self.index = index
        self.value.set_text(self.options[index])


class Dialog(Panel):
    """A modal panel centred on the screen over a dimmed window.

    Subclasses add children and call :meth:`close`. Escape calls
    :meth:`cancel`, Enter :meth:`accept` (both close by default).
    """

    def __init__(self, title: str, width: float = 460, height: float = 260) -> None:
        super().__init__(title=title, layer=LAYER_DIALOG)
        self.size = (width, height)
        self.host: Any = None  # the window showing it (set by open)

    def place(self, screen_width: float, screen_height: float) -> None:
        w = min(self.size[0], screen_width - 20)
        h = min(self.size[1], screen_height - 20)
        self.set_rect(Rect((screen_width - w) // 2, (screen_height - h) // 2, w, h))

    def build(self, ui: Ui, layer: int) -> Iterable[Drawable]:
        dim = shapes.Rectangle(0, 0, ui.width, ui.height, color=theme.DIM_OVERLAY, batch=ui.batch, group=ui.group(layer - 1, 0))
        return [dim, *super().build(ui, layer)]

    def contains(self, x: float, y: float) -> bool:
        return self.visible  # modal: it takes every click

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        if self.rect.contains(x, y):
            for child in self.walk():
                if isinstance(child, TextInput):
                    child.focus(child.rect.contains(x, y))
            Widget.on_mouse_press(self, x, y, button, modifiers)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        if super().on_key_press(symbol, modifiers):
            return True
        if symbol == key.ESCAPE:
            self.cancel()
        elif symbol in (key.ENTER, key.RETURN, key.NUM_ENTER):
            self.accept()
        return True

    def on_text(self, text: str) -> bool:
        super().on_text(text)
        return True

    def on_text_motion(self, motion: int, select: bool = False) -> bool:
        super().on_text_motion(motion, select)
        return True

    def accept(self) -> None:
        self.close()

    def cancel(self) -> None:
        self.close()

    def close(self) -> None:
        if self.host is not None:
            self.host.close_dialog(self)

    def button_row(self, buttons: Sequence[Button], y_offset: float = 14, height: float = 32) -> None:
        """Right-align ``buttons`` along the bottom edge."""
        x = self.rect.right - 14
        for button in reversed(buttons):
            w = max(88.0, button.natural_width())
            x -= w
            button.set_rect(Rect(x, self.rect.y + y_offset, w, height))
            x -= 8


class MessageDialog(Dialog):
    """A title, a wrapped message and an OK button (errors, notices)."""

    def __init__(self, title: str, message: str, *, error: bool = False, width: float = 520, height: float | None = None) -> None:
        super().__init__(title, width, height if height is not None else wrapped_height(message, width - 32) + 116)
        self.message = self.add(Label(message, wrap=True, color=theme.TEXT_ERROR if error else theme.TEXT))
        self.ok = self.add(Button("OK", self.close, primary=True))

    def on_layout(self) -> None:
        r = self.rect
        self.message.set_rect(Rect(r.x + 16, r.y + 60, r.width - 32, r.height - 108))  # under the title
        self.button_row([self.ok])


__all__ = [
    "LAYER_BASE",
    "LAYER_DIALOG",
    "LAYER_OVERLAY",
    "LAYER_TOOLTIP",
    "Button",
    "Choice",
    "Clipboard",
    "Dialog",
    "Label",
    "ListView",
    "MessageDialog",
    "Panel",
    "TextInput",
    "Tooltip",
    "Ui",
    "Widget",
    "box_shape",
    "clipboard",
    "fit_text",
    "fit_wrapped",
    "release_buttons",
    "rounded_box",
    "label",
    "line_height",
    "rect_shape",
    "text_width",
    "wrapped_height",
    "wrapped_lines",
]
