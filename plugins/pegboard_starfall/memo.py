"""What a Starfall state remembers to skip work it did before (``st.memo``).

Every entry but ``sight`` carries what it was computed from (a board's stars, asteroids or
drones, or the position's ``version``) and is compared with it on use, so it is never stale
and no move, undo or hand edit has to drop it. ``sight`` holds for the arrays as they are:
:meth:`Memo.forget` drops it (and the drawn move) whenever they change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .moves import SfMove


class Memo:
    """The memos of one state; see the module docstring for why only ``sight`` is ever dropped."""

    __slots__ = ("calm", "drawn", "flips", "flow_plans", "owned", "settled", "sight")

    def __init__(self) -> None:
        #: per side: the asteroid bytes its last flow saw, and effects._segments for them
        self.flow_plans: list[tuple[bytes, Any]] = [(b"", ()), (b"", ())]
        #: (side, stars, asteroid bytes) of a board a flow toward ``side`` would not change
        #: (every hole is under an asteroid on that side's far side); see ``effects.flow``.
        self.settled: tuple[int, list[int], bytes] | None = None
        #: per side: (stars, asteroid bytes, stars after) of a board whose flow toward that side
        #: drew no star and left no line (``effects.flow_and_cascade`` replays it): a turn that
        #: moves no star sends the stars trapped between asteroids back and forth between two boards.
        self.flips: list[tuple[list[int], bytes, list[int]] | None] = [None, None]
        #: (owners, how many squares they own) as the state's turn close last counted them.
        self.owned: tuple[list[int], int] = ([], 0)
        #: kind and side bytes of a layout ``effects.surround`` found no surrounded siege in.
        self.calm = (b"", b"")
        #: per side: what it sees (``fog.visible``), for the arrays as they are now.
        self.sight: dict[int, bytearray] = {}
        #: (version, move) of the last random_move: that move is legal until the position changes.
        self.drawn: tuple[int, SfMove | None] | None = None

    def forget(self) -> None:
        """Drop what may not hold once the arrays change (a move, an undo, a hand edit)."""
        self.sight = {}
        self.drawn = None

    def copy(self) -> Memo:
        """A memo for a clone: the same entries, its own containers (each state updates its own)."""
        other = Memo.__new__(Memo)
        other.flow_plans = list(self.flow_plans)
        other.settled = self.settled
        other.flips = list(self.flips)
        other.owned = self.owned
        other.calm = self.calm
        other.sight = {}
        other.drawn = self.drawn
        return other
