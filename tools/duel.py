#!/usr/bin/env python3
"""Head-to-head bot batches with the figures the bot tables need, resumable.

    nice -n 10 .venv/bin/python tools/duel.py nodewar expert mcts --games 100 --budget 0.3 \\
        --match-time 0 -j 2 --json runs/expert-mcts.json
    .venv/bin/python tools/duel.py --summarise runs/expert-mcts.json [--markdown]

Plays ``--games`` seeded games between bot A and bot B with colours alternated (game i gives
A seat i % 2; the game and bot seeds are the ones ``pegboard match --seed`` derives for game
i), and reports A's score (a draw counts half) with its 95 % interval, the Elo difference
and its 95 % interval from ``pegboard tournament``'s fit (pegboard.batch.tournament.fit_elo),
the SPRT log-likelihood ratio of ``--sprt ELO0,ELO1`` when asked, how the games ended (by
result reason, and how many were stopped at ``--max-plies``; with any stopped, A's expected
score, each stopped game counting A's win chance there by the game's evaluator, so that a
change can be screened on the first N plies of its games), the median length, and per bot
the median and longest think time per move (wall clock and CPU) and the median simulations
per move of the bots that count them (``mcts``, ``openspiel-mcts``).

Equal time per move: every bot gets ``--budget`` seconds (or ``--budget-a``/``--budget-b``).
Node War's Expert and Starfall's skill bots meter their search in work units converted from
seconds at a fixed rate, so on a loaded machine they take longer than their budget, while the
MCTS bots stop on the clock. ``--match-time E`` (0 for A, 1 for B) gives the other bot, at
each of its moves, the mean think time entrant E has taken so far in that game (its budget
until E has moved): equal wall time, whatever the load.

``--json FILE`` keeps one entry per game and is rewritten after every game; run the same
command again and it plays only the games the file lacks, so a batch survives interruption.
``--shard I/N`` plays only the games whose index is I modulo N, so one batch can run as N
processes with N files; ``--summarise`` takes them all.
``--plugin FILE`` loads extra bots (tools/legacy_skill_bot.py holds today's Starfall skill 100).

``--timeline N`` plays game N of the batch again (numbered from 1 as the batch prints it; its
file keys the game N - 1) with the same seeds, seats and budgets, and prints a line every
``--every`` plies: each evaluator term as the first seat's value / the second's (terms at 0
for both left out; ``--terms`` names the ones to show), then how many events of each kind
the moves since the line before made. Bots that choose by seed and work count
(Node War's Expert, Starfall's skill bots, metered skill 100) play the batch's game again
move for move; a bot on the clock plays a new game.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

_PLUGINS: Any = None


def _setup(plugin_files: list[str]) -> Any:
    global _PLUGINS
    if _PLUGINS is None:
        from pegboard.plugins.manager import Plugins, set_plugins

        _PLUGINS = Plugins(plugin_files=plugin_files)
        set_plugins(_PLUGINS)
    return _PLUGINS


def play(args: dict[str, Any], index: int, watch: Callable[[Any, list[Any]], None] | None = None) -> dict[str, Any]:
    """Game ``index`` of the batch: who won, why, and every move's think time and simulations.

    With ``watch``, every move is applied with its events (``State.apply``) and ``watch`` is
    called with the state and those events after each; otherwise moves are pushed."""
    from pegboard.batch.runner import derive_seed
    from pegboard.rules.rulesets import load_game

    plugins = _setup(args["plugin"])
    game = load_game(args["game"], args["ruleset"], plugins)
    entrants = (args["a"], args["b"])
    seat_of = (index % 2, 1 - index % 2)  # seat of A, seat of B
    order = (0, 1) if seat_of[0] == 0 else (1, 0)  # entrant in each seat
    specs = [plugins.bot(args["game"], entrants[e]) for e in order]
    bots = [spec.factory(game, derive_seed(args["seed"], index, f"bot{seat}")) for seat, spec in enumerate(specs)]
    budget = [args["budget_a"], args["budget_b"]]
    budgets = [budget[e] if budget[e] is not None else specs[s].budget for s, e in enumerate(order)]
    state = game.new_state(derive_seed(args["seed"], index, "game"))
    wall: list[list[float]] = [[], []]
    cpu: list[list[float]] = [[], []]
    sims: list[list[int]] = [[], []]
    matched = args["match_time"]
    while state.result is None and state.ply < args["max_plies"]:
        seat = state.to_move
        entrant = order[seat]
        allowed = budgets[seat]
        if matched is not None and entrant != matched and wall[matched]:
            allowed = statistics.fmean(wall[matched])
        view = state.player_view(seat)
        started, started_cpu = time.perf_counter(), time.process_time()
        move = bots[seat].choose(view, allowed)
        wall[entrant].append(time.perf_counter() - started)
        cpu[entrant].append(time.process_time() - started_cpu)
        count = getattr(bots[seat], "simulations", None)
        if isinstance(count, int):
            sims[entrant].append(count)
        reason = state.check(move)
        if reason is not None:
            raise RuntimeError(f"{entrants[entrant]} played an illegal move in game {index + 1}: {reason}")
        if watch is None:
            state.push(move)
        else:
            watch(state, state.apply(move))
    result = state.result
    winner = None if result is None or result.winner is None else order[result.winner]
    chance = None
    if result is None and plugins.evaluators(args["game"]):  # stopped at --max-plies: A's chance there
        evaluator = plugins.evaluator(args["game"]).factory(game)
        south = evaluator.win_chance(evaluator.score(state))
        chance = round(south if seat_of[0] == 0 else 1.0 - south, 4)
    return {
        "index": index,
        "a_seat": seat_of[0],
        "winner": winner,  # 0: A, 1: B, None: a draw or unfinished
        "reason": result.reason if result is not None else "unfinished",
        "scores": list(result.scores) if result is not None and result.scores else None,
        "chance": chance,
        "plies": state.ply,
        "wall": [[round(t, 4) for t in w] for w in wall],
        "cpu": [[round(t, 4) for t in c] for c in cpu],
        "sims": sims,
        "load": os.getloadavg()[0],
    }


def timeline(args: dict[str, Any], index: int, every: int, terms: tuple[str, ...] = ()) -> list[str]:
    """Game ``index`` (from 0) of the batch played again (see the module docstring): its
    lines, the last one after the final move, then the result. An unknown name in ``terms``
    stops it before the game starts."""
    from pegboard.rules.rulesets import load_game

    plugins = _setup(args["plugin"])
    game = load_game(args["game"], args["ruleset"], plugins)
    evaluator = plugins.evaluator(args["game"]).factory(game) if plugins.evaluators(args["game"]) else None
    known = {term.name for term in evaluator.evaluate(game.new_state(0)).terms} if evaluator else set()
    unknown = sorted(set(terms) - known)
    if unknown:
        raise SystemExit(f"{args['game']}'s evaluator has no term {', '.join(unknown)}"
                         + (f" (its terms: {', '.join(sorted(known))})" if known else ""))
    kinds: Counter[str] = Counter()
    lines: list[str] = []

    def watch(state: Any, events: list[Any]) -> None:
        kinds.update(event.kind for event in events)
        if state.ply % every and state.result is None and state.ply < args["max_plies"]:
            return
        values = evaluator.evaluate(state).terms if evaluator else ()
        shown = [f"{term.name} {term.values[0]:g}/{term.values[1]:g}" for term in values
                 if ((term.name in terms) if terms else any(term.values))]
        happened = ", ".join(f"{kind} {n}" for kind, n in kinds.most_common())
        lines.append(f"ply {state.ply:>4}  {'  '.join(shown)}  | {happened or 'no events'}")
        kinds.clear()

    played = play(args, index, watch)
    seat = list(game.seats)
    a_seat = played["a_seat"]
    seat_of = {0: a_seat, 1: 1 - a_seat}
    won = played["winner"]
    winner = "nobody" if won is None else f"{(args['a'], args['b'])[won]} ({seat[seat_of[won]]})"
    lines.insert(0, f"game {index + 1} of {args['game']} seed {args['seed']}: {args['a']} ({seat[a_seat]}) v {args['b']} "
                    f"({seat[1 - a_seat]}); each term {seat[0]}/{seat[1]}, then the events since the line before")
    lines.append(f"result: {played['reason']} after {played['plies']} plies, won by {winner}"
                 + (f", scores {played['scores'][0]}-{played['scores'][1]}" if played["scores"] else ""))
    return lines


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text()) if path.exists() else {}


def save(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data))
    tmp.replace(path)


def merged(batches: list[dict[str, Any]]) -> dict[str, Any]:
    """One batch from the files of its shards (the same plan, disjoint games)."""
    out = dict(batches[0])
    out["games"] = {}
    for data in batches:
        if (data["game"], data["a"], data["b"], data["seed"]) != (out["game"], out["a"], out["b"], out["seed"]):
            raise SystemExit("these files hold different batches")
        out["games"].update(data["games"])
    return out


def interval(points: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean score and its 95 % Wilson interval (a draw counts as half a win), which stays
    inside 0..1 and is not empty at 100 %."""
    n = len(points)
    p = statistics.fmean(points)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def summary(data: dict[str, Any], sprt: tuple[float, float] | None = None) -> dict[str, Any]:
    from pegboard.batch.tournament import PairResult, fit_elo, sprt_llr

    games = sorted(data["games"].values(), key=lambda g: g["index"])
    finished = [g for g in games if g["reason"] != "unfinished"]
    wins = sum(1 for g in finished if g["winner"] == 0)
    losses = sum(1 for g in finished if g["winner"] == 1)
    draws = len(finished) - wins - losses
    scored = [points(g) for g in finished]
    mean, low, high = interval(scored) if scored else (0.0, 0.0, 0.0)
    if finished:
        ratings, errors = fit_elo(2, [PairResult(0, 1, wins, draws, losses)])
    else:  # every game stopped at --max-plies: no result to fit
        ratings, errors = [math.nan, math.nan], [math.nan, math.nan]
    out: dict[str, Any] = {
        "pairing": f"{data['a']} v {data['b']}",
        "games": len(games),
        "wins": wins, "draws": draws, "losses": losses, "unfinished": len(games) - len(finished),
        "score": mean, "low": low, "high": high,
        "elo": ratings[0] - ratings[1], "elo_error": errors[0] + errors[1],
        "ends": dict(Counter(g["reason"] for g in games)),
        "ends_by_result": ends_by_result(games),
        "median_plies": statistics.median(g["plies"] for g in games) if games else 0,
        "a_first_wins": sum(1 for g in finished if g["winner"] == 0 and g["a_seat"] == 0),
        "load": [min(g["load"] for g in games), max(g["load"] for g in games)] if games else [],
    }
    if len(finished) < len(games):
        expected = [expected_points(g) for g in games]
        out["expected"] = statistics.fmean(expected)
        out["expected_error"] = statistics.stdev(expected) / math.sqrt(len(expected)) if len(expected) > 1 else 0.0
    if sprt is not None:
        out["llr"] = sprt_llr(wins, draws, losses, *sprt)
    for e, key in ((0, "A"), (1, "B")):
        wall = [t for g in games for t in g["wall"][e]]
        cpu = [t for g in games for t in g["cpu"][e]]
        sims = [s for g in games for s in g["sims"][e]]
        out[key] = {
            "moves": len(wall),
            "think_median": statistics.median(wall) if wall else 0.0,
            "think_max": max(wall) if wall else 0.0,
            "cpu_median": statistics.median(cpu) if cpu else 0.0,
            "cpu_max": max(cpu) if cpu else 0.0,
            "sims_median": statistics.median(sims) if sims else None,
        }
    return out


def ends_by_result(games: list[dict[str, Any]]) -> dict[str, list[int]]:
    """For each way a game ended, A's wins, draws and losses by it: a bot that wins its
    sieges and loses at the turn cap shows here, where the totals hide it."""
    out: dict[str, list[int]] = {}
    for g in games:
        column = 1 if g["winner"] is None else 0 if g["winner"] == 0 else 2
        out.setdefault(g["reason"], [0, 0, 0])[column] += 1
    return out


def points(game: dict[str, Any]) -> float:
    """A's points in one game: 1 a win, 0.5 a draw or an unfinished game, 0 a loss."""
    return 1.0 if game["winner"] == 0 else 0.0 if game["winner"] == 1 else 0.5


def expected_points(game: dict[str, Any]) -> float:
    """A's points in a finished game; in one stopped at ``--max-plies``, A's chance of winning
    there by the game's evaluator (its ``win_chance``), so that a short screening batch has a
    figure to compare (a game recorded before the chance was kept counts half)."""
    if game["reason"] != "unfinished":
        return points(game)
    chance = game.get("chance")
    return 0.5 if chance is None else float(chance)


def paired(data: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """A's points in ``data`` and in ``base`` on the games both batches played.

    Two batches of one game, seed and B bot start each game index from the same position
    and bot seeds, so where the two A bots play alike the games are the same and a change
    shows in the games it alters. ``alike`` counts games that ended the same way (winner,
    reason and scores): with few alike, the comparison is no sharper than two scores side
    by side."""
    for key in ("game", "ruleset", "seed", "b"):
        if data.get(key) != base.get(key):
            raise ValueError(f"the batches differ in {key}: {data.get(key)!r} and {base.get(key)!r}")
    both = sorted(set(data["games"]) & set(base["games"]), key=int)
    new, old = data["games"], base["games"]
    alike = sum(1 for i in both if all(new[i][k] == old[i][k] for k in ("winner", "reason", "scores")))
    return {
        "games": len(both),
        "points": sum(points(new[i]) for i in both),
        "base_points": sum(points(old[i]) for i in both),
        "alike": alike,
        "a": data["a"], "base_a": base["a"],
    }


def markdown(s: dict[str, Any], a: str, b: str) -> str:
    split = s["ends_by_result"]
    ends = ", ".join(f"{k} {v} ({'-'.join(map(str, split[k]))})"
                     for k, v in sorted(s["ends"].items(), key=lambda kv: -kv[1]))
    cols = []
    for key in ("A", "B"):
        row = s[key]
        sims = "" if row["sims_median"] is None else f"{row['sims_median']:.0f}"
        cols.append(f"{row['think_median']:.2f} / {row['think_max']:.2f} s | {sims}")
    return (f"| {a} v {b} | {s['games']} | {s['wins']}-{s['draws']}-{s['losses']} | {s['score']:.0%} "
            f"({s['low']:.0%}-{s['high']:.0%}) | {s['elo']:+.0f} ± {s['elo_error']:.0f} | {cols[0]} | {cols[1]} | "
            f"{ends} | {s['median_plies']:.0f} |")


HEADER = ("| pairing (A v B) | games | A won-drawn-lost | A's score (95 % interval) | Elo A−B (95 %) | A think median / max "
          "| A sims/move | B think median / max | B sims/move | how games ended (A won-drawn-lost) | median plies |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?")
    parser.add_argument("a", nargs="?", help="bot A")
    parser.add_argument("b", nargs="?", help="bot B")
    parser.add_argument("--games", "-n", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", "-r", default=None)
    parser.add_argument("--budget", type=float, default=None, help="seconds per move for both (default: each bot's own)")
    parser.add_argument("--budget-a", type=float, default=None)
    parser.add_argument("--budget-b", type=float, default=None)
    parser.add_argument("--match-time", type=int, choices=(0, 1), default=None)
    parser.add_argument("--max-plies", type=int, default=20_000,
                        help="stop each game after this many plies; a stopped game keeps A's win chance there "
                             "by the game's evaluator, and the summary adds A's expected score")
    parser.add_argument("--sprt", default=None, help="ELO0,ELO1: print the SPRT log-likelihood ratio")
    parser.add_argument("--plugin", action="append", default=[])
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--shard", default=None, help="I/N: play only the games whose index is I modulo N")
    parser.add_argument("--summarise", type=Path, nargs="+", default=None, help="batch files of one batch (shards add up)")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--timeline", type=int, default=None, metavar="N",
                        help="play game N of the batch (from 1, as the batch prints it) again, printing the evaluator's "
                             "terms and the events every --every plies")
    parser.add_argument("--every", type=int, default=20, help="with --timeline: plies between lines (default 20)")
    parser.add_argument("--terms", default="", help="with --timeline: the comma-separated terms to show (default: all not at 0)")
    parser.add_argument("--paired", type=Path, nargs="+", default=None,
                        help="with --summarise: a baseline batch (same game, seed and B) to compare with game by game")
    args = parser.parse_args(argv)
    sprt = tuple(float(x) for x in args.sprt.split(",")) if args.sprt else None
    if args.paired and not args.summarise:
        parser.error("--paired compares with the batch given to --summarise")
    if args.summarise:
        missing = [str(path) for path in args.summarise + (args.paired or []) if not path.is_file()]
        if missing:
            parser.error(f"no such batch file: {', '.join(missing)}")
        data = merged([load(path) for path in args.summarise])
        if args.paired:
            try:
                p = paired(data, merged([load(path) for path in args.paired]))
            except ValueError as error:
                parser.error(str(error))
            print(f"on the {p['games']} games both batches played: {p['a']} {p['points']:g} points, "
                  f"{p['base_a']} {p['base_points']:g} in the baseline; {p['alike']} ended alike")
            return 0
        s = summary(data, sprt)  # type: ignore[arg-type]
        print(HEADER + "\n" + markdown(s, data["a"], data["b"]) if args.markdown else json.dumps(s, indent=1))
        if args.markdown and "expected" in s:
            print(f"\n{s['unfinished']} of {s['games']} games stopped at --max-plies; counting A's chance there by "
                  f"the evaluator, A's expected score is {s['expected']:.1%} ± {s['expected_error']:.1%} (s.e.)")
        return 0
    if not (args.game and args.a and args.b):
        parser.error("give GAME A B, or --summarise FILE")
    plan = {
        "game": args.game, "a": args.a, "b": args.b, "ruleset": args.ruleset, "seed": args.seed,
        "budget_a": args.budget_a if args.budget_a is not None else args.budget,
        "budget_b": args.budget_b if args.budget_b is not None else args.budget,
        "match_time": args.match_time, "max_plies": args.max_plies,
        "plugin": [str(Path(p).resolve()) for p in args.plugin],
    }
    try:  # an unknown game, ruleset or bot: one line here, not a traceback from a worker
        from pegboard.errors import PegboardError
        from pegboard.rules.rulesets import load_game

        plugins = _setup(plan["plugin"])
        load_game(args.game, args.ruleset, plugins)
        for bot in (args.a, args.b):
            plugins.bot(args.game, bot)
    except PegboardError as error:
        parser.error(str(error))
    if args.timeline is not None:
        if args.timeline < 1 or args.every < 1:
            parser.error("--timeline takes a game number from 1, and --every a number of plies from 1")
        terms = tuple(t for t in args.terms.split(",") if t)
        for line in timeline(plan, args.timeline - 1, args.every, terms):
            print(line)
        return 0
    data = load(args.json) if args.json else {}
    if data and {k: data.get(k) for k in plan} != plan:
        parser.error(f"{args.json} holds another batch: {json.dumps({k: data.get(k) for k in plan})}")
    data = {**plan, **data, "games": data.get("games", {}), "command": " ".join(sys.argv[:1] + (argv if argv is not None else sys.argv[1:]))}
    shard, shards = (int(x) for x in args.shard.split("/")) if args.shard else (0, 1)
    todo = [i for i in range(args.games) if str(i) not in data["games"] and i % shards == shard]
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(play, plan, i) for i in todo]
        for future in as_completed(futures):
            game = future.result()
            data["games"][str(game["index"])] = game
            if args.json:
                save(args.json, data)
            print(f"game {game['index'] + 1}: winner {'AB'[game['winner']] if game['winner'] is not None else '-'} "
                  f"{game['reason']} {game['plies']} plies", flush=True)
    s = summary(data, sprt)  # type: ignore[arg-type]
    print(HEADER + "\n" + markdown(s, args.a, args.b) if args.markdown else json.dumps(s, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
