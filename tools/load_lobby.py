#!/usr/bin/env python3
"""Load test of the online lobby: N simulated players on loopback, pairing and playing.

    .venv/bin/python tools/load_lobby.py --clients 200 --seconds 60 --procs 2

Starts ``pegboard lobby serve`` on 127.0.0.1 (a free port) in a child process,
then runs N simulated players spread over ``--procs`` processes (one asyncio loop
each; a pair stays in one process), plus a probe process that does nothing but
ping the lobby every 0.1 s (the lobby's own answer time under load). Half wait
on the list with Node War (skirmish), the other half pick them, and each pair
plays random legal moves with a pause of ``--think`` seconds, match after
match, until ``--seconds`` run out. Every player uses the real client code
(:class:`pegboard.online.link.Link` and :class:`pegboard.online.player.OnlinePlayer`);
each host runs its match and writes its record after every move, as a real one does.

Reports the move round-trip (a guest's move sent -> the host's answer with the
new position back at the guest, through the lobby twice), the probe's pings, errors (refusals,
error notices, connections lost, players that never paired) and the lobby's
memory (VmRSS now and at its peak, from /proc). Bounded: at most 1000 players
and 600 seconds; the lobby is stopped at the end whatever happens.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import multiprocessing
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "platform"))

MAX_CLIENTS = 1000
MAX_SECONDS = 600.0
PING_EVERY = 2.0  # each player also times a ping to the lobby and back: the lobby's own share


@dataclass
class Tally:
    round_trips: list[float] = field(default_factory=list)
    pings: list[float] = field(default_factory=list)
    moves: int = 0
    games: int = 0
    errors: list[str] = field(default_factory=list)
    paired: int = 0


def start_lobby(profile: Path | None = None) -> tuple[subprocess.Popen[str], str]:
    """``pegboard lobby serve --port 0 --quiet`` in a child (under cProfile writing ``profile``
    when given); returns it and its URL."""
    profiler = ["-m", "cProfile", "-o", str(profile)] if profile is not None else []
    child = subprocess.Popen(
        [sys.executable, *profiler, "-m", "pegboard", "lobby", "serve", "--host", "127.0.0.1", "--port", "0", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
    )
    assert child.stdout is not None
    line = child.stdout.readline()
    if not line.startswith("lobby on "):
        child.kill()
        raise SystemExit(f"the lobby did not start: {line!r}")
    return child, line.split()[2]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used (0 where /proc is missing)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_kib(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of a process in KiB (0, 0 where /proc is missing)."""
    try:
        fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    except OSError:
        return 0, 0
    return int(fields.get("VmRSS", "0 kB").split()[0]), int(fields.get("VmHWM", "0 kB").split()[0])


async def simulate(index: int, url: str, args: argparse.Namespace, store_root: Path, tally: Tally, stop_at: float) -> None:
    from pegboard.errors import LobbyUnreachable
    from pegboard.online.link import Link
    from pegboard.online.player import HostSettings, OnlinePlayer
    from pegboard.online.store import Store
    from pegboard.plugins.manager import get_plugins

    hosting = index % 2 == 0
    name = f"load{index}"
    partner = f"load{index - 1}"
    rng = random.Random(index)
    player = OnlinePlayer(url, name, "nodewar", plugins=get_plugins(), store=Store(store_root / name),
                          host=HostSettings(ruleset=args.ruleset, seat=0, seed=index), auto_accept=True, workers="inline")
    arrived = asyncio.Event()
    link = Link(url, player.hello(), on_message=arrived.set, open_timeout=20.0)
    try:
        await link.open()
    except LobbyUnreachable as exc:
        tally.errors.append(f"{name}: {exc.reason}")
        return
    sent_at: float | None = None
    sent_ply = -1
    next_move = 0.0
    last_list = 0.0
    next_ping = time.monotonic() + rng.random() * PING_EVERY
    pinged: dict[int, float] = {}
    ping_numbers = itertools.count()
    was_paired = False
    if hosting:
        player.ready()
    try:
        while time.monotonic() < stop_at:
            now = time.monotonic()
            wake = min(next_ping, stop_at, now + 0.5)
            if player.my_turn:
                wake = min(wake, next_move)
            try:
                await asyncio.wait_for(arrived.wait(), max(0.001, wake - now))
            except TimeoutError:
                pass
            arrived.clear()
            while link.inbox:
                message = link.inbox.popleft()
                if message.get("t") == "pong" and message.get("n") in pinged:
                    tally.pings.append(time.monotonic() - pinged.pop(message["n"]))
                    continue
                player.receive(message)
            now = time.monotonic()
            if now >= next_ping:
                number = next(ping_numbers)
                pinged[number] = now
                await link.send({"t": "ping", "n": number})
                next_ping = now + PING_EVERY
            if not hosting and player.ticket is None and now - last_list > 0.5:
                player.pick(partner)  # the partner may not be on the list yet: then the lobby says so
                last_list = now
            player.tick()
            for notice in player.take_notices():
                if notice.kind == "error" and "no longer waiting" not in notice.text:
                    tally.errors.append(f"{name}: {notice.text}")
                elif notice.kind == "refused":
                    tally.errors.append(f"{name}: refused: {notice.text}")
                elif notice.kind == "link" and notice.data.get("status") == "reconnecting":
                    tally.errors.append(f"{name}: connection lost")
                elif notice.kind == "over":
                    tally.games += 1 if hosting else 0
                    player.leave()
                    for message in player.take_outbox():
                        await link.send(message)
                    player.reset()
                    sent_at = None
                    if hosting:
                        player.ready()
            if player.started and not was_paired:
                was_paired = True
                tally.paired += 1
            guest = player.guest
            if sent_at is not None and guest is not None and guest.last is not None and guest.last.ply > sent_ply:
                tally.round_trips.append(time.monotonic() - sent_at)
                sent_at = None
            if player.my_turn and now >= next_move:
                moves = player.legal_moves()
                player.play(rng.choice(moves))
                tally.moves += 1
                next_move = now + args.think * (0.5 + rng.random())
                if guest is not None:
                    sent_at, sent_ply = time.monotonic(), guest.last.ply if guest.last else 0
            for message in player.take_outbox():
                await link.send(message)
    finally:
        await link.close()


async def run(args: argparse.Namespace, url: str, store_root: Path, indices: range) -> Tally:
    tally = Tally()
    stop_at = time.monotonic() + args.seconds
    tasks = []
    for count, index in enumerate(indices):
        tasks.append(asyncio.create_task(simulate(index, url, args, store_root, tally, stop_at)))
        if count % 20 == 19:
            await asyncio.sleep(0.05)  # players arrive over a moment, not in one instant
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            tally.errors.append(f"crashed: {type(result).__name__}: {result}")
    return tally


def run_share(args: argparse.Namespace, url: str, store_root: Path, indices: range) -> Tally:
    """One process's share of the players (pairs stay together: hosts are even, guests the next odd)."""
    os.environ["PEGBOARD_HOME"] = str(store_root)
    return asyncio.run(run(args, url, store_root, indices))


def probe(url: str, seconds: float, every: float = 0.1) -> list[float]:
    """Ping the lobby from a process of its own that does nothing else: the lobby's own
    answer time under the load, without the simulated players' queueing in it."""

    async def main() -> list[float]:
        from pegboard.online.link import Link

        arrived = asyncio.Event()
        link = Link(url, {"t": "hello", "v": 1, "name": "probe", "game": "nodewar", "ruleset": "nodewar/skirmish",
                          "rating": None}, on_message=arrived.set, open_timeout=20.0)
        await link.open()
        times: list[float] = []
        stop_at = time.monotonic() + seconds
        number = 0
        try:
            while time.monotonic() < stop_at:
                number += 1
                sent = time.monotonic()
                await link.send({"t": "ping", "n": number})
                while True:
                    arrived.clear()
                    pong = next((m for m in link.inbox if m.get("t") == "pong" and m.get("n") == number), None)
                    if pong is not None:
                        times.append(time.monotonic() - sent)
                        link.inbox.clear()
                        break
                    try:
                        await asyncio.wait_for(arrived.wait(), 5.0)
                    except TimeoutError:
                        break
                await asyncio.sleep(every)
        finally:
            await link.close()
        return times

    return asyncio.run(main())


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200, help=f"simulated players, even, at most {MAX_CLIENTS}")
    parser.add_argument("--seconds", type=float, default=60.0, help=f"how long they play, at most {MAX_SECONDS:.0f}")
    parser.add_argument("--think", type=float, default=0.25, help="average pause before each move (seconds)")
    parser.add_argument("--ruleset", default="skirmish", help="the Node War ruleset the hosts offer")
    parser.add_argument("--procs", type=int, default=1, help="processes the players are spread over (1-8)")
    parser.add_argument("--profile-lobby", type=Path, metavar="FILE",
                        help="run the lobby under cProfile and write its statistics to FILE")
    args = parser.parse_args()
    if not 1 <= args.procs <= 8:
        parser.error("--procs must be from 1 to 8")
    if not 2 <= args.clients <= MAX_CLIENTS or args.clients % 2:
        parser.error(f"--clients must be an even number from 2 to {MAX_CLIENTS}")
    if not 1 <= args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds must be from 1 to {MAX_SECONDS:.0f}")
    child, url = start_lobby(args.profile_lobby)
    peak = [0]
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.wait(0.5):
            peak[0] = max(peak[0], memory_kib(child.pid)[0])

    try:
        with tempfile.TemporaryDirectory(prefix="pegboard-load-") as folder:
            os.environ["PEGBOARD_HOME"] = folder
            pairs = args.clients // 2
            shares = [range(2 * (pairs * k // args.procs), 2 * (pairs * (k + 1) // args.procs)) for k in range(args.procs)]
            started = time.monotonic()
            idle_rss = memory_kib(child.pid)[0]
            idle_cpu = cpu_seconds(child.pid)
            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            tally = Tally()
            context = multiprocessing.get_context("spawn")  # fresh interpreters: no loop or lock copied over
            with ProcessPoolExecutor(max_workers=args.procs + 1, mp_context=context) as pool:
                pinged = pool.submit(probe, url, args.seconds)
                for part in pool.map(run_share, [args] * args.procs, [url] * args.procs, [Path(folder)] * args.procs, shares):
                    tally.round_trips += part.round_trips
                    tally.pings += part.pings
                    tally.moves += part.moves
                    tally.games += part.games
                    tally.errors += part.errors
                    tally.paired += part.paired
                probes = pinged.result()
            sampling.set()
            elapsed = time.monotonic() - started
            rss, hwm = memory_kib(child.pid)
            lobby_cpu = cpu_seconds(child.pid) - idle_cpu
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    finally:
        child.send_signal(signal.SIGINT)  # a clean stop: the lobby closes, cProfile writes its file
        try:
            child.wait(10)
        except subprocess.TimeoutExpired:
            child.kill()
    unpaired = args.clients - tally.paired
    errors = len(tally.errors) + unpaired
    rt = tally.round_trips
    print(f"clients {args.clients} in {args.procs} process(es), {elapsed:.1f} s, think {args.think} s, "
          f"ruleset nodewar/{args.ruleset}")
    print(f"moves {tally.moves} ({tally.moves / elapsed:.0f}/s), finished games {tally.games}, round trips measured {len(rt)}")
    if rt:
        print(f"move round-trip p50 {percentile(rt, 0.5) * 1000:.1f} ms, p99 {percentile(rt, 0.99) * 1000:.1f} ms, "
              f"max {max(rt) * 1000:.1f} ms, mean {statistics.fmean(rt) * 1000:.1f} ms")
    if probes:
        print(f"lobby ping from an idle probe process p50 {percentile(probes, 0.5) * 1000:.1f} ms, "
              f"p99 {percentile(probes, 0.99) * 1000:.1f} ms ({len(probes)} pings, every 0.1 s)")
    if tally.pings:
        print(f"lobby ping round-trip (from the players' own loops) p50 {percentile(tally.pings, 0.5) * 1000:.1f} ms, "
              f"p99 {percentile(tally.pings, 0.99) * 1000:.1f} ms ({len(tally.pings)} pings)")
    print(f"lobby CPU {lobby_cpu:.1f} s in {elapsed:.0f} s ({100 * lobby_cpu / elapsed:.0f}% of a core); "
          f"machine load average {load:.1f} on {os.cpu_count()} cores")
    print(f"errors {errors} ({unpaired} players never paired)")
    for line in tally.errors[:10]:
        print(f"  {line}")
    print(f"lobby memory: {idle_rss / 1024:.1f} MiB idle, {max(peak[0], rss) / 1024:.1f} MiB under load (sampled), "
          f"{hwm / 1024:.1f} MiB peak (VmHWM)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
