"""One hand-built position per Node War rule (standard ruleset: Blue Base 6,2, Red Base 6,16)."""

from __future__ import annotations

import pytest

from pegboard.game import IllegalMove
from pegboard_nodewar import GROW, LOOP, REVIVE, SPLIT, NodeWarGame
from support.nodewar_helpers import alive_at, branches_at, build, line_set, mv, seg

BB, RB = (6, 2), (6, 16)


def kinds(events):
    return [e.kind for e in events]


def event(events, kind):
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, f"expected one {kind} in {kinds(events)}"
    return found[0]


def refused(state, move, rule):
    before = state.to_json()
    with pytest.raises(IllegalMove) as info:
        state.apply(move)
    assert info.value.rule == rule, info.value.reason
    assert state.check(move) == info.value.reason
    assert state.check(move).rule == rule  # check keeps the rule id apply raises with
    assert move not in state.legal_moves()
    assert state.to_json() == before
    return info.value


# -- the start ------------------------------------------------------------------------------


def test_start_position(game: NodeWarGame) -> None:
    state = game.new_state()
    assert state.to_move == 0 and state.turn == 1 and state.result is None
    moves = state.legal_moves()
    # Every empty point within radius 4 of the Blue Base: 49 lattice points in the disc, minus the
    # Base itself, minus points off the board (y < 0).
    targets = {game.xy(m.dst) for m in moves}
    assert all(m.kind == GROW and game.xy(m.src) == BB for m in moves)
    assert targets == {
        (x, y) for x in range(13) for y in range(19) if (x - 6) ** 2 + (y - 2) ** 2 <= 16 and (x, y) != BB
    }


# -- cutting ------------------------------------------------------------------------------------

# Blue node 4,8 joined to the Base; a Red chain 6,16-6,12-5,11-3,10-3,9-5,9 runs across x = 4.
CUT_BLUE = [(4, 8)]
CUT_RED = [(6, 12), (5, 11), (3, 10), (3, 9), (5, 9)]
CUT_LINES = [(BB, (4, 8)), (RB, (6, 12)), ((6, 12), (5, 11)), ((5, 11), (3, 10)), ((3, 10), (3, 9)), ((3, 9), (5, 9))]


@pytest.mark.parametrize("lines", [CUT_LINES, CUT_LINES[::-1]], ids=["base-side-first", "far-side-first"])
def test_one_line_cuts_two_enemy_lines(game: NodeWarGame, lines) -> None:
    # The engine settles life one cut line at a time, in line-id order: both orders must agree.
    state = build(game, CUT_BLUE, CUT_RED, lines)
    # 4,8 -> 4,11 meets 3,9-5,9 at the lattice point 4,9 and crosses 5,11-3,10 between points.
    events = state.apply(mv(game, GROW, (4, 8), (4, 11)))
    cut = event(events, "lines_cut")
    assert cut.data["count"] == 2 and cut.data["owner"] == 1
    lines = line_set(state)
    assert (seg((3, 9), (5, 9)), 1, "cut") in lines
    assert (seg((5, 11), (3, 10)), 1, "cut") in lines
    assert (seg((4, 8), (4, 11)), 0, "live") in lines
    died = event(events, "nodes_died")
    assert sorted(map(tuple, died.data["points"])) == [(3, 9), (3, 10), (5, 9)]
    assert alive_at(state, 5, 11) and alive_at(state, 6, 12)
    assert not alive_at(state, 3, 10)
    # Cut lines keep their branch slots.
    assert branches_at(state, 3, 9) == 2 and branches_at(state, 5, 11) == 2


def test_cut_beside_a_base_kills_all_beyond_it(game: NodeWarGame) -> None:
    # Red's only line from its Base runs 6,16-3,16; Blue grows onto it at 4,16. The Base's side is
    # the small piece here: everything on the other side dies.
    blue = [(6, 6), (6, 9), (5, 11), (5, 14)]
    red = [(3, 16), (1, 14), (1, 17)]
    lines = [(BB, (6, 6)), ((6, 6), (6, 9)), ((6, 9), (5, 11)), ((5, 11), (5, 14)),
             (RB, (3, 16)), ((3, 16), (1, 14)), ((3, 16), (1, 17))]
    state = build(game, blue, red, lines)
    before = state.to_json()
    events = state.apply(mv(game, GROW, (5, 14), (4, 16)))
    assert event(events, "lines_cut").data["count"] == 1
    assert sorted(map(tuple, event(events, "nodes_died").data["points"])) == [(1, 14), (1, 17), (3, 16)]
    assert alive_at(state, *RB) and alive_at(state, 4, 16)
    state.undo()
    assert state.to_json() == before


def test_node_placed_on_enemy_line_cuts_it(game: NodeWarGame) -> None:
    state = build(game, CUT_BLUE, CUT_RED, CUT_LINES)
    events = state.apply(mv(game, GROW, (4, 8), (4, 9)))
    assert kinds(events)[:3] == ["node_placed", "line_added", "lines_cut"]
    assert event(events, "lines_cut").data["count"] == 1
    assert (seg((3, 9), (5, 9)), 1, "cut") in line_set(state)
    assert [tuple(p) for p in event(events, "nodes_died").data["points"]] == [(5, 9)]
    assert alive_at(state, 3, 9)


def test_collinear_overlap_needs_passing_an_end(game: NodeWarGame) -> None:
    # A new segment can only overlap an enemy line collinearly by running through one of its end
    # nodes, which the node rule forbids; the contact test itself still counts overlap as touching.
    from pegboard_nodewar.geometry import segments_touch

    state = build(
        game,
        [(1, 9), (1, 12)],
        [(3, 12), (6, 12)],
        [(BB, (1, 9)), ((1, 9), (1, 12)), (RB, (6, 12)), ((6, 12), (3, 12))],
    )
    refused(state, mv(game, GROW, (1, 12), (4, 12)), "line_through_node")
    assert segments_touch(1, 12, 4, 12, 3, 12, 6, 12)  # overlap on 3..4
    assert segments_touch(0, 0, 2, 2, 2, 2, 3, 5)  # meeting at an end
    assert segments_touch(0, 0, 2, 2, 1, 1, 3, 0)  # an end on the other segment
    assert segments_touch(0, 0, 3, 1, 1, 1, 2, 0)  # proper crossing between lattice points
    assert not segments_touch(0, 0, 2, 2, 3, 3, 5, 5)  # collinear, disjoint
    assert not segments_touch(0, 0, 2, 0, 0, 1, 2, 1)  # parallel


def test_cut_line_is_inert(game: NodeWarGame) -> None:
    # A cut Blue line 2,8-5,8 on the board: Red can cross it and place a node on it with no effect.
    state = build(
        game,
        [(2, 8), (5, 8)],
        [(4, 11)],
        [(BB, (5, 8)), ((5, 8), (2, 8), "cut"), (RB, (4, 11))],
        to_move=1,
    )
    events = state.apply(mv(game, GROW, (4, 11), (4, 8)))
    assert "lines_cut" not in kinds(events)
    assert branches_at(state, 4, 8) == 1
    assert (seg((5, 8), (2, 8)), 0, "cut") in line_set(state)
    # Blue cannot split a cut line: a node there would be a grow.
    assert state.classify(game.point(5, 8), game.point(3, 8)) == GROW
    # A cut line never carries life: 2,8 stays dead while 5,8 lives.
    assert alive_at(state, 5, 8) and not alive_at(state, 2, 8)


def test_crossing_own_line_does_nothing(game: NodeWarGame) -> None:
    # 4,5 -> 7,5 crosses the own line 6,2-6,6 at the lattice point 6,5.
    state = build(game, [(6, 6), (4, 5)], [], [(BB, (6, 6)), (BB, (4, 5))])
    events = state.apply(mv(game, GROW, (4, 5), (7, 5)))
    assert "lines_cut" not in kinds(events)
    assert all(status == "live" for _, _, status in line_set(state))


# -- nodes and lines in the way -------------------------------------------------------------------


@pytest.mark.parametrize("blocker_owner", ["blue", "red"])
def test_line_through_a_node_is_refused(game: NodeWarGame, blocker_owner: str) -> None:
    blue, red = [(4, 8)], []
    (blue if blocker_owner == "blue" else red).append((4, 10))
    state = build(game, blue, red, [(BB, (4, 8))])
    error = refused(state, mv(game, GROW, (4, 8), (4, 11)), "line_through_node")
    assert "4,10" in error.reason


def test_loop_through_a_node_is_refused(game: NodeWarGame) -> None:
    # 3,6 is a lone dead Blue node between two alive ones.
    state = build(game, [(2, 6), (4, 6), (3, 6)], [], [(BB, (2, 6)), (BB, (4, 6))])
    refused(state, mv(game, LOOP, (2, 6), (4, 6)), "line_through_node")


def test_node_on_node_is_refused(game: NodeWarGame) -> None:
    state = build(game, CUT_BLUE, CUT_RED, CUT_LINES)
    refused(state, mv(game, GROW, (4, 8), (5, 9)), "occupied")
    refused(state, mv(game, LOOP, (4, 8), (5, 9)), "occupied")
    # Growing onto an own node is not a grow at all.
    joined = build(game, [(6, 6)], [], [(BB, (6, 6))])
    refused(joined, mv(game, GROW, BB, (6, 6)), "wrong_move_type")


# -- splitting -------------------------------------------------------------------------------------

# A full regular node 4,8: Base line plus lines to 1,8, 4,11 and 2,10 (4 branches).
FULL_BLUE = [(4, 8), (1, 8), (4, 11), (2, 10)]
FULL_LINES = [(BB, (4, 8)), ((4, 8), (1, 8)), ((4, 8), (4, 11)), ((4, 8), (2, 10))]


def test_full_node_may_only_insert(game: NodeWarGame) -> None:
    state = build(game, FULL_BLUE, [], FULL_LINES)
    assert branches_at(state, 4, 8) == 4
    src = game.point(4, 8)
    from_full = {(m.kind, game.xy(m.dst)) for m in state.legal_moves() if m.src == src}
    assert from_full == {(SPLIT, p) for p in [(3, 8), (2, 8), (4, 9), (4, 10), (3, 9)]}
    refused(state, mv(game, GROW, (4, 8), (5, 9)), "branch_limit")


def test_insert_from_full_endpoint(game: NodeWarGame) -> None:
    state = build(game, FULL_BLUE, [], FULL_LINES)
    events = state.apply(mv(game, SPLIT, (4, 8), (3, 8)))
    assert kinds(events) == ["node_placed", "line_split"]
    assert branches_at(state, 4, 8) == 4
    assert branches_at(state, 3, 8) == 2
    lines = line_set(state)
    assert (seg((4, 8), (1, 8)), 0, "live") not in lines
    assert {(seg((4, 8), (3, 8)), 0, "live"), (seg((3, 8), (1, 8)), 0, "live")} <= lines
    state.undo()
    assert line_set(state) == line_set(build(game, FULL_BLUE, [], FULL_LINES))


def test_split_from_a_non_endpoint(game: NodeWarGame) -> None:
    state = build(game, [(6, 6), (4, 4)], [], [(BB, (6, 6)), (BB, (4, 4))])
    events = state.apply(mv(game, SPLIT, (4, 4), (6, 4)))
    assert kinds(events) == ["node_placed", "line_split", "line_added"]
    assert branches_at(state, 6, 4) == 3
    assert branches_at(state, 4, 4) == 2
    assert branches_at(state, 6, 2) == 2
    lines = line_set(state)
    assert {seg(BB, (6, 4)), seg((6, 4), (6, 6)), seg((4, 4), (6, 4))} <= {ends for ends, _, _ in lines}
    assert seg(BB, (6, 6)) not in {ends for ends, _, _ in lines}
    # Calling it a grow is the wrong type.
    state.undo()
    refused(state, mv(game, GROW, (4, 4), (6, 4)), "wrong_move_type")


def test_split_needs_a_free_branch_unless_inserting(game: NodeWarGame) -> None:
    # 4,4 is full (Base line + three more); 6,4 lies on the Base line 6,2-6,6 which 4,4 does not end.
    blue = [(6, 6), (4, 4), (1, 4), (4, 7), (2, 6)]
    lines = [(BB, (6, 6)), (BB, (4, 4)), ((4, 4), (1, 4)), ((4, 4), (4, 7)), ((4, 4), (2, 6))]
    state = build(game, blue, [], lines)
    refused(state, mv(game, SPLIT, (4, 4), (6, 4)), "branch_limit")


# Two own lines cross at the lattice point 6,4: the Base line 6,2-6,6 and 4,4-8,4.
TWO_BLUE = [(6, 6), (4, 4), (8, 4), (8, 6)]
TWO_LINES = [(BB, (6, 6)), (BB, (4, 4)), (BB, (8, 6)), ((4, 4), (8, 4))]


def test_point_on_two_own_lines_splits_both(game: NodeWarGame) -> None:
    state = build(game, TWO_BLUE, [], TWO_LINES)
    events = state.apply(mv(game, SPLIT, (4, 4), (6, 4)))
    assert kinds(events) == ["node_placed", "line_split", "line_split"]
    assert branches_at(state, 6, 4) == 4
    assert branches_at(state, 4, 4) == 2  # inserted into 4,4-8,4: unchanged
    ends = {e for e, _, _ in line_set(state)}
    assert {seg(BB, (6, 4)), seg((6, 4), (6, 6)), seg((4, 4), (6, 4)), seg((6, 4), (8, 4))} <= ends


def test_split_branch_limit(game: NodeWarGame) -> None:
    # From 8,6 (an end of neither line) the new node would get 2 + 2 + 1 = 5 branches > 4.
    state = build(game, TWO_BLUE, [], TWO_LINES)
    error = refused(state, mv(game, SPLIT, (8, 6), (6, 4)), "split_branch_limit")
    assert "5 branches" in error.reason


def test_split_branch_limit_follows_the_ruleset(game: NodeWarGame) -> None:
    ruleset = dict(game.ruleset)
    ruleset["node"] = {"radius": 3, "branches": 5}
    five = NodeWarGame(ruleset)
    state = build(five, TWO_BLUE, [], TWO_LINES)
    state.apply(mv(five, SPLIT, (8, 6), (6, 4)))
    assert branches_at(state, 6, 4) == 5


def test_split_of_dead_line_revives_it(game: NodeWarGame) -> None:
    state = build(game, [(3, 5), (1, 6), (1, 9)], [], [(BB, (3, 5)), ((1, 6), (1, 9))])
    assert not alive_at(state, 1, 6)
    events = state.apply(mv(game, SPLIT, (3, 5), (1, 7)))
    assert sorted(map(tuple, event(events, "nodes_revived").data["points"])) == [(1, 6), (1, 9)]
    assert alive_at(state, 1, 9) and alive_at(state, 1, 7)


# -- loops and revives -------------------------------------------------------------------------------


def test_revive_a_dead_sub_network(game: NodeWarGame) -> None:
    blue = [(3, 5), (2, 7), (2, 11), (4, 11)]
    lines = [(BB, (3, 5)), ((3, 5), (2, 7), "cut"), ((2, 7), (2, 11)), ((2, 11), (4, 11))]
    state = build(game, blue, [], lines)
    assert [alive_at(state, *p) for p in blue] == [True, False, False, False]
    assert mv(game, REVIVE, (3, 5), (2, 7)) in state.legal_moves()
    refused(state, mv(game, LOOP, (3, 5), (2, 7)), "wrong_move_type")
    events = state.apply(mv(game, REVIVE, (3, 5), (2, 7)))
    revived = event(events, "nodes_revived")
    assert revived.data["count"] == 3
    assert all(alive_at(state, *p) for p in blue)
    # The cut line and the new live line both use a slot.
    assert branches_at(state, 3, 5) == 3 and branches_at(state, 2, 7) == 3
    state.undo()
    assert not alive_at(state, 4, 11)


def test_dead_nodes_cannot_act(game: NodeWarGame) -> None:
    state = build(game, [(3, 5), (2, 7)], [], [(BB, (3, 5)), ((3, 5), (2, 7), "cut")])
    refused(state, mv(game, GROW, (2, 7), (2, 9)), "dead_source")


def test_loop_needs_free_branches_and_no_existing_link(game: NodeWarGame) -> None:
    state = build(game, FULL_BLUE + [(6, 6), (8, 8)], [], FULL_LINES + [(BB, (6, 6)), (BB, (8, 8))])
    refused(state, mv(game, LOOP, (6, 6), (4, 8)), "branch_limit")  # 4,8 is full
    refused(state, mv(game, LOOP, BB, (6, 6)), "already_joined")
    events = state.apply(mv(game, LOOP, (6, 6), (8, 8)))
    assert kinds(events) == ["line_added"]
    assert branches_at(state, 6, 6) == 2 and branches_at(state, 8, 8) == 2


def test_loop_keeps_network_alive_after_cut(game: NodeWarGame) -> None:
    blue = [(4, 5), (8, 5), (6, 8)]
    red = [(0, 13), (0, 6), (2, 4)]
    red_lines = [(RB, (0, 13)), ((0, 13), (0, 6)), ((0, 6), (2, 4))]
    ring = [(BB, (4, 5)), (BB, (8, 5)), ((4, 5), (6, 8)), ((8, 5), (6, 8))]
    with_loop = build(game, blue, red, ring + red_lines, to_move=1)
    events = with_loop.apply(mv(game, GROW, (2, 4), (5, 4)))
    assert event(events, "lines_cut").data["count"] == 1
    assert "nodes_died" not in kinds(events)
    assert all(alive_at(with_loop, *p) for p in blue)

    without = build(game, blue, red, ring[:3] + red_lines, to_move=1)
    events = without.apply(mv(game, GROW, (2, 4), (5, 4)))
    assert sorted(map(tuple, event(events, "nodes_died").data["points"])) == [(4, 5), (6, 8)]
    assert alive_at(without, 8, 5)


# -- radius and branch limits ------------------------------------------------------------------------


def test_base_radius_and_branches(game: NodeWarGame) -> None:
    state = game.new_state()
    assert state.check(mv(game, GROW, BB, (6, 6))) is None
    assert state.check(mv(game, GROW, BB, (9, 4))) is None  # 9 + 4 <= 16
    refused(state, mv(game, GROW, BB, (6, 7)), "out_of_range")
    refused(state, mv(game, GROW, BB, (9, 5)), "out_of_range")  # 9 + 9 > 16
    spokes = [(2, 2), (10, 2), (6, 6), (3, 5), (9, 5), (6, 0)]
    full = build(game, spokes, [], [(BB, p) for p in spokes])
    assert branches_at(full, *BB) == 6
    refused(full, mv(game, GROW, BB, (5, 4)), "branch_limit")
    assert all(m.src != game.point(*BB) or m.kind == SPLIT for m in full.legal_moves())


def test_regular_radius_and_branches(game: NodeWarGame) -> None:
    state = build(game, [(6, 6)], [], [(BB, (6, 6))])
    assert state.check(mv(game, GROW, (6, 6), (6, 9))) is None
    assert state.check(mv(game, GROW, (6, 6), (8, 8))) is None  # 4 + 4 <= 9
    refused(state, mv(game, GROW, (6, 6), (6, 10)), "out_of_range")
    refused(state, mv(game, GROW, (6, 6), (8, 9)), "out_of_range")  # 4 + 9 > 9


def test_enemy_and_empty_sources_are_refused(game: NodeWarGame) -> None:
    state = game.new_state()
    refused(state, mv(game, GROW, RB, (6, 13)), "not_own_node")
    refused(state, mv(game, GROW, (6, 5), (6, 6)), "no_source_node")


# -- the end of the game -------------------------------------------------------------------------------

# Blue's Base holds five cut lines and one live line to 6,5; Red's 4,4 -> 7,4 cuts it at 6,4.
SMOTHER_BLUE = [(3, 1), (9, 1), (4, 5), (8, 5), (6, 0), (6, 5)]
SMOTHER_LINES = [(BB, p, "cut") for p in SMOTHER_BLUE[:5]] + [(BB, (6, 5)), (RB, (4, 4))]


def test_smothered_base_loses(game: NodeWarGame) -> None:
    state = build(game, SMOTHER_BLUE, [(4, 4)], SMOTHER_LINES, to_move=1)
    events = state.apply(mv(game, GROW, (4, 4), (7, 4)))
    assert not alive_at(state, 6, 5)
    assert state.result is not None
    assert (state.result.winner, state.result.reason) == (1, "no_moves")
    assert kinds(events)[-1] == "game_over"
    assert state.legal_moves() == []
    refused(state, mv(game, SPLIT, BB, (6, 3)), "game_over")
    assert not state.can_extend()
    state.undo()
    assert state.result is None and alive_at(state, 6, 5)


def test_position_with_no_moves_is_lost(game: NodeWarGame) -> None:
    lines = [(BB, p, "cut") for p in SMOTHER_BLUE]
    state = build(game, SMOTHER_BLUE, [], lines)
    assert state.result is not None and state.result.reason == "no_moves" and state.result.winner == 1


def test_turn_limit_win(game: NodeWarGame) -> None:
    state = build(game, [(6, 6)], [], [(BB, (6, 6))], turn=300, turn_limit=300)
    events = state.apply(mv(game, GROW, (6, 6), (6, 9)))
    assert state.result is not None
    assert (state.result.winner, state.result.reason, state.result.scores) == (0, "turn_limit", (3, 1))
    assert event(events, "game_over").data["reason"] == "turn_limit"


def test_turn_limit_draw(game: NodeWarGame) -> None:
    state = build(game, [], [(6, 12)], [(RB, (6, 12))], turn=300, turn_limit=300)
    state.apply(mv(game, GROW, BB, (6, 6)))
    assert state.result is not None
    assert (state.result.winner, state.result.reason, state.result.scores) == (None, "turn_limit", (2, 2))


def test_turn_limit_counts_only_alive_nodes(game: NodeWarGame) -> None:
    # Red has more nodes, but two of them are dead.
    state = build(
        game, [], [(6, 12), (2, 12), (2, 9)], [(RB, (6, 12)), ((2, 12), (2, 9))], turn=300, turn_limit=300
    )
    state.apply(mv(game, GROW, BB, (6, 6)))
    assert state.result is not None and state.result.scores == (2, 2) and state.result.winner is None


def test_turn_limit_extension_repeats(game: NodeWarGame) -> None:
    state = build(game, [(6, 6)], [], [(BB, (6, 6))], turn=300, turn_limit=300)
    state.apply(mv(game, GROW, (6, 6), (6, 9)))
    assert state.can_extend()
    state.extend()
    assert state.result is None and state.turn_limit == 350 and not state.can_extend()
    for _ in range(50):
        assert state.result is None
        state.apply(state.legal_moves()[0])
    assert state.turn == 351
    assert state.result is not None and state.result.reason == "turn_limit"
    state.extend()
    assert state.turn_limit == 400


def test_no_move_loss_is_checked_before_the_count(game: NodeWarGame) -> None:
    # The smothering move is the 300th: Red wins on no_moves, not on the count.
    state = build(game, SMOTHER_BLUE, [(4, 4)], SMOTHER_LINES, to_move=1, turn=300, turn_limit=300)
    state.apply(mv(game, GROW, (4, 4), (7, 4)))
    assert state.result is not None and state.result.reason == "no_moves"
    assert not state.can_extend()


def test_extend_only_after_turn_limit(game: NodeWarGame) -> None:
    from pegboard.game import PegboardError

    state = game.new_state()
    assert not state.can_extend()
    with pytest.raises(PegboardError):
        state.extend()


def test_first_player_from_ruleset(game: NodeWarGame) -> None:
    ruleset = dict(game.ruleset)
    ruleset["turns"] = dict(ruleset["turns"], first="Red")
    red_first = NodeWarGame(ruleset)
    state = red_first.new_state()
    assert state.to_move == 1
    assert all(red_first.xy(m.src) == RB for m in state.legal_moves())
