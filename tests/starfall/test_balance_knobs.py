"""The balance knobs of the ruleset (issue: how games end), each on hand-built positions.

Defaults are the standard game: the at-cap asteroid lands at random (the Command included),
claims take only free land, radius 1, cap 9.
"""

from __future__ import annotations

import pytest

from pegboard.errors import RulesetError
from pegboard.rules.rulesets import deep_merge, load_ruleset, ruleset_from_data
from pegboard_starfall import effects
from pegboard_starfall import moves as mv
from pegboard_starfall.pieces import SCOUT
from support.starfall_helpers import blank, make_game, own, paint, put, quiet, sq


def _six_line_at_cap(st) -> None:  # type: ignore[no-untyped-def]
    """South at its cap of 2 (Command + a shield) with a standing 6-line that must pay the at-cap column."""
    put(st, 9, 0, "G", 0)
    paint(st, [(c, 2) for c in range(6)])
    effects.resolve(st, (), "cascade")


def test_standard_keeps_the_seed_defaults() -> None:
    rules = make_game().rules
    assert (rules.drop_target, rules.claim_enemy, rules.claim_radius, rules.drone_cap) == ("random", False, 1, 9)
    standard = load_ruleset("starfall/standard", game="starfall")
    assert standard.data["asteroids"]["drop_target"] == "random" and standard.data["claims"]["take_enemy"] is False


@pytest.mark.parametrize("seed", range(6))
def test_empty_drop_never_hits_a_drone_or_the_command(seed: int) -> None:
    game = make_game(drones={"cap": 2}, asteroids={"drop_target": "empty"})
    st = blank(game)
    st.key = seed  # vary the draw
    # North owns its Command's square, a square under its scout, and one empty square
    own(st, [(5, 10), (2, 8), (7, 7)], 1)
    put(st, 2, 8, "S", 1)
    _six_line_at_cap(st)
    assert st.result is None
    assert st.ast[sq(st, 7, 7)] == 1  # the only empty square it owns
    assert st.kind[sq(st, 2, 8)] == SCOUT and st.ast[sq(st, 5, 10)] == 0


def test_random_drop_can_hit_the_command_and_empty_cannot() -> None:
    for mode, wins in (("random", True), ("empty", False)):
        game = make_game(drones={"cap": 2}, asteroids={"drop_target": mode})
        st = blank(game)
        own(st, [(5, 10)], 1)  # North owns only its Command's square
        _six_line_at_cap(st)
        assert (st.result is not None and st.result.reason == "asteroid") is wins
        if not wins:
            assert st.ast[sq(st, 5, 10)] == 0
            assert any(p[0] == "at_nine" and "owns no open square" in p[2] for p in st._pending)


def test_claims_take_enemy_land_only_with_the_knob() -> None:
    for take_enemy in (False, True):
        game = make_game(claims={"take_enemy": take_enemy})
        st = blank(game)
        s = put(st, 2, 3, "S", 0)
        own(st, [(1, 2), (3, 4)], 1)
        own(st, [(c, r) for c in (1, 2, 3) for r in (2, 3, 4) if (c, r) not in ((1, 2), (3, 4))], 0)
        put(st, 3, 4, "R", 1, ride="red")  # a North raider stands on one of North's squares
        if not take_enemy:
            assert "already owned" in st.check(mv.claim(s))
            assert mv.claim(s) not in st.legal_moves()
            continue
        assert mv.claim(s) in st.legal_moves()
        st.apply(mv.claim(s))
        assert st.owner[sq(st, 1, 2)] == 0  # taken
        assert st.owner[sq(st, 3, 4)] == 1  # not from under North's drone


def test_a_warp_may_take_enemy_land_around_it_with_the_knob() -> None:
    game = make_game(claims={"take_enemy": True})
    st = blank(game)
    w = put(st, 2, 3, "W", 0)
    own(st, [(c, r) for c in (7, 8, 9) for r in (6, 7, 8) if (c, r) != (8, 7)], 1)
    target = sq(st, 8, 7)
    assert mv.warp(w, target) in st.legal_moves()
    st.apply(mv.warp(w, target))
    assert all(st.owner[sq(st, c, r)] == 0 for c in (7, 8, 9) for r in (6, 7, 8))
    own(st, [(4, 4)], 1)
    w2 = put(st, 2, 2, "W", 0)
    assert st.check(mv.warp(w2, sq(st, 4, 4))) is not None  # still never onto the enemy's own square


def test_claim_size_is_the_claim_radius() -> None:
    game = make_game(claims={"claim_radius": 2})
    st = blank(game)
    s = put(st, 3, 3, "S", 0)
    st.apply(mv.claim(s))
    got = {(st.geo.col[t], st.geo.row[t]) for t in range(121) if st.owner[t] == 0}
    assert got == {(c, r) for c in range(1, 6) for r in range(1, 6)}


def test_the_drone_cap_decides_when_the_at_cap_column_pays() -> None:
    def four_line(cap: int):  # type: ignore[no-untyped-def]
        st = blank(make_game(drones={"cap": cap}))
        put(st, 9, 0, "G", 0)
        put(st, 10, 0, "G", 0)  # South holds 3 drones
        paint(st, [(c, 2) for c in range(4) if c != 2])
        paint(st, [(2, 3)])
        assert quiet(st)
        st.apply(mv.swap(sq(st, 2, 2), sq(st, 2, 3)))
        return st

    assert four_line(4).kind[sq(four_line(4), 2, 2)] == SCOUT  # below the cap: the scout comes
    capped = four_line(3)
    assert capped.kind[sq(capped, 2, 2)] == 0  # at the cap a 4-line pays nothing


def test_the_knobs_are_schema_checked() -> None:
    base = load_ruleset("starfall/standard", game="starfall")
    for bad in ({"asteroids": {"drop_target": "command"}}, {"claims": {"take_enemy": "yes"}},
                {"claims": {"claim_radius": 9}}, {"drones": {"cap": 0}}):
        with pytest.raises(RulesetError):
            ruleset_from_data(deep_merge(base.data, bad))


def _aimed_six_line_by_swap(st):  # type: ignore[no-untyped-def]
    """South at its cap of 2; a swap at (2,2)-(2,3) completes a 6-line on row 2 (c3-c5 already stand)."""
    put(st, 9, 0, "G", 0)
    paint(st, [(c, 2) for c in range(6) if c != 2])
    paint(st, [(2, 3)])
    return mv.swap(sq(st, 2, 2), sq(st, 2, 3))


def test_aimed_the_mover_places_the_asteroid_then_the_turn_ends() -> None:
    game = make_game(drones={"cap": 2}, asteroids={"drop_target": "aimed"})
    st = blank(game)
    own(st, [(5, 10), (2, 8), (7, 7)], 1)
    raider = put(st, 2, 8, "R", 1, ride="red")
    swap = _aimed_six_line_by_swap(st)
    st.apply(swap)
    assert st.to_move == 0 and st.aims == 1 and st.aim_ends  # still South's turn: it aims first
    legal = st.legal_moves()
    assert sorted(legal) == sorted([mv.aim(sq(st, 2, 8)), mv.aim(sq(st, 7, 7))])  # never the Command
    assert st.check(mv.aim(sq(st, 5, 10))) is not None
    assert "aim the asteroid" in st.check(mv.claim(sq(st, 9, 0)))
    data = st.to_json()
    assert data["aims"] == {"owed": 1, "then_end_turn": True}
    again = game.state_from_json(data)
    assert again.legal_moves() == legal
    events = st.apply(mv.aim(raider))
    assert st.ast[raider] == 1 and st.kind[raider] == 0  # the raider is crushed
    assert any(e.kind == "asteroid_drop" and e.data.get("aimed") for e in events)
    assert st.to_move == 1 and st.aims == 0 and "aims" not in st.to_json()
    st.undo()
    assert st.aims == 1 and st.to_move == 0 and st.kind[raider]


def test_an_aim_owed_outside_the_action_comes_first_and_the_turn_goes_on() -> None:
    game = make_game(drones={"cap": 2}, asteroids={"drop_target": "aimed"})
    st = blank(game)
    own(st, [(7, 7)], 1)
    _six_line_at_cap(st)  # a cascade, as at the start of a turn
    assert st.aims == 1 and not st.aim_ends
    assert st.legal_moves() == [mv.aim(sq(st, 7, 7))]
    st.apply(mv.aim(sq(st, 7, 7)))
    assert st.to_move == 0 and st.ast[sq(st, 7, 7)] and st.aims == 0
    assert mv.aim(sq(st, 7, 7)) not in st.legal_moves() and st.legal_moves()


def test_aim_moves_round_trip_json_and_text() -> None:
    import json

    import jsonschema

    from pegboard.support.resources import data_dir

    folder = data_dir("schemas", "starfall")
    moves = jsonschema.Draft202012Validator(json.loads((folder / "move.schema.json").read_text()))
    positions = jsonschema.Draft202012Validator(json.loads((folder / "position.schema.json").read_text()))
    game = make_game(asteroids={"drop_target": "aimed"})
    for move in (mv.aim(game.geo.sq(3, 8)), mv.aim()):
        moves.validate(game.encode_move(move))
        assert game.decode_move(game.encode_move(move)) == move
    st = blank(make_game(drones={"cap": 2}, asteroids={"drop_target": "aimed"}))
    own(st, [(7, 7)], 1)
    _six_line_at_cap(st)
    positions.validate(st.to_json())
    assert st.to_json()["aims"] == {"owed": 1, "then_end_turn": False}
    assert game.move_text(mv.aim(game.geo.sq(3, 8))) == "aim d9"
    assert game.move_text(mv.aim()) == "aim at random"


def test_aimed_under_fog_picks_only_seen_squares_else_falls_at_random() -> None:
    game = make_game(drones={"cap": 2}, asteroids={"drop_target": "aimed"}, fog={"mode": "seam"})
    st = blank(game)
    own(st, [(7, 8)], 1)  # out of South's sight
    st.apply(_aimed_six_line_by_swap(st))
    assert st.legal_moves() == [mv.aim()]
    view = st.player_view(0)
    assert view.legal_moves() == [mv.aim()]  # the view, without North's unseen land, agrees
    st.apply(mv.aim())
    assert st.ast[sq(st, 7, 8)] == 1 and st.to_move == 1


def test_open_sky_is_listed_with_its_description(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from pegboard.cli.app import run

    monkeypatch.setenv("COLUMNS", "400")
    assert run(["rulesets", "starfall"]) == 0
    line = next(row for row in capsys.readouterr().out.splitlines() if "starfall/open_sky" in row)
    assert "may take enemy land" in line
    standard = load_ruleset("starfall/standard", game="starfall").data
    sky = load_ruleset("starfall/open_sky", game="starfall").data
    assert sky["board"] == standard["board"] and sky["payout"] == standard["payout"]  # it extends standard


@pytest.mark.parametrize("power, wins", [(1, False), (2, True), (3, True)])
def test_siege_power_a_siege_must_be_stacked_to_win(power: int, wins: bool) -> None:
    game = make_game(win={"siege_power": 2})
    st = blank(game)
    x = put(st, 3, 9, "X", 0, power=power)
    st.apply(mv.move(x, sq(st, 4, 9)))
    n = put(st, 9, 9, "S", 1)
    st.apply(mv.move(n, sq(st, 9, 8)))
    assert (st.result is not None and st.result.reason == "siege") is wins
    with pytest.raises(Exception, match="siege_power"):
        make_game(win={"siege_power": 3}, drones={"max_power": 2})


def test_spend_on_take_a_claim_that_takes_enemy_land_spends_the_scout() -> None:
    game = make_game(claims={"take_enemy": True, "spend_on_take": True})
    st = blank(game)
    s = put(st, 2, 3, "S", 0)
    own(st, [(1, 2)], 1)  # one North square in the 3 x 3
    events = st.apply(mv.claim(s))
    assert st.owner[sq(st, 1, 2)] == 0 and st.kind[s] == 0  # taken, and the scout is gone
    assert any(e.kind == "claim" and e.data.get("spent") for e in events)
    st.undo()
    assert st.kind[s] == SCOUT and st.owner[sq(st, 1, 2)] == 1
    # free land only: the scout stays, as in the seed's game
    st.owner[sq(st, 1, 2)] = -1
    st.apply(mv.claim(s))
    assert st.kind[s] == SCOUT and st.owner[sq(st, 1, 2)] == 0


def test_spend_on_take_keeps_the_scout_when_enemy_land_stays_enemy_land() -> None:
    game = make_game(claims={"take_enemy": True, "spend_on_take": True})
    st = blank(game)
    s = put(st, 2, 3, "S", 0)
    own(st, [(3, 4)], 1)
    put(st, 3, 4, "R", 1, ride="red")  # North's only square in reach is under its raider: not taken
    st.apply(mv.claim(s))
    assert st.owner[sq(st, 3, 4)] == 1 and st.kind[s] == SCOUT


def test_open_sky_still_lets_a_siege_win() -> None:
    data = load_ruleset("starfall/open_sky", game="starfall").data
    assert data["claims"]["spend_on_take"] is True and data["win"]["siege_power"] == 1
    game = make_game(**{k: data[k] for k in ("claims", "asteroids", "win")})
    st = blank(game)
    x = put(st, 3, 9, "X", 0)
    st.apply(mv.move(x, sq(st, 4, 9)))  # beside North's Command at (5, 10)
    n = put(st, 9, 9, "S", 1)
    st.apply(mv.move(n, sq(st, 9, 8)))
    assert st.result is not None and st.result.reason == "siege" and st.result.winner == 0


def test_warp_size_is_the_warp_radius() -> None:
    for radius in (1, 2):
        st = blank(make_game(claims={"warp_radius": radius}))
        w = put(st, 0, 0, "W", 0)
        st.apply(mv.warp(w, sq(st, 5, 5)))
        got = {(st.geo.col[t], st.geo.row[t]) for t in range(121) if st.owner[t] == 0}
        span = range(5 - radius, 6 + radius)
        assert got == {(c, r) for c in span for r in span} and st.kind[w] == 0
