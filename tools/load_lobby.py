#!/usr/bin/env python3
"""Load test of the online lobby: N simulated players on loopback, pairing and playing.

    .venv/bin/python tools/load_lobby.py --clients 200 --seconds 60 --procs 2
    .venv/bin/python tools/load_lobby.py --clients 2000 --seconds 60 --procs 2 --think 5 --hostile

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
memory (VmRSS now and at its peak, from /proc). Bounded: at most 2000 players
and 600 seconds; the lobby is stopped at the end whatever happens.

Honest players connect from 127.0.0.1 upwards, eight to an address (Linux routes
all of 127/8 to this machine), as players behind home routers would: the
lobby's per-address limits then count them as it counts real ones.

``--hostile`` adds a second process that attacks the lobby all the while, from
addresses of its own (127.0.200.x and up), with every attack of issue 26 (see
:mod:`hostile_lobby`); its tally shows each attack refused. The run passes when
the honest players see no error at all.
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "platform"))
sys.path.insert(0, str(ROOT / "tools"))

MAX_CLIENTS = 2000
PER_ADDRESS = 8
MAX_SECONDS = 600.0
PINGS_PER_SECOND = 100.0  # the players' own pings to the lobby and back, all together (the lobby's share)
PICK_EVERY = 2.0  # a guest asks for its partner again after this, while the partner is not listed yet


@dataclass
class Tally:
    round_trips: list[float] = field(default_factory=list)
    pings: list[float] = field(default_factory=list)
    moves: int = 0
    games: int = 0
    errors: list[str] = field(default_factory=list)
    paired: int = 0


def honest_address(index: int) -> str:
    """Where honest player ``index`` connects from: 127.0.0.1 for the first eight, and so on."""
    group = index // PER_ADDRESS
    return f"127.0.{group // 250}.{1 + group % 250}"


def start_lobby(data: Path, log: Path, profile: Path | None = None) -> tuple[subprocess.Popen[str], str]:
    """``pegboard lobby serve --port 0 --quiet --data DATA`` in a child, its log to ``log`` (under
    cProfile writing ``profile`` when given); returns it and its URL."""
    profiler = ["-m", "cProfile", "-o", str(profile)] if profile is not None else []
    with log.open("w", encoding="utf-8") as errors:
        child = subprocess.Popen(
            [sys.executable, *profiler, "-m", "pegboard", "lobby", "serve", "--host", "127.0.0.1", "--port", "0",
             "--quiet", "--data", str(data)],
            stdout=subprocess.PIPE, stderr=errors, text=True, cwd=ROOT,
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


_RULES: dict[str, Any] = {}


def ruleset(name: str) -> Any:
    """The ruleset the hosts offer, read once per process (as one program reads it once)."""
    if name not in _RULES:
        from pegboard.plugins.manager import get_plugins
        from pegboard.rules.rulesets import load_ruleset

        _RULES[name] = dict(load_ruleset(name, game="nodewar", plugins=get_plugins()).data)
    return _RULES[name]


async def simulate(index: int, url: str, args: argparse.Namespace, store_root: Path, tally: Tally, stop_at: float) -> None:
    from pegboard.errors import LobbyUnreachable
    from pegboard.online.link import Link
    from pegboard.online.player import HostSettings, OnlinePlayer
    from pegboard.online.store import Store
    from pegboard.plugins.manager import get_plugins

    measure_from = stop_at - args.seconds + args.warmup  # before that the players are still arriving
    hosting = index % 2 == 0
    name = f"load{index}"
    partner = f"load{index - 1}"
    rng = random.Random(index)
    player = OnlinePlayer(url, name, "nodewar", plugins=get_plugins(), store=Store(store_root / name),
                          host=HostSettings(rules=ruleset(args.ruleset), seat=0, seed=index), auto_accept=True,
                          workers="inline")
    arrived = asyncio.Event()
    link = Link(url, player.hello(), on_message=arrived.set, open_timeout=20.0, source=honest_address(index))
    try:
        await link.open()
    except LobbyUnreachable as exc:
        tally.errors.append(f"{name}: {exc.reason}")
        return
    sent_at: float | None = None
    sent_ply = -1
    next_move = 0.0
    last_list = 0.0
    ping_every = max(2.0, args.clients / PINGS_PER_SECOND)
    next_ping = time.monotonic() + rng.random() * ping_every
    pinged: dict[int, float] = {}
    ping_numbers = itertools.count()
    was_paired = False
    if hosting:
        player.ready()
    try:
        while time.monotonic() < stop_at:
            now = time.monotonic()
            wake = min(next_ping, stop_at, now + PICK_EVERY)
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
                    sent = pinged.pop(message["n"])
                    if sent >= measure_from:
                        tally.pings.append(time.monotonic() - sent)
                    continue
                player.receive(message)
            now = time.monotonic()
            if now >= next_ping:
                number = next(ping_numbers)
                pinged[number] = now
                await link.send({"t": "ping", "n": number})
                next_ping = now + ping_every
            if not hosting and player.ticket is None and now - last_list > PICK_EVERY:
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
                if sent_at >= measure_from:
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
    import gc

    tally = Tally()
    stop_at = time.monotonic() + args.seconds
    if args.warmup:
        # the players have arrived and paired: their matches live on, out of the collector's scans
        # (a real player's program holds one match, not a thousand)
        asyncio.get_running_loop().call_later(args.warmup, gc.freeze)
    tasks = []
    for count, index in enumerate(indices):
        tasks.append(asyncio.create_task(simulate(index, url, args, store_root, tally, stop_at)))
        if count % 10 == 9:
            await asyncio.sleep(10 / args.arrive)  # players arrive over a while, not in one instant
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            tally.errors.append(f"crashed: {type(result).__name__}: {result}")
    return tally


def run_share(args: argparse.Namespace, url: str, store_root: Path, indices: range) -> Tally:
    """One process's share of the players (pairs stay together: hosts are even, guests the next odd)."""
    import gc

    os.environ["PEGBOARD_HOME"] = str(store_root)
    # As the pegboard command does (cli/app.py): a thousand players' matches are many long-lived
    # objects, and the default collector scanned them all again and again (pauses of a second)
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    return asyncio.run(run(args, url, store_root, indices))


def probe(url: str, seconds: float, every: float = 0.1) -> list[float]:
    """Ping the lobby from a process of its own that does nothing else: the lobby's own
    answer time under the load, without the simulated players' queueing in it."""

    async def main() -> list[float]:
        from pegboard.online import protocol as p
        from pegboard.online.link import Link

        arrived = asyncio.Event()
        link = Link(url, {"t": "hello", "v": p.PROTOCOL, "name": "probe", "game": "nodewar", "ruleset": "nodewar/skirmish",
                          "rating": None, "secret": p.new_secret()}, on_message=arrived.set, open_timeout=20.0,
                    source="127.0.199.1")
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
    parser.add_argument("--arrive", type=float, default=400.0,
                        help="players arriving a second, in each process (default 400)")
    parser.add_argument("--warmup", type=float, default=0.0,
                        help="seconds at the start whose round trips are not counted (the players arriving)")
    parser.add_argument("--ruleset", default="skirmish", help="the Node War ruleset the hosts offer")
    parser.add_argument("--procs", type=int, default=1, help="processes the players are spread over (1-8)")
    parser.add_argument("--profile-lobby", type=Path, metavar="FILE",
                        help="run the lobby under cProfile and write its statistics to FILE")
    parser.add_argument("--hostile", action="store_true",
                        help="attack the lobby from another process all the while (tools/hostile_lobby.py)")
    args = parser.parse_args()
    if not 1 <= args.procs <= 8:
        parser.error("--procs must be from 1 to 8")
    if not 2 <= args.clients <= MAX_CLIENTS or args.clients % 2:
        parser.error(f"--clients must be an even number from 2 to {MAX_CLIENTS}")
    if not 1 <= args.seconds <= MAX_SECONDS:
        parser.error(f"--seconds must be from 1 to {MAX_SECONDS:.0f}")
    if not 0 <= args.warmup < args.seconds:
        parser.error("--warmup must be from 0 to less than --seconds")
    # The players' tickets and records go to memory (/dev/shm) where there is one: in real use each
    # host writes its record on its own machine, and here the disk writes of 1000 hosts on one VM
    # would measure the VM's disk, not online play. The lobby's data folder stays on disk.
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(prefix="pegboard-load-") as folder, \
            tempfile.TemporaryDirectory(prefix="pegboard-load-", dir=shm if shm.is_dir() else None) as players:
        os.environ["PEGBOARD_HOME"] = players
        log = Path(folder) / "lobby.log"
        child, url = start_lobby(Path(folder) / "lobby", log, args.profile_lobby)
        try:
            measured = measure(args, child, url, Path(players))
        finally:
            child.send_signal(signal.SIGINT)  # a clean stop: the lobby closes, cProfile writes its file
            try:
                child.wait(10)
            except subprocess.TimeoutExpired:
                child.kill()
        measured.log_lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    return report(args, measured)


@dataclass
class Measured:
    """What one run measured."""

    tally: Tally
    probes: list[float]
    attacks: dict[str, int]
    elapsed: float
    idle_rss: int
    peak_rss: int
    hwm: int
    lobby_cpu: float
    load: tuple[float, float, float]
    log_lines: list[str] = field(default_factory=list)


def measure(args: argparse.Namespace, child: subprocess.Popen[str], url: str, folder: Path) -> Measured:
    """Run the players (and the attack, with ``--hostile``) against the lobby."""
    peak = [0]
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.wait(0.5):
            peak[0] = max(peak[0], memory_kib(child.pid)[0])

    pairs = args.clients // 2
    shares = [range(2 * (pairs * k // args.procs), 2 * (pairs * (k + 1) // args.procs)) for k in range(args.procs)]
    started = time.monotonic()
    idle_rss = memory_kib(child.pid)[0]
    idle_cpu = cpu_seconds(child.pid)
    threading.Thread(target=sample, daemon=True).start()
    tally = Tally()
    attacks: dict[str, int] = {}
    context = multiprocessing.get_context("spawn")  # fresh interpreters: no loop or lock copied over
    with ProcessPoolExecutor(max_workers=args.procs + 2, mp_context=context) as pool:
        pinged = pool.submit(probe, url, args.seconds)
        hostile = None
        if args.hostile:
            from hostile_lobby import attack

            hostile = pool.submit(attack, url, args.seconds)
        for part in pool.map(run_share, [args] * args.procs, [url] * args.procs, [folder] * args.procs, shares):
            tally.round_trips += part.round_trips
            tally.pings += part.pings
            tally.moves += part.moves
            tally.games += part.games
            tally.errors += part.errors
            tally.paired += part.paired
        probes = pinged.result()
        if hostile is not None:
            attacks = hostile.result()
    sampling.set()
    elapsed = time.monotonic() - started
    rss, hwm = memory_kib(child.pid)
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    return Measured(tally, probes, attacks, elapsed, idle_rss, max(peak[0], rss), hwm,
                    cpu_seconds(child.pid) - idle_cpu, load)


def report(args: argparse.Namespace, m: Measured) -> int:
    """Print the figures; returns the exit code (1 when an honest player saw an error)."""
    tally, elapsed = m.tally, m.elapsed
    unpaired = args.clients - tally.paired
    errors = len(tally.errors) + unpaired
    rt = tally.round_trips
    print(f"clients {args.clients} in {args.procs} process(es), {elapsed:.1f} s, think {args.think} s, "
          f"ruleset nodewar/{args.ruleset}" + (", under attack" if args.hostile else "")
          + (f"; round trips and pings counted after the first {args.warmup:g} s" if args.warmup else ""))
    print(f"moves {tally.moves} ({tally.moves / elapsed:.0f}/s), finished games {tally.games}, round trips measured {len(rt)}")
    if rt:
        print(f"move round-trip p50 {percentile(rt, 0.5) * 1000:.1f} ms, p99 {percentile(rt, 0.99) * 1000:.1f} ms, "
              f"max {max(rt) * 1000:.1f} ms, mean {statistics.fmean(rt) * 1000:.1f} ms")
    if m.probes:
        print(f"lobby ping from an idle probe process p50 {percentile(m.probes, 0.5) * 1000:.1f} ms, "
              f"p99 {percentile(m.probes, 0.99) * 1000:.1f} ms ({len(m.probes)} pings, every 0.1 s)")
    if tally.pings:
        print(f"lobby ping round-trip (from the players' own loops) p50 {percentile(tally.pings, 0.5) * 1000:.1f} ms, "
              f"p99 {percentile(tally.pings, 0.99) * 1000:.1f} ms ({len(tally.pings)} pings)")
    print(f"lobby CPU {m.lobby_cpu:.1f} s in {elapsed:.0f} s ({100 * m.lobby_cpu / elapsed:.0f}% of a core); "
          f"machine load average {m.load[0]:.1f} {m.load[1]:.1f} {m.load[2]:.1f} on {os.cpu_count()} cores")
    print(f"honest errors {errors} ({unpaired} players never paired)")
    for line in tally.errors[:10]:
        print(f"  {line}")
    print(f"lobby memory: {m.idle_rss / 1024:.1f} MiB idle, {m.peak_rss / 1024:.1f} MiB under load (sampled), "
          f"{m.hwm / 1024:.1f} MiB peak (VmHWM)")
    tracebacks = sum("Traceback" in line for line in m.log_lines)
    print(f"lobby log: {len(m.log_lines)} lines, {tracebacks} tracebacks")
    for line in m.log_lines[:8]:
        print(f"  {line[:160]}")
    if m.attacks:
        from hostile_lobby import describe

        print("the attack, and how the lobby answered it:")
        for line in describe(m.attacks):
            print(f"  {line}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
