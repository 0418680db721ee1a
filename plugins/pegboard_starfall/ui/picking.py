"""Which moves a click can make: the selected drone's actions by mode, and swaps (no pyglet).

A selected drone of the side to move offers modes: ``move`` (steps, rides, takes
and stacks), ``fire`` (missiles, before the action), ``warp``, ``strike``, ``ram``
and, for the Command, ``build`` (a turret). ``claim`` is one button. Each mode
maps target squares to the move a click there plays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import movegen
from .. import moves as mv
from ..pieces import BOMB, COMMAND, SIEGE, WARP
from ..rams import ram_centre

if TYPE_CHECKING:
    from ..state import StarfallState

MODES = ("move", "fire", "warp", "strike", "ram", "build")
MODE_LABELS = {"move": "Move", "fire": "Fire missile", "warp": "Warp", "strike": "Strike", "ram": "Ram",
               "build": "Build a turret", "claim": "Claim"}
#: The mode buttons' tooltips: what pressing each one does, in a plain sentence.
MODE_TIPS = {
    "move": "Move: tap a lit square to send this drone there; steps onto its own star colour are free.",
    "fire": "Fire missile: tap a lit square in range to shoot one of the missiles this drone carries.",
    "warp": "Warp: jump this drone to a lit square and claim the nine squares there; the warp is spent.",
    "strike": "Strike: slide this siege drone in a straight line until something stops it.",
    "ram": "Ram: slide this bomb in a straight line; it blows up the nine squares around what it hits.",
    "build": "Build a turret: turn missiles from the Command's stock into a turret on an empty square you own.",
    "claim": "Claim: this scout takes every open square around it as yours.",
}
_KIND_OF_MODE = {"move": mv.MOVE, "fire": mv.FIRE, "warp": mv.WARP, "strike": mv.STRIKE, "build": mv.BUILD}


def actions(st: StarfallState, sq: int) -> dict[str, dict[int, mv.SfMove]]:
    """For the drone on ``sq`` (of the side to move): mode -> {target square: move}.

    ``claim`` maps the scout's own square to its claim. Modes without a legal move are left out.
    """
    out: dict[str, dict[int, mv.SfMove]] = {}
    if st.kind[sq] == 0 or st.side[sq] != st.to_move or st.result is not None:
        return out
    legal = st.legal_moves()
    vis = movegen._vis(st)
    for mode, kind in _KIND_OF_MODE.items():
        if mode == "build":
            if st.kind[sq] != COMMAND:
                continue
            targets = {m.a: m for m in legal if m.kind == kind}
        else:
            targets = {m.b: m for m in legal if m.kind == kind and m.a == sq}
        if targets:
            out[mode] = targets
    rams = {}
    if st.kind[sq] == BOMB:
        for m in legal:
            if m.kind == mv.RAM and m.a == sq:
                centre = ram_centre(st, sq, m.b, vis)
                if centre is not None:
                    rams[centre] = m
    if rams:
        out["ram"] = rams
    claims = {m.a: m for m in legal if m.kind == mv.CLAIM and m.a == sq}
    if claims:
        out["claim"] = claims
    return out


def default_mode(st: StarfallState, sq: int, acts: dict[str, dict[int, mv.SfMove]]) -> str | None:
    """The mode a fresh selection starts in: the drone's own action first (a siege strikes,
    a bomb rams, a warp warps), else moving, else the first thing it can do."""
    prefer = {SIEGE: "move", BOMB: "ram", WARP: "warp"}.get(st.kind[sq], "move")
    for mode in (prefer, "move", *MODES):
        if mode in acts:
            return mode
    return None


def swap_outcome(st: StarfallState, a: int, b: int) -> tuple[str, str | None]:
    """("play", None) for a legal swap, ("snap", reason) when it is a well-formed swap that
    makes no line (the stars snap back for free), ("refuse", reason) otherwise."""
    move = mv.swap(a, b)
    refusal = st.refusal(move)
    if refusal is None:
        return "play", None
    geo = st.geo
    vis = movegen._vis(st)
    adjacent = geo.chebyshev(a, b) == 1 and (geo.col[a] == geo.col[b] or geo.row[a] == geo.row[b])
    enemy = st.to_move ^ 1
    formed = (adjacent and st.star[a] >= 0 and st.star[b] >= 0 and st.owner[a] != enemy and st.owner[b] != enemy
              and (vis is None or (vis[a] and vis[b])) and st.result is None)
    return ("snap" if formed and refusal[0] == "swap" else "refuse"), refusal[1]


def neighbour(st: StarfallState, sq: int, dc: int, dr: int) -> int | None:
    """The square one step (dc, dr) from ``sq`` in board coordinates, or None off the board."""
    c, r = st.geo.col[sq] + dc, st.geo.row[sq] + dr
    return st.geo.sq(c, r) if st.geo.on_board(c, r) else None


__all__ = ["MODES", "MODE_LABELS", "MODE_TIPS", "actions", "default_mode", "neighbour", "swap_outcome"]
