"""Engine benchmarks: random playouts, legal-move enumeration, record replay.

Rates use CPU time (time.process_time), so they stay comparable on a loaded machine.
The engine is imported by its absolute name, not relatively: ``tools/bench_starfall.py
--baseline DIR`` runs this same code against an older copy of the package put first on
the path, so before and after are measured by one bench.
"""

from __future__ import annotations

import random
import time
from typing import Any

from pegboard.specs import Figure
from pegboard_starfall.game import StarfallGame
from pegboard_starfall.moves import SfMove
from pegboard_starfall.state import StarfallState


def _playout(game: StarfallGame, seed: int, max_plies: int | None = None) -> tuple[list[SfMove], StarfallState]:
    """What ``pegboard match`` does with the random bot: ``random_move``, ``check``, ``push``."""
    st = game.new_state(seed)
    rng = random.Random(seed)
    played: list[SfMove] = []
    while st.result is None and (max_plies is None or len(played) < max_plies):
        m = st.random_move(rng)
        if m is None or st.check(m) is not None:
            raise RuntimeError(f"random_move gave an illegal move: {m}")
        st.push(m)
        played.append(m)
    return played, st


def _listed_playout(game: StarfallGame, seed: int, max_plies: int | None = None) -> tuple[list[SfMove], StarfallState]:
    """The earlier measure: list every legal move, pick one, ``apply`` it (events and all)."""
    st = game.new_state(seed)
    rng = random.Random(seed)
    played: list[SfMove] = []
    while st.result is None and (max_plies is None or len(played) < max_plies):
        m = rng.choice(st.legal_moves())
        st.apply(m)
        played.append(m)
    return played, st


def midgame(game: StarfallGame, seed: int = 7, plies: int = 120) -> StarfallState:
    """A reproducible midgame position: ``plies`` random moves from the start (the first seed
    from ``seed`` on whose random game is still going by then)."""
    for s in range(seed, seed + 100):
        st = game.new_state(s)
        rng = random.Random(s)
        for _ in range(plies):
            if st.result is not None:
                break
            st.apply(rng.choice(st.legal_moves()))
        if st.result is None:
            return st
    raise RuntimeError(f"no random game lasted {plies} plies")


def run(quick: bool = False, ruleset: dict[str, Any] | None = None) -> list[Figure]:
    """Random playouts/s (as the random bot plays, and listing every move), legal-move
    enumerations/s on a midgame position, record validation moves/s."""
    if ruleset is None:
        from pegboard.scripting import load_ruleset

        ruleset = dict(load_ruleset("standard", game="starfall").data)
    game = StarfallGame(ruleset)
    _playout(game, 1000, 20)  # build the per-board tables before anything is timed
    _listed_playout(game, 1000, 20)
    games = 1 if quick else 12
    cap = 60 if quick else None
    span = "first 60 plies" if quick else "to the end"
    figures = []
    records = []
    for label, play in (("random_move + check + push", _playout), ("legal_moves + apply", _listed_playout)):
        t0 = time.process_time()
        plies = 0
        for seed in range(games):
            moves, end = play(game, seed, cap)
            plies += end.ply
            if play is _listed_playout:  # the same games from every engine: validation replays these
                records.append((seed, moves, end.result))
        dt = time.process_time() - t0
        figures += [
            Figure(f"random playouts ({label})", games / dt, "games/s", f"{plies} plies, {span}"),
            Figure(f"random playout moves ({label})", plies / dt, "moves/s"),
        ]
    st = midgame(game, plies=40 if quick else 120)
    reps = 20 if quick else 1500
    t0 = time.process_time()
    for _ in range(reps):
        count = len(st.legal_moves())
    dt = time.process_time() - t0
    figures.append(Figure("legal_moves on a midgame position", reps / dt, "calls/s", f"{count} moves listed"))
    from pegboard.scripting import record_from_moves, validate

    docs = [record_from_moves(game, ruleset, seed, ["random", "random"], moves, result) for seed, moves, result in records]
    t0 = time.process_time()
    replayed = 0
    for doc in docs:
        report = validate(doc)
        if not report.ok:
            raise RuntimeError(f"a random playout failed validation: {report.errors[0]}")
        replayed += report.moves
    dt = time.process_time() - t0
    figures.append(Figure("record validation (schema + replay + result)", replayed / dt, "moves/s"))
    return figures
