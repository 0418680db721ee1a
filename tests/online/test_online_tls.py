"""The lobby over TLS, and a restarted lobby under invented tokens (issue 26, weakness 6).

Certificates are made in the test by ``trustme`` (an authority and a certificate for 127.0.0.1).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pegboard.errors import LobbyUnreachable, PegboardError
from pegboard.online.limits import Limits
from pegboard.online.tls import server_context
from support.online_helpers import (
    Attack,
    HostSettings,
    answer,
    attacker_address,
    client,
    honest_match,
    lobby,
    pair,
    play_random,
    pump,
    said_hello,
)

trustme = pytest.importorskip("trustme")  # the test extra installs it


@pytest.fixture
def pki(tmp_path: Path) -> dict[str, Path]:
    """An authority's file for clients, and the lobby's certificate and key files."""
    authority = trustme.CA()
    issued = authority.issue_cert("127.0.0.1", "localhost")
    files = {"ca": tmp_path / "ca.pem", "cert": tmp_path / "lobby.pem", "key": tmp_path / "lobby.key"}
    authority.cert_pem.write_to_path(str(files["ca"]))
    issued.cert_chain_pems[0].write_to_path(str(files["cert"]))
    issued.private_key_pem.write_to_path(str(files["key"]))
    return files


def test_a_whole_match_over_tls(tmp_path: Path, plugins: Any, pki: dict[str, Path]) -> None:
    with lobby(tls=server_context(pki["cert"], pki["key"])) as server:
        assert server.url.startswith("wss://127.0.0.1:")
        cafile = str(pki["ca"])
        ann = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish"), cafile=cafile)
        bob = client(server.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True, cafile=cafile)
        try:
            pair(ann, bob)
            play_random([ann, bob], random.Random(6))
            pump([ann, bob], lambda: ann.result is not None and bob.result is not None)
            assert ann.result.same_outcome(bob.result)
        finally:
            ann.close(leave=True)
            bob.close(leave=True)
        stranger = client(server.url, "Cid", "nodewar", tmp_path, plugins)  # the system store does not know our CA
        with pytest.raises(LobbyUnreachable, match="its certificate is not trusted here"):
            stranger.connect()
        stranger.close()
        plain = client(server.url.replace("wss://", "ws://"), "Dee", "nodewar", tmp_path, plugins)
        with pytest.raises(LobbyUnreachable, match="did not answer as a lobby does"):
            plain.connect()
        plain.close()


def test_unusable_certificate_files_are_one_line(tmp_path: Path, pki: dict[str, Path]) -> None:
    with pytest.raises(PegboardError, match="no such file"):
        server_context(tmp_path / "missing.pem", pki["key"])
    with pytest.raises(PegboardError, match="are not a PEM certificate and its private key"):
        server_context(pki["key"], pki["cert"])


def test_lobby_serve_with_tls_from_the_command_line(tmp_path: Path, plugins: Any, pki: dict[str, Path], cli: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PEGBOARD_HOME", str(tmp_path / "home"))
    half = cli("lobby", "serve", "--tls-cert", str(pki["cert"]), entry_points=True)
    assert half.code == 2 and "--tls-cert and --tls-key go together" in half.err
    wrong = cli("lobby", "serve", "--tls-cert", str(pki["key"]), "--tls-key", str(pki["key"]), entry_points=True)
    assert wrong.code == 1 and len(wrong.err_lines) == 1 and "not a PEM certificate" in wrong.err
    child = subprocess.Popen([sys.executable, "-m", "pegboard", "lobby", "serve", "--port", "0", "--tls-cert",
                              str(pki["cert"]), "--tls-key", str(pki["key"]), "--data", str(tmp_path / "data")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ, PEGBOARD_HOME=str(tmp_path / "home")))
    try:
        assert child.stdout is not None
        first = child.stdout.readline()
        assert first.startswith("lobby on wss://127.0.0.1:"), first
        url = first.split()[2]
        ann = client(url, "Ann", "nodewar", tmp_path, plugins, cafile=str(pki["ca"]))
        try:
            assert ann.connect() == "list"
        finally:
            ann.close(leave=True)
        assert (tmp_path / "data" / "lobby.sqlite").is_file()
    finally:
        child.terminate()
        child.wait(10)


def test_after_a_restart_invented_tokens_do_not_lock_the_players_out(tmp_path: Path, plugins: Any,
                                                                     pki: dict[str, Path]) -> None:
    limits = Limits(rate=5000.0, burst=5000.0, max_strikes=1000, free_failures=5, backoff_base=30.0)
    tls = server_context(pki["cert"], pki["key"])
    data = tmp_path / "lobby-data"
    cafile = str(pki["ca"])
    with lobby(limits=limits, tls=tls, data=data) as first:
        port = first.port
        ann = client(first.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=0),
                     cafile=cafile)
        bob = client(first.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True, cafile=cafile)
        pair(ann, bob)
        ann.play(ann.legal_moves()[0])
        pump([ann, bob], lambda: bob.my_turn)
        match = ann.player.ticket.match
    # the lobby is down; the two keep trying. It comes back on the same port with the same data folder,
    # and an attacker who learnt the match id tries invented tokens for it before the players are back.
    try:
        with lobby(limits=limits, tls=tls, data=data, port=port) as again:
            url = again.url

            async def attack(stop: asyncio.Event) -> list[str]:
                import ssl

                context = ssl.create_default_context(cafile=cafile)
                ws = await said_hello(url, attacker_address(), "Mal", ssl=context)
                reasons = []
                for n in range(15):
                    await ws.send(json.dumps({"t": "rejoin", "match": match, "token": f"invented-{n}" * 3,
                                              "guest_token": "also-invented" * 3}))
                    reasons.append((await answer(ws))["reason"])
                await stop.wait()
                await ws.close()
                return reasons

            with Attack(attack) as running:
                assert honest_match(url, tmp_path, plugins, cafile=cafile) >= 6  # new players pair meanwhile
                reasons = running.result()
            assert reasons[:6] == ["wrong token for that match"] * 6
            assert all(r.startswith("too many failed rejoins from your address: try again in") for r in reasons[6:])
            # the real players rejoin by themselves and the match goes on
            pump([ann, bob], lambda: ann.status == "Connected" and bob.status == "Connected"
                 and ann.player.peer_online and bob.player.peer_online)
            ply = ann.player.host.session.ply
            bob.play(bob.legal_moves()[0])
            pump([ann, bob], lambda: ann.player.host.session.ply == ply + 1)
            assert again.call(lambda lobby: lobby.refused) >= 15
    finally:
        ann.close(leave=True)
        bob.close(leave=True)
