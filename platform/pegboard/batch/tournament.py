"""Round-robin tournaments between bots: Elo estimates with error bars, and SPRT stops.

Every pair of entrants plays a head-to-head match (colours alternate; the pair's match
seed derives from the tournament seed). Ratings are the maximum-likelihood Elo ratings of
the Bradley-Terry model over all games (a draw scores half a win), as Ordo fits them,
shifted so that their mean is 0. One virtual draw per pair (BayesElo's default prior)
keeps a rating finite when a bot wins every game. The 95 % error bar of each rating is
1.96 standard errors from the inverse Fisher information, with each pair's observed
per-game score variance (as cutechess-cli's error margin does for one pair).

``sprt=(elo0, elo1)`` makes every head-to-head a sequential probability ratio test of
H0: "the first bot is elo0 stronger" against H1: "elo1 stronger" (alpha = beta = 0.05 by
default). Games are played in small batches and the pair stops as soon as the
log-likelihood ratio (the normal approximation to the trinomial GSPRT, as fishtest and
cutechess-cli compute it; half a virtual game per result) leaves the bounds
``ln(beta / (1 - alpha))`` .. ``ln((1 - beta) / alpha)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pegboard.batch.runner import Executor, GameOutcome, LocalExecutor, MatchPlan, check_plan, derive_seed, entrant_labels, play_task
from pegboard.game import PegboardError
from pegboard.plugins import resolve
from pegboard.ratings.elo import expected_from_gap

if TYPE_CHECKING:
    from pegboard.plugins.manager import Plugins

Z95 = 1.959964
_LN10_400 = math.log(10) / 400.0


@dataclass
class PairResult:
    """One head-to-head of a tournament: ``a`` and ``b`` index the entrants; scores are ``a``'s."""

    a: int
    b: int
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    outcomes: list[GameOutcome] = field(default_factory=list)
    sprt: str | None = None
    """"H1" / "H0" when the SPRT decided, "undecided" when the games ran out, None without SPRT."""
    llr: float = 0.0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return self.wins + 0.5 * self.draws

    def add(self, outcome: GameOutcome) -> None:
        self.outcomes.append(outcome)
        if not outcome.finished:
            self.unfinished += 1
        elif outcome.winner_entrant is None:
            self.draws += 1
        elif outcome.winner_entrant == 0:
            self.wins += 1
        else:
            self.losses += 1


@dataclass
class Standing:
    """One entrant's line of the table: ``bot`` is its bot id, ``label`` names the entrant
    (the bot id, numbered when one bot enters more than once: "easy #1", "easy #2")."""

    bot: str
    games: int
    score: float
    elo: float
    error: float
    """Half-width of the 95 % interval (± this many Elo)."""
    label: str = ""


# -- ratings -------------------------------------------------------------------------------------


def fit_elo(entrants: int, pairs: Sequence[PairResult], *, prior_draws: float = 1.0) -> tuple[list[float], list[float]]:
    """Maximum-likelihood Elo ratings (mean 0) and their 95 % error bars, per entrant."""
    games = [[0.0] * entrants for _ in range(entrants)]
    score = [[0.0] * entrants for _ in range(entrants)]  # score[i][j]: i's points against j
    variance = [[0.25] * entrants for _ in range(entrants)]
    for pair in pairs:
        n = pair.games
        if n == 0:
            continue
        played = n + prior_draws
        points = pair.score + 0.5 * prior_draws
        games[pair.a][pair.b] = games[pair.b][pair.a] = played
        score[pair.a][pair.b], score[pair.b][pair.a] = points, played - points
        mean = pair.score / n
        var = (pair.wins * (1 - mean) ** 2 + pair.draws * (0.5 - mean) ** 2 + pair.losses * mean**2) / n
        variance[pair.a][pair.b] = variance[pair.b][pair.a] = max(var, 1.0 / (4 * played))
    ratings = [0.0] * entrants
    for _ in range(500):  # Newton steps on the Bradley-Terry log-likelihood
        grad = [0.0] * entrants
        hess = [[0.0] * entrants for _ in range(entrants)]
        for i in range(entrants):
            for j in range(entrants):
                if i == j or not games[i][j]:
                    continue
                e = expected_from_gap(ratings[i] - ratings[j])
                grad[i] += (score[i][j] - games[i][j] * e) * _LN10_400
                w = games[i][j] * e * (1 - e) * _LN10_400**2
                hess[i][i] += w
                hess[i][j] -= w
        step = _solve_centred(hess, grad)
        ratings = [r + s for r, s in zip(ratings, step, strict=True)]
        if max((abs(s) for s in step), default=0.0) < 1e-6:
            break
    mean = sum(ratings) / entrants
    ratings = [r - mean for r in ratings]
    # Fisher information with each pair's observed score variance instead of e(1 - e)
    info = [[0.0] * entrants for _ in range(entrants)]
    for i in range(entrants):
        for j in range(entrants):
            if i == j or not games[i][j]:
                continue
            e = expected_from_gap(ratings[i] - ratings[j])
            slope = e * (1 - e) * _LN10_400
            w = games[i][j] * slope**2 / variance[i][j]
            info[i][i] += w
            info[i][j] -= w
    cov = _pseudo_inverse_centred(info)
    errors = [Z95 * math.sqrt(max(cov[i][i], 0.0)) for i in range(entrants)]
    return ratings, errors


def _solve_centred(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Solve ``matrix @ x = rhs`` for x with sum(x) = 0 (the ratings' free shift removed)."""
    inverse = _pseudo_inverse_centred(matrix)
    return [sum(inverse[i][k] * rhs[k] for k in range(len(rhs))) for i in range(len(rhs))]


def _pseudo_inverse_centred(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a Laplacian-like matrix on the sum-zero subspace: (M + J/n)^-1 - J/n."""
    n = len(matrix)
    a = [[matrix[i][j] + 1.0 / n for j in range(n)] + [1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise PegboardError("the results do not connect the bots (some never played)")
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        a[col] = [v / lead for v in a[col]]
        for row in range(n):
            if row != col and a[row][col]:
                factor = a[row][col]
                a[row] = [v - factor * p for v, p in zip(a[row], a[col], strict=True)]
    return [[a[i][n + j] - 1.0 / n for j in range(n)] for i in range(n)]


# -- the SPRT ----------------------------------------------------------------------------------------


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (elo1) against H0 (elo0) after these games.

    Each result count gets half a virtual game (a Jeffreys-style prior) so that a run of
    only wins or only losses has a variance and the test can still decide.
    """
    n = wins + draws + losses
    if n == 0:
        return 0.0
    w, d, l = wins + 0.5, draws + 0.5, losses + 0.5
    total = w + d + l
    mean = (w + 0.5 * d) / total
    var = (w * (1 - mean) ** 2 + d * (0.5 - mean) ** 2 + l * mean**2) / total
    s0, s1 = expected_from_gap(elo0), expected_from_gap(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


# -- running -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentPlan:
    """What to play: each pair of ``bots`` plays ``games`` games (fewer when the SPRT stops it)."""

    game: str
    bots: tuple[str, ...]
    ruleset: str = "standard"
    games: int = 2
    seed: int = 0
    budget: float | None = None
    max_plies: int = 20_000
    plugin_files: tuple[str, ...] = ()
    sprt: tuple[float, float] | None = None
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def labels(self) -> list[str]:
        """The entrants' names: bot ids, numbered when a bot enters more than once ("easy #1")."""
        return entrant_labels(self.bots)

    def pairs(self) -> list[tuple[int, int]]:
        n = len(self.bots)
        return [(a, b) for a in range(n) for b in range(a + 1, n)]

    def match_plan(self, pair_index: int, a: int, b: int) -> MatchPlan:
        return MatchPlan(
            game=self.game,
            bots=(self.bots[a], self.bots[b]),
            ruleset=self.ruleset,
            games=self.games,
            seed=derive_seed(self.seed, pair_index, "pair"),
            budget=self.budget,
            max_plies=self.max_plies,
            plugin_files=self.plugin_files,
        )


@dataclass
class TournamentReport:
    plan: TournamentPlan
    pairs: list[PairResult]
    standings: list[Standing]


def check_tournament(plan: TournamentPlan, plugins: Plugins) -> None:
    if len(plan.bots) < 2:
        raise PegboardError("a tournament needs at least two bots")
    spec = plugins.game(plan.game)
    if len(spec.seats) != 2:
        raise PegboardError(f"tournaments pair bots head to head; {spec.name} has {len(spec.seats)} seats")
    if plan.sprt is not None and not plan.sprt[0] < plan.sprt[1]:
        raise PegboardError("--sprt needs elo0 < elo1")
    if not (0 < plan.alpha < 0.5 and 0 < plan.beta < 0.5):
        raise PegboardError("alpha and beta must be between 0 and 0.5")
    check_plan(MatchPlan(game=plan.game, bots=plan.bots[:2], ruleset=plan.ruleset, games=plan.games), plugins)
    for bot in plan.bots[2:]:
        plugins.bot(plan.game, bot)


def run_tournament(
    plan: TournamentPlan,
    *,
    executor: Executor | None = None,
    plugins: Plugins | None = None,
    progress: Callable[[int, GameOutcome], None] | None = None,
    batch: int = 2,
) -> TournamentReport:
    """Play the round robin; ``progress(pair_index, outcome)`` after every game."""
    registry = resolve(plugins)
    check_tournament(plan, registry)
    runner = executor or LocalExecutor(None, plan.plugin_files)
    pairs = [PairResult(a, b) for a, b in plan.pairs()]
    plans = [plan.match_plan(i, a, b) for i, (a, b) in enumerate(plan.pairs())]
    if plan.sprt is None:  # everything at once: the executor keeps every worker busy
        tasks = [(i, match, index) for i, match in enumerate(plans) for index in range(plan.games)]
        for i, outcome in runner.run(_play_tagged, tasks):
            pairs[i].add(outcome)
            if progress:
                progress(i, outcome)
    else:
        low, high = sprt_bounds(plan.alpha, plan.beta)
        elo0, elo1 = plan.sprt
        for i, match in enumerate(plans):
            pair = pairs[i]
            next_index = 0
            while next_index < plan.games:
                size = min(max(2, batch), plan.games - next_index)
                for outcome in runner.run(play_task, [(match, k) for k in range(next_index, next_index + size)]):
                    pair.add(outcome)
                    if progress:
                        progress(i, outcome)
                next_index += size
                pair.llr = sprt_llr(pair.wins, pair.draws, pair.losses, elo0, elo1)
                if pair.llr >= high or pair.llr <= low:
                    pair.sprt = "H1" if pair.llr >= high else "H0"
                    break
            else:
                pair.sprt = "undecided"
    for pair in pairs:
        pair.outcomes.sort(key=lambda o: o.index)
    return TournamentReport(plan, pairs, standings(plan.bots, pairs))


def _play_tagged(pair_index: int, plan: MatchPlan, index: int) -> tuple[int, GameOutcome]:
    # an outcome does not know its pair: the task hands the pair index back with it
    return pair_index, play_task(plan, index)


def standings(bots: Sequence[str], pairs: Sequence[PairResult]) -> list[Standing]:
    """Each bot's games, points, Elo and error bar, strongest first."""
    n = len(bots)
    ratings, errors = fit_elo(n, pairs)
    games = [0] * n
    points = [0.0] * n
    for pair in pairs:
        games[pair.a] += pair.games
        games[pair.b] += pair.games
        points[pair.a] += pair.score
        points[pair.b] += pair.games - pair.score
    labels = entrant_labels(tuple(bots))
    rows = [Standing(bots[i], games[i], points[i], ratings[i], errors[i], labels[i]) for i in range(n)]
    return sorted(rows, key=lambda r: -r.elo)
