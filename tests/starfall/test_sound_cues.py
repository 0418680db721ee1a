"""Which sound each Starfall event makes in the window (pegboard_starfall.ui.sounds), from
hand-built events and from the engine's own events; no window, no pyglet."""

from __future__ import annotations

from pegboard.game import Event, events_for
from pegboard.ui import cues
from pegboard_starfall import moves as mv
from pegboard_starfall.ui.sounds import move_cues
from support.starfall_helpers import blank, put


def test_cues_from_hand_built_events():
    swap = Event("swap", {"a": 1, "b": 2})
    assert move_cues([swap]) == [cues.MOVE]
    assert move_cues([swap, Event("cleared", {"color": 1, "row": 3, "cells": [1, 2, 3]})]) == [cues.LINE]
    spawned = Event("drone_spawned", {"drone": "scout", "at": 5, "row": 3, "color": 1, "side": 0, "cells": [1, 2, 3]})
    assert move_cues([swap, spawned, spawned]) == [cues.LINE, cues.DRONE], "each cue once, in order"
    seen_drone_only = Event("drone_spawned", {"drone": "scout", "at": 5, "side": 0})  # fog's short form
    assert move_cues([swap, seen_drone_only]) == [cues.DRONE], "a line the side did not see is not heard"
    assert move_cues([Event("move", {"frm": 1, "to": 2})]) == [cues.MOVE]
    assert move_cues([Event("move", {"frm": 1, "to": 2, "took": "hunter"})]) == [cues.TAKE]
    assert move_cues([Event("take", {"at": 4, "by": 3})]) == [cues.TAKE]
    assert move_cues([Event("missile", {"frm": 1, "to": 9, "hit": "drone"})]) == [cues.MISSILE]
    assert move_cues([Event("ram", {"frm": 1, "centre": 9}), Event("blasted", {"at": 9})]) == [cues.MISSILE, cues.TAKE]
    assert move_cues([swap, Event("asteroid_drop", {"at": 7}), Event("crushed", {"at": 8})]) == [cues.ASTEROID]
    assert move_cues([Event("claim", {"at": 4, "cells": [4]})]) == [cues.MOVE]
    assert set(move_cues([Event(k) for k in ("cleared", "build", "take", "missile", "drift")])) <= cues.MOVE_CUES


def test_a_drone_landing_on_an_enemy_says_what_it_took(game):
    st = blank(game)
    raider = put(st, 2, 3, "R", 0, ride="white")
    target = put(st, 3, 4, "S", 1)
    events = st.apply(mv.move(raider, target))
    moved = next(e for e in events if e.kind == "move")
    assert moved.data == {"frm": raider, "to": target, "took": "scout"} and "taking the scout" in moved.text
    assert move_cues(events) == [cues.TAKE]
    st = blank(game)
    raider = put(st, 2, 3, "R", 0, ride="white")
    events = st.apply(mv.move(raider, st.geo.sq(3, 4)))
    assert "took" not in next(e for e in events if e.kind == "move").data
    assert move_cues(events) == [cues.MOVE]


def test_under_fog_the_side_that_lost_the_drone_hears_the_take(seam_game):
    st = blank(seam_game)
    raider = put(st, 2, 3, "R", 0, ride="white")
    target = put(st, 3, 4, "S", 1)
    events = st.apply(mv.move(raider, target))
    for side in (0, 1):
        assert move_cues(events_for(events, side)) == [cues.TAKE]
