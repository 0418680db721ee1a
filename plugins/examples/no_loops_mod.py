"""An example plugin: a rule mod plus a ruleset that turns it on.

The mod ``no-loops`` targets Node War (an example may name a game; the core
never does): a player may not close a backup loop while any other move is
available. It ships the ruleset ``nodewar/no-loops`` (in ``rulesets/`` next
to this file), which extends the standard rules and names the mod::

    pegboard --plugin plugins/examples/no_loops_mod.py rulesets nodewar
    pegboard --plugin plugins/examples/no_loops_mod.py match nodewar --ruleset no-loops

A mod is active only when a ruleset lists it in ``mods``; every method of
:class:`~pegboard.specs.RuleMod` is optional. It reads moves through ``game.encode_move`` (the public encoding),
so it does not depend on the engine's internals.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pegboard import Event, Game, State, hookimpl
from pegboard.specs import RuleMod, RuleModSpec, RulesetDir

GAME = "nodewar"
HERE = Path(__file__).resolve().parent


class NoLoops(RuleMod):
    """Loops are allowed only when nothing else is (so a player is never left without moves)."""

    def __init__(self, game: Game, options: Mapping[str, Any]) -> None:
        self.game = game
        self.announce = bool(options.get("announce", True))

    def _is_loop(self, move: Any) -> bool:
        kind = self.game.encode_move(move).get("kind")
        return isinstance(kind, str) and kind == "loop"

    def filter_moves(self, state: State, moves: list[Any]) -> list[Any]:
        others = [move for move in moves if not self._is_loop(move)]
        return others or moves

    def check(self, state: State, move: Any) -> str | None:
        if not self._is_loop(move):
            return None
        if any(not self._is_loop(other) for other in state.legal_moves()):
            return "loops are off in this ruleset while another move is possible"
        return None

    def after_apply(self, state: State, move: Any, events: list[Event]) -> list[Event]:
        if self.announce and self._is_loop(move):
            return [Event("forced_loop", {}, "A loop was the only move left.")]
        return []


@hookimpl
def pegboard_rule_mods() -> list[RuleModSpec]:
    return [RuleModSpec("no-loops", "No loops", GAME, NoLoops, "Backup loops only when nothing else is legal.")]


@hookimpl
def pegboard_ruleset_dirs() -> list[RulesetDir]:
    return [RulesetDir(HERE / "rulesets", game=GAME)]
