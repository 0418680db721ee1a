"""Errors shared by the ruleset loader and the rule mods (a leaf module, so neither imports the other)."""

from __future__ import annotations

from pathlib import Path

from .game import PegboardError


class RulesetError(PegboardError):
    """A ruleset could not be loaded: names the file, the key path and what was expected."""

    def __init__(
        self,
        reason: str,
        *,
        path: str | Path | None = None,
        key: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.reason = reason
        self.path = str(path) if path is not None else None
        self.key = key
        self.line = line
        self.column = column
        super().__init__(self._describe())

    def _describe(self) -> str:
        position = f"line {self.line}, column {self.column}" if self.line is not None else None
        where = ", ".join(part for part in (self.path, position) if part)
        text = f"{self.key}: {self.reason}" if self.key else self.reason
        return f"{text} ({where})" if where else text
