"""Gymnasium environments for the one-player games (`gymnasium.make("pyramids/<game>-v0")`).

The observation is the flat vector of `pyramids.rl.encoding` (a `Box`), the
action is an action number (`Discrete(num_distinct_actions)`), and the legal
ones are `info["action_mask"]` (int8). The reward is the game's return at the
end (+1 won, -1 lost), 0 before. `reset(seed=s)` plays the deal
`game.new_initial_state(s)`. An illegal action ends the episode with reward -1,
`info["illegal_action"] = True`, `info["reason"]` (the engine's words: what was
wrong, what is allowed) and an all-zero `info["action_mask"]`.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from pyramids.core import Game, State, load, manifests
from pyramids.rl.aec import MaskCanvas, SeedSource, render_text
from pyramids.rl.encoding import Encoder, as_action, as_seed, encoder_for, illegal_reason

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
        self._rng: np.random.Generator | None = None
        self._rng_seed: int | None = None
        self.state: State | None = None
        self._legal: list[int] | None = None  # asked of the engine once a position
        # The observation and the mask are kept and updated in place (see PyramidsAECEnv);
        # what reset and step return are copies.
        self._canvas = self.encoder.canvas(0)
        self._mask = MaskCanvas(self.encoder.num_actions)
        self._position = 0  # changes with every move and reset (what the mask shows)
        self._ended = False  # an illegal action ended the episode
        self._no_actions = np.zeros(self.encoder.num_actions, dtype=np.int8)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is not None:
            seed = as_seed(seed)
            # Gymnasium's `np_random` is seeded by this seed when first used (the game
            # draws from its own generator, and making a NumPy one costs more than a
            # short episode's steps).
            self._rng_seed, self._rng = seed, None
            self._seeds.restart(seed)
            self._action_space_seed = seed
        else:
            seed = self._seeds.next()
        self.state = self.game.new_initial_state(seed)
        self._legal = None
        self._position += 1
        self._ended = False
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self._require_state()
        # An illegal action ends the episode too (the state is not terminal then): a step
        # after it would pay the penalty again.
        if self._ended or state.is_terminal():
            raise RuntimeError("the episode is over; call reset()")
        if type(action) is not int:
            action = as_action(action)
        legal = self._legal
        if legal is None:
            legal = self._legal = state.legal_actions()
        if not self._mask.allows(action, legal, self._position):
            self._ended = True
            # The episode is over: nothing is legal any more (the mask said otherwise).
            info = {"action_mask": self._no_actions.copy(), "illegal_action": True,
                    "reason": illegal_reason(state, action)}
            return self._observe(), -1.0, True, False, info
        state.apply_action(action)
        self._legal = None
        self._position += 1
        if state.is_terminal():
            return (self._observe(), float(state.returns()[0]), True, False,
                    {"action_mask": self._no_actions.copy()})
        legal = self._legal = state.legal_actions()
        return (self.encoder.update(state, self._canvas).copy(), 0.0, False, False,
                {"action_mask": self._mask.show(legal, self._position).copy()})

    @property
    def _np_random(self) -> np.random.Generator | None:
        """`gymnasium.Env`'s generator, made from the last reset's seed when first asked for."""
        if self._rng is None and self._rng_seed is not None:
            self._rng, self._np_random_seed = seeding.np_random(self._rng_seed)
            self._rng_seed = None
        return self._rng

    @_np_random.setter
    def _np_random(self, generator: np.random.Generator | None) -> None:
        self._rng, self._rng_seed = generator, None

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
        """The observation (a copy: the env's own vector is updated in place)."""
        return self.encoder.update(self._require_state(), self._canvas).copy()

    def _info(self) -> dict[str, Any]:
        state = self._require_state()
        if state.is_terminal():
            return {"action_mask": self._no_actions.copy()}
        return {"action_mask": self._mask.show(self._legal_actions(), self._position).copy()}

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
