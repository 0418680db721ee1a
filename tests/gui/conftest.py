"""The window tests run headless (pyglet's EGL) unless told otherwise; pyglet reads this
when it is first imported, which happens after conftest files load."""

from __future__ import annotations

import os

os.environ.setdefault("PYGLET_HEADLESS", "1")
