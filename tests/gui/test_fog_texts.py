"""Under fog nothing the window draws tells a person what their seat cannot see.

A long fogged game (From the seam, and Everything dark; timers on) of a person, South, against a skill bot,
driven through the real headless window with clicks: swaps, drone actions, claims, the
History's entries opened, the explain line opened, a North drone inspected, Export tried.
After every move every string the window draws is checked against what South's
observation showed (:func:`pegboard.game.State.observation`): every square it names was in
South's sight when the move it speaks of was played (before or after it), a sentence about a
star colour or a North drone names such a square, the side panel's North figures are the
ones in sight, and the match seed is never shown. At the end South's clock runs out.
"""

from __future__ import annotations

import random

import pytest

from pegboard.match.session import Session
from pegboard.plugins.manager import Plugins
from pegboard.rules.rulesets import build_game
from pegboard.ui.settings import MemorySettings
from support import fogtext
from support.drawn import drawn_text
from support.starfall_window import FakeTime, drag

pytestmark = pytest.mark.gui

SEED = 914_275_361  # a seed no text should ever show
VALUES = {"timers": True, "target": 100, "skill": 20}


class Sight:
    """What South's observation showed after each move (index = the position's ply)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.seen: list[set[int]] = [self._now()]
        session.add_listener(self._changed)

    def _now(self) -> set[int]:
        grid = self.session.state.observation(0)["visible"]
        return {r * 11 + c for r, row in enumerate(grid) for c, v in enumerate(row) if v}

    def _changed(self, change) -> None:
        if change.kind == "move":
            del self.seen[change.ply:]
            self.seen.append(self._now())

    def around(self, ply: int) -> set[int]:
        """What South saw as move ``ply`` was played: before it or after it."""
        return self.seen[max(0, ply - 1)] | self.seen[min(ply, len(self.seen) - 1)]

    def since(self, first: int, last: int) -> set[int]:
        return set().union(*self.seen[max(0, first - 1): last + 1])


def check_text(text: str, allowed: set[int], where: str) -> None:
    """``text`` names only allowed squares; a star colour or a North drone comes with one."""
    fogtext.check_text(text, allowed, where, seat=0, secret=str(SEED))


def check_panel(window, obs) -> None:
    """The side panel's North figures are what South's observation holds."""
    squares, stock, drones = window.board.scores.text.split("\n")[-3:]
    north_owned = sum(row.count(1) for row in obs["owners"])
    north_drones = sum(1 for d in obs["drones"] if d["side"] == 1 and d["kind"] != "T")
    command = [d for d in obs["drones"] if d["side"] == 1 and d["kind"] == "M"]
    assert squares.endswith(f"North {north_owned} in sight (win at 100)"), squares
    assert drones.endswith(f"North {north_drones} in sight"), drones
    assert stock.endswith(f"North {command[0]['missiles']}" if command else "North out of sight"), stock


def check_history(window, sight: Sight) -> int:
    """Every History entry (a move's row and its explanation, read as one text) against what
    South saw as that move was played; returns how many rows it read."""
    panel = window.history
    by_ply: dict[int, list[str]] = {}
    for entry, ply in zip(panel.list.entries, panel.row_ply, strict=True):
        if ply:
            by_ply.setdefault(ply, []).append(entry.text.removesuffix(" (click for all)").removesuffix(" …"))
    for ply, texts in by_ply.items():
        check_text(f"{texts[0]}.\n" + " ".join(texts[1:]), sight.around(ply), f"History, move {ply}")
    return sum(len(t) for t in by_ply.values())


def check_events(session: Session, sight: Sight) -> None:
    """Independently of the engine's own bookkeeping: an event South hears names only squares
    South's observation showed before or after its move."""
    assert session.cursor >= 1, "a game was played"
    for record in session.history[: session.cursor]:
        for event in record.events_for(0):
            named = set()
            for key in ("at", "frm", "to", "a", "b", "centre"):
                if isinstance(event.data.get(key), int):
                    named.add(event.data[key])
            named |= set(event.data.get("cells") or ())
            bad = named - sight.around(record.number)
            assert not bad, f"move {record.number}: South hears {event.text!r} about unseen {sorted(bad)}"


def explained_from(session: Session) -> int:
    """The first move the explain line may speak of: the person's last action (with the
    missiles fired before it), then the answer."""
    history, first = session.history, session.cursor
    while first > 1 and not (history[first - 1].seat == 0 and history[first - 1].move.kind != "fire"):
        first -= 1
    while first > 1 and history[first - 2].seat == history[first - 1].seat:
        first -= 1
    return max(1, first)


def history_prefixes(window) -> list[str]:
    return [e.text for e in window.history.list.entries]


def is_history_text(text: str, rows: list[str]) -> bool:
    core = text.rstrip("…").rstrip()
    return any(row.startswith(core) for row in rows) or any(core == row for row in rows)


def play_by_hand(window, rng: random.Random) -> bool:
    """South makes its move with the mouse (True when it played)."""
    from pegboard_starfall import moves as mv

    s, view = window.session, window.board
    before = s.cursor
    centre = view.painter.center
    if view.aims or view.aim_anywhere is not None:
        if view.aims:
            window.click(*centre(rng.choice(sorted(view.aims))))
        else:
            window.click_widget(view.fall_button)
        return s.cursor > before
    legal = s.state.legal_moves()
    swaps = [m for m in legal if m.kind == mv.SWAP]
    drones = sorted({m.a for m in legal if m.kind not in (mv.SWAP, mv.PASS, mv.AIM, mv.FIRE)})
    if swaps and (not drones or rng.random() < 0.6):
        drag(window, *rng.choice(swaps)[1:3])
        return s.cursor > before
    if not drones:
        window.click_widget(view.pass_button)
        return s.cursor > before
    sq = rng.choice(drones)
    window.click(*centre(sq))
    modes = sorted(m for m in view.acts if m != "fire" or rng.random() < 0.3)
    if not modes:  # nothing this drone may do now: a swap, or the turn passes
        view.cancel()
        if not swaps:
            window.click_widget(view.pass_button)
            return s.cursor > before
        drag(window, swaps[0].a, swaps[0].b)
        return s.cursor > before
    mode = rng.choice(modes)
    window.click_widget(view.mode_buttons[mode])
    if mode != "claim":
        window.click(*centre(rng.choice(sorted(view.acts[mode]))))
    if window.dialog is not None and "Stack" in window.dialog.title:
        window.click_widget(window.dialog.yes_button)
    return s.cursor > before


@pytest.mark.parametrize("fog", ["seam", "dark"])
def test_a_fogged_game_against_a_bot_never_tells_south_what_it_cannot_see(fog):
    from pegboard.ui import open_window
    from pegboard_starfall.ui import options

    plugins = Plugins()
    values = {**VALUES, "fog": fog}
    ruleset = options.ruleset_for(plugins, values)
    game = build_game(ruleset, plugins)
    clock = FakeTime()
    session = Session(game, ["human", "skill-20"], seed=SEED, ruleset=ruleset.ref, plugins=plugins, workers="inline",
                      time_source=clock)
    store = MemorySettings()
    store.set_setting("starfall", "welcomed", True)
    for key, value in values.items():
        store.set_setting("starfall", key, value)
    rng = random.Random(4)
    with drawn_text() as drawn:
        window = open_window(session, plugins, schedule=False, settings_store=store)
        try:
            assert window.session is session and session.state.rules.fog == fog, "the settings play as given"
            sight = Sight(session)
            strings_checked = rows_checked = moves_by_hand = 0

            def frame() -> None:
                nonlocal strings_checked, rows_checked
                for _ in range(120):
                    window.tick(1 / 60)
                    if not window.board.busy():
                        break
                window.render()
                rows = history_prefixes(window)
                allowed = sight.since(explained_from(session), session.cursor)
                for text in drawn.strings():
                    if is_history_text(text, rows):
                        continue  # checked row by row below, against its own move
                    check_text(text, allowed, "the window")
                    strings_checked += 1
                rows_checked += check_history(window, sight)
                assert not window.evalbar.visible, "no evaluation of a position South only partly sees"
                check_panel(window, session.state.observation(0))

            frame()
            while session.cursor < 220 and not session.is_over:
                clock.now += 2.0
                if session.to_move == 0:
                    assert play_by_hand(window, rng), f"South's click played no move at ply {session.cursor}"
                    moves_by_hand += 1
                frame()
                if session.cursor % 17 == 0:  # the explain line opened, an entry opened, a North drone looked at
                    ox, oy, _bw, bh = window.board.painter.rect  # the explain line, above the board
                    window.send("on_mouse_motion", ox + 5, oy + bh + 20, 0, 0)
                    frame()
                    notes = [i for i, entry in enumerate(window.history.list.entries) if entry.note]
                    if notes:
                        window.click(*window.history.list.row_rect(rng.choice(notes)).center)
                    north = [sq for sq in range(121) if window.board.frame.kind[sq] and window.board.frame.side[sq] == 1
                             and window.board.frame.seen(sq)]
                    if north:
                        window.click(*window.board.painter.center(north[0]))
                    frame()
                    window.board.cancel()
                if session.cursor == 120:
                    window.click_widget(window.buttons["export"])
                    assert window.dialog is not None and "Export" in window.dialog.title
                    frame()
                    assert "over" in " ".join(drawn.strings()), "Export says why it waits"
                    window.close_dialog(window.dialog)
            assert session.cursor >= 200, "a long game"
            check_events(session, sight)
            # South stops moving: its move timer passes the turn until its clock runs out
            while not session.is_over:
                clock.now += 61.0
                frame()
            assert session.result is not None and session.result.reason == "flag"
            assert window.dialog is not None, "the end of the game is shown"
            frame()
            check_events(session, sight)
            timeouts = [r for r in session.history if r.by == "timeout" and r.seat == 0]
            assert timeouts and timeouts[0].text == "runs out of move time"
            assert moves_by_hand >= 80 and rows_checked >= 2000 and strings_checked >= 2000
        finally:
            window.close()
