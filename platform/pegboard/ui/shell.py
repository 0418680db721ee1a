"""What every Pegboard window shares: the icon, the HiDPI scale, frames as images, synthetic input.

:class:`ShellWindow` is a mixin for a ``pyglet.window.Window`` subclass (the match window, the
game chooser). It lays out in *layout pixels*: on a screen with a pixel ratio of 2 (HiDPI) a
layout pixel is two window pixels, drawn by the window's view matrix, so a layout that holds
at 1280x800 holds the same at 2560x1600. Mouse handlers get window pixels and divide by
:attr:`ShellWindow.ui_scale`; the test helpers (:meth:`click` ...) take layout pixels.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import pyglet
from pyglet.math import Mat4, Vec3
from pyglet.window import key, mouse

from pegboard.ui.widgets import Widget

log = logging.getLogger(__name__)


class ShellWindow:
    """The shared half of a Pegboard window (mix it in before ``pyglet.window.Window``)."""

    ui_scale: float = 1.0
    icon_images: list[Any]
    _enable_event_queue: bool

    # provided by pyglet.window.Window
    width: int
    height: int
    view: Mat4

    def hold_events_while_created(self) -> None:
        """Call before ``pyglet.window.Window.__init__``: a window made while the event loop runs
        (the match window that replaces the chooser) queues the events its creation sends, as
        one made before the loop does; pyglet 2.1's headless window otherwise handles its first
        resize before it has the buffer that resize writes to. Call :meth:`release_held_events`
        at the end of ``__init__``."""
        self._enable_event_queue = True

    def release_held_events(self) -> None:
        """Handle what :meth:`hold_events_while_created` held (the window is fully made now)."""
        if "_enable_event_queue" in vars(self):
            del self._enable_event_queue  # back to what the event loop says for every window
            window: Any = self
            window.dispatch_events()

    def setup_shell(self, ui_scale: float | None) -> None:
        """Set the icon and the scale; call right after ``pyglet.window.Window.__init__``."""
        from pegboard.ui.appicon import icon_images

        window: Any = self
        #: The window's icon at every size (desktops pick one).
        self.icon_images = icon_images()
        try:
            window.set_icon(*self.icon_images)
        except Exception:  # noqa: BLE001 - a display that keeps no icons (headless) is fine
            log.debug("the window icon could not be set", exc_info=True)
        #: Window pixels per layout pixel (2 on a HiDPI screen); ``ui_scale`` or
        #: PEGBOARD_UI_SCALE override the screen's.
        self.ui_scale = ui_scale_for(window, ui_scale)
        self.view = Mat4.from_scale(Vec3(self.ui_scale, self.ui_scale, 1.0))
        window.set_minimum_size(round(640 * self.ui_scale), round(480 * self.ui_scale))

    @property
    def layout_size(self) -> tuple[int, int]:
        """The window's size in layout pixels (its size in window pixels over :attr:`ui_scale`)."""
        return round(self.width / self.ui_scale), round(self.height / self.ui_scale)

    # -- frames -----------------------------------------------------------------------------------

    def render(self) -> Any:
        """Draw one frame now and return it as pyglet ImageData (for tests and screenshots)."""
        window: Any = self
        window.switch_to()
        self.send("on_draw")
        return pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()  # type: ignore[no-untyped-call]  # untyped in pyglet

    def save_screenshot(self, path: str | Path) -> Path:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        self.render().save(str(target))
        return target

    # -- synthetic input (tests, screenshots) -------------------------------------------------------

    def send(self, name: str, *args: Any) -> None:
        """Dispatch a synthetic event now (pyglet may queue window events: drain the queue first and after)."""
        window: Any = self
        window.dispatch_events()
        window.dispatch_event(name, *args)
        window.dispatch_events()

    def click(self, x: float, y: float, button: int = mouse.LEFT, modifiers: int = 0) -> None:
        """A synthetic click (motion, press, release) at layout coordinates (as widgets' rects are)."""
        x, y = x * self.ui_scale, y * self.ui_scale
        self.send("on_mouse_motion", x, y, 0, 0)
        self.send("on_mouse_press", x, y, button, modifiers)
        self.send("on_mouse_release", x, y, button, modifiers)

    def click_widget(self, widget: Widget) -> None:
        cx, cy = widget.rect.center
        self.click(cx, cy)

    def press(self, symbol: int, modifiers: int = 0) -> None:
        """A synthetic key press and release; an editing key also sends the text motion pyglet's
        platform windows send with it (Backspace, arrows, Home, End ...; Shift selects)."""
        self.send("on_key_press", symbol, modifiers)
        motion = _text_motion(symbol, modifiers)
        if motion is not None:
            self.send("on_text_motion_select" if modifiers & key.MOD_SHIFT else "on_text_motion", motion)
        self.send("on_key_release", symbol, modifiers)

    def type_text(self, text: str) -> None:
        self.send("on_text", text)


def ui_scale_for(window: Any, wanted: float | None) -> float:
    """``wanted``, else PEGBOARD_UI_SCALE, else the screen's pixel ratio (96 dpi is 1), within 1..3."""
    if wanted is None:
        try:
            wanted = float(os.environ.get("PEGBOARD_UI_SCALE", "") or window.scale)
        except ValueError:
            log.warning("PEGBOARD_UI_SCALE must be a number such as 2; using 1")
            wanted = 1.0
    return min(3.0, max(1.0, round(float(wanted) * 4) / 4))


_MOTIONS = {
    (key.LEFT, False): key.MOTION_LEFT, (key.RIGHT, False): key.MOTION_RIGHT,
    (key.LEFT, True): key.MOTION_PREVIOUS_WORD, (key.RIGHT, True): key.MOTION_NEXT_WORD,
    (key.HOME, False): key.MOTION_BEGINNING_OF_LINE, (key.END, False): key.MOTION_END_OF_LINE,
    (key.BACKSPACE, False): key.MOTION_BACKSPACE, (key.DELETE, False): key.MOTION_DELETE,
}


def _text_motion(symbol: int, modifiers: int) -> int | None:
    """The text motion a platform window sends with this key (as pyglet's X11 window maps them)."""
    return _MOTIONS.get((symbol, bool(modifiers & key.MOD_CTRL)))


__all__ = ["ShellWindow", "ui_scale_for"]
