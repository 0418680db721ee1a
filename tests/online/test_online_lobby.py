"""The lobby's list and its 4-letter codes, and the command line's answers to bad input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pegboard.errors import ProtocolError
from pegboard.online import protocol as p
from support.online_helpers import HostSettings, client, hello_message, lobby, pump


def _errors(notices: dict[int, list[Any]], who: Any) -> list[str]:
    return [n.text for n in notices.get(id(who), []) if n.kind == "error"]


def test_code_flow_with_the_list_switched_off(tmp_path: Path, plugins: Any) -> None:
    notices: dict[int, list[Any]] = {}
    with lobby(listing=False) as server:
        host = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish"))
        guest = client(server.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
        late = client(server.url, "Cid", "nodewar", tmp_path, plugins, auto_accept=True)
        leaver = client(server.url, "Dee", "nodewar", tmp_path, plugins)
        everyone = [host, guest, late, leaver]
        try:
            assert [c.connect() for c in everyone] == ["codes"] * 4
            guest.refresh_list()
            pump(everyone, lambda: any(n.kind == "list" for n in notices.get(id(guest), [])), notices=notices)
            listed = next(n for n in notices[id(guest)] if n.kind == "list")
            assert listed.data["off"] is True and listed.data["players"] == []
            host.ready()
            pump(everyone, lambda: host.player.code is not None, notices=notices)
            code = host.player.code
            assert len(code) == 4 and p.normalise_code(code) == code
            guest.pick("Ann")  # no list: picking by name is refused
            pump(everyone, lambda: bool(_errors(notices, guest)), notices=notices)
            assert "switched off" in _errors(notices, guest)[0]
            wrong = next(c for c in ("ABCD", "WXYZ") if c != code)
            guest.join(wrong)
            pump(everyone, lambda: len(_errors(notices, guest)) == 2, notices=notices)
            assert _errors(notices, guest)[1] == f"no player is waiting with the code {wrong}"
            with pytest.raises(ProtocolError):
                guest.join("AB1")  # mistyped: refused before anything is sent
            guest.join(f" {code[:2].lower()} {code[2:].lower()} ")  # read aloud, typed loosely
            pump(everyone, lambda: host.player.started and guest.player.started, notices=notices)
            late.join(code)  # a code is used once
            pump(everyone, lambda: bool(_errors(notices, late)), notices=notices)
            assert _errors(notices, late) == [f"no player is waiting with the code {code}"]
            leaver.ready()
            pump(everyone, lambda: leaver.player.code is not None, notices=notices)
            gone = leaver.player.code
            leaver.close(leave=True)  # a code expires when its player leaves
            late.join(gone)
            pump(everyone, lambda: len(_errors(notices, late)) == 2, notices=notices)
            assert _errors(notices, late)[1] == f"no player is waiting with the code {gone}"
        finally:
            for c in everyone:
                c.close(leave=True)


def test_the_list_shows_name_game_ruleset_rating_by_game(tmp_path: Path, plugins: Any) -> None:
    with lobby() as server:
        host = client(server.url, "Ann", "starfall", tmp_path, plugins, rating=1234, host=HostSettings(ruleset="quick"))
        other = client(server.url, "Eve", "nodewar", tmp_path, plugins)
        guest = client(server.url, "Bob", "nodewar", tmp_path, plugins)
        fan = client(server.url, "Cleo", "starfall", tmp_path, plugins)
        everyone = (host, other, guest, fan)
        try:
            for c in everyone:
                c.connect()
            host.ready()
            other.ready()
            heard: dict[int, list[Any]] = {}

            def listed(who: Any, count: int) -> bool:
                who.refresh_list()
                pump([who], lambda: any(n.kind == "list" for n in heard.get(id(who), [])), notices=heard)
                lists = [n for n in heard.pop(id(who)) if n.kind == "list"]
                return len(lists[-1].data["players"]) == count

            pump(everyone, lambda: listed(guest, 1) and listed(fan, 1))
            guest.refresh_list()
            pump(everyone, lambda: any(n.kind == "list" for n in heard.get(id(guest), [])), notices=heard)
            seen = next(n for n in heard[id(guest)] if n.kind == "list")
            assert [e["name"] for e in seen.data["players"]] == ["Eve"]  # a Node War player sees Node War players
            assert (seen.data["total"], seen.data["elsewhere"]) == (1, 1)  # ... and how many wait for other games
            entry = fan.player.players[0]
            assert (entry["name"], entry["game"], entry["ruleset"], entry["rating"]) == ("Ann", "starfall", "starfall/quick", 1234)
            assert entry["settings"].startswith("Starfall: quick")
            notices: dict[int, list[Any]] = {}
            guest.pick(entry["id"])  # another game: refused, nobody is paired
            pump(everyone, lambda: bool(_errors(notices, guest)), notices=notices)
            assert "waits for a starfall game" in _errors(notices, guest)[0]
            assert host.player.ticket is None
        finally:
            for c in everyone:
                c.close(leave=True)


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["play", "nodewar", "--online", "Ann", "--lobby", "http://example.org"], 2, "must start with ws:// or wss://"),
        (["play", "nodewar", "--online", "Ann", "--lobby", "ws://"], 2, "no host"),
        (["play", "nodewar", "--online", "Ann", "--code", "AB1D"], 2, "is not a lobby code"),
        (["play", "nodewar", "--code", "ABCD"], 2, "need --online"),
        (["play", "nosuchgame", "--online", "Ann"], 2, "unknown game 'nosuchgame'"),
        (["play", "nodewar", "--online", ""], 1, "a name has 1 to 24 characters"),
        (["online-bot", "nodewar", "nosuchbot"], 2, "unknown bot"),
        (["online-bot", "nosuchgame", "random"], 2, "unknown"),
        (["online-bot", "nodewar", "random", "--lobby", "ftp://x"], 2, "must start with ws://"),
        (["play", "nodewar", "--online", "Ann", "--lobby", "wss://127.0.0.1:1", "--cafile", "/no/such.pem"], 2,
         "--cafile /no/such.pem: no such file"),
        (["play", "nodewar", "--cafile", "ca.pem"], 2, "need --online"),
        (["lobby", "serve", "--tls-key", "k.pem"], 2, "--tls-cert and --tls-key go together"),
        (["lobby", "serve", "--per-address", "0"], 2, "--per-address"),
    ],
)
def test_cli_bad_input_is_one_line(cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], code: int, message: str) -> None:
    monkeypatch.setenv("PEGBOARD_HOME", str(tmp_path))
    result = cli(*args, entry_points=True)
    assert result.code == code
    assert len(result.err_lines) == 1 and message in result.err_lines[0], result.err


def test_cli_unreachable_lobby_and_unknown_code(cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    monkeypatch.setenv("PEGBOARD_HOME", str(tmp_path))
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = cli("play", "nodewar", "--online", "Ann", "--lobby", f"ws://127.0.0.1:{port}", entry_points=True)
    assert result.code == 1 and len(result.err_lines) == 1, result.err
    # a plain sentence, never the socket's own words ("Connect call failed ('127.0.0.1', ...)")
    assert result.err_lines[0] == (f"error: Cannot reach the lobby at ws://127.0.0.1:{port}: nothing answers there. "
                                   "Is the lobby running, and is the address right?")
    with lobby(listing=False) as server:
        result = cli("play", "nodewar", "--online", "Ann", "--lobby", server.url, "--code", "QQQQ", entry_points=True)
    assert result.code == 1
    assert result.err_lines == ["error: no player is waiting with the code QQQQ"]


def test_lobby_serve_command_listens_on_loopback_and_stops(tmp_path: Path) -> None:
    import asyncio
    import json
    import os
    import subprocess
    import sys

    from websockets.asyncio.client import connect

    child = subprocess.Popen([sys.executable, "-m", "pegboard", "lobby", "serve", "--port", "0", "--no-list"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ, PEGBOARD_HOME=str(tmp_path)))
    try:
        assert child.stdout is not None
        first = child.stdout.readline()
        assert first.startswith("lobby on ws://127.0.0.1:") and "codes" in first
        url = first.split()[2]

        async def hello() -> dict[str, object]:
            async with connect(url) as ws:
                await ws.send(json.dumps(hello_message("Ann")))
                answer: dict[str, object] = json.loads(await ws.recv())
                return answer

        assert asyncio.run(hello())["lobby"] == "codes"
        import socket

        port = int(url.rsplit(":", 1)[1])
        for request in (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", b"\x16\x03\x01 not a handshake\r\n\r\n"):
            with socket.create_connection(("127.0.0.1", port)) as raw:  # bad input before any WebSocket
                raw.sendall(request)
                raw.recv(1024)

        async def garbage() -> dict[str, object]:
            async with connect(url) as ws:
                await ws.send('{"t":"hello","v":2,"name":"\\ud800"}')
                answer: dict[str, object] = json.loads(await ws.recv())
                return answer

        assert asyncio.run(garbage())["t"] == "error"
    finally:
        child.terminate()
        _, errors = child.communicate(timeout=10)
    assert "Traceback" not in errors, errors
