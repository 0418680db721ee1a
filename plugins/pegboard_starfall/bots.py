"""Starfall's bot family: ``skill-0`` ... ``skill-100``.

At skill S the bot plays its best move S% of the time and a uniformly random legal move
otherwise, both from its own seeded generator (so a match record replays). What its best
move knows grows one step every ten levels, each level keeping everything below it; the
ladder is :data:`LADDER` (written out in docs/rules/starfall.md, "Bots").

The best move is found on the view the bot receives (a player's observation under fog):
every candidate is played with ``push`` and taken back with ``undo`` on that one state, and
scored by the :class:`~pegboard_starfall.evaluator.StarfallEvaluator` terms the level knows.
From skill 80 the best few candidates are also answered by the opponent's best reply;
skill 100 then ranks its best four again by its own best action after that reply.

:meth:`SkillBot.search` runs the same search as ``choose`` for the level's best move (never
the random one) and reports its score, the reply it expects and the work spent. Skill 100's
``choose`` (never ``search``) resigns a game :func:`beaten` calls lost; once it owns more than
half the board, its search counts a position where the other side would resign as
BEATEN_BONUS better, so it hunts the last siege of a side that has lost the count.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from pegboard.specs import Bot, SearchResult

from .evaluator import TERMS, StarfallEvaluator
from .moves import BUILD, CLAIM, FIRE, MOVE, RAM, STRIKE, SWAP, WARP, SfMove
from .pieces import HUNTER, SCOUT, SHIELD, SIEGE, TURRET

SKILLS: tuple[int, ...] = tuple(range(0, 101, 10))
EXPOSED = TERMS.index("exposed")
WON = TERMS.index("won")
TERRITORY = TERMS.index("territory")
SIEGE_POWER = TERMS.index("siege_power")


@dataclass(frozen=True)
class Step:
    """One piece of knowledge: from ``level`` on, the best move also weighs these ``terms``
    and may use these ``moves`` kinds; ``takes`` starts counting the other side's terms;
    ``replies`` checks that many best candidates against the opponent's best reply (-1: as
    many as the time budget allows)."""

    level: int
    title: str
    terms: tuple[str, ...] = ()
    moves: tuple[str, ...] = ()
    takes: bool = False
    replies: int = 0


#: The ladder (docs/rules/starfall.md, "Bots"). Every level knows how games are won ("won").
LADDER: tuple[Step, ...] = (
    Step(10, "claims: territory and the claims that take the most squares", ("territory", "claim_reach")),
    Step(20, "swaps that pay: the drones a swap (and its cascades) earns, and their power",
         ("drone_value", "drone_power")),
    Step(30, "takes and scout routes: the other side's losses count, scouts head for open sky",
         ("scout_room",), takes=True),
    Step(40, "turrets, loading and missiles: stock, carried missiles, shots, building turrets",
         ("missiles_stock", "missiles_carried", "turrets"), moves=(FIRE, BUILD)),
    Step(50, "guarding its Command: shields over the squares an enemy siege would win from", ("command_open",)),
    Step(60, "the fight: sieges toward the enemy Command, strikes that threaten to win, and its drones an enemy "
             "raider or shield could take next turn", ("siege_threats", "siege_advance", "exposed")),
    Step(70, "asteroids and bombs: asteroids on its half weighed, bomb rams used", ("asteroid_pressure",),
         moves=(RAM,)),
    Step(80, "the opponent's best forcing reply checked for its 4 best candidates", replies=4),
    Step(90, "the same reply check for its 8 best candidates", replies=8),
    Step(100, "a timed search: the reply check over as many candidates as the time budget allows, its best four "
              "followed up by its own best action after the reply; its sieges valued by power, and once the sky "
              "is shared out its siege attack weighed up (the stall breaker)",
         ("siege_power", "siege_doomed"), replies=-1),
)

#: Moves every level may play as its best move (the ladder adds FIRE, BUILD and RAM).
BASE_KINDS = frozenset({SWAP, "move", "claim", "warp", "strike", "pass"})
#: A missile shot is the best move only if it gains at least this much over not firing.
FIRE_MARGIN = 0.3
#: The timed search never runs past this many seconds, whatever the budget: the first pass
#: stops here (scoring the most promising kinds of move first) and the reply check by then.
HARD_LIMIT = 1.2
#: Skill 100 meters its timed search in work units (trial moves scored) at this many per
#: second of budget, so a seed plays the same moves on any machine and under any load.
WORK_PER_SECOND = 8_000
#: The metered search's first pass and any one reply scan may run to this many times the
#: budget's units (the reply check itself stops at the budget's units, two candidates at least).
HARD_FACTOR = 2.0


def guard(budget: float) -> float:
    """Wall-clock seconds after which a metered search stops whatever its work count says
    (a machine far slower or busier than the rate assumes): 4 × budget + 0.5 s, never
    more than budget + 1.4 s (1.8 s at the default 0.4 s). The guard is checked between
    trial moves, so a search overruns it by one trial move's worth; the 0.2 s left below
    2 s is that margin."""
    budget = max(0.0, budget)
    return min(4 * budget + 0.5, budget + 1.4)


#: Refill futures the metered skill 100 weighs every candidate in: its view's own made-up
#: refills and this many less one more, each from ``Game.determinize`` (a fresh refill seed,
#: and under fog guessed stars on unseen squares). One future alone rewards the cascades a
#: made-up refill happens to give; the mean over several does not.
FUTURES = 3

#: The stall breaker (skill 100, metered): once neither side can reach the territory target
#: from the land still free, the game can end only by a siege (or the turn cap, on squares),
#: so the bot's own siege_advance and siege_power weigh these many times more, and the other
#: side's command_open (open squares where its sieges would win) this many times more. Its
#: siege_threats stay as they are: doubled (48 for a siege beside the Command) they would
#: outweigh siege_doomed's -40 and send sieges into missile fire again. Every version tried
#: (none, one side only, from turn 150, lighter) scored 68-72 % against the legacy bot, within
#: the noise, and capped more self-play games (7-13 of 40, against 5 for this one):
#: docs/balance.md, 7 Dec, eighteenth to twenty-first sessions.
STALL_ADVANCE = 5.0
STALL_POWER = 1.5
STALL_OPEN = 2.0
#: The terms skill 100 knows only when metered: the legacy bot (tools/legacy_skill_bot.py)
#: keeps the knowledge of 1 Dec 2026.
FINISH_TERMS = frozenset({"siege_power", "siege_doomed"})

#: Skill 100 (metered) resigns a game it has lost on squares with no siege to win it back:
#: see :func:`beaten`.
CONCEDES_AT = 100
#: What a conceding level adds to a position in which the other side has lost on squares
#: and holds no siege (it would resign: see :func:`beaten`), so that the side ahead hunts
#: the last siege of a side that has lost the count.
BEATEN_BONUS = 40.0

#: The follow-up ply (skill 100, metered): the reply check's this many best candidates are
#: ranked again by the mover's best action after the opponent's expected reply, scored in
#: the bot's own view, so that a move is judged by what it sets up (a scout brought to open
#: sky claims next turn) and not only by the position it leaves.
FOLLOW_UP = 4

#: Terms that count for the mover's own side only (the other side moves next and can step away).
MINE_ONLY = frozenset({"exposed", "siege_doomed"})

#: Action kinds the reply check tries besides drone moves that take, stack or move a siege or shield.
FORCING = frozenset({CLAIM, WARP, STRIKE, RAM})
#: The order the timed search scores move kinds in (the rest after them).
KIND_ORDER = {CLAIM: 0, STRIKE: 1, WARP: 2, RAM: 3, BUILD: 4, SWAP: 5}


@dataclass(frozen=True)
class Knowledge:
    """Everything a skill level knows, folded from the ladder."""

    skill: int
    own: tuple[float, ...]
    theirs: tuple[float, ...]
    kinds: frozenset[str]
    replies: int
    #: The weights once the sky is shared out (the stall breaker); the same tuples when the
    #: level has no stall breaker.
    stall_own: tuple[float, ...] = ()
    stall_theirs: tuple[float, ...] = ()
    #: True when the level resigns a game :func:`beaten` calls lost (metered skill 100).
    concedes: bool = False
    #: True when the level plays in full every drone move that ends beside an enemy siege or
    #: turret (metered skill 100): moved alone, such a drone would not complete a surround,
    #: take a turret's shot or shield the siege (see :meth:`Searcher.arrives_in_range`).
    exact_arrivals: bool = False

    @property
    def breaks_stalls(self) -> bool:
        """True when the level has a stall breaker (its stall weights differ from its own)."""
        return bool(self.stall_own) and (self.stall_own != self.own or self.stall_theirs != self.theirs)

    @classmethod
    def at(cls, skill: int, weights: dict[str, float], *, finish: bool = True) -> Knowledge:
        """The knowledge of ``skill``; ``finish=False`` leaves out what only the metered skill
        100 knows (FINISH_TERMS and the stall breaker: the legacy bot of 1 Dec 2026)."""
        known = {"won"}
        kinds = set(BASE_KINDS)
        takes = False
        replies = 0
        for step in LADDER:
            if step.level > skill:
                break
            known.update(step.terms)
            kinds.update(step.moves)
            takes = takes or step.takes
            replies = step.replies
        if not finish:
            known -= FINISH_TERMS
        own = tuple(weights[t] if t in known else 0.0 for t in TERMS)
        # the other side's exposure (and its sieges in reach of our missiles) is left out: it
        # moves next and can step away first
        theirs = tuple(weights[t] if t in known and (takes or t == "won") and t not in MINE_ONLY else 0.0
                       for t in TERMS)
        stall_own, stall_theirs = own, theirs
        if finish and replies < 0:
            boost = {"siege_advance": STALL_ADVANCE, "siege_power": STALL_POWER}
            stall_own = tuple(w * boost.get(t, 1.0) for t, w in zip(TERMS, own, strict=True))
            stall_theirs = tuple(w * (STALL_OPEN if t == "command_open" else 1.0)
                                 for t, w in zip(TERMS, theirs, strict=True))
        metered_top = finish and skill >= CONCEDES_AT
        return cls(skill, own, theirs, frozenset(kinds), replies, stall_own, stall_theirs,
                   concedes=metered_top, exact_arrivals=metered_top)


class Searcher:
    """The best move of one knowledge level, on a state it searches with push/undo."""

    def __init__(self, game: Any, knowledge: Knowledge, rng: random.Random) -> None:
        self.evaluator = StarfallEvaluator(game)
        self.k = knowledge
        self.rng = rng
        #: Trial moves scored so far in this search (the work unit of :meth:`meter`).
        self.work = 0
        #: A metered timed search (see :meth:`meter`): where its soft and hard limits fall in
        #: work units, and its wall-clock guard in seconds; None: the search runs on the clock.
        self.work_soft: float | None = None
        self.work_hard: float | None = None
        self.wall_guard = math.inf
        #: The opponent's best reply to the chosen move, when the reply check found one.
        self.reply: SfMove | None = None
        #: Refill futures a metered timed search weighs each candidate in (see FUTURES).
        self.futures = 1
        self.fogged = bool(game.hidden_information)
        self.target = int(game.rules.target)
        #: The weights in use: the level's, or its stall breaker's (chosen at each search's root).
        self.own, self.theirs = knowledge.own, knowledge.theirs
        #: BEATEN_BONUS where the level concedes, owned land stays put and nothing is hidden
        #: (under fog an unseen siege would count as gone), else 0.
        self.beaten_bonus = (BEATEN_BONUS if knowledge.concedes and not game.rules.claim_enemy and not self.fogged
                             else 0.0)

    def value(self, st: Any, me: int) -> float:
        """The position for ``me``, by the terms this level knows (plus ``beaten_bonus`` when
        ``me`` owns more than half the board and the other side has no siege left)."""
        self.work += 1
        values = self.evaluator.side_values(st, (me,) if self.own[EXPOSED] else ())
        mine, theirs = values[me], values[me ^ 1]
        total = 0.0
        for w, v in zip(self.own, mine, strict=False):
            total += w * v
        for w, v in zip(self.theirs, theirs, strict=False):
            total -= w * v
        if self.beaten_bonus and not theirs[SIEGE_POWER] and 2 * mine[TERRITORY] > len(st.owner):
            total += self.beaten_bonus
        return total

    def shared_out(self, st: Any) -> bool:
        """True once neither side can reach the territory target from the land still free
        (unowned, no asteroid): territory is then settled and only a siege ends the game."""
        owner, ast = st.owner, st.ast
        free = sum(1 for sq, o in enumerate(owner) if o < 0 and not ast[sq])
        held: int = max(owner.count(0), owner.count(1))
        return held + free < self.target

    def pick_weights(self, st: Any) -> None:
        """The stall breaker's weights once the sky is shared out, else the level's."""
        k = self.k
        if k.breaks_stalls and self.shared_out(st):
            self.own, self.theirs = k.stall_own, k.stall_theirs
        else:
            self.own, self.theirs = k.own, k.theirs

    def ranked(self, st: Any, moves: list[SfMove], me: int, stop: float | None = None) -> list[tuple[float, SfMove]]:
        """Each move played, scored for ``me`` and taken back; best first (ties at random).

        Plain drone moves (see :meth:`plain`) change no star, so the opponent's start of
        turn after each is the same: one of them is played in full and the rest are scored
        by moving the drone alone, plus the difference that full play made (with
        ``exact_arrivals``, not those that end beside an enemy siege or turret). With ``stop``
        (a perf_counter time), moves not reached by then are left out.
        """
        out: list[tuple[float, SfMove]] = []
        jitter = self.rng.random
        offset: float | None = None
        exact = self.k.exact_arrivals
        for m in moves:
            if stop is not None and out and self.past(stop, self.work_hard):
                break
            if self.plain(st, m, me) and not (exact and self.arrives_in_range(st, m.b, me)):
                light = self.light_value(st, m, me)
                if offset is None:
                    st.push(m)
                    offset = self.value(st, me) - light
                    st.undo()
                out.append((light + offset + jitter() * 1e-6, m))
                continue
            st.push(m)
            out.append((self.value(st, me) + jitter() * 1e-6, m))
            st.undo()
        out.sort(key=lambda p: p[0], reverse=True)
        return out

    @staticmethod
    def plain(st: Any, m: SfMove, me: int) -> bool:
        """A move or strike to an empty square that triggers nothing but the drone's arrival
        (no take, stack, wreck, loading beside the Command or shield sweep)."""
        if m.kind != MOVE and m.kind != STRIKE:
            return False
        a, b = m.a, m.b
        if st.kind[b] or st.wreck[b]:
            return False
        k = st.kind[a]
        if k == SHIELD:
            return bool(st.owner[b] != me)
        if k == SCOUT or k == HUNTER:
            cmd = st.cmd[me]
            return cmd < 0 or b not in st.geo.nbr8[cmd]
        return True

    @staticmethod
    def arrives_in_range(st: Any, b: int, me: int) -> bool:
        """True when a drone of ``me`` ending on ``b`` stands beside an enemy siege (it may
        complete a surround, or shield it) or an enemy turret (it fires at the drone)."""
        kind, side = st.kind, st.side
        for t in st.geo.nbr8[b]:
            k = kind[t]
            if (k == SIEGE or k == TURRET) and side[t] != me:
                return True
        return False

    def light_value(self, st: Any, m: SfMove, me: int) -> float:
        """The value after moving the drone from m.a to m.b alone (then put back)."""
        a, b = m.a, m.b
        arrays = (st.kind, st.side, st.power, st.ride, st.miss)
        for arr in arrays:
            arr[b], arr[a] = arr[a], 0
        try:
            return self.value(st, me)
        finally:
            for arr in arrays:
                arr[a], arr[b] = arr[b], 0

    def meter(self, work: float | None, wall_guard: float = math.inf) -> None:
        """Make the timed search stop on ``work`` units (its reply check; the first pass and a
        reply scan at HARD_FACTOR times that) or after ``wall_guard`` seconds, whichever
        comes first; ``work=None`` puts it back on the clock alone."""
        self.work_soft = work
        self.work_hard = None if work is None else HARD_FACTOR * work
        self.wall_guard = wall_guard

    def past(self, stop: float, work_stop: float | None) -> bool:
        """True once the clock passes ``stop``, or under a work budget the count passes ``work_stop``."""
        if work_stop is not None and self.work > work_stop:
            return True
        return time.perf_counter() > stop

    def best(self, st: Any, moves: list[SfMove], budget: float, kinds: frozenset[str] | None = None) -> SfMove:
        """The level's best move among ``moves`` (see the module docstring); ``self.reply``
        is then the opponent's best answer to it when the reply check ran."""
        started = time.perf_counter()
        self.reply = None
        self.work = 0
        self.pick_weights(st)
        me = st.to_move
        allowed = self.k.kinds if kinds is None else kinds
        actions = [m for m in moves if m.kind != FIRE and m.kind in allowed]
        if not actions:
            actions = [m for m in moves if m.kind != FIRE] or list(moves)
        if FIRE in allowed:
            kind, ast = st.kind, st.ast  # shots at drones and asteroids (a star shot rarely pays)
            fires = [m for m in moves if m.kind == FIRE and (kind[m.b] or ast[m.b])]
            if fires:
                base = self.value(st, me)
                score, shot = self.ranked(st, fires, me)[0]
                if score - base >= FIRE_MARGIN:
                    return shot
        width = self.k.replies
        hard: float | None
        deadline: float | None
        if width < 0:  # timed: the likeliest winners first, so a cut-off loses the least
            actions.sort(key=lambda m: KIND_ORDER.get(m.kind, 9))
            if self.work_soft is None:  # on the clock
                hard = started + HARD_LIMIT
                deadline = min(started + max(budget, 0.05), hard)
            else:  # metered: the work count decides, the clock only guards
                hard = deadline = started + self.wall_guard
                if self.futures > 1:
                    return self.best_over_futures(st, actions, me, hard)
            ranked = self.ranked(st, actions, me, hard)
        else:
            hard = deadline = None
            ranked = self.ranked(st, actions, me)
        if not width or len(ranked) == 1:
            return ranked[0][1]
        count = len(ranked) if width < 0 else min(width, len(ranked))
        best_move, best_score = ranked[0][1], float("-inf")
        for i in range(count):
            if deadline is not None and i >= 2 and self.past(deadline, self.work_soft):
                break
            score, m = ranked[i]
            if score <= best_score:
                break  # replies only lower a score: nothing further down can win
            st.push(m)
            reply = None
            if st.result is None:
                worst, reply = self.worst_reply(st, me, hard)
                score = min(score, worst)
            st.undo()
            if score > best_score:
                best_move, best_score, self.reply = m, score, reply
        return best_move

    def best_over_futures(self, st: Any, actions: list[SfMove], me: int, hard: float) -> SfMove:
        """The timed search over ``self.futures`` refill futures: every action scored in each
        (the mean counts), then the reply check in each, best candidates first, until the
        work budget's soft limit (two candidates at least, FOLLOW_UP when nothing stops it
        sooner), and last :meth:`follow_up` over the FOLLOW_UP best of them."""
        game = st.game
        futures = [st] + [game.determinize(st, me, self.rng) for _ in range(self.futures - 1)]
        totals: dict[SfMove, list[float]] = {}
        for future in futures:
            legal = actions if future is st or not self.fogged else [m for m in actions if future.check(m) is None]
            for score, m in self.ranked(future, legal, me, hard):
                totals.setdefault(m, []).append(score)
        ranked = sorted(((sum(v) / len(v), m) for m, v in totals.items()), key=lambda p: p[0], reverse=True)
        checked: list[tuple[float, SfMove, SfMove | None]] = []
        best_score = float("-inf")
        for i, (score, m) in enumerate(ranked):
            if i >= 2 and self.past(hard, self.work_soft):
                break
            if score <= best_score and len(checked) >= FOLLOW_UP:
                break  # replies only lower a score: nothing further down can win (the follow-up has its candidates)
            values = []
            reply = None
            for future in futures:
                if future is not st and self.fogged and future.check(m) is not None:
                    continue
                future.push(m)
                value = self.value(future, me)
                if future.result is None:
                    worst, found = self.worst_reply(future, me, hard)
                    value = min(value, worst)
                    if future is st:
                        reply = found
                future.undo()
                values.append(value)
            score = sum(values) / len(values)
            checked.append((score, m, reply))
            best_score = max(best_score, score)
        checked.sort(key=lambda p: p[0], reverse=True)
        return self.follow_up(st, checked[:FOLLOW_UP], me, hard)

    def follow_up(self, st: Any, checked: list[tuple[float, SfMove, SfMove | None]], me: int,
                  hard: float) -> SfMove:
        """The best of ``checked`` (reply-checked score, move, expected reply; best first) by
        the mover's best action once the move and its reply are played (see FOLLOW_UP). A
        move that wins, or that leaves the opponent no forcing reply, keeps its score: a win
        stays first, and without a reply there is no position to follow up in."""
        self.reply = checked[0][2]
        if len(checked) < 2:
            return checked[0][1]
        allowed = self.k.kinds
        won = self.own[WON]  # a score past half the "won" weight is a win
        best: tuple[float, SfMove, SfMove | None] | None = None
        for score, m, reply in checked:
            value = score
            if score < won / 2 and reply is not None:
                st.push(m)
                if st.result is None and st.check(reply) is None:
                    st.push(reply)
                    mine = [] if st.result is not None else [
                        x for x in st.legal_moves() if x.kind != FIRE and x.kind in allowed]
                    value = self.ranked(st, mine, me, hard)[0][0] if mine else self.value(st, me)
                    st.undo()
                st.undo()
            if best is None or value > best[0]:
                best = (value, m, reply)
        assert best is not None
        self.reply = best[2]
        return best[1]

    def worst_reply(self, st: Any, me: int, hard: float | None) -> tuple[float, SfMove | None]:
        """The lowest value for ``me`` among the opponent's forcing actions (its best reply).

        Forcing: claims, warps, strikes, rams, and drone moves that land on a drone (takes,
        stacks) or move a siege or a shield. Swaps and missile shots are left out: they cost
        most to try and seldom hurt the other side at once.
        """
        worst, reply = float("inf"), None
        kind = st.kind
        for m in st.legal_moves():
            k = m.kind
            if k == MOVE:
                if not kind[m.b] and kind[m.a] != SIEGE and kind[m.a] != SHIELD:
                    continue
            elif k not in FORCING:
                continue
            st.push(m)
            v = self.value(st, me)
            st.undo()
            if v < worst:
                worst, reply = v, m
            if hard is not None and self.past(hard, self.work_hard):
                break
        return worst, reply


class SkillBot(Bot):
    """The Starfall bot at one skill (0..100 by tens); see the module docstring."""

    def __init__(self, game: Any, seed: int = 0, skill: int = 50, *, metered: bool = True) -> None:
        if skill not in SKILLS:
            raise ValueError(f"skill must be one of {', '.join(map(str, SKILLS))}")
        self.skill = skill
        self.seed = seed
        self.rng = random.Random(seed)
        self.searcher = Searcher(game, Knowledge.at(skill, StarfallEvaluator(game).weights, finish=metered), self.rng)
        #: Skill 100's timed search counts work units and weighs several refill futures
        #: (True) or watches the clock in one future (False: the skill 100 of 1 Dec 2026, kept
        #: for measurements as tools/legacy_skill_bot.py).
        self.metered = metered
        if metered and self.searcher.k.replies < 0:
            self.searcher.futures = FUTURES

    def choose(self, view: Any, budget: float) -> SfMove:
        moves = view.legal_moves()
        if not moves:
            raise ValueError("no legal move to choose from")
        if self.searcher.k.concedes and beaten(view):
            resign: SfMove = view.concede_move(view.to_move, "resign")
            return resign
        if self.rng.randrange(100) < self.skill:
            self.limit_seconds(budget)
            try:
                return self.searcher.best(view, moves, budget)
            finally:
                self.searcher.meter(None)
        move: SfMove = moves[self.rng.randrange(len(moves))]
        return move

    def limit_seconds(self, budget: float) -> None:
        """Meter a budget in seconds (skill 100, metered): WORK_PER_SECOND units a second,
        with the wall-clock :func:`guard`."""
        if self.metered:
            self.searcher.meter(max(1.0, budget * WORK_PER_SECOND), guard(budget))

    def search(self, view: Any, *, seconds: float | None = None, work: int | None = None) -> SearchResult:
        """The level's best move (never the random one) with its value and, when the reply
        check ran, the opponent's best answer as the line's second move.

        ``score`` is the level's value of the position at the end of the line (the terms it
        knows, in evaluator units) from South's side. Work units are trial moves scored (push,
        score, undo). Only skill 100's search is timed: under ``work=N`` its reply check stops
        after N units (two candidates at least), its first pass and any one reply scan after
        HARD_FACTOR × N, with no wall clock. The search draws from a fresh generator seeded as
        the bot was, so under a work budget the answer depends only on the seed, the view and N.
        """
        if (seconds is None) == (work is None):
            raise ValueError("give exactly one budget: seconds or work")
        moves = view.legal_moves()
        if not moves:
            raise ValueError("no legal move to choose from")
        searcher = self.searcher
        running, searcher.rng = searcher.rng, random.Random(self.seed)
        if work is not None:
            searcher.meter(float(work))
        elif seconds is not None:
            self.limit_seconds(seconds)
        try:
            me = view.to_move
            move = searcher.best(view, moves, seconds if seconds is not None else 0.0)
            spent, reply = searcher.work, searcher.reply
            view.push(move)
            line: tuple[SfMove, ...] = (move,)
            if reply is not None and view.result is None and view.check(reply) is None:
                view.push(reply)
                value = searcher.value(view, me)
                view.undo()
                line = (move, reply)
            else:
                value = searcher.value(view, me)
            view.undo()
        finally:
            searcher.rng = running
            searcher.meter(None)
        return SearchResult(move=move, score=value if me == 0 else -value, line=line, work=spent)


def beaten(st: Any) -> bool:
    """True when the side to move has lost on squares and holds no siege to win back with.

    Under rules where owned land never changes hands (``claims.take_enemy`` off, as in
    standard), a side whose opponent owns more than half the board can neither reach the
    territory target first nor win (or draw) at the turn cap; with no siege of its own on the
    board, only a siege it has yet to make or an asteroid drop on the enemy Command could
    still win. In the shadow batches of docs/balance.md ("6 Dec, thirteenth session") no side
    this calls beaten went on to win, while sides that far behind that still held a siege won
    10 of 34 games back, so those play on. Reads only ``st`` (a player's view).
    """
    if st.rules.claim_enemy:
        return False
    me = st.to_move
    owner = st.owner
    if 2 * owner.count(me ^ 1) <= len(owner):
        return False
    kind, side = st.kind, st.side
    return not any(kind[sq] == SIEGE and side[sq] == me for sq in range(len(owner)))


def hint(game: Any, state: Any, seat: int) -> SfMove | None:
    """The best swap for ``seat`` by the skill-100 evaluation, seen from ``seat``'s view only.

    None when it is not ``seat``'s turn, the game is over, or no swap is legal.
    """
    if state.result is not None or state.to_move != seat:
        return None
    view = state.player_view(seat)
    moves = [m for m in view.legal_moves() if m.kind == SWAP]
    if not moves:
        return None
    searcher = Searcher(game, Knowledge.at(100, StarfallEvaluator(game).weights), random.Random(0))
    return searcher.best(view, moves, HINT_BUDGET, kinds=frozenset({SWAP}))


#: Seconds the hint's search may take.
HINT_BUDGET = 0.5


__all__ = ["HINT_BUDGET", "LADDER", "SKILLS", "Knowledge", "Searcher", "SkillBot", "Step", "beaten", "hint"]
