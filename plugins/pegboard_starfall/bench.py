"""Engine benchmarks: random playouts, legal-move enumeration, record replay."""

from __future__ import annotations

import random
import time

from pegboard.specs import Figure

from .game import StarfallGame


def _playout(game: StarfallGame, seed: int, max_plies: int | None = None) -> tuple[list, int]:
    st = game.new_state(seed)
    rng = random.Random(seed)
    played = []
    while st.result is None and (max_plies is None or len(played) < max_plies):
        m = rng.choice(st.legal_moves())
        st.apply(m)
        played.append(m)
    return played, st.ply


def midgame(game: StarfallGame, seed: int = 7, plies: int = 120):
    """A reproducible midgame position: ``plies`` random moves from the start."""
    st = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if st.result is not None:
            break
        st.apply(rng.choice(st.legal_moves()))
    return st


def run(quick: bool = False, ruleset: dict | None = None) -> list[Figure]:
    """Random playouts/s, legal-move enumerations/s on a midgame position, replay moves/s."""
    game = StarfallGame(ruleset or {})
    games = 1 if quick else 6
    cap = 60 if quick else None
    t0 = time.perf_counter()
    records = []
    plies = 0
    for seed in range(games):
        moves, n = _playout(game, seed, cap)
        records.append((seed, moves))
        plies += n
    dt = time.perf_counter() - t0
    figures = [
        Figure("random playouts", games / dt, "games/s", f"{plies} plies, {'first 60 plies' if quick else 'to the end'}"),
        Figure("random playout moves", plies / dt, "moves/s"),
    ]
    st = midgame(game, plies=40 if quick else 120)
    reps = 20 if quick else 400
    t0 = time.perf_counter()
    for _ in range(reps):
        count = len(st.legal_moves())
    dt = time.perf_counter() - t0
    figures.append(Figure("legal_moves on a midgame position", reps / dt, "calls/s", f"{count} moves listed"))
    t0 = time.perf_counter()
    replayed = 0
    for seed, moves in records:
        rep = game.new_state(seed)
        for m in moves:
            rep.apply(game.decode_move(game.encode_move(m)))
            replayed += 1
    dt = time.perf_counter() - t0
    figures.append(Figure("record validation (decode + checked apply)", replayed / dt, "moves/s"))
    return figures
