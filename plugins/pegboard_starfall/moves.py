"""Starfall moves: one small immutable tuple per move, with JSON and text forms.

``a`` and ``b`` are square indices (``r * width + c``) except where noted:
``ram`` keeps its direction index (0..7, see geometry.DIRECTIONS) in ``b`` and
``concede`` its seat in ``a`` (the reason, see CONCEDE_REASONS, in ``tag``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pegboard.game import InvalidMoveEncoding

from .geometry import COMPASS, DIRECTIONS, Geometry

SWAP, FIRE, MOVE, CLAIM, WARP, STRIKE, RAM, BUILD, PASS, TIMEOUT, CONCEDE, AIM = (
    "swap", "fire", "move", "claim", "warp", "strike", "ram", "build", "pass", "timeout", "concede", "aim",
)
#: Moves that end the turn (everything but a missile shot).
ACTION_KINDS = frozenset({SWAP, MOVE, CLAIM, WARP, STRIKE, RAM, BUILD, PASS, TIMEOUT})
#: Moves a session makes on a player's behalf; never listed by legal_moves.
SESSION_KINDS = frozenset({TIMEOUT, CONCEDE})
#: Why a side concedes: it resigned, its clock ran out, or (if a session says so) its move time.
CONCEDE_REASONS = ("resign", "flag", "move_time")
#: How a concede move reads after the side's name ("North resigns").
CONCEDE_WORDS = {"resign": "resigns", "flag": "runs out of time", "move_time": "runs out of move time"}


class SfMove(NamedTuple):
    """A Starfall move; build them with the helpers below."""

    kind: str
    a: int = -1
    b: int = -1
    tag: str = ""


def swap(a: int, b: int) -> SfMove:
    return SfMove(SWAP, min(a, b), max(a, b))


def fire(frm: int, to: int) -> SfMove:
    return SfMove(FIRE, frm, to)


def move(frm: int, to: int) -> SfMove:
    return SfMove(MOVE, frm, to)


def claim(at: int) -> SfMove:
    return SfMove(CLAIM, at)


def warp(frm: int, to: int) -> SfMove:
    return SfMove(WARP, frm, to)


def strike(frm: int, to: int) -> SfMove:
    return SfMove(STRIKE, frm, to)


def ram(frm: int, direction: int) -> SfMove:
    return SfMove(RAM, frm, direction)


def build(at: int) -> SfMove:
    return SfMove(BUILD, at)


def aim(at: int = -1) -> SfMove:
    """Place an owed asteroid (``asteroids.drop_target = "aimed"``); -1: let it fall at random."""
    return SfMove(AIM, at)


class MoveTable(dict[int, SfMove]):
    """The moves of one kind by ``a * size + b``, each made the first time it is asked for
    (a replay meets a few hundred of a table's size**2 moves) and then shared."""

    __slots__ = ("kind", "size")

    def __init__(self, kind: str, size: int) -> None:
        super().__init__()
        self.kind = kind
        self.size = size

    def __missing__(self, i: int) -> SfMove:
        # tuple.__new__ skips SfMove(...)'s keyword handling and _make's Python frame: a fresh
        # process meets thousands of these
        m: SfMove = tuple.__new__(SfMove, (self.kind, i // self.size, i % self.size, ""))
        self[i] = m
        return m


_TABLES: dict[tuple[str, int], MoveTable] = {}


def move_table(kind: str, size: int) -> MoveTable:
    """Moves ``table[a * size + b]`` of one kind, so generation allocates each move once."""
    table = _TABLES.get((kind, size))
    if table is None:
        table = _TABLES[(kind, size)] = MoveTable(kind, size)
    return table


PASS_MOVE = SfMove(PASS)
TIMEOUT_MOVE = SfMove(TIMEOUT)


def concede(seat: int, reason: str = "resign") -> SfMove:
    return SfMove(CONCEDE, seat, -1, reason)


# -- JSON ------------------------------------------------------------------------------

_TWO_SQUARES = {SWAP: ("a", "b"), FIRE: ("from", "to"), MOVE: ("from", "to"), WARP: ("from", "to"), STRIKE: ("from", "to")}
_ONE_SQUARE = {CLAIM: "at", BUILD: "at"}


def encode(geo: Geometry, m: SfMove) -> dict[str, Any]:
    """The move as JSON (schemas/starfall/move.schema.json)."""
    def cr(sq: int) -> list[int]:
        return [geo.col[sq], geo.row[sq]]

    if m.kind in _TWO_SQUARES:
        ka, kb = _TWO_SQUARES[m.kind]
        return {"type": m.kind, ka: cr(m.a), kb: cr(m.b)}
    if m.kind in _ONE_SQUARE:
        return {"type": m.kind, _ONE_SQUARE[m.kind]: cr(m.a)}
    if m.kind == RAM:
        return {"type": RAM, "from": cr(m.a), "dir": list(DIRECTIONS[m.b])}
    if m.kind == CONCEDE:
        return {"type": CONCEDE, "seat": m.a, "reason": m.tag}
    if m.kind == AIM:
        return {"type": AIM, "at": cr(m.a)} if m.a >= 0 else {"type": AIM}
    return {"type": m.kind}


def decode(geo: Geometry, data: Any) -> SfMove:
    """The inverse of :func:`encode`; raises InvalidMoveEncoding.

    The prebuilt-table read is the fast path; its slow twin is :func:`_decode`, held equal by
    tests/starfall/test_fast_checks.py::test_decoding_a_two_square_move_quickly_gives_what_the_full_reader_gives.
    """
    # The common case, a two-square move written as plain lists of ints on the board, is read
    # straight into a prebuilt move; everything else (and every error) goes the long way.
    if type(data) is dict and len(data) == 3:
        table: MoveTable  # read from geo.derived, typed Any
        try:  # subscripts, not .get calls: a missing key, an odd type or a square off the board goes the long way
            kind = data["type"]
            ka, kb, table, cells = geo.derived["decode"][kind]
            p, q = data[ka], data[kb]
            c, r = p
            c2, r2 = q
            # the keys hold each coordinate's type: True and 1.0 equal 1 but are not integers
            a = cells[type(c), c, type(r), r]
            b = cells[type(c2), c2, type(r2), r2]
        except (KeyError, TypeError, ValueError):
            return _decode(geo, data)
        if type(p) is list and type(q) is list:
            if a > b and kind == SWAP:
                a, b = b, a
            return table[a * geo.size + b]
    return _decode(geo, data)


_Fast = dict[str, tuple[str, str, MoveTable, dict[tuple[type, Any, type, Any], int]]]


def _fast_tables(geo: Geometry) -> _Fast:
    """For :func:`decode` on ``geo``'s board: each two-square move type's JSON keys, its
    MoveTable and the squares by (type of column, column, type of row, row); kept in ``geo.derived["decode"]``."""
    tables: _Fast | None = geo.derived.get("decode")
    if tables is None:
        cells: dict[tuple[type, Any, type, Any], int] = {(int, c, int, r): geo.sq(c, r) for c in range(geo.width) for r in range(geo.height)}
        tables = geo.derived["decode"] = {kind: (ka, kb, move_table(kind, geo.size), cells) for kind, (ka, kb) in _TWO_SQUARES.items()}
    return tables


def _decode(geo: Geometry, data: Any) -> SfMove:
    """The whole reader: it refuses everything schemas/starfall/move.schema.json refuses (the
    plugin says ``strict_decode``), and more (squares off this board). The first call for a
    board also builds :func:`decode`'s tables for it."""
    _fast_tables(geo)
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise InvalidMoveEncoding("a Starfall move is an object with a 'type'")
    kind = data["type"]
    keys = _KEYS.get(kind)
    if keys is None:
        raise InvalidMoveEncoding(f"unknown Starfall move type {kind!r}")
    extra = data.keys() - keys
    if extra:
        raise InvalidMoveEncoding(f"{kind}: unexpected {', '.join(sorted(map(repr, extra)))}")

    def square(key: str) -> int:
        value = data.get(key)
        if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
            raise InvalidMoveEncoding(f"{kind}: '{key}' must be [column, row]")
        c, r = value
        if not geo.on_board(c, r):
            raise InvalidMoveEncoding(f"{kind}: '{key}' {value} is off the board")
        return geo.sq(c, r)

    if kind in _TWO_SQUARES:
        ka, kb = _TWO_SQUARES[kind]
        a, b = square(ka), square(kb)
        return swap(a, b) if kind == SWAP else SfMove(kind, a, b)
    if kind in _ONE_SQUARE:
        return SfMove(kind, square(_ONE_SQUARE[kind]))
    if kind == RAM:
        d = data.get("dir")
        if not isinstance(d, list) or any(type(v) is bool for v in d) or tuple(d) not in DIRECTIONS:
            raise InvalidMoveEncoding("ram: 'dir' must be one of the 8 unit directions [dc, dr]")
        return ram(square("from"), DIRECTIONS.index(tuple(d)))
    if kind == CONCEDE:
        seat, reason = data.get("seat"), data.get("reason")
        if type(seat) is bool or seat not in (0, 1) or reason not in CONCEDE_REASONS:
            raise InvalidMoveEncoding(f"concede: needs 'seat' 0 or 1 and a 'reason' of {', '.join(CONCEDE_REASONS)}")
        return concede(seat, reason)
    if kind in (PASS, TIMEOUT):
        return SfMove(kind)
    return aim(square("at")) if "at" in data else aim()  # AIM


#: The keys each move type has (all required but aim's "at").
_KEYS: dict[str, frozenset[str]] = {
    **{kind: frozenset({"type", *pair}) for kind, pair in _TWO_SQUARES.items()},
    **{kind: frozenset({"type", key}) for kind, key in _ONE_SQUARE.items()},
    RAM: frozenset({"type", "from", "dir"}),
    CONCEDE: frozenset({"type", "seat", "reason"}),
    PASS: frozenset({"type"}),
    TIMEOUT: frozenset({"type"}),
    AIM: frozenset({"type", "at"}),
}


def text(geo: Geometry, m: SfMove) -> str:
    """Short notation: squares as letter+row ("e1" is column 4, row 0), e.g. "swap e3-f3"; a
    ram names its compass direction, a resignation or a clock reads as words ("resigns")."""
    name = geo.name

    if m.kind == SWAP:
        return f"swap {name(m.a)}-{name(m.b)}"
    if m.kind in (FIRE, MOVE, WARP, STRIKE):
        sep = {FIRE: "*", MOVE: "-", WARP: ">", STRIKE: "~"}[m.kind]
        return f"{m.kind} {name(m.a)}{sep}{name(m.b)}"
    if m.kind in (CLAIM, BUILD):
        return f"{m.kind} {name(m.a)}"
    if m.kind == RAM:
        return f"ram {name(m.a)} {COMPASS[m.b]}"
    if m.kind == CONCEDE:
        return CONCEDE_WORDS.get(m.tag, "resigns")
    if m.kind == TIMEOUT:
        return "runs out of move time"
    if m.kind == AIM:
        return f"aim {name(m.a)}" if m.a >= 0 else "aim at random"
    return m.kind
