"""Positions as JSON (schemas/starfall/position.schema.json) and back.

Squares are written [column, row]; the board layers are lists of rows, row 0 first
(South's back row). Observations use the same layout with ``null`` for what the viewer
cannot know, plus ``viewer`` and (under fog) ``visible``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pegboard.game import InvalidPosition, Result

from .pieces import COMMAND, KIND_BY_LETTER, LETTERS, ride_mask, ride_names

if TYPE_CHECKING:
    from .game import StarfallGame
    from .state import StarfallState


def _bits(mask: int, w: int) -> list[list[int]]:
    out = []
    while mask:
        low = mask & -mask
        sq = low.bit_length() - 1
        out.append([sq % w, sq // w])
        mask ^= low
    return out


def state_to_json(st: StarfallState) -> dict[str, Any]:
    geo = st.geo
    w, h = geo.width, geo.height

    def rows(arr: list[int]) -> list[list[int]]:
        return [arr[r * w:(r + 1) * w] for r in range(h)]

    def cr(sq: int) -> list[int]:
        return [sq % w, sq // w]

    drones = []
    for sq in range(geo.size):
        if st.kind[sq]:
            drones.append({
                "at": cr(sq), "kind": LETTERS[st.kind[sq]], "side": st.side[sq], "power": st.power[sq],
                "rides": ride_names(st.ride[sq]), "missiles": st.miss[sq], "shots": st.shots[sq],
            })
    return {
        "game": "starfall",
        "width": w,
        "height": h,
        "seed": st.seed,
        "draws": st.draws,
        "to_move": st.current,
        "turn": st.turn,
        "cleared_this_turn": st.cleared_now,
        "stars": rows(st.star),
        "owners": rows(st.owner),
        "asteroids": [cr(sq) for sq in range(geo.size) if st.ast[sq]],
        "drones": drones,
        "wrecks": [
            {"at": cr(sq), "missiles": st.wreck[sq], "round": st.wround[sq]} for sq in range(geo.size) if st.wreck[sq]
        ],
        "lit": [_bits(st.lit[p], w) for p in (0, 1)],
        "cleared": [_bits(st.cleared[p], w) for p in (0, 1)],
        "result": st.winner_result.to_json() if st.winner_result is not None else None,
        **({"aims": {"owed": st.aims, "then_end_turn": st.aim_ends}} if st.aims else {}),
    }


def state_from_json(
    game: StarfallGame, data: Mapping[str, Any], view_of: int | None = None, *, cls: type[StarfallState]
) -> StarfallState:
    """Build a ``cls`` state; ``view_of`` accepts an observation (nulls become holes / unowned / unknown)."""
    try:
        return _build(game, data, view_of, cls)
    except InvalidPosition:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise InvalidPosition(f"not a Starfall position: {type(exc).__name__}: {exc}") from exc


def _build(game: StarfallGame, data: Mapping[str, Any], view_of: int | None, cls: type[StarfallState]) -> StarfallState:
    geo = game.geo
    w, h = geo.width, geo.height
    if not isinstance(data, Mapping):
        raise InvalidPosition("a position is a JSON object")
    if data.get("width", w) != w or data.get("height", h) != h:
        raise InvalidPosition(f"this ruleset plays on {w}x{h}, the position is {data.get('width')}x{data.get('height')}")
    st = cls(game, int(data.get("seed", 0) or 0))
    st.draws = int(data.get("draws", 0) or 0)
    st.current = int(data["to_move"])
    if st.current not in (0, 1):
        raise InvalidPosition("to_move must be 0 or 1")
    st.turn = int(data.get("turn", 0))
    st.cleared_now = int(data.get("cleared_this_turn", 0))
    aims = data.get("aims") or {}
    st.aims = int(aims.get("owed", 0))
    st.aim_ends = bool(aims.get("then_end_turn", False)) and st.aims > 0
    if st.aims < 0:
        raise InvalidPosition("aims.owed cannot be negative")

    def square(pair: Any, what: str) -> int:
        c, r = pair
        if not (isinstance(c, int) and isinstance(r, int) and geo.on_board(c, r)):
            raise InvalidPosition(f"{what}: {pair!r} is not a square of the board")
        return r * w + c

    def grid(name: str, lo: int, hi: int, unknown: int) -> list[int]:
        rows = data[name]
        if len(rows) != h or any(len(row) != w for row in rows):
            raise InvalidPosition(f"{name} must be {h} rows of {w}")
        out = []
        for row in rows:
            for v in row:
                if v is None and view_of is not None:
                    out.append(unknown)
                elif isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi:
                    out.append(v)
                else:
                    raise InvalidPosition(f"{name}: bad value {v!r}")
        return out

    st.star = grid("stars", -1, game.rules.colors - 1, -1)
    st.owner = grid("owners", -1, 1, -1)
    for pair in data.get("asteroids", []):
        sq = square(pair, "asteroids")
        st.ast[sq] = 1
        st.star[sq] = -1
    for d in data.get("drones", []):
        sq = square(d["at"], "drones")
        letter = d["kind"]
        if letter not in KIND_BY_LETTER:
            raise InvalidPosition(f"drones: unknown kind {letter!r}")
        if st.kind[sq]:
            raise InvalidPosition(f"drones: two drones at {d['at']}")
        if st.ast[sq]:
            raise InvalidPosition(f"drones: a drone stands on the asteroid at {d['at']}")
        power = int(d.get("power", 1))
        if not 1 <= power <= game.rules.max_power:
            raise InvalidPosition(f"drones: power {power} at {d['at']} is outside 1..{game.rules.max_power}")
        side = int(d["side"])
        if side not in (0, 1):
            raise InvalidPosition("drones: side must be 0 or 1")
        st.kind[sq] = KIND_BY_LETTER[letter]
        st.side[sq] = side
        st.power[sq] = power
        st.ride[sq] = ride_mask(d.get("rides", {}))
        st.miss[sq] = int(d.get("missiles", 0))
        st.shots[sq] = int(d.get("shots", 0))
        if st.kind[sq] == COMMAND:
            if st.cmd[side] >= 0:
                raise InvalidPosition(f"drones: {side} has two Commands")
            st.cmd[side] = sq
    result = data.get("result")
    if result is not None:
        st.winner_result = Result.from_json(result)
    for p in (0, 1):
        if st.cmd[p] < 0 and view_of is None and not (result and result.get("reason") == "asteroid"):
            raise InvalidPosition(f"side {p} has no Command drone")
    for x in data.get("wrecks", []):
        sq = square(x["at"], "wrecks")
        st.wreck[sq] = int(x["missiles"])
        st.wround[sq] = int(x.get("round", 0))
    for name, target in (("lit", st.lit), ("cleared", st.cleared)):
        layers = data.get(name, [[], []])
        for p in (0, 1):
            mask = 0
            for pair in layers[p] or []:
                mask |= 1 << square(pair, name)
            target[p] = mask
    return st
