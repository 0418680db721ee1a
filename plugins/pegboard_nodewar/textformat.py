"""Node War's match text format (the seed's "Export .txt").

::

    # pegboard nodewar match
    # ruleset: nodewar/standard
    # blue: Player
    # red: Expert
    1 Blue grow 6,2 -> 6,6
    2 Red grow 6,16 -> 6,12

One move per line: turn number, player, move type, ``x,y -> x,y``. ``#``
lines before the first move carry ``key: value`` metadata (or are comments);
``#`` lines after a move are that move's comment (the record's
``annotations``; several lines make one comment, as PGN's ``{...}`` after a
move). Blank lines are ignored. Loading replays every move and rejects the
whole file at the first problem with a :class:`MatchTextError` naming the
line and the reason. Marks, evaluations and better moves have no place in the
text: only comments survive a conversion to ``.txt``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, cast

from pegboard.errors import MatchFileError
from pegboard.game import JSON, Game, IllegalMove

from .engine import MOVE_KINDS, Move, NodeWarGame
from .notation import POINT
from .rules import SEATS

HEADER = "# pegboard nodewar match"
DEFAULT_RULESET = "nodewar/standard"
LINE_RE = re.compile(rf"^(\S+)\s+(\S+)\s+(\S+)\s+{POINT}\s*(?:->|→)\s*{POINT}$")
META_RE = re.compile(r"^#\s*([A-Za-z][\w-]*)\s*:\s*(.*?)\s*$")


class MatchTextError(MatchFileError, ValueError):
    """A Node War match text could not be read: ``line`` (1-based) and ``reason``.

    ``stage`` is "syntax" for a malformed file and "replay" for a move the
    rules refuse (then ``move`` is its 1-based number and ``rule`` the
    engine's rule id).
    """

    def __init__(
        self, line: int, reason: str, *, rule: str | None = None, stage: str = "syntax", move: int | None = None
    ) -> None:
        MatchFileError.__init__(self, reason, stage=stage, line=line, rule=rule, move=move)


def _build_game(ruleset: Mapping[str, Any]) -> Any:
    """The game to replay with: the plain engine, or the platform's mod wrapper when mods are named."""
    if ruleset.get("mods"):
        from pegboard.rules.rulesets import build_game, ruleset_from_data

        return build_game(ruleset_from_data(ruleset))
    return NodeWarGame(ruleset)


def _ruleset_ref(ruleset: Mapping[str, Any]) -> str:
    rid = str(ruleset.get("id", "standard"))
    return rid if "/" in rid else f"nodewar/{rid}"


class MatchText:
    """The ``.txt`` :class:`~pegboard.specs.TextFormat` of Node War."""

    suffix = ".txt"

    def dumps(self, record: Mapping[str, JSON], game: Game) -> str:
        """The record's moves as text, one line each, with a metadata header."""
        params = cast(NodeWarGame, game).params  # a NodeWarGame, or a rule-mod proxy of one
        ruleset = record.get("ruleset") or game.ruleset
        lines = [HEADER, f"# ruleset: {_ruleset_ref(ruleset)}"]
        players = record.get("players") or []
        for index, seat in enumerate(SEATS):
            player = players[index] if index < len(players) else {}
            if player.get("name"):
                lines.append(f"# {seat.lower()}: {player['name']}")
            if player.get("bot"):
                lines.append(f"# {seat.lower()}-bot: {player['bot']}")
        if record.get("seed") not in (None, 0):
            lines.append(f"# seed: {record['seed']}")
        result = record.get("result")
        if result:
            winner = result.get("winner")
            lines.append(f"# result: {'draw' if winner is None else SEATS[winner]} ({result.get('reason', '')})")
        mover = params.first
        notes = {note["move"]: str(note["comment"]) for note in record.get("annotations") or [] if note.get("comment")}
        for turn, data in enumerate(record.get("moves") or [], start=1):
            move = game.decode_move(data)
            lines.append(f"{turn} {SEATS[mover]} {game.move_text(move)}")
            lines.extend(f"# {text}".rstrip() for text in notes.get(turn, "").splitlines())
            mover = 1 - mover
        return "\n".join(lines) + "\n"

    def loads(self, text: str, resolve_ruleset: Callable[[str], Mapping[str, JSON]]) -> dict[str, JSON]:
        """Replay a match text into a match record; raises :class:`MatchTextError`."""
        meta: dict[str, str] = {}
        moves: list[tuple[int, str]] = []
        notes: dict[int, list[str]] = {}  # move number -> its comment lines
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip().lstrip("\ufeff")
            if not line:
                continue
            if line.startswith("#"):
                found = META_RE.match(line)
                if moves:
                    notes.setdefault(len(moves), []).append(line[1:].strip())
                elif found:
                    meta.setdefault(found.group(1).lower(), found.group(2))
                continue
            moves.append((number, line))

        ref = meta.pop("ruleset", DEFAULT_RULESET)
        try:
            ruleset = dict(resolve_ruleset(ref))
        except Exception as exc:  # noqa: BLE001 - any failure to find the ruleset is the file's problem
            raise MatchTextError(self._meta_line(text, "ruleset"), f"cannot load ruleset {ref!r}: {exc}") from None
        if ruleset.get("game") != "nodewar":
            raise MatchTextError(self._meta_line(text, "ruleset"), f"ruleset {ref!r} is not a Node War ruleset")
        game = _build_game(ruleset)
        geo = game.geo
        state = game.new_state()
        encoded: list[JSON] = []
        extended = 0

        def replay_error(line: int, reason: str, rule: str | None = None) -> MatchTextError:
            return MatchTextError(line, reason, rule=rule, stage="replay", move=len(encoded) + 1)

        for number, line in moves:
            found = LINE_RE.match(line)
            if found is None:
                raise MatchTextError(number, f"expected '<turn> <Blue|Red> <move type> x,y -> x,y', got {line!r}")
            turn_text, seat_text, kind, *coords = found.groups()
            if not turn_text.isdigit():
                raise MatchTextError(number, f"the turn number {turn_text!r} is not a number")
            kind = kind.lower()
            if kind not in MOVE_KINDS:
                raise MatchTextError(number, f"unknown move type {kind!r} (grow, split, loop or revive)")
            if state.result is not None:
                if not state.can_extend():
                    raise replay_error(number, f"a move after the end of the game ({state.result.text})")
                state.extend()
                extended += 1
                if state.result is not None:  # pragma: no cover - extend only withdraws a limit result
                    raise replay_error(number, f"a move after the end of the game ({state.result.text})")
            if int(turn_text) != state.turn:
                raise replay_error(number, f"turn number {turn_text} where turn {state.turn} was expected")
            expected = SEATS[state.to_move]
            if seat_text.lower() != expected.lower():
                raise replay_error(number, f"{seat_text} moves on turn {state.turn}, but it is {expected}'s turn")
            sx, sy, tx, ty = (int(c) for c in coords)
            for x, y in ((sx, sy), (tx, ty)):
                if not geo.on_board(x, y):
                    raise replay_error(number, f"{x},{y} is off the {game.width}x{game.height} board", rule="off_board")
            move = Move(kind, geo.point(sx, sy), geo.point(tx, ty))
            try:
                state.apply(move)
            except IllegalMove as exc:
                if exc.rule == "wrong_move_type":
                    actual = state.classify(move.src, move.dst)
                    reason = f"the line says {kind}, but {sx},{sy} -> {tx},{ty} is a {actual}"
                else:
                    reason = f"illegal move ({exc.rule}): {exc.reason}"
                raise replay_error(number, reason, rule=exc.rule) from None
            encoded.append(game.encode_move(move))

        players = []
        for seat in SEATS:
            # Files without a "# blue:" line were played by people: the seed's name for that seat is "Player".
            player: dict[str, JSON] = {"seat": seat, "name": meta.pop(seat.lower(), None) or "Player"}
            bot = meta.pop(f"{seat.lower()}-bot", None)
            if bot:
                player["bot"] = bot
            players.append(player)
        seed_text = meta.pop("seed", "0")
        meta.pop("result", None)
        record: dict[str, JSON] = {
            "format": "pegboard.match/1",
            "game": "nodewar",
            "ruleset": ruleset,
            "seed": int(seed_text) if seed_text.lstrip("-").isdigit() else 0,
            "players": players,
            "moves": encoded,
        }
        if state.result is not None:
            record["result"] = state.result.to_json()
        annotations: list[JSON] = [
            {"move": move, "comment": "\n".join(parts).strip("\n")} for move, parts in sorted(notes.items()) if any(parts)
        ]
        if annotations:
            record["annotations"] = annotations
        extra: dict[str, JSON] = dict(meta)
        if extended:
            extra["extensions"] = extended
        if extra:
            record["meta"] = extra
        return record

    @staticmethod
    def _meta_line(text: str, key: str) -> int:
        for number, raw in enumerate(text.splitlines(), start=1):
            found = META_RE.match(raw.strip())
            if found and found.group(1).lower() == key:
                return number
        return 1


def loads(text: str, resolve_ruleset: Callable[[str], Mapping[str, JSON]] | None = None) -> dict[str, JSON]:
    """Read a match text with the shipped rulesets (convenience for tools and tests)."""
    if resolve_ruleset is None:
        from .rules import load_shipped

        resolve_ruleset = load_shipped
    return MatchText().loads(text, resolve_ruleset)
