"""Fog of war: what each side sees, and observations that hold nothing else.

``seam``: a side sees its own half and the seam row, the 3x3 around each of its drones and
turrets except shields, and every square its scouts or warps ever claimed. ``dark``: the
same without the free half and seam. A side always knows the squares its own drones stand on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .pieces import SHIELD

if TYPE_CHECKING:
    from .state import StarfallState


def visible(st: StarfallState, player: int) -> bytearray:
    """Per square 1 if ``player`` sees it (all 1 with the fog off); kept in ``st.memo.sight`` until the arrays change."""
    cached = st.memo.sight.get(player)
    if cached is not None:
        return cached
    geo = st.geo
    n = geo.size
    if not st.rules.fogged:
        vis = bytearray(b"\x01" * n)
    else:
        vis = bytearray(n)
        if st.rules.fog == "seam":
            half = geo.half
            for sq in range(n):
                if half[sq] == player or half[sq] == -1:
                    vis[sq] = 1
        kind, side = st.kind, st.side
        for sq in range(n):
            if kind[sq] and side[sq] == player:
                if kind[sq] == SHIELD:
                    vis[sq] = 1
                else:
                    for t in geo.disc(sq, 1):
                        vis[t] = 1
        lit = st.lit[player]
        while lit:
            low = lit & -lit
            vis[low.bit_length() - 1] = 1
            lit ^= low
    st.memo.sight[player] = vis
    return vis


def observation(st: StarfallState, player: int) -> dict[str, Any]:
    """The position as ``player`` may know it (see docs/rules/starfall.md, "Fog of war").

    The match seed and draw counter are never included: they would predict refills and,
    under fog, reveal the deal.
    """
    from .position import state_to_json

    data = state_to_json(st)
    del data["seed"], data["draws"]
    data["viewer"] = player
    if not st.rules.fogged:
        return data
    geo = st.geo
    w = geo.width
    vis = visible(st, player)
    seen = [[bool(vis[r * w + c]) for c in range(w)] for r in range(geo.height)]
    data["visible"] = [[int(v) for v in row] for row in seen]
    data["stars"] = [[v if seen[r][c] else None for c, v in enumerate(row)] for r, row in enumerate(data["stars"])]
    data["owners"] = [
        [v if seen[r][c] or v == player else None for c, v in enumerate(row)] for r, row in enumerate(data["owners"])
    ]
    data["asteroids"] = [a for a in data["asteroids"] if seen[a[1]][a[0]]]
    data["drones"] = [d for d in data["drones"] if d["side"] == player or seen[d["at"][1]][d["at"][0]]]
    data["wrecks"] = [x for x in data["wrecks"] if seen[x["at"][1]][x["at"][0]]]
    if player != st.current:
        del data["cleared_this_turn"]  # the mover's running count is its own business
    data["lit"] = [data["lit"][p] if p == player else None for p in (0, 1)]
    data["cleared"] = [data["cleared"][p] if p == player else None for p in (0, 1)]
    return data


def hidden_from(st: StarfallState, player: int) -> list[str]:
    """JSON pointers into ``state_to_json(st)`` that ``player`` may not know (see State.hidden_from).

    Covers the seed and draw counter, the star and owner of every unseen square (an asteroid
    on an unseen square shows as a missing star there), the other side's lit and cleared
    squares and, for the side not moving, the mover's running clear count. Drones, asteroids
    and wrecks on unseen squares are list entries without a stable index, so they cannot be
    named by pointer: the Starfall leak tests (tests/starfall/test_leaks.py) cover them.
    """
    out = ["/seed", "/draws"]
    if not st.rules.fogged:
        return out
    other = player ^ 1
    out += [f"/lit/{other}", f"/cleared/{other}"]
    if player != st.current:
        out.append("/cleared_this_turn")
    vis = visible(st, player)
    w = st.geo.width
    owner = st.owner
    for sq in range(st.geo.size):
        if not vis[sq]:
            r, c = divmod(sq, w)
            out.append(f"/stars/{r}/{c}")
            if owner[sq] != player:
                out.append(f"/owners/{r}/{c}")
    return out
