"""PettingZoo AEC environments for every registered game (`pyramids.rl.env(game, **options)`).

Follows PettingZoo's classic-environment conventions: agents `player_0`..,
observations `{"observation": float32 vector, "action_mask": int8 vector}`
(the mask is all zeros for an agent not to move), `render_mode="ansi"`,
`metadata["name"]` versioned (`<game>_v0`), and seeding through
`reset(seed=)`, which maps to `game.new_initial_state(seed)`. Rewards are the
game's `returns()` at the end. An illegal action ends the game at once: the
agent that played it gets -1 and the others 0 (PettingZoo's
`TerminateIllegalWrapper` rule), and `infos[agent]["illegal_action"]` says so.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from pyramids.core import Game, State, companion_of, load
from pyramids.rl.encoding import Encoder, encoder_for

VERSION = "v0"


def env_name(game: str) -> str:
    return f"{game}_{VERSION}"


def render_text(state: State, game: Game) -> str:
    """The spectator's view as the game's text renderer draws it (JSON without one)."""
    view = state.view(None)
    renderer = companion_of(game.name, "text_renderer")
    return renderer(view) if renderer is not None else json.dumps(view, sort_keys=True)


class SeedSource:
    """Seeds for unseeded resets: drawn from the last seed given, else from the OS.

    The generator is made only when an unseeded reset asks for one (a seeded
    reset, the common case, costs nothing here)."""

    def __init__(self) -> None:
        self._seed: int | None = None
        self._rng: np.random.Generator | None = None

    def restart(self, seed: int) -> None:
        self._seed, self._rng = seed, None

    def next(self) -> int:
        if self._rng is None:
            self._rng = np.random.default_rng(self._seed)
        return int(self._rng.integers(0, 2**63 - 1))


class PyramidsAECEnv(AECEnv):
    """One registered game as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": True,
                                "render_fps": 1}

    def __init__(self, game: str | Game, render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        self.game = game if isinstance(game, Game) else load(game, **options)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not supported; allowed: 'ansi'")
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": env_name(self.game.name)}
        self.encoder: Encoder = encoder_for(self.game)
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        box = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        mask = spaces.Box(0, 1, shape=(self.encoder.num_actions,), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": box, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.encoder.num_actions)
                              for agent in self.possible_agents}
        self._seeds = SeedSource()
        # Action spaces are seeded by reset(seed=) when first asked for through
        # action_space(agent): seeding one costs as much as a move.
        self._space_seeds: dict[str, int] = {}
        self.state_: State | None = None
        # The legal actions of the position, asked of the engine once (observe and step
        # both need them); None after every move.
        self._legal: list[int] | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        space = self.action_spaces[agent]
        pending = self._space_seeds.pop(agent, None)
        if pending is not None:
            space.seed(pending)
        return space

    # -- the episode ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds.restart(seed)
            self._space_seeds = {agent: seed + number
                                 for number, agent in enumerate(self.possible_agents)}
        else:
            seed = self._seeds.next()
        self.seed_ = seed
        self.state_ = self.game.new_initial_state(seed)
        self._legal = None
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state_.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self._require_state()
        seat = self._seat[agent]
        legal = self._legal_actions() if seat == state.current_player else []
        return {"observation": self.encoder.encode(state, seat),
                "action_mask": self.encoder.action_mask(state, seat, legal)}

    def _legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._require_state().legal_actions()
        return self._legal

    def raw_view(self, agent: str) -> dict[str, Any]:
        """The agent's `view()` as the engine gives it (a JSON-able dict)."""
        return self._require_state().view(self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._require_state()
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if action is None or int(action) not in self._legal_actions():
            self.rewards[agent] = -1.0
            self.infos[agent] = {"illegal_action": True}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            state.apply_action(int(action))
            self._legal = None
            if state.is_terminal():
                self.rewards = {a: float(r) for a, r in zip(self.agents, state.returns(),
                                                             strict=True)}
                self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if any(self.terminations.values()):
            self.agent_selection = self._next_live(agent)
        else:
            self.agent_selection = self.possible_agents[state.current_player]

    def _next_live(self, agent: str) -> str:
        # After the end every agent takes one dead step, starting with the one after `agent`.
        index = self.agents.index(agent)
        return self.agents[(index + 1) % len(self.agents)]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self._require_state(), self.game)

    def close(self) -> None:
        return None

    def _require_state(self) -> State:
        if self.state_ is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state_


def env(game: str, render_mode: str | None = None, **options: Any) -> PyramidsAECEnv:
    """The PettingZoo AEC environment of `game` with `options` (validated by the game)."""
    return PyramidsAECEnv(game, render_mode=render_mode, **options)


def parallel_env(game: str, render_mode: str | None = None, **options: Any) -> Any:
    """The same game as a PettingZoo parallel environment (one agent acts each step)."""
    return turn_based_aec_to_parallel(env(game, render_mode=render_mode, **options))
