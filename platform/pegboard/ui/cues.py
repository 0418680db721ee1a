"""The sound cues the window can play: a small fixed vocabulary every game maps its events onto.

A board view turns the events of a move into cue names
(:meth:`pegboard.ui.board.BoardView.sound_cues`); the window adds the cues no game decides
(your turn online, the clock running low, the end of the game). Each cue has one short sound,
``pegboard/ui/sounds/<cue>.wav``, made by ``tools/make_sounds.py``. Nothing here names a game.
"""

from __future__ import annotations

from typing import Final

MOVE: Final = "move"
LINE: Final = "line"
DRONE: Final = "drone"
TAKE: Final = "take"
MISSILE: Final = "missile"
ASTEROID: Final = "asteroid"
CUT: Final = "cut"
YOUR_TURN: Final = "your_turn"
CLOCK_LOW: Final = "clock_low"
WIN: Final = "win"
LOSS: Final = "loss"

#: Every cue, with what it stands for (the docs' table of sounds says the same).
CUES: Final[dict[str, str]] = {
    MOVE: "a move was played (any move the other cues do not describe)",
    LINE: "a line of pieces was made and cleared",
    DRONE: "a new piece was made (a drone appears or grows)",
    TAKE: "a piece was taken",
    MISSILE: "a missile was fired",
    ASTEROID: "an asteroid fell, drifted or crushed something",
    CUT: "a line was cut",
    YOUR_TURN: "online: the other player moved and it is your turn",
    CLOCK_LOW: "your clock (or the move timer) fell under 30 seconds",
    WIN: "the game ended and you won",
    LOSS: "the game ended and you lost",
}

#: The cues a board view may return for a move (the others come from the window).
MOVE_CUES: Final = frozenset({MOVE, LINE, DRONE, TAKE, MISSILE, ASTEROID, CUT})

__all__ = ["ASTEROID", "CLOCK_LOW", "CUES", "CUT", "DRONE", "LINE", "LOSS", "MISSILE", "MOVE", "MOVE_CUES", "TAKE",
           "WIN", "YOUR_TURN"]
