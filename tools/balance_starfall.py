"""How Starfall games end between bots, per ruleset: seeded batches with colours alternated.

    nice .venv/bin/python tools/balance_starfall.py                        # skill 50-50, 80-80, 100-100, 40 games each
    nice .venv/bin/python tools/balance_starfall.py --rulesets standard,open_sky --games 40 -j 2
    nice .venv/bin/python tools/balance_starfall.py --pairs random:random --games 20 --json out.json

For every ruleset and pairing it prints how the games ended (territory, siege, asteroid on
the Command, clock, turn cap, draws), the median length in turns, the squares the winner
and the loser held at the end, drones made per game by kind, claims (scout claims and warps)
per game, and how often a paying shape paid the at-cap column instead of a drone. Game i
of a batch uses the seeds :func:`pegboard.batch.runner.derive_seed` gives ``--seed`` and i, the same
as ``pegboard match``, so any game can be replayed. A pairing names two bot ids (``A:B``);
``--pairs`` defaults to the skill bots. Markdown output (``--markdown``) is what
docs/balance.md shows.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from pegboard.batch.runner import derive_seed
from pegboard.plugins.manager import Plugins, get_plugins
from pegboard.rules.rulesets import build_game, load_ruleset

ENDINGS = ("territory", "siege", "asteroid", "flag", "turn_limit")
ENDING_LABELS = {"territory": "territory", "siege": "siege", "asteroid": "asteroid", "flag": "clock", "turn_limit": "cap"}
KINDS = ("scout", "shield", "raider_white", "raider_red", "hunter", "warp", "siege", "bomb")
DEFAULT_PAIRS = "skill-50:skill-50,skill-80:skill-80,skill-100:skill-100"


@dataclass
class GameStats:
    """What one game did."""

    index: int
    reason: str
    winner: int | None  #: seat
    winner_bot: int | None  #: entrant (0 = the pairing's first bot)
    turns: int
    plies: int
    squares: tuple[int, int]
    drones: dict[str, int] = field(default_factory=dict)
    claims: int = 0
    warps: int = 0
    paid_drones: int = 0  #: drones placed or stacked by shapes
    at_cap: int = 0  #: shapes that paid the at-cap column (a missile, an asteroid, nothing)
    drops: int = 0  #: asteroids dropped by the at-cap column
    seconds: float = 0.0  #: wall time
    cpu: float = 0.0  #: CPU time of the process playing it
    peak: tuple[int, int] = (0, 0)  #: the most squares each seat held after any move
    lead: tuple[int, int] = (0, 0)  #: the biggest lead in squares each seat had after any move


def _registry() -> Plugins:
    return get_plugins()


def play(ruleset_ref: str, bots: tuple[str, str], seed: int, index: int) -> GameStats:
    """Play game ``index`` of a batch: entrant (seat + index) % 2 sits in seat ``seat``."""
    registry = _registry()
    ruleset = load_ruleset(ruleset_ref, game="starfall", plugins=registry)
    game = build_game(ruleset, registry)
    seats = ((0 + index) % 2, (1 + index) % 2)
    specs = [registry.bot("starfall", bots[entrant]) for entrant in seats]
    players = [spec.factory(game, derive_seed(seed, index, f"bot{seat}")) for seat, spec in enumerate(specs)]
    state = game.new_state(derive_seed(seed, index, "game"))
    drones: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    aimed = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    peak = [0, 0]
    lead = [0, 0]
    while state.result is None and state.ply < 20_000:
        seat = state.to_move
        move = players[seat].choose(state.player_view(seat), specs[seat].budget)
        events = state.apply(move)
        held = state.territory()  # type: ignore[attr-defined]
        peak = [max(peak[0], held[0]), max(peak[1], held[1])]
        lead = [max(lead[0], held[0] - held[1]), max(lead[1], held[1] - held[0])]
        for event in events:
            counts[event.kind] += 1
            if event.kind == "drone_spawned":
                drones[str(event.data.get("drone"))] += 1
            elif event.kind == "asteroid_drop" and event.data.get("aimed"):
                aimed += 1  # its at-cap payout was already counted when it was earned
    result = state.result
    reason = result.reason if result is not None else "unfinished"
    winner = result.winner if result is not None else None
    squares = tuple(result.scores) if result is not None and result.scores else state.territory()  # type: ignore[attr-defined]
    return GameStats(
        index=index, reason=reason, winner=winner, winner_bot=None if winner is None else seats[winner],
        turns=state.turn + 1, plies=state.ply, squares=(int(squares[0]), int(squares[1])), drones=dict(drones),
        claims=counts["claim"], warps=counts["warp"],
        paid_drones=counts["drone_spawned"] + counts["drone_stacked"],
        at_cap=counts["at_nine"] + counts["asteroid_drop"] - aimed, drops=counts["asteroid_drop"],
        seconds=time.perf_counter() - started, cpu=time.process_time() - cpu_started, peak=(peak[0], peak[1]), lead=(lead[0], lead[1]),
    )


def _play_task(args: tuple[str, tuple[str, str], int, int]) -> GameStats:
    return play(*args)


def _progress(ruleset: str, g: GameStats) -> None:
    print(f"  [{ruleset} game {g.index + 1}: {g.reason} after {g.turns} turns, squares {g.squares[0]}-{g.squares[1]}, "
          f"{g.seconds:.0f} s, {g.cpu:.0f} s CPU]", file=sys.stderr, flush=True)


def summarise(games: list[GameStats]) -> dict[str, Any]:
    n = len(games)
    ends = Counter(g.reason for g in games)
    decided = [g for g in games if g.winner is not None]
    win_sq = [g.squares[g.winner] for g in decided if g.winner is not None]
    lose_sq = [g.squares[1 - g.winner] for g in decided if g.winner is not None]
    shapes = sum(g.paid_drones + g.at_cap for g in games)
    return {
        "games": n,
        "endings": {reason: ends.get(reason, 0) for reason in ENDINGS},
        "draws": sum(1 for g in games if g.winner is None),
        "first_bot_wins": sum(1 for g in games if g.winner_bot == 0),
        "south_wins": sum(1 for g in games if g.winner == 0),
        "median_turns": statistics.median(g.turns for g in games) if games else 0,
        "winner_squares": round(statistics.mean(win_sq), 1) if win_sq else None,
        "loser_squares": round(statistics.mean(lose_sq), 1) if lose_sq else None,
        "drones_per_game": {k: round(sum(g.drones.get(k, 0) for g in games) / n, 1) for k in KINDS} if n else {},
        "claims_per_game": round(sum(g.claims for g in games) / n, 1) if n else 0,
        "warps_per_game": round(sum(g.warps for g in games) / n, 1) if n else 0,
        "at_cap_per_game": round(sum(g.at_cap for g in games) / n, 1) if n else 0,
        "at_cap_share": round(sum(g.at_cap for g in games) / shapes, 3) if shapes else 0.0,
        "drops_per_game": round(sum(g.drops for g in games) / n, 2) if n else 0,
        "peak_squares": round(statistics.mean(max(g.peak) for g in games), 1) if games else 0,
        "lead_squares": round(statistics.mean(max(g.lead) for g in games), 1) if games else 0,
        "seconds_per_game": round(statistics.mean(g.seconds for g in games), 1) if games else 0,
        "cpu_per_game": round(statistics.mean(g.cpu for g in games), 1) if games else 0,
    }


def pct(part: int, whole: int) -> str:
    return f"{part} ({100 * part / whole:.0f}%)" if whole else "0"


def print_text(ruleset: str, pair: str, s: dict[str, Any]) -> None:
    n = s["games"]
    ends = ", ".join(f"{ENDING_LABELS[r]} {pct(c, n)}" for r, c in s["endings"].items())
    print(f"{ruleset:>12} {pair:<22} {n} games: {ends}; draws {s['draws']}; South won {s['south_wins']}")
    print(f"{'':>12} median {s['median_turns']} turns; squares at the end winner {s['winner_squares']} / loser "
          f"{s['loser_squares']}; claims {s['claims_per_game']}/game, warps {s['warps_per_game']}/game; "
          f"at-cap column {s['at_cap_per_game']}/game ({100 * s['at_cap_share']:.0f}% of paying shapes), "
          f"asteroid drops {s['drops_per_game']}/game; most squares one side held {s['peak_squares']}, biggest lead {s['lead_squares']} (means); "
          f"{s['seconds_per_game']} s/game ({s['cpu_per_game']} s CPU)")
    kinds = ", ".join(f"{k} {v}" for k, v in s["drones_per_game"].items())
    print(f"{'':>12} drones made per game: {kinds}")
    sys.stdout.flush()


def markdown(rows: list[tuple[str, str, dict[str, Any]]]) -> str:
    head = ("| ruleset | pairing | games | territory | siege | asteroid | clock | cap | median turns | squares W/L "
            "| claims/game | drones/game (S G R H W X B) | at-cap pays | CPU s/game |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for ruleset, pair, s in rows:
        n = s["games"]
        e = s["endings"]
        d = s["drones_per_game"]
        drones = " ".join(str(x) for x in (d["scout"], d["shield"], round(d["raider_white"] + d["raider_red"], 1),
                                           d["hunter"], d["warp"], d["siege"], d["bomb"]))
        lines.append(
            f"| {ruleset} | {pair} | {n} | {pct(e['territory'], n)} | {pct(e['siege'], n)} | {pct(e['asteroid'], n)} "
            f"| {pct(e['flag'], n)} | {pct(e['turn_limit'], n)} | {s['median_turns']} | {s['winner_squares']}/"
            f"{s['loser_squares']} | {s['claims_per_game']} | {drones} | {100 * s['at_cap_share']:.0f}% "
            f"| {s.get('cpu_per_game', '')} |"
        )
    return "\n".join(lines)


def summarise_file(path: str) -> int:
    """The tables of a saved batch file, from the games it holds."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        rows = []
        for batch in data["batches"]:
            games = [GameStats(**{**g, "squares": tuple(g["squares"]), "peak": tuple(g.get("peak", (0, 0))),
                                    "lead": tuple(g.get("lead", (0, 0)))}) for g in batch["games"]]
            if games:
                rows.append((batch["ruleset"], " - ".join(batch["pair"]), summarise(games)))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"error: cannot read {path}: {exc}", file=sys.stderr)
        return 1
    for ruleset, pair, summary in rows:
        print_text(ruleset, pair, summary)
    print()
    print(markdown(rows))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rulesets", default="standard,open_sky", help="comma-separated Starfall ruleset ids")
    parser.add_argument("--pairs", default=DEFAULT_PAIRS, help="comma-separated A:B bot pairings")
    parser.add_argument("--games", type=int, default=40, help="games per ruleset and pairing (default 40)")
    parser.add_argument("--seed", type=int, default=1, help="batch seed (default 1)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (default 1; the CPU is shared)")
    parser.add_argument("--json", metavar="FILE", help="also write every game's figures to FILE")
    parser.add_argument("--markdown", action="store_true", help="print the summary as a Markdown table at the end")
    parser.add_argument("--summarise", metavar="FILE", help="print the tables of a --json FILE (even a batch stopped early)")
    args = parser.parse_args(argv)
    if args.summarise:
        return summarise_file(args.summarise)
    registry = _registry()
    known = set(registry.bots("starfall"))
    rulesets = [r.strip() for r in args.rulesets.split(",") if r.strip()]
    pairs = []
    for text in args.pairs.split(","):
        a, sep, b = text.strip().partition(":")
        if not sep or not a or not b:
            print(f"error: a pairing is A:B, not {text!r}", file=sys.stderr)
            return 2
        for bot in (a, b):
            if bot not in known:
                print(f"error: no Starfall bot {bot!r} (installed: {', '.join(sorted(known))})", file=sys.stderr)
                return 2
        pairs.append((a, b))
    try:
        for ruleset in rulesets:
            load_ruleset(ruleset, game="starfall", plugins=registry)
    except Exception as exc:  # noqa: BLE001 - one line for a bad ruleset id
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.games < 1:
        print("error: --games must be at least 1", file=sys.stderr)
        return 2
    rows: list[tuple[str, str, dict[str, Any]]] = []
    dump: dict[str, Any] = {"seed": args.seed, "games": args.games, "batches": []}
    for ruleset in rulesets:
        for a, b in pairs:
            tasks = [(ruleset, (a, b), args.seed, i) for i in range(args.games)]
            games: list[GameStats] = []
            batch = {"ruleset": ruleset, "pair": [a, b], "summary": None, "games": []}
            dump["batches"].append(batch)

            def keep(g: GameStats, games: list[GameStats] = games, ruleset: str = ruleset, batch: dict[str, Any] = batch) -> None:
                games.append(g)
                _progress(ruleset, g)
                batch["games"].append(asdict(g))
                if args.json:  # after every game, so a batch stopped early keeps what it played
                    with open(args.json, "w", encoding="utf-8") as fh:
                        json.dump(dump, fh, indent=1)

            if args.jobs > 1:
                with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                    for g in pool.map(_play_task, tasks):
                        keep(g)
            else:
                for t in tasks:
                    keep(_play_task(t))
            summary = summarise(games)
            pair = f"{a} - {b}"
            rows.append((ruleset, pair, summary))
            print_text(ruleset, pair, summary)
            batch["summary"] = summary
            if args.json:
                with open(args.json, "w", encoding="utf-8") as fh:
                    json.dump(dump, fh, indent=1)
    if args.markdown:
        print()
        print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
