"""The guided first game: a dark board, no clock, a scripted opponent and three lit steps.

The same every time: a fixed seed and a bot that always answers with the same
quiet move. The guide lights one square and waits for it; clicks anywhere
else only repeat what to do.

1. Move the scout: tap the scout, then the lit square ahead of it.
2. Claim: tap the scout, then Claim; the squares around it become yours and
   the fog lifts there for the rest of the game.
3. Make a match: swap the two lit stars; the line pays a drone.

After that the game goes on as a normal (unrated) game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pegboard.rules.rulesets import build_game, deep_merge, load_ruleset, ruleset_from_data
from pegboard.specs import Bot, BotSpec

from .. import moves as mv
from ..pieces import SCOUT

SEED = 3
STEPS = ("move", "claim", "match", "done")


class ScriptedBot(Bot):
    """The guided game's opponent: a quiet move every turn, the same every time.

    It plays the first swap it sees that pays it nothing; when the dark hides every swap from
    it too, it steps a drone onto an empty square of its own half (the first such move); only
    when it has neither does it play its first legal action. It never fires a missile, and
    never takes, claims or lands on anything while a quiet move is left.
    """

    def choose(self, view: Any, budget: float) -> mv.SfMove:
        legal: list[mv.SfMove] = view.legal_moves()
        actions = [m for m in legal if m.kind != mv.FIRE]
        me = view.to_move
        swaps = sorted((m for m in actions if m.kind == mv.SWAP), key=lambda m: (m.a, m.b))
        for m in swaps:
            before = view.drone_count(me)
            view.apply(m)
            paid = view.drone_count(me) != before
            view.undo()
            if not paid:
                return m
        half = view.geo.half
        steps = sorted((m for m in actions if m.kind == mv.MOVE and not view.kind[m.b] and half[m.b] == me),
                       key=lambda m: (m.a, m.b))
        if steps:
            return steps[0]
        return (actions or legal)[0]


GUIDE_BOT = BotSpec(id="guide", name="Guide", game="starfall", budget=0.0,
                    factory=lambda game, seed: ScriptedBot(),
                    description="The guided first game's opponent: a quiet swap, or one quiet step, the same every time.")


def guided_game(plugins: Any) -> tuple[Any, str]:
    """The guided game's game object (standard rules, everything dark, no timers) and ruleset ref."""
    base = load_ruleset("starfall/standard", game="starfall", plugins=plugins)
    data = deep_merge(base.data, {"fog": {"mode": "dark"}, "timers": {"enabled": False}})
    data["id"] = "guided"
    data["name"] = "Starfall (guided first game)"
    ruleset = ruleset_from_data(data, plugins)
    return build_game(ruleset, plugins), ruleset.ref


@dataclass
class Guide:
    """Where the guided game stands and what it lights."""

    step: str = "move"

    def scout(self, st: Any, me: int) -> int | None:
        for sq in range(st.geo.size):
            if st.kind[sq] == SCOUT and st.side[sq] == me:
                return sq
        return None

    def target(self, st: Any, me: int, selected: int | None) -> tuple[int | None, str]:
        """The square to light now and the sentence for the status line."""
        if self.step == "done" or st.to_move != me or st.result is not None:
            return None, ""
        scout = self.scout(st, me)
        if self.step == "move":
            if scout is None:
                return None, ""
            if selected != scout:
                return scout, "Guided game 1/3: tap your scout (the lit drone at the bottom)."
            dest = self.scout_destination(st, scout)
            return dest, "Guided game 1/3: tap the lit square to fly the scout there."
        if self.step == "claim":
            if scout is None:
                return None, ""
            if selected != scout:
                return scout, "Guided game 2/3: tap your scout again."
            return None, ("Guided game 2/3: press the lit Claim button on the right: the squares around the scout "
                          "become yours and light up.")
        swap = self.paying_swap(st)
        if swap is None:
            return None, ""
        return swap.a, "Guided game 3/3: drag the lit star onto its lit neighbour (or click one, then the other)."

    def second_square(self, st: Any) -> int | None:
        """The other star of step 3's swap (lit next to the first)."""
        swap = self.paying_swap(st) if self.step == "match" else None
        return swap.b if swap is not None else None

    @staticmethod
    def scout_destination(st: Any, scout: int) -> int | None:
        """Where the scout should fly so that a claim there takes the most new squares
        (then the furthest forward, then nearest the centre column)."""
        ends = [m.b for m in st.legal_moves() if m.kind == mv.MOVE and m.a == scout and not st.kind[m.b]]
        if not ends:
            return None
        me = st.side[scout]
        geo = st.geo
        radius = st.rules.claim_radius

        def gain(sq: int) -> int:
            return sum(1 for t in geo.disc(sq, radius) if st.owner[t] < 0 and not st.ast[t])
        best: int = min(ends, key=lambda s: (-gain(s), -geo.back_distance(s, me), abs(geo.col[s] - geo.width // 2), s))
        return best

    @staticmethod
    def paying_swap(st: Any) -> mv.SfMove | None:
        """The first swap of two bare stars (a star under a drone is hidden by it), in square
        order, that makes a drone appear for the mover."""
        me = st.to_move
        swaps = (m for m in st.legal_moves() if m.kind == mv.SWAP and not st.kind[m.a] and not st.kind[m.b])
        for m in sorted(swaps, key=lambda m: (m.a, m.b)):
            probe = st.clone()
            events = probe.apply(m)
            if any(e.kind == "drone_spawned" and e.data.get("side") == me for e in events):
                found: mv.SfMove = m
                return found
        return None

    def allows(self, st: Any, me: int, move: mv.SfMove) -> bool:
        """Whether the guide lets ``move`` be played now (it waits for the lit one)."""
        if self.step == "done":
            return True
        scout = self.scout(st, me)
        if self.step == "move":
            return move.kind == mv.MOVE and move.a == scout and move.b == self.scout_destination(st, scout)
        if self.step == "claim":
            return move.kind == mv.CLAIM and move.a == scout
        swap = self.paying_swap(st)
        return swap is not None and move == swap

    def advance(self, move: mv.SfMove) -> None:
        """The person played ``move`` (one the guide allowed): go to the next step."""
        order = {"move": mv.MOVE, "claim": mv.CLAIM, "match": mv.SWAP}
        if self.step in order and move.kind == order[self.step]:
            self.step = STEPS[STEPS.index(self.step) + 1]


__all__ = ["GUIDE_BOT", "Guide", "SEED", "ScriptedBot", "guided_game"]
