"""The board-view kit: what a game plugin's board view is built from.

A game draws itself in the window with a view its ``pegboard_renderers`` hook returns
(a :class:`~pegboard.specs.RendererSpec` whose factory takes ``(game, session)``). Write it
against :class:`BoardView` (the protocol the window calls) by subclassing
:class:`BoardViewBase`, and use the window's own pieces through this module:

- :class:`BoardView`, :class:`BoardViewBase`, :class:`ViewHost` (what the window offers a
  view: messages, redraws), :class:`MoveListView` (a plain list of legal moves),
  :func:`as_sentence` (an engine's reason as the status line says it);
- :class:`Session` (the match being played: ``session.state``, ``session.play(move)``);
- :class:`Rect`, :class:`Transform` (a pyglet group that scales and moves what it holds);
- :mod:`theme` (colours, font sizes, paddings); :mod:`cues` (the sound cues a view maps its
  events onto); :func:`clock_text` (the clocks as the status bar writes them);
- animation: :class:`AnimationQueue`, :class:`Step`, :func:`ease_out`, :func:`ease_in_out`;
- widgets: :class:`Ui`, :class:`Widget`, :class:`Label`, :class:`Button`, :class:`Panel`,
  :func:`fit_text`, :func:`fit_wrapped`, :func:`text_width`, :func:`line_height`, :func:`wrapped_height`;
- settings: :class:`Setting`, :func:`number_options`, :func:`current_values`;
- review: :func:`arrow_shapes`, :func:`ring_shapes` (the translucent better move a view draws in
  :meth:`BoardView.show_better_move`).

Each name is imported from its internal module on first use, so importing this module does
not import pyglet; the widgets and :class:`Transform` do.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pegboard.match.session import Session as Session
    from pegboard.ui import cues as cues
    from pegboard.ui import theme as theme
    from pegboard.ui.animation import AnimationQueue as AnimationQueue
    from pegboard.ui.animation import Step as Step
    from pegboard.ui.animation import ease_in_out as ease_in_out
    from pegboard.ui.animation import ease_out as ease_out
    from pegboard.ui.arrows import arrow_shapes as arrow_shapes
    from pegboard.ui.arrows import ring_shapes as ring_shapes
    from pegboard.ui.board import BoardView as BoardView
    from pegboard.ui.board import BoardViewBase as BoardViewBase
    from pegboard.ui.board import MoveListView as MoveListView
    from pegboard.ui.board import ViewHost as ViewHost
    from pegboard.ui.board import as_sentence as as_sentence
    from pegboard.ui.clockline import clock_text as clock_text
    from pegboard.ui.rect import Rect as Rect
    from pegboard.ui.settings import Setting as Setting
    from pegboard.ui.settings import current_values as current_values
    from pegboard.ui.settings import number_options as number_options
    from pegboard.ui.transform import Transform as Transform
    from pegboard.ui.widgets import Button as Button
    from pegboard.ui.widgets import Label as Label
    from pegboard.ui.widgets import Panel as Panel
    from pegboard.ui.widgets import Ui as Ui
    from pegboard.ui.widgets import Widget as Widget
    from pegboard.ui.widgets import fit_text as fit_text
    from pegboard.ui.widgets import fit_wrapped as fit_wrapped
    from pegboard.ui.widgets import line_height as line_height
    from pegboard.ui.widgets import text_width as text_width
    from pegboard.ui.widgets import wrapped_height as wrapped_height

#: Where each name of the kit lives (the module is imported when the name is first used).
_HOMES = {
    "Session": "pegboard.match.session",
    "AnimationQueue": "pegboard.ui.animation", "Step": "pegboard.ui.animation",
    "ease_in_out": "pegboard.ui.animation", "ease_out": "pegboard.ui.animation",
    "arrow_shapes": "pegboard.ui.arrows", "ring_shapes": "pegboard.ui.arrows",
    "BoardView": "pegboard.ui.board", "BoardViewBase": "pegboard.ui.board",
    "MoveListView": "pegboard.ui.board", "ViewHost": "pegboard.ui.board", "as_sentence": "pegboard.ui.board",
    "clock_text": "pegboard.ui.clockline",
    "Rect": "pegboard.ui.rect",
    "Setting": "pegboard.ui.settings", "current_values": "pegboard.ui.settings", "number_options": "pegboard.ui.settings",
    "Transform": "pegboard.ui.transform",
    "Button": "pegboard.ui.widgets", "Label": "pegboard.ui.widgets", "Panel": "pegboard.ui.widgets",
    "Ui": "pegboard.ui.widgets", "Widget": "pegboard.ui.widgets",
    "fit_text": "pegboard.ui.widgets", "fit_wrapped": "pegboard.ui.widgets", "line_height": "pegboard.ui.widgets",
    "text_width": "pegboard.ui.widgets", "wrapped_height": "pegboard.ui.widgets",
}

#: The kit's modules, handed out whole.
_MODULES = {"cues": "pegboard.ui.cues", "theme": "pegboard.ui.theme"}

__all__ = [*sorted(_MODULES), *sorted(_HOMES)]


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return importlib.import_module(_MODULES[name])
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'pegboard.view' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
