"""Helpers the test suites share: the toy games (toygame, gridtoy with its board view) and their
data folders, hand-built positions and oracles, and per-game helpers. Import them as
``from support import toygame`` or ``from support.starfall_helpers import ...`` (pytest puts
``tests/`` on the path: pyproject.toml's ``pythonpath``)."""
