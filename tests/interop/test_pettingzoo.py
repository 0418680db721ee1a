"""The PettingZoo adapter: PettingZoo's api_test, action masks and fog-respecting observations."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed (tools/dev.py test installs it)")
np = pytest.importorskip("numpy", reason="the pettingzoo extra brings numpy")

from pettingzoo.test import api_test  # noqa: E402

from pegboard.interop.pettingzoo import env  # noqa: E402
from pegboard.plugins.manager import Plugins  # noqa: E402


@pytest.mark.filterwarnings("ignore::UserWarning")  # api_test's style hints (agent names, dict observations)
@pytest.mark.parametrize("name", ["nodewar/standard", "starfall/standard"])
def test_api_test_passes(installed: Plugins, name: str) -> None:
    api_test(env(name), num_cycles=300)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_api_test_passes_under_fog(installed: Plugins, short_starfall: str) -> None:
    api_test(env(short_starfall), num_cycles=300)


def test_mask_lists_exactly_the_legal_moves(installed: Plugins) -> None:
    e = env("nodewar/standard")
    e.reset(seed=0)
    game, state = e.rules, e.state
    obs = e.observe(e.agent_selection)
    legal = {game.action_index(m) for m in state.legal_moves()}
    assert set(np.flatnonzero(obs["action_mask"])) == legal
    other = [a for a in e.agents if a != e.agent_selection][0]
    assert not e.observe(other)["action_mask"].any()


def test_illegal_action_is_refused(installed: Plugins) -> None:
    e = env("nodewar/standard")
    e.reset()
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)


def test_a_full_game_ends_with_zero_sum_rewards(installed: Plugins) -> None:
    e = env("nodewar/skirmish")
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(10_000):
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sum(totals.values()) == 0.0
    assert not e.agents


def test_observation_never_shows_what_fog_hides(installed: Plugins) -> None:
    e = env("starfall/fog_dark")
    e.reset(seed=3)
    state = e.state
    viewer = e.possible_agents[0]
    before = e.observe(viewer)["observation"].copy()
    visible = state.observation(0)["visible"]
    hidden = [(r, c) for r, row in enumerate(visible) for c, v in enumerate(row) if not v]
    assert hidden
    for r, c in hidden:  # change every star South cannot see
        square = r * state.geo.width + c
        if state.star[square] >= 0:
            state.star[square] = (state.star[square] + 1) % 5
    state.memo.forget()
    assert np.array_equal(before, e.observe(viewer)["observation"])
    assert not np.array_equal(before, e.observe(e.possible_agents[1])["observation"])


def test_same_seed_same_game(installed: Plugins) -> None:
    a, b = env("starfall/standard"), env("starfall/standard")
    a.reset(seed=9)
    b.reset(seed=9)
    assert np.array_equal(a.observe("south")["observation"], b.observe("south")["observation"])
