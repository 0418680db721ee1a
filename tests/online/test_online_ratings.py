"""Ratings travel: both profiles record the match once at full weight; handicaps get both ratings."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from pegboard.ratings import elo as ratings
from pegboard.ratings.profile import open_profile
from support.online_helpers import HostSettings, client, lobby, pair, play_random, pump


def test_an_online_match_moves_both_ratings_once_at_full_weight(tmp_path: Path, plugins: Any) -> None:
    with open_profile(tmp_path / "ann.sqlite3") as ann, open_profile(tmp_path / "bob.sqlite3") as bob:
        with lobby() as server:
            host = client(server.url, "Ann", "nodewar", tmp_path, plugins, profile=ann,
                          host=HostSettings(ruleset="skirmish", seat=0, seed=3))
            guest = client(server.url, "Bob", "nodewar", tmp_path, plugins, profile=bob, auto_accept=True)
            try:
                pair(host, guest)
                assert ann.pending() is not None and bob.pending() is not None  # entered when it started
                play_random([host, guest], random.Random(2))
                pump([host, guest], lambda: bob.games == 1 and ann.games == 1)
                guest.drop_connection()  # the end arrives again after a reconnect: nothing is added
                pump([host, guest], lambda: guest.status == "Connected" and guest.player.peer_online)
                pump([host, guest], lambda: True)
            finally:
                host.close(leave=True)
                guest.close(leave=True)
        result = host.result
        assert result is not None
        match = host.player.ticket.match
        for profile, seat in ((ann, 0), (bob, 1)):
            rows = profile.history()
            assert [r.match_id for r in rows] == [match]
            score = 0.5 if result.winner is None else float(result.winner == seat)
            assert rows[0].result == score and rows[0].weight == 1.0 and rows[0].opponent == ("Bob", "Ann")[seat]
            expected = ratings.update(ratings.START_RATING, ratings.START_RATING, score).after
            assert profile.rating == expected


def test_asteroids_from_both_ratings_and_leaving_counts_as_a_loss(tmp_path: Path, plugins: Any) -> None:
    ruleset = tmp_path / "quick_handicap.toml"
    ruleset.write_text('game = "starfall"\nid = "quick_handicap"\nname = "Quick, handicap"\nextends = "starfall/quick"\n\n'
                       '[handicap]\nenabled = true\n')
    with open_profile(tmp_path / "ann.sqlite3") as ann, open_profile(tmp_path / "bob.sqlite3") as bob:
        with lobby() as server:
            host = client(server.url, "Ann", "starfall", tmp_path, plugins, profile=ann, rating=1300.0,
                          host=HostSettings(ruleset=str(ruleset), seat=0, seed=4))
            guest = client(server.url, "Bob", "starfall", tmp_path, plugins, profile=bob, auto_accept=True)
            try:
                pair(host, guest)
                offered = guest.player.guest.game.ruleset["handicap"]
                assert (offered["south_rating"], offered["north_rating"]) == (1300.0, ratings.START_RATING)
                game = host.player.host.game
                assert game.rating_gap(0) is not None and game.rating_gap(0) < 300  # the rocks took some of the gap
                assert dict(game.ruleset) == dict(guest.player.guest.game.ruleset)  # the guest plays what it was shown
                guest.resign()  # Bob leaves the unfinished match
                pump([host, guest], lambda: bob.games == 1 and ann.games == 1)
            finally:
                host.close(leave=True)
                guest.close(leave=True)
        assert host.result is not None and host.result.winner == 0 and host.result.reason == "resign"
        assert bob.history()[0].result == 0.0 and ann.history()[0].result == 1.0
        assert bob.history()[0].gap == -ann.history()[0].gap
