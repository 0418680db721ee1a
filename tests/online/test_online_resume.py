"""Connections drop and programs get killed mid-match; the match goes on and is recorded once."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from pegboard.online.store import Store
from pegboard.records.validate import read_record, validate_file
from support.online_helpers import HostSettings, client, lobby, pair, play_random, pump


def test_a_dropped_connection_reconnects_and_the_match_goes_on(tmp_path: Path, plugins: Any) -> None:
    with lobby() as server:
        host = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=1, seed=2))
        guest = client(server.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
        rng = random.Random(5)
        try:
            pair(host, guest)
            play_random([host, guest], rng, max_moves=10)
            guest.drop_connection()
            statuses: set[str] = set()

            def back() -> bool:
                statuses.add(guest.status)
                return guest.status == "Connected" and host.player.peer_online

            pump([host, guest], back)
            assert "Reconnecting…" in statuses
            play_random([host, guest], rng)
            assert host.result is not None and host.result.same_outcome(guest.result)
        finally:
            host.close(leave=True)
            guest.close(leave=True)


def test_a_killed_guest_resumes_by_its_token_and_the_result_counts_once(tmp_path: Path, plugins: Any) -> None:
    counted: list[tuple[str, str]] = []
    with lobby() as server:
        host = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=0, seed=8))
        guest = client(server.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
        host.player.on_finish = lambda pl, result: counted.append((pl.name, pl.ticket.match))
        rng = random.Random(6)
        second = None
        try:
            pair(host, guest)
            play_random([host, guest], rng, max_moves=15)
            guest.close()  # no goodbye: the process is gone
            pump([host], lambda: not host.player.peer_online)
            assert "away" in host.status_line()
            second = client(server.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
            second.player.on_finish = lambda pl, result: counted.append((pl.name, pl.ticket.match))
            ticket = second.resume_unfinished()
            assert ticket is not None and ticket.role == "guest" and ticket.match == host.player.ticket.match
            second.connect(ticket)
            pump([host, second], lambda: second.player.started and host.player.peer_online)
            assert second.view() is not None and second.seat == 1
            play_random([host, second], rng)
            assert second.result is not None and host.result is not None
            second.drop_connection()  # a reconnect after the end records nothing again
            pump([host, second], lambda: second.status == "Connected" and second.player.peer_online)
            pump([host, second], lambda: True)
        finally:
            host.close(leave=True)
            guest.close()
            if second is not None:
                second.close(leave=True)
    match = host.player.ticket.match
    assert sorted(counted) == [("Ann", match), ("Bob", match)]
    assert Store(tmp_path / "Bob").unfinished() == []
    assert validate_file(Store(tmp_path / "Ann").record_path(match), plugins).ok


def _pegboard(*args: str, home: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PEGBOARD_HOME=str(home))
    return subprocess.Popen([sys.executable, "-m", "pegboard", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def test_a_killed_host_resumes_from_its_record(tmp_path: Path, plugins: Any, cli: Any) -> None:
    home = tmp_path / "bothome"
    with lobby() as server:
        args = ("online-bot", "nodewar", "random", "--lobby", server.url, "-r", "skirmish", "--games", "1", "--name", "Robo")
        bot = _pegboard(*args, home=home)
        guest = client(server.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
        restarted = None
        try:
            guest.connect()

            def listed() -> bool:
                guest.refresh_list()
                time.sleep(0.05)
                return any(e["name"] == "Robo" for e in guest.player.players)

            pump([guest], listed)
            guest.pick("Robo")
            rng = random.Random(9)
            pump([guest], lambda: guest.player.started)
            play_random([guest], rng, stop=lambda: guest.player.guest.last.ply >= 12)
            bot.send_signal(signal.SIGKILL)
            bot.wait(10)
            pump([guest], lambda: not guest.player.peer_online)
            ply = guest.player.guest.last.ply
            restarted = _pegboard(*args, home=home)
            pump([guest], lambda: guest.player.peer_online)
            play_random([guest], rng)
            assert guest.result is not None
            output, _ = restarted.communicate(timeout=30)
            assert restarted.returncode == 0, output
            assert "over:" in output
        finally:
            guest.close(leave=True)
            for process in (bot, restarted):
                if process is not None and process.poll() is None:
                    process.kill()
                    process.wait(10)
    records = list((home / "online").glob("*.match.json"))
    assert len(records) == 1
    record = read_record(records[0], plugins)
    assert len(record["moves"]) > ply  # nothing before the kill was lost, the game went on after it
    check = cli("validate", str(records[0]), entry_points=True)
    assert check.code == 0 and "ok:" in check.out, check.out + check.err
