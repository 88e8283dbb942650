"""Gymnasium environments for the one-player games (`gymnasium.make("pyramids/<game>-v0")`).

The observation is the flat vector of `pyramids.rl.encoding` (a `Box`), the
action is an action number (`Discrete(num_distinct_actions)`), and the legal
ones are `info["action_mask"]` (int8). The reward is the game's return at the
end (+1 won, -1 lost), 0 before. `reset(seed=s)` plays the deal
`game.new_initial_state(s)`. An illegal action ends the episode with reward -1
and `info["illegal_action"] = True`.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from pyramids.core import Game, State, load, manifests
from pyramids.rl.aec import SeedSource, render_text
from pyramids.rl.encoding import Encoder, encoder_for

VERSION = "v0"


def env_id(game: str) -> str:
    return f"pyramids/{game}-{VERSION}"


class PyramidsGymEnv(gymnasium.Env):
    """A one-player registered game as a Gymnasium environment."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game: str | Game, render_mode: str | None = None,
                 **options: Any) -> None:
        self.game = game if isinstance(game, Game) else load(game, **options)
        if self.game.num_players != 1:
            raise ValueError(
                f"{self.game.name} with options {self.game.options} has "
                f"{self.game.num_players} players; Gymnasium environments are for one player "
                "(use pyramids.rl.env for the PettingZoo environment)"
            )
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not supported; allowed: 'ansi'")
        self.render_mode = render_mode
        self.encoder: Encoder = encoder_for(self.game)
        self.observation_space = spaces.Box(self.encoder.low, self.encoder.high,
                                            dtype=np.float32)
        self._action_space: spaces.Space = spaces.Discrete(self.encoder.num_actions)
        self._action_space_seed: int | None = None
        self._seeds = SeedSource()
        self.state: State | None = None
        self._legal: list[int] | None = None  # asked of the engine once a position

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds.restart(seed)
            self._action_space_seed = seed
        else:
            seed = self._seeds.next()
        self.state = self.game.new_initial_state(seed)
        self._legal = None
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self._require_state()
        if state.is_terminal():
            raise RuntimeError("the episode is over; call reset()")
        action = int(action)
        if action not in self._legal_actions():
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), -1.0, True, False, info
        state.apply_action(action)
        self._legal = None
        done = state.is_terminal()
        reward = float(state.returns()[0]) if done else 0.0
        return self._observe(), reward, done, False, self._info()

    @property
    def action_space(self) -> spaces.Space:
        """`Discrete(num_distinct_actions)`, seeded by reset(seed=) when first asked for
        (seeding costs as much as a move, and most loops never sample it)."""
        if self._action_space_seed is not None:
            self._action_space.seed(self._action_space_seed)
            self._action_space_seed = None
        return self._action_space

    @action_space.setter
    def action_space(self, space: spaces.Space) -> None:
        self._action_space, self._action_space_seed = space, None

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self._require_state(), self.game)

    def raw_view(self) -> dict[str, Any]:
        """The player's `view(0)` as the engine gives it."""
        return self._require_state().view(0)

    def _observe(self) -> np.ndarray:
        return self.encoder.encode(self._require_state(), 0)

    def _info(self) -> dict[str, Any]:
        state = self._require_state()
        legal = [] if state.is_terminal() else self._legal_actions()
        return {"action_mask": self.encoder.action_mask(state, 0, legal)}

    def _legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._require_state().legal_actions()
        return self._legal

    def _require_state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state


def one_player_games() -> list[str]:
    """The registered games whose default options make a one-player game."""
    return [manifest.name for manifest in manifests() if manifest.factory().num_players == 1]


def register_gymnasium() -> list[str]:
    """Register `pyramids/<game>-v0` for every one-player game; returns the ids."""
    ids = []
    for name in one_player_games():
        ident = env_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(id=ident, entry_point=f"{__name__}:PyramidsGymEnv",
                               kwargs={"game": name}, disable_env_checker=False)
        ids.append(ident)
    return ids
