"""A person plays Starfall in the real (headless) window, only through the mouse and keys.

Positions come from real deals (seeded); each test finds the move it needs
(a swap that pays, one that makes no line, a ride, a shot) and then plays it
the way a person does, checking the state and the pixels afterwards.
"""

from __future__ import annotations

import re

import pytest
from pyglet.window import key

from pegboard.plugins.manager import Plugins
from pegboard.ui.settings import MemorySettings
from support.starfall_window import center, drag, settle, store

pytestmark = pytest.mark.gui


def pixel(image, x: float, y: float) -> tuple[int, int, int]:
    data = image.get_data("RGBA", image.width * 4)
    i = (int(round(y)) * image.width + int(round(x))) * 4
    return tuple(data[i : i + 3])


def near(a, b, tol=12) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


@pytest.fixture
def plugins():
    return Plugins()


def open_starfall(plugins, seed: int = 3, seats=("human", "human"), settings=None, **kwargs):
    from pegboard.ui import make_session, open_window

    session = make_session("starfall", "standard", list(seats), plugins, seed=seed, threaded=False)
    return open_window(session, plugins, schedule=False, settings_store=settings if settings is not None else store(),
                       **kwargs)


@pytest.fixture
def window(plugins):
    win = open_starfall(plugins)
    yield win
    if not win.has_exit:
        win.close()


def paying_swap(st):
    """A swap that makes a drone appear for the mover, and where."""
    for m in st.legal_moves():
        if m.kind != "swap" or st.kind[m.a] or st.kind[m.b]:
            continue
        probe = st.clone()
        events = probe.apply(m)
        spawned = [e for e in events if e.kind == "drone_spawned" and e.data["side"] == st.to_move]
        if spawned:
            return m, spawned[0].data["at"]
    raise AssertionError("no paying swap in this deal")


def dead_swap(st):
    """Two orthogonal neighbours, bare stars on open land, whose swap makes no line."""
    from pegboard_starfall.ui import picking

    geo = st.geo
    for a in range(geo.size):
        for b in (a + 1, a + geo.width):
            if b >= geo.size or (b == a + 1 and geo.row[a] != geo.row[b]) or st.kind[a] or st.kind[b]:
                continue
            if picking.swap_outcome(st, a, b)[0] == "snap":
                return a, b
    raise AssertionError("no dead swap")


def test_a_swap_that_pays_by_dragging_makes_a_drone_appear(window):
    from pegboard_starfall.ui import look

    s = window.session
    move, at = paying_swap(s.state)
    drag(window, move.a, move.b)
    assert s.cursor == 1 and s.history[0].move == move
    assert window.board.busy(), "the move animates"
    settle(window)
    assert s.state.kind[at] and s.state.side[at] == 0
    assert "appears" in window.board.explain.full, "the explain line opens to the whole story"
    x, y = center(window, at)
    img = window.render()
    rim = window.board.painter.cell * 0.38
    assert near(pixel(img, x, y + rim), look.GOLD, 30), "your new drone wears a gold rim"
    assert near(pixel(img, x - rim * 0.5, y - rim * 0.2), look.IVORY, 20)


def test_a_swap_that_makes_no_line_snaps_back_for_free(window):
    s = window.session
    a, b = dead_swap(s.state)
    before = list(s.state.star)
    window.click(*center(window, a))
    assert window.board.swap_from == a
    window.click(*center(window, b))
    assert s.cursor == 0 and s.state.star == before
    assert "snap back" in window.status.text.text
    assert window.board.busy()
    window.click(*center(window, a))  # a click skips the snap-back animation
    assert not window.board.busy() and s.cursor == 0
    window.press(key.ESCAPE)
    assert window.board.swap_from is None


def test_a_drone_rides_its_colour(plugins):
    from pegboard_starfall.pieces import SCOUT

    for seed in range(1, 40):
        window = open_starfall(plugins, seed=seed)
        try:
            st = window.session.state
            scout = next(sq for sq in range(st.geo.size) if st.kind[sq] == SCOUT and st.side[sq] == 0)
            rides = [m for m in st.legal_moves() if m.kind == "move" and m.a == scout and not st.kind[m.b]
                     and st.geo.chebyshev(m.a, m.b) >= 3]
            if not rides:
                continue
            move = rides[0]
            window.click(*center(window, scout))
            view = window.board
            assert view.selected == scout and view.mode == "move" and move.b in view.acts["move"]
            window.click(*center(window, move.b))
            assert window.session.history[-1].move == move
            settle(window)
            assert st.kind[move.b] == SCOUT and not st.kind[scout]
            return
        finally:
            window.close()
    pytest.fail("no deal gives the scout a ride of three squares")


def test_a_missile_before_the_action(window):
    from pegboard_starfall.pieces import SCOUT

    s = window.session
    st = s.state
    scout = next(sq for sq in range(st.geo.size) if st.kind[sq] == SCOUT and st.side[sq] == 0)
    assert st.miss[scout] == 1, "the scout loaded the start missile"
    window.click(*center(window, scout))
    view = window.board
    fire = view.mode_buttons["fire"]
    assert fire.visible and "1 carried" in fire.text
    window.click_widget(fire)
    assert view.mode == "fire"
    targets = view.acts["fire"]
    target = next(t for t in targets if st.star[t] >= 0 and not st.kind[t])
    img = window.render()
    x, y = center(window, target)
    k = view.painter.cell * 0.4
    assert near(pixel(img, x - k * 0.7, y), (249, 115, 22), 30), "targets carry an orange cross"
    window.click(x, y)
    assert s.cursor == 1 and s.history[0].move.kind == "fire"
    assert s.to_move == 0, "a missile does not end the turn"
    assert st.miss[scout] == 0
    settle(window)
    assert "fires at" in view.explain.line.text


def test_tapping_the_other_sides_drone_shows_its_reach_and_esc_cancels(window):
    st = window.session.state
    north_shield = next(sq for sq in range(st.geo.size) if st.kind[sq] == 3 and st.side[sq] == 1)
    window.click(*center(window, north_shield))
    view = window.board
    assert view.selected == north_shield and view.mode is None
    assert view.reach["moves"], "its moves are shown"
    assert "North's shield" in view.info.text
    window.press(key.ESCAPE)
    assert view.selected is None and not view.reach


def test_the_command_builds_a_turret_and_stacking_asks_first(window):
    from pegboard_starfall.pieces import COMMAND, SCOUT, SHIELD, TURRET

    s = window.session
    st = s.state
    command = st.cmd[0]
    window.click(*center(window, command))
    view = window.board
    assert view.mode_buttons["build"].visible and not view.mode_buttons["build"].enabled
    st.miss[command] = 10  # a hand-built stock
    window.press(key.ESCAPE)
    view.refresh()
    window.click(*center(window, command))
    build = view.mode_buttons["build"]
    assert build.enabled
    window.click_widget(build)
    assert view.mode == "build"
    spot = sorted(view.acts["build"])[0]
    assert st.owner[spot] == 0 and not st.kind[spot]
    window.click(*center(window, spot))
    assert st.kind[spot] == TURRET and st.command_stock(0) == 0 and st.kind[command] == COMMAND
    settle(window)
    # stacking: South's scout onto South's shield asks first (after North's answer)
    s.play(next(m for m in s.state.legal_moves() if m.kind == "swap"))
    settle(window)
    scout = next(sq for sq in range(st.geo.size) if st.kind[sq] == SCOUT and st.side[sq] == 0)
    shield = next(sq for sq in range(st.geo.size) if st.kind[sq] == SHIELD and st.side[sq] == 0)
    beside = next(t for t in st.geo.nbr8[shield] if not st.kind[t] and not st.ast[t] and st.owner[t] == 0)
    for layer in (st.kind, st.side, st.power, st.ride, st.miss):  # hand-built: the scout next to the shield
        layer[beside], layer[scout] = layer[scout], 0
    st.memo.forget()
    view.refresh()
    scout = beside
    stacks = [m for m in st.legal_moves() if m.kind == "move" and m.a == scout and st.kind[m.b] == SHIELD]
    assert stacks
    window.click(*center(window, scout))
    window.click(*center(window, stacks[0].b))
    assert window.dialog is not None and "Stack" in window.dialog.title
    ply = s.cursor
    window.click_widget(window.dialog.yes_button)
    assert s.cursor == ply + 1 and st.power[stacks[0].b] == 3


def test_fog_from_the_seam_darkens_what_south_cannot_see(plugins):
    from pegboard_starfall import fog
    from pegboard_starfall.ui import look

    window = open_starfall(plugins, settings=store(fog="seam"))
    try:
        st = window.session.state
        assert st.rules.fog == "seam", "the stored setting started a fogged game"
        vis = fog.visible(st, 0)
        img = window.render()
        dark = [sq for sq in range(st.geo.size) if not vis[sq]]
        lit = [sq for sq in range(st.geo.size) if vis[sq] and not st.kind[sq]]
        assert dark and all(st.geo.row[sq] > st.geo.seam for sq in dark)
        for sq in dark:
            x, y = center(window, sq)
            assert near(pixel(img, x, y), look.FOG, 4), f"square {sq} is dark"
            assert near(pixel(img, x + window.board.painter.cell * 0.3, y), look.FOG, 4)
        assert len(lit) >= 20
        for sq in lit[:20]:
            x, y = center(window, sq)
            assert not near(pixel(img, x, y), look.FOG, 20), f"square {sq} shows"
    finally:
        window.close()


def test_star_pixels_match_their_colour_at_known_squares(window):
    from pegboard_starfall.ui import look

    st = window.session.state
    img = window.render()
    seen = set()
    for sq in range(st.geo.size):
        c = st.star[sq]
        if c < 0 or st.kind[sq] or c in seen:
            continue
        seen.add(c)
        x, y = center(window, sq)
        assert near(pixel(img, x, y), look.STAR_COLORS[c], 12), f"colour {c} at square {sq}"
    assert len(seen) == 5


def test_every_colour_has_its_own_shape():
    from pegboard_starfall.ui import look

    def inside(pts, x, y):
        hit = False
        for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1], strict=True):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                hit = not hit
        return hit

    masks = []
    for shape in look.STAR_SHAPES:
        pts = look.star_points(shape, 0, 0, 10)
        masks.append(frozenset((i, j) for i in range(-10, 11) for j in range(-10, 11) if inside(pts, i, j)))
    assert len(set(look.STAR_SHAPES)) == len(look.STAR_COLORS) == 5
    for i in range(5):
        for j in range(i + 1, 5):
            assert len(masks[i] ^ masks[j]) > 20, f"shapes {i} and {j} differ clearly"
            a, b = look.STAR_COLORS[i], look.STAR_COLORS[j]
            assert sum(abs(p - q) for p, q in zip(a, b, strict=True)) > 90, f"colours {i} and {j} differ clearly"


def test_the_guided_first_game_lights_three_steps(plugins):
    window = open_starfall(plugins, settings=MemorySettings())  # no profile yet: the game offers the guide
    try:
        assert window.dialog is not None and "Welcome" in window.dialog.title
        window.click_widget(window.dialog.yes_button)
        s = window.session
        view = window.board
        assert view.guide is not None and s.state.rules.fog == "dark" and s.clock is None
        # 1: the scout, then the lit square
        scout = view.guide_squares[0]
        window.click(*center(window, scout))
        dest = view.guide_squares[0]
        assert dest != scout
        other = next(sq for sq in view.acts["move"] if sq != dest)
        window.click(*center(window, other))
        assert s.cursor == 0 and "Guided game" in window.status.text.text, "it waits for the lit square"
        window.click(*center(window, scout))
        window.click(*center(window, dest))
        window.tick(0.05)  # the scripted bot answers
        settle(window)
        assert s.cursor == 2 and view.guide.step == "claim"
        first_reply = s.history[1].move
        # 2: claim; the claimed squares light up
        scout = view.guide_squares[0]
        window.click(*center(window, scout))
        window.click_widget(view.mode_buttons["claim"])
        window.tick(0.05)
        settle(window)
        assert view.guide.step == "match"
        claimed = [sq for sq in s.state.geo.disc(scout, 1) if s.state.lit[0] >> sq & 1]
        assert len(claimed) >= 3, "the claimed squares stay lit for the rest of the game"
        assert all(view.frame.visible[sq] for sq in claimed)
        # 3: the lit swap makes a drone appear
        a, b = view.guide_squares
        drones = s.state.drone_count(0)
        drag(window, a, b)
        settle(window)
        assert s.state.drone_count(0) == drones + 1
        assert view.guide.step == "done"
    finally:
        window.close()
    again = open_starfall(plugins, settings=MemorySettings())
    try:
        again.click_widget(again.dialog.yes_button)
        view = again.board
        scout = view.guide_squares[0]
        again.click(*center(again, scout))
        again.click(*center(again, view.guide_squares[0]))
        again.tick(0.05)
        assert again.session.history[1].move == first_reply, "the same every time"
    finally:
        again.close()


def test_settings_change_restarts_after_asking(window):
    s = window.session
    s.play(next(m for m in s.state.legal_moves() if m.kind == "swap"))
    settle(window)
    dialog = window.open_settings()
    fog = dialog.widget_for("fog")
    window.click_widget(fog.next)
    assert dialog.changed() == {"fog": "seam"}
    window.click_widget(dialog.save_button)
    assert window.dialog is not None and "Restart" in window.dialog.title, "a game under way: it asks first"
    window.click_widget(window.dialog.yes_button)
    assert window.session.state.rules.fog == "seam" and window.session.cursor == 0
    assert window.settings_store.get_setting("starfall", "fog") == "seam"
    # explain moves off: no explain line, the history keeps the explanation
    dialog = window.open_settings()
    window.click_widget(dialog.widget_for("explain").next)
    window.click_widget(dialog.save_button)
    assert window.dialog is None, "not a rule setting: no question"
    s = window.session
    move, _at = paying_swap(s.state)
    drag(window, move.a, move.b)
    settle(window)
    assert window.board.explain.line.text == ""
    # two people share the screen under fog: the History reads as the side to move may know it
    moved = [e for e in window.history.list.entries if e.number == "1"]
    assert moved and moved[0].text == s.history[0].text_for(1)
    s.play(next(m for m in s.state.legal_moves() if m.kind != "fire"))
    settle(window)
    assert s.viewer == 0
    moved = [e for e in window.history.list.entries if e.number == "1"]
    geo = s.state.geo
    assert moved[0].text == s.history[0].text == f"swap {geo.name(move.a)}-{geo.name(move.b)}"
    note = window.history.note_row.index(True)  # South's move's explanation: a click opens it in full
    assert window.history.row_ply[note] == 1
    window.click(*window.history.list.row_rect(note).center)
    notes = " ".join(e.text for e in window.history.list.entries if e.note)
    assert "swaps" in notes and "appears" in notes, notes


def test_a_settings_change_persists_across_a_restart(plugins):
    from pegboard.ratings.profile import open_profile

    with open_profile() as prof:
        prof.set_setting("starfall", "welcomed", True)
    from pegboard.ui import make_session, open_window

    session = make_session("starfall", "standard", ["human", "human"], plugins, threaded=False)
    first = open_window(session, plugins, schedule=False)  # no store given: the profile, as `pegboard play` does
    try:
        dialog = first.open_settings()
        target = dialog.widget_for("target")
        for _ in range(3):
            first.click_widget(target.next)
        first.click_widget(dialog.widget_for("salvage").next)
        first.click_widget(dialog.save_button)
        assert first.session.state.rules.target == 72 and first.session.state.rules.salvage
    finally:
        first.close()
    session = make_session("starfall", "standard", ["human", "human"], plugins, threaded=False)
    second = open_window(session, plugins, schedule=False)  # the default store: the profile on disk
    try:
        assert second.dialog is None
        rules = second.session.state.rules
        assert rules.target == 72 and rules.salvage and rules.fog == "off"
        dialog = second.open_settings()
        assert dialog.chosen()["target"] == 72 and dialog.chosen()["salvage"] is True
    finally:
        second.close()


def test_timers_show_two_clocks_and_a_move_bar(plugins):
    window = open_starfall(plugins, settings=store(timers=True))
    try:
        s = window.session
        assert s.clock is not None and s.clock_settings.total == 1200 and s.clock_settings.per_move == 60
        window.tick(0.05)
        shown = re.findall(r"(\d+):(\d\d)", window.board.clocks.text)  # a loaded machine may take a second or two
        assert len(shown) == 2 and all(19 * 60 <= int(m) * 60 + int(s) <= 20 * 60 for m, s in shown)
        assert window.status.move_fraction is not None and window.status.move_fraction > 0.9
        img = window.render()
        bar = window.status.rect
        assert near(pixel(img, bar.x + 20, bar.top - 2), (251, 191, 36), 30), "the move bar is drawn"
    finally:
        window.close()


def test_the_quieter_hand_lights_the_best_swap_after_30_seconds(plugins):
    from pegboard_starfall.bots import hint
    from pegboard_starfall.ui import look

    window = open_starfall(plugins, seats=("human", "skill-10"))
    try:
        view = window.board
        now = [1000.0]
        view.now = lambda: now[0]
        window.tick(0.05)  # the position starts waiting at the fake 1000 s
        now[0] += 29.0
        window.tick(0.05)
        view.quiet.wait()
        window.tick(0.05)
        assert view.highlight == (), "not before 30 seconds"
        now[0] += 2.0
        window.tick(0.05)  # the search starts in the background
        view.quiet.wait()
        window.tick(0.05)
        best = hint(window.session.game, window.session.state, 0)  # the skill-100 evaluation's best swap
        assert best is not None and view.highlight == (best.a, best.b)
        img = window.render()
        for sq in view.highlight:
            x, y = center(window, sq)
            edge = window.board.painter.cell / 2 - 4
            assert near(pixel(img, x - edge, y), look.HINT, 30), "the two stars light up green"
        drag(window, best.a, best.b)
        window.tick(0.05)
        settle(window)
        assert view.highlight == ()
    finally:
        window.close()


def test_no_hint_above_skill_50_and_no_undo_in_a_rated_game(plugins):
    window = open_starfall(plugins, seats=("human", "skill-60"), settings=store(skill=60))
    try:
        view = window.board
        now = [0.0]
        view.now = lambda: now[0]
        window.tick(0.05)
        now[0] += 100.0
        window.tick(0.05)
        view.quiet.wait()
        window.tick(0.05)
        assert view.highlight == ()
        move, _at = paying_swap(window.session.state)
        drag(window, move.a, move.b)
        window.tick(0.05)  # skill-60 answers
        assert window.session.cursor == 2
        assert not window.buttons["undo"].enabled, "undo would reveal the refills"
        window.undo()
        assert window.session.cursor == 2
        assert "1520" in view.scores.text and "rated" in view.scores.text
    finally:
        window.close()


def test_a_rated_win_moves_the_rating_and_a_new_game_mid_game_counts_as_a_loss(plugins):
    from pegboard.ratings.elo import rating_change
    from pegboard.ratings.profile import open_profile

    window = open_starfall(plugins, seats=("human", "skill-10"), settings=store(target=60))
    try:
        s = window.session
        st = s.state
        assert st.rules.target == 60
        geo = st.geo
        spare = [sq for sq in range(geo.size) if st.owner[sq] < 0 and 2 <= geo.row[sq] <= 7
                 and sq not in (geo.sq(3, 0), geo.sq(3, 1))]
        for sq in spare[:50]:  # hand-built: South owns 59 squares, its scout's claim takes (3,0) and (3,1)
            st.owner[sq] = 0
        assert st.territory()[0] == 59
        window.board.refresh()
        scout = geo.sq(4, 0)
        window.click(*center(window, scout))
        window.click_widget(window.board.mode_buttons["claim"])
        assert s.result is not None and s.result.winner == 0
        dialog = window.dialog
        assert dialog is not None and dialog.title == "You win" and "South holds" in dialog.reason.text
        gain = rating_change(1000.0, 920.0, 1.0, weight=0.1)  # the bot at skill 10: rated 920, a tenth of the change
        assert 0 < gain < 32 * 0.1
        assert f"Your rating: 1000 → {1000 + gain:.0f} ({gain:+.1f})" in dialog.note.text
        with open_profile() as prof:
            assert abs(prof.rating - (1000 + gain)) < 1e-6 and prof.history()[0].result == 1.0
        window.close_dialog(dialog)
        window.new_game()
        s = window.session
        move, _at = paying_swap(s.state)
        drag(window, move.a, move.b)
        window.tick(0.05)
        window.new_game()
        assert "counts as a loss" in window.status.text.text
        with open_profile() as prof:
            rows = prof.history()
            assert len(rows) == 2 and rows[0].result == 0.0 and prof.rating < 1000 + gain
    finally:
        window.close()


def test_a_siege_strikes_from_its_panel(plugins):
    from pegboard_starfall.pieces import SIEGE

    for seed in range(1, 30):
        window = open_starfall(plugins, seed=seed)
        try:
            st = window.session.state
            siege = next(sq for sq in range(st.geo.size) if st.kind[sq] == SIEGE and st.side[sq] == 0)
            strikes = [m for m in st.legal_moves() if m.kind == "strike" and m.a == siege]
            if not strikes:
                continue
            window.click(*center(window, siege))
            view = window.board
            strike = view.mode_buttons["strike"]
            assert strike.visible
            window.click_widget(strike)
            assert set(view.acts["strike"]) == {m.b for m in strikes}
            window.click(*center(window, strikes[0].b))
            assert window.session.history[-1].move == strikes[0]
            settle(window)
            assert st.kind[strikes[0].b] == SIEGE
            return
        finally:
            window.close()
    pytest.fail("no deal lets the siege strike at once")


def test_export_and_import_a_game_played_under_settings(plugins, tmp_path):
    window = open_starfall(plugins, settings=store(fog="seam", target=75))
    try:
        s = window.session
        for _ in range(3):
            move, _at = paying_swap(s.state) if s.to_move == 0 else (next(m for m in s.state.legal_moves()
                                                                          if m.kind == "swap"), None)
            s.play(move)
        settle(window)
        stars = list(s.state.star)
        path = tmp_path / "game.json"
        window._export(path)
        window.new_game()
        assert s.cursor == 0
        window._import(path)
        assert s.cursor == 3 and s.state.star == stars
        assert s.state.rules.fog == "seam" and s.state.rules.target == 75
        assert window.board.frame.visible is not None, "the imported game is drawn under its fog"
    finally:
        window.close()


def test_an_imported_game_against_a_skill_bot_is_not_rated(plugins, tmp_path):
    """A file could hold a position already won: playing on from it counts for nothing."""
    from pegboard.ratings.profile import open_profile
    from pegboard.ui import make_session
    from pegboard_starfall.ui import match

    made = make_session("starfall", "standard", ["human", "human"], plugins, seed=5, threaded=False)
    for _ in range(2):
        made.play(next(m for m in made.state.legal_moves() if m.kind == "swap"))
    path = tmp_path / "two.json"
    made.export(path)
    window = open_starfall(plugins, seats=("human", "skill-10"), settings=store(skill=10))
    try:
        s = window.session
        assert match.is_rated(s) and "(rated)" in window.board.scores.text
        window._import(path)
        if window.dialog is not None:
            window.close_dialog(window.dialog)
        assert s.cursor == 2 and s.to_move == 0 and match.imported(s) and not match.is_rated(s)
        assert "not rated: imported" in window.board.scores.text
        move, _at = paying_swap(s.state)
        drag(window, move.a, move.b)
        window.tick(0.05)  # skill-10 answers
        assert s.cursor == 4 and not match.info(s).registered
        assert window.buttons["undo"].enabled, "an unrated game may take moves back"
        with open_profile() as prof:
            assert prof.history() == [] and prof.rating == 1000.0
        window.new_game()  # and leaving it costs nothing
        with open_profile() as prof:
            assert prof.history() == []
        assert match.is_rated(window.session) and not match.imported(window.session)
    finally:
        window.close()


def test_settings_pick_the_open_sky_variant_and_keep_other_settings_on_top(window):
    dialog = window.open_settings()
    window.click_widget(dialog.widget_for("rules").next)
    assert dialog.changed() == {"rules": "open_sky"}
    window.click_widget(dialog.save_button)
    if window.dialog is not None:  # a game under way asks first
        window.click_widget(window.dialog.yes_button)
    rules = window.session.state.rules
    assert rules.claim_radius == 2 and rules.claim_enemy and rules.drop_target == "empty"
    assert window.session.ruleset == "starfall/open_sky", "unchanged otherwise: the variant as shipped"
    dialog = window.open_settings()
    window.click_widget(dialog.widget_for("fog").next)
    window.click_widget(dialog.save_button)
    if window.dialog is not None:
        window.click_widget(window.dialog.yes_button)
    rules = window.session.state.rules
    assert rules.fog == "seam" and rules.claim_radius == 2 and rules.claim_enemy, "fog laid over open_sky"
