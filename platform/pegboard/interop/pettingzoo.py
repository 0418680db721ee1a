"""PettingZoo adapter: every installed game and ruleset as an AEC environment.

    from pegboard.interop.pettingzoo import env
    e = env("starfall/fog_dark")
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are the seat names in lower case ("blue", "red"). Each agent's observation is a
dict: ``"observation"``, the game's observation tensor (``Game.observation_tensor``) of
that agent's own ``State.observation`` (so under fog it holds nothing the agent may not
know), and ``"action_mask"``, 1 for each legal action of the game's fixed action space
(all 0 when it is not the agent's turn). A seat may move several times in a row (a
Starfall missile shot keeps the turn); ``agent_selection`` always names the seat to move.

Rewards are given when the game ends: +1 to the winner, -1 to the others, 0 on a draw.
A game that reaches ``Game.ply_limit()`` (or the adapter's cap) without a result is
truncated. ``reset(seed=S)`` deals the game from engine seed S; without a seed a stochastic
game draws one from the environment's own generator. A masked-out (illegal) action raises
``ValueError`` naming the move.
"""

from __future__ import annotations

from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    from pegboard.interop import missing_extra

    raise missing_extra("pettingzoo", exc) from exc

from pegboard.game import State
from pegboard.interop import ply_cap, returns
from pegboard.interop.loading import load


class PegboardAEC(AECEnv):  # type: ignore[misc]
    """A Pegboard game under one ruleset as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, name: str = "nodewar/standard", render_mode: str | None = None) -> None:
        super().__init__()
        loaded = load(name)
        self.rules = loaded.game
        self.metadata = {**self.metadata, "name": f"pegboard_{loaded.spec_id}_{loaded.ruleset.id}"}
        self.render_mode = render_mode
        self.cap = ply_cap(self.rules)
        self.possible_agents = [seat.lower() for seat in self.rules.seats]
        count = self.rules.action_count()
        shape = self.rules.observation_shape()
        self.action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=np.inf, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(count,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.state: State | None = None
        self._legal: dict[int, Any] = {}
        self._seeds = np.random.default_rng()

    def __str__(self) -> str:
        return str(self.metadata["name"])

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the AEC API --------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(0, 2**31)) if self.rules.stochastic else 0
        self.state = self.rules.new_state(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._turn()

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.state is not None, "call reset() first"
        seat = self.possible_agents.index(agent)
        tensor = self.rules.observation_tensor(self.state.observation(seat), seat)
        observation = np.asarray(tensor, dtype=np.float32).reshape(self.rules.observation_shape())
        mask = np.zeros(self.rules.action_count(), dtype=np.int8)
        if self.state.result is None and seat == self.state.to_move:
            mask[list(self._legal)] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None
        move = self._legal.get(int(action))
        if move is None:
            raise ValueError(f"action {action} is not legal for {agent} here (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(move)
        self.rewards = {a: 0.0 for a in self.agents}
        result = self.state.result
        if result is not None:
            for a, value in zip(self.agents, returns(self.rules, result.winner), strict=True):
                self.rewards[a] = value
                self.terminations[a] = True
                self.infos[a] = {"result": result.to_json()}
        elif self.state.ply >= self.cap:
            self.truncations = {a: True for a in self.agents}
        self._turn()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        return str(self.state)

    def close(self) -> None:
        self.state = None

    def _turn(self) -> None:
        assert self.state is not None
        over = self.state.result is not None or self.state.ply >= self.cap
        if over:
            self._legal = {}
            # the seat to move sees the end first; then the AEC loop walks the others out
            self.agent_selection = self.agents[self.state.to_move % len(self.agents)]
            return
        index = self.rules.action_index
        self._legal = {index(move): move for move in self.state.legal_moves()}
        self.agent_selection = self.agents[self.state.to_move]


def env(name: str = "nodewar/standard", render_mode: str | None = None) -> PegboardAEC:
    """The AEC environment for ``"<game>/<ruleset>"`` (ruleset id or .toml path)."""
    return PegboardAEC(name, render_mode=render_mode)


raw_env = env

__all__ = ["PegboardAEC", "env", "raw_env"]
