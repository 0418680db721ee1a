"""Connect Four's plugin hooks: the game, its bots, its evaluator and its board view.

The rulesets and schemas sit next to this file, so the game works the same
from a source folder (``pegboard --plugin``) and from an installed wheel.
Factories import their modules lazily: listing plugins never loads pyglet.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pegboard import hookimpl
from pegboard.game import Game
from pegboard.specs import Bot, BotSpec, Evaluator, EvaluatorSpec, GameSpec, RendererSpec

from .rules import SEATS, Connect4Game

if TYPE_CHECKING:
    from pegboard.view import BoardView, Session

HERE = Path(__file__).resolve().parent
GAME = "connect4"


@hookimpl
def pegboard_games() -> GameSpec:
    return GameSpec(
        id=GAME,
        name="Connect Four",
        factory=Connect4Game,
        seats=SEATS,
        schema_dir=HERE / "schemas",
        ruleset_dir=HERE / "rulesets",
        default_ruleset="standard",
        description="Drop discs into columns; the first to line up four (or the ruleset's number) wins.",
    )


def _easy(game: Game, seed: int) -> Bot:
    from .bots import EasyBot

    return EasyBot(game, seed)


def _minimax(game: Game, seed: int) -> Bot:
    from .bots import MinimaxBot

    return MinimaxBot(game, seed)


BOTS = (
    BotSpec("easy", "Easy", _easy, game=GAME, budget=0.05, description="Wins or blocks when it can, otherwise random."),
    BotSpec("minimax", "Minimax", _minimax, game=GAME, budget=0.5, description="Five-ply alpha-beta over open lines."),
)


@hookimpl
def pegboard_bots() -> tuple[BotSpec, ...]:
    return BOTS  # each spec names its game: Pegboard offers them for Connect Four only


def _evaluator(game: Game) -> Evaluator:
    from .evaluator import Connect4Evaluator

    return Connect4Evaluator(game)


@hookimpl
def pegboard_evaluators() -> EvaluatorSpec:
    return EvaluatorSpec("windows", "Open windows", GAME, _evaluator, description="Open lines by how many discs they hold.")


def _view(game: Game, session: Session) -> BoardView:
    from .view import Connect4View  # pyglet: only when a window opens

    assert isinstance(game, Connect4Game)
    return Connect4View(game, session)


@hookimpl
def pegboard_renderers() -> RendererSpec:
    return RendererSpec("board", "Connect Four board", GAME, _view)
