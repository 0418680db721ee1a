"""The built-in ``mcts`` bot on Starfall: a forced win, sampled refills, fog, budget, seed."""

from __future__ import annotations

import random
from typing import Any

from pegboard.plugins.manager import get_plugins
from pegboard.search.mcts import MCTSBot
from pegboard_starfall import fog
from pegboard_starfall import moves as mv
from support.starfall_helpers import blank, make_game, own, put, random_positions


def mcts(game: Any, seed: int = 1) -> MCTSBot:
    bot = get_plugins().bot("starfall", "mcts").factory(game, seed)
    assert isinstance(bot, MCTSBot) and bot.sampled  # a stochastic game: every simulation on a sample
    return bot


def test_finds_the_claim_that_wins_on_territory() -> None:
    game = make_game(win={"target": 12})
    st = blank(game)
    own(st, [(c, 0) for c in range(4)], 0)
    scout = put(st, 8, 3, "S", 0)
    found = mcts(game).search(st.player_view(0), work=1_500)
    assert found.move == mv.claim(scout)
    assert found.win_chance is not None and found.win_chance > 0.9


def test_work_budget_and_seed_decide_the_answer() -> None:
    game = make_game()
    st = [s.clone() for s in random_positions(game, 2, 10, 30)][-1]
    view = st.player_view(st.to_move)
    bot = mcts(game, 8)
    first = bot.search(view.clone(), work=120)
    assert first.work == 120 and first.move in st.legal_moves()
    bot.choose(view.clone(), 0.0)
    assert bot.simulations == 1
    before = view.to_json()
    assert bot.search(view, work=120) == first and view.to_json() == before


def test_each_sample_keeps_what_the_view_shows_and_draws_new_refills() -> None:
    game = make_game(fog={"mode": "seam"})
    st = [s.clone() for s in random_positions(game, 4, 12, 36)][-1]
    me = st.to_move
    view = st.player_view(me)
    seen = fog.visible(view, me)
    rng = random.Random(1)
    samples = [game.determinize(view, me, rng) for _ in range(3)]
    assert len({s.seed for s in samples}) == 3  # the refills to come differ from sample to sample
    hidden = [sq for sq, known in enumerate(seen) if not known and not view.ast[sq]]
    assert hidden
    for s in samples:
        for sq, known in enumerate(seen):
            if known:
                assert s.star[sq] == view.star[sq] and s.kind[sq] == view.kind[sq]
            elif not view.ast[sq]:
                assert 0 <= s.star[sq] < game.rules.colors  # an unseen square gets a guessed star
    assert any(samples[0].star[sq] != samples[1].star[sq] for sq in hidden)


def test_under_fog_it_searches_only_samples_of_its_own_view() -> None:
    game = make_game(fog={"mode": "seam"})
    st = [s.clone() for s in random_positions(game, 5, 12, 36)][-1]
    me = st.to_move
    view = st.player_view(me)
    seen: list[tuple[Any, int]] = []
    real = game.determinize

    def spy(v: Any, player: int, rng: random.Random) -> Any:
        seen.append((v, player))
        return real(v, player, rng)

    game.determinize = spy  # type: ignore[method-assign]
    try:
        found = mcts(game, 2).search(view, work=60)
    finally:
        del game.determinize
    assert len(seen) == 60 and all(v is view and player == me for v, player in seen)
    assert found.move in st.legal_moves()
    # The truth behind the fog does not matter: a true state that differs only out of sight
    # gives the same view, hence the same answer.
    other = st.clone()
    vis = fog.visible(st, me)
    unseen = next(sq for sq in range(game.geo.size) if not vis[sq] and other.star[sq] >= 0 and not other.kind[sq])
    other.star[unseen] = (other.star[unseen] + 1) % game.rules.colors
    other.seed += 1
    assert other.player_view(me).to_json() == view.to_json()
    assert mcts(game, 2).search(other.player_view(me), work=60) == found
