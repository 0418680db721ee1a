"""Node War positions for the window tests and the screenshots, as match text.

``HINTS`` (standard ruleset, Blue to move after 12 moves): Red's move 8 cut
the line 6,5-6,8, so the Blue nodes 6,8 and 4,9 are dead (the line between
them is uncut: dark blue, without the glow of lines joined to the Base).
Selecting the Blue node at 6,5 shows every hint kind at once:

- green dots: new nodes all around it;
- purple dots: 6,3 and 6,4 on its own line to the Base (inserts), 7,3 and 9,5 on
  other Blue lines;
- green loop rings: 4,5 and 8,4 (alive, in reach, not joined to it);
- an orange revive ring: 6,8 (dead, joined to it only by the cut line).

Its linked nodes are outlined in orange: the Base solidly, 6,8 dashed (every
link to it is cut). Red's 7,10 has 4 of 4 branches: a white X. Playing the
revive 6,5 -> 6,8 crosses Red's line 7,8-5,6, so Red's 5,6 dies (dark red).
"""

from __future__ import annotations

HINTS = """\
# pegboard nodewar match
# ruleset: nodewar/standard
1 Blue grow 6,2 -> 6,5
2 Red grow 6,16 -> 6,12
3 Blue grow 6,5 -> 6,8
4 Red grow 6,12 -> 7,10
5 Blue grow 6,2 -> 4,5
6 Red grow 7,10 -> 7,8
7 Blue grow 6,8 -> 4,9
8 Red grow 7,8 -> 5,6
9 Blue grow 6,2 -> 8,4
10 Red grow 7,10 -> 9,12
11 Blue grow 8,4 -> 10,6
12 Red grow 7,10 -> 5,12
"""

SELECT = (6, 5)  # the Blue node to select
DEAD = (6, 8)  # Blue's dead node (revive target, dashed link)
LOOPS = ((4, 5), (8, 4))
SPLITS = ((6, 3), (6, 4), (7, 3), (9, 5))
GROW = (7, 6)  # one of the new-node hints
FULL = (7, 10)  # Red's full node
RED_VICTIM = (5, 6)  # dies when Blue revives 6,8
DEAD_LINE = ((6, 8), (4, 9))  # uncut, between two dead Blue nodes


def load(session, text: str = HINTS) -> None:
    """Replace the session's game by the match in ``text`` (bots stay paused, as after an import)."""
    session.import_record(session.parse_record(text, ".txt"))
