"""Every error class of the platform, in one place.

Each error is a value a caller can catch: it derives from :class:`PegboardError` and
carries where (file, line, JSON path, move number) and why. ``pegboard.game`` re-exports
the four the game contract names (:class:`PegboardError`, :class:`IllegalMove`,
:class:`InvalidMoveEncoding`, :class:`InvalidPosition`), so engines may import them
from either module. This module imports nothing of Pegboard: anything may import it.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable
from pathlib import Path
from typing import Any

# -- the game contract (re-exported by pegboard.game) --------------------------------------


class PegboardError(Exception):
    """Base class of every error the platform raises on purpose."""


class IllegalMove(PegboardError, ValueError):
    """A move was refused by the rules.

    ``reason`` is a short sentence a person can read ("line would pass
    through the node at 6,4"); ``rule`` is a stable machine id of the rule
    that was broken ("line_through_node") so tools can group failures.
    """

    def __init__(self, reason: str, *, rule: str = "illegal", move: Hashable | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
        self.move = move


class InvalidMoveEncoding(PegboardError, ValueError):
    """A JSON or text move could not be decoded (bad shape, not a rules problem)."""


class InvalidPosition(PegboardError, ValueError):
    """A position (JSON or text) could not be turned into a state."""


# -- files, rulesets and records -----------------------------------------------------------


class UnreadableFile(PegboardError):
    """A file could not be read as UTF-8 text; ``line``/``column`` point at the first bad byte."""

    def __init__(self, reason: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.column = column


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


class UnknownRuleset(RulesetError, LookupError):
    """A ruleset reference names no shipped ruleset (an unknown id, a bare id without
    its game, or another game's ruleset); the CLI exits 2 for it, as for any unknown id."""


class SchemaFileError(PegboardError):
    """A schema file is missing or is not valid JSON (a broken install or plugin)."""


class MatchFileError(PegboardError):
    """A match (or position) file failed a validation stage.

    Carries the ``path``, the ``stage`` ("syntax", "schema", "replay", "result",
    "position", or "output" when :func:`convert` cannot write its target), where
    in the file (``line``/``column``, ``json_path`` or the 1-based ``move``
    number), the broken ``rule`` id for replay errors, and the ``reason``.
    """

    def __init__(
        self,
        reason: str,
        *,
        path: str | Path | None = None,
        stage: str = "syntax",
        line: int | None = None,
        column: int | None = None,
        json_path: str | None = None,
        move: int | None = None,
        rule: str | None = None,
    ) -> None:
        self.reason = reason
        self.path = str(path) if path is not None else None
        self.stage = stage
        self.line = line
        self.column = column
        self.json_path = json_path
        self.move = move
        self.rule = rule
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.path:
            where.append(self.path)
        if self.line is not None:
            where.append(f"line {self.line}" + (f", column {self.column}" if self.column is not None else ""))
        text = self.reason
        if self.move is not None:
            text = f"move {self.move}: {text}"
        elif self.json_path:
            text = f"{self.json_path}: {text}"
        if self.rule:
            text = f"{text} [{self.rule}]"
        return f"{self.stage}: {text}" + (f" ({', '.join(where)})" if where else "")

    def __reduce__(self) -> tuple[Any, ...]:  # picklable across worker processes
        return (_rebuild_error, (self.reason, self.to_json()))

    def to_json(self) -> dict[str, Any]:
        data = {
            "stage": self.stage,
            "reason": self.reason,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "json_path": self.json_path,
            "move": self.move,
            "rule": self.rule,
        }
        return {key: value for key, value in data.items() if value is not None}


def _rebuild_error(reason: str, data: dict[str, Any]) -> MatchFileError:
    data = {k: v for k, v in data.items() if k != "reason"}
    return MatchFileError(reason, **data)


# -- plugins -------------------------------------------------------------------------------


class PluginError(PegboardError):
    """A plugin could not be loaded or broke the plugin API."""


def _natural(name: str) -> list[str | int]:
    """Sort key putting numbered ids in number order (skill-20 before skill-100)."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


class UnknownId(PegboardError, LookupError):
    """No game, bot, evaluator, ruleset or mod has the id asked for."""

    def __init__(self, kind: str, wanted: str, known: Iterable[str]) -> None:
        names = ", ".join(sorted(known, key=_natural)) or "none"
        super().__init__(f"unknown {kind} {wanted!r} (known: {names})")
        self.kind = kind
        self.wanted = wanted


# -- playing: sessions, bots, batches, profiles --------------------------------------------


class SessionError(PegboardError):
    """A session operation cannot be done now (nothing to undo, wrong seat count ...)."""


class MatchImportError(PegboardError):
    """A match record was refused; the current game is untouched.

    ``line`` is the line of the file (text formats) and ``move_number`` the
    1-based move that failed, when known.
    """

    def __init__(self, reason: str, *, line: int | None = None, move_number: int | None = None) -> None:
        where = []
        if line is not None:
            where.append(f"line {line}")
        if move_number is not None:
            where.append(f"move {move_number}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)
        self.reason = reason
        self.line = line
        self.move_number = move_number


class BotError(PegboardError):
    """A bot crashed or returned an illegal move."""


class AnalysisRefused(PegboardError):
    """A record that analysis will not look at: a hidden-information game still running
    (its analysis would show what the fog hides)."""


class ReadOnlyError(PegboardError):
    """A bot tried to change the state it was only allowed to read."""


class ProfileError(PegboardError):
    """The profile file cannot be used (its path and the reason are in the message)."""


# -- conformance ---------------------------------------------------------------------------


class ConformanceError(AssertionError):
    """A game broke the contract; the message says what, where (ply) and under which ruleset."""


# -- online play ---------------------------------------------------------------------------


class ProtocolError(PegboardError, ValueError):
    """A message (or a user's input for one) is not acceptable; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Unavailable(ProtocolError):
    """A well-formed request that cannot be met now (the player picked has just been paired).

    The lobby answers it like any error but does not hold it against the sender.
    """


class LobbyUnreachable(ProtocolError):
    """The lobby could not be reached, or refused the player."""


# -- the command line, the window and the adapters -----------------------------------------


class UsageProblem(PegboardError):
    """The command line itself is wrong (exit code 2)."""


class DisplayUnavailable(PegboardError):
    """No window can be opened (no display, no OpenGL)."""


class AdapterError(PegboardError):
    """A game cannot be shown to an outside tool (no action encoding, missing extra)."""


class MissingExtra(UsageProblem):
    """An option needs an optional extra that is not installed (``pip install 'pegboard[plot]'``).

    A usage error (exit code 2), like ``play`` without a display: the input is fine, this
    installation cannot do what the command line asks.
    """

    def __init__(self, extra: str, what: str) -> None:
        super().__init__(f"{what} needs the optional extra: pip install 'pegboard[{extra}]'")
        self.extra = extra
