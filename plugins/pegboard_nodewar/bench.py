"""Node War engine benchmarks (``pegboard bench`` and ``tools/bench_nodewar.py``).

Figures:

- match-record validation: decode + check + apply over recorded random games,
  and, when python-chess is importable, the same number of chess moves
  replayed from PGN in the same run (the reference the engine aims to beat);
- full legal-move enumeration on a midgame position;
- random playouts from the start (legal_moves + push until the game ends);
- push + undo of legal moves.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from pegboard.game import JSON
from pegboard.specs import Figure

from .engine import NodeWarGame, NodeWarState
from .rules import load_shipped


def _timed(work: Callable[[], int], min_time: float) -> tuple[float, int]:
    """Run ``work`` (returning an item count) for ``min_time`` CPU seconds; return (seconds, items).

    CPU time rather than wall time: the figures stay comparable on a shared machine.
    """
    start = time.process_time()
    items = 0
    while True:
        items += work()
        elapsed = time.process_time() - start
        if elapsed >= min_time:
            return elapsed, items


def record_games(game: NodeWarGame, count: int, seed: int = 1) -> list[list[JSON]]:
    """Encoded move lists of ``count`` random games."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        state = game.new_state()
        moves = []
        while state.result is None:
            move = rng.choice(state.legal_moves())
            moves.append(game.encode_move(move))
            state.push(move)
        games.append(moves)
    return games


def validation_rate(game: NodeWarGame, games: list[list[JSON]], min_time: float) -> tuple[float, int]:
    def work() -> int:
        n = 0
        decode = game.decode_move
        for moves in games:
            state = game.new_state()
            apply = state.apply
            for data in moves:
                apply(decode(data))
            n += len(moves)
        return n

    seconds, moves = _timed(work, min_time)
    return moves / seconds, moves


def record_texts(game: NodeWarGame, games: list[list[JSON]]) -> list[str]:
    """The games as JSON match-record files (what ``pegboard validate`` reads)."""
    import json

    from pegboard.scripting import record_from_moves

    texts = []
    for moves in games:
        state = game.new_state()
        decoded = [game.decode_move(m) for m in moves]
        for move in decoded:
            state.push(move)
        record = record_from_moves(game, game.ruleset, 0, ["random", "random"], decoded, state.result)
        texts.append(json.dumps(record))
    return texts


def record_validation_rate(texts: list[str], move_count: int, min_time: float) -> float:
    """The platform's full validation of JSON records: parse, schema, replay and result stages."""
    import json

    from pegboard.scripting import validate

    def work() -> int:
        for text in texts:
            report = validate(json.loads(text))
            if not report.ok:
                raise AssertionError(report.errors)
        return move_count

    work()  # warm the schema and geometry caches
    seconds, moves = _timed(work, min_time)
    return moves / seconds


def chess_pgn_rate(move_count: int, min_time: float, seed: int = 1) -> float | None:
    """python-chess replaying random games from PGN, moves per second (None without python-chess)."""
    try:
        import io

        import chess
        import chess.pgn
    except ImportError:
        return None
    rng = random.Random(seed)
    texts = []
    total = 0
    while total < move_count:
        board = chess.Board()
        while not board.is_game_over() and board.fullmove_number < 80:
            board.push(rng.choice(list(board.legal_moves)))
        game = chess.pgn.Game.from_board(board)
        texts.append(str(game))
        total += len(board.move_stack)

    def work() -> int:
        n = 0
        for text in texts:
            game = chess.pgn.read_game(io.StringIO(text))
            assert game is not None
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
                n += 1
        return n

    seconds, moves = _timed(work, min_time)
    return moves / seconds


def midgame(game: NodeWarGame, plies: int | None = None, seed: int = 3) -> NodeWarState:
    """A random position ``plies`` moves in (default: 40% of the turn limit) that is still going."""
    if plies is None:
        plies = game.params.turn_limit * 2 // 5
    rng = random.Random(seed)
    state = game.new_state()
    for _ in range(plies):
        state.push(rng.choice(state.legal_moves()))
        if state.result is not None:
            state.undo()
            break
    return state


def run(quick: bool = False, ruleset: str = "standard") -> list[Figure]:
    """Measure the engine; ``quick`` finishes in about a second (for tests)."""
    game = NodeWarGame(load_shipped(ruleset))
    min_time = 0.05 if quick else 1.5
    figures: list[Figure] = []

    games = record_games(game, 2 if quick else 20)
    rate, moves = validation_rate(game, games, min_time)
    figures.append(Figure("validation (decode + check + apply)", round(rate), "moves/s", f"{len(games)} random games"))
    move_count = sum(len(g) for g in games)
    full_rate = record_validation_rate(record_texts(game, games), move_count, min_time)
    figures.append(
        Figure("match-record validation (JSON parse + schema + replay + result)", round(full_rate), "moves/s", "pegboard validate's pipeline")
    )
    chess_rate = chess_pgn_rate(move_count, min_time)
    if chess_rate is not None:
        figures.append(Figure("python-chess PGN replay (reference)", round(chess_rate), "moves/s", "same move count"))
        figures.append(Figure("record validation vs python-chess", round(full_rate / chess_rate, 2), "x"))

    state = midgame(game)
    legal = state.legal_moves()
    seconds, count = _timed(lambda: len(state.legal_moves()) and 1, min_time)
    figures.append(
        Figure("legal-move enumeration (midgame)", round(count / seconds), "positions/s", f"{len(legal)} moves each")
    )

    rng = random.Random(5)
    plies = [0]

    def playout() -> int:
        s = game.new_state()
        while s.result is None:
            s.push(rng.choice(s.legal_moves()))
        plies[0] += s.ply
        return 1

    seconds, count = _timed(playout, min_time)
    figures.append(
        Figure("random playouts", round(count / seconds, 2), "games/s", f"{plies[0] // max(count, 1)} plies each")
    )

    def push_undo() -> int:
        for move in legal:
            state.push(move)
            state.undo()
        return len(legal)

    seconds, count = _timed(push_undo, min_time)
    figures.append(Figure("push + undo (midgame)", round(count / seconds), "moves/s"))
    return figures


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Benchmark the Node War engine.")
    parser.add_argument("--quick", action="store_true", help="about a second instead of ~10 s")
    parser.add_argument("--ruleset", default="standard", help="shipped ruleset id or .toml path")
    args = parser.parse_args(argv)
    for fig in run(args.quick, args.ruleset):
        note = f"  ({fig.note})" if fig.note else ""
        print(f"{fig.name:<40} {fig.value:>12,} {fig.unit}{note}")
    return 0
