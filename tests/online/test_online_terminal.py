"""The terminal client (``pegboard play GAME --online``): each player's own side at the bottom, a long list in pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pegboard.cli.online import _board
from pegboard.plugins.manager import Plugins
from support.online_helpers import HostSettings, client, lobby, pair


def _grid(text: str) -> list[str]:
    """The board rows of a printed picture (row number first), top to bottom."""
    return [line for line in text.splitlines() if line[:2].strip().isdigit() and line[2:3] == " "]


def test_each_side_sees_its_own_base_at_the_bottom(tmp_path: Path, plugins: Any, capsys: pytest.CaptureFixture[str]) -> None:
    with lobby() as server:
        host = client(server.url, "Ann", "nodewar", tmp_path, plugins, host=HostSettings(ruleset="skirmish", seat=0))
        guest = client(server.url, "Bob", "nodewar", tmp_path, plugins, auto_accept=True)
        try:
            pair(host, guest)
            pictures = {}
            for who in (host, guest):
                capsys.readouterr()
                _board(who)
                pictures[who.seat] = _grid(capsys.readouterr().out)
        finally:
            host.close(leave=True)
            guest.close(leave=True)
    blue, red = pictures[0], pictures[1]
    height = len(blue)
    assert height >= 5 and len(red) == height, "both pictures show the board"
    assert [int(line[:2]) for line in blue] == list(reversed(range(height)))
    assert [int(line[:2]) for line in red] == list(range(height))
    for rows, own in ((blue, "B"), (red, "R")):
        where = next(i for i, line in enumerate(rows) if own in line[3:])
        assert where >= height // 2, f"{own}'s Base is drawn in the bottom half"
    # the same squares, turned half a circle: row y reads right to left for Red
    for line in blue:
        turned = next(r for r in red if int(r[:2]) == int(line[:2]))
        assert turned[3:].split() == list(reversed(line[3:].split()))


def test_starfall_text_turns_for_north() -> None:
    from pegboard.rules.rulesets import build_game, load_ruleset

    plugins = Plugins()
    state = build_game(load_ruleset("starfall/standard", plugins=plugins), plugins).new_state(7)
    south, north = _grid(state.text_for(0)), _grid(state.text_for(1))
    assert state.text_for(0) == str(state)
    assert [int(r[:2]) for r in north] == [int(r[:2]) for r in reversed(south)]
    assert len(south) == state.geo.height, "every row is drawn"
    for line in south:
        turned = next(r for r in north if int(r[:2]) == int(line[:2]))
        cells = line[3:].removesuffix(" seam").split()
        assert len(cells) == state.geo.width
        assert turned[3:].removesuffix(" seam").split() == list(reversed(cells))


def test_the_terminal_pages_through_a_long_list(tmp_path: Path, plugins: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from pegboard.cli.online import _command, _lobby_prompt
    from pegboard.online.client import OnlineClient
    from pegboard.online.store import Store

    client = OnlineClient("ws://127.0.0.1:1", "Bob", "nodewar", plugins=plugins, store=Store(tmp_path / "bob"))
    page = [{"id": n, "name": f"P{n}", "game": "nodewar", "ruleset": "nodewar/skirmish", "rating": None, "settings": ""}
            for n in range(50)]
    client.player.receive({"t": "list", "off": False, "game": "nodewar", "offset": 0, "total": 120, "elsewhere": 3,
                           "players": page})
    _lobby_prompt(client)
    assert "70 more waiting: m shows the next ones" in capsys.readouterr().out
    _command(client, "m")  # the next page is asked for from the 51st on
    assert client.player.take_outbox() == [{"t": "list", "offset": 50}]
