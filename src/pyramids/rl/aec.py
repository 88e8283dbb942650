"""PettingZoo AEC environments for every registered game (`pyramids.rl.env(game, **options)`).

Follows PettingZoo's classic-environment conventions: agents `player_0`..,
observations `{"observation": float32 vector, "action_mask": int8 vector}`
(the mask is all zeros for an agent not to move), `render_mode="ansi"` (the
text board returned) or `"human"` (printed after every reset and move),
`metadata["name"]` versioned (`<game>_v0`), and seeding through
`reset(seed=)`, which maps to `game.new_initial_state(seed)`; `reset(options=)`
takes game options for that episode where they keep the spaces. Rewards are the
game's `returns()` at the end. An illegal action ends the game at once: the
agent that played it gets -1 and the others 0 (PettingZoo's
`TerminateIllegalWrapper` rule), and `infos[agent]["illegal_action"]` says so,
with `infos[agent]["reason"]`: the engine's words for what was wrong and what is
allowed.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from pyramids.core import Game, State, companion_of
from pyramids.core.errors import N_
from pyramids.play.i18n import _
from pyramids.rl.encoding import (
    Canvas,
    Encoder,
    EpisodeGames,
    as_action,
    as_game,
    as_seed,
    encoder_for,
    illegal_reason,
)

VERSION = "v0"
# Catalogue messages: raise them through `_` (the researcher's language).
RESET_FIRST = N_("call reset() before using the environment")
EPISODE_OVER = N_("the episode is over; call reset()")
#: What render_mode may be (`metadata["render_modes"]`).
RENDER_MODES = ["ansi", "human"]


def check_render_mode(render_mode: Any) -> Any:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(_("render_mode {mode} is not supported; allowed: None, {allowed}",
                           mode=repr(render_mode),
                           allowed=", ".join(repr(mode) for mode in RENDER_MODES)))
    return render_mode


def game_changes(game: Game, options: Any, own: tuple[str, ...] = ()
                 ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A reset's `options` split into the game's options for the episode, the
    environment's own keys (`own`), and the rest (keys that are neither)."""
    if options is None:
        return {}, {}, {}
    if not isinstance(options, Mapping):
        raise TypeError(_("reset options are a dict of option names and values, or None; "
                          "got {got}", got=repr(options)))
    changes: dict[str, Any] = {}
    mine: dict[str, Any] = {}
    rest: dict[str, Any] = {}
    for name, value in options.items():
        if name in own:
            mine[name] = value
        elif name in game.options:
            changes[name] = value
        else:
            rest[name] = value
    return changes, mine, rest


def allowed_reset_options(game: Game, own: tuple[str, ...] = ()) -> str:
    return ", ".join([*own, *sorted(game.options)])


def env_name(game: str) -> str:
    return f"{game}_{VERSION}"


def render_text(state: State, game: Game, viewer: int | None = None) -> str:
    """`viewer`'s view (the spectator's by default) as the game's text renderer draws it
    (JSON without one)."""
    view = state.view(viewer)
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


class MaskCanvas:
    """The legal-action mask, kept: shown once a position (`position`, a number the
    environment changes with every move and reset), and read again by the legality
    check of `step` (one item instead of a search of the legal list)."""

    #: Past this many actions a NumPy fancy index is cheaper than item writes.
    ITEMS = 24

    def __init__(self, num_actions: int) -> None:
        self.array = np.zeros(num_actions, dtype=np.int8)
        self.cells = self.array.data
        self.position = -1  # the position shown (none yet)

    def __getstate__(self) -> tuple[np.ndarray, int]:
        return self.array, self.position  # a memoryview does not pickle

    def __setstate__(self, saved: tuple[np.ndarray, int]) -> None:
        self.array, self.position = saved
        self.cells = self.array.data

    def show(self, legal: list[int], position: int) -> np.ndarray:
        """The mask of `legal`, the legal actions of `position` (this object's array:
        copy it to keep it)."""
        if position != self.position:
            self.array.fill(0)
            if len(legal) > self.ITEMS:
                self.array[np.fromiter(legal, np.intp, len(legal))] = 1
            else:
                cells = self.cells
                for action in legal:
                    cells[action] = 1
            self.position = position
        return self.array

    def allows(self, action: int, legal: list[int], position: int) -> bool:
        """Whether `action` is legal at `position`: one item of the mask when this
        position's mask is shown already, else a search of `legal`."""
        if self.position == position and 0 <= action < len(self.cells):
            return bool(self.cells[action])
        return action in legal


class _AgentIterable:
    """`agent_iter()`: the agent to act, until no agent is left or `max_iter` turns
    (PettingZoo's AECIterable, as a generator)."""

    def __init__(self, env: PyramidsAECEnv, max_iter: int) -> None:
        self.env, self.max_iter = env, max_iter

    def __iter__(self) -> Iterator[str]:
        env = self.env
        for _step in range(self.max_iter):
            if not env.agents:
                return
            yield env.agent_selection


class PyramidsAECEnv(AECEnv):
    """One registered game as a PettingZoo AEC environment.

    Unwrapped and lean: a classic environment is usually wrapped in PettingZoo's
    order-enforcing and assertion wrappers, a Python call a step each; this one
    checks what they check itself (reset before use, the action legal or None
    for a finished agent). Observations are computed when asked for (`observe`,
    `last`) and updated in place: each seat keeps its vector and the legal-action
    mask is kept too (`Canvas`, `MaskCanvas`), and what `observe` returns is a copy
    of them the caller may keep. The rewards, terminations, truncations and infos
    dictionaries are updated in place: rewards are all zero until the end.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "is_parallelizable": True,
                                "render_fps": 1}

    def __init__(self, game: str | Game, render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        self.game = as_game(game, options)
        self.render_mode = check_render_mode(render_mode)
        self.metadata = {**type(self).metadata, "name": env_name(self.game.name),
                         "render_modes": list(RENDER_MODES)}
        self.encoder: Encoder = encoder_for(self.game)
        self._episodes = EpisodeGames(self.game, self.encoder)
        #: The game of the episode in play: `game`, or with reset's options for it.
        self.episode_game: Game = self.game
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
        self._canvases = {agent: self.encoder.canvas(seat)
                          for agent, seat in self._seat.items()}
        # (state, canvas) -> the seat's observation, updated in place.
        self._update: Callable[[State, Canvas], np.ndarray] = self.encoder.update
        self._mask = MaskCanvas(self.encoder.num_actions)
        self._position = 0  # changes with every move and reset (what the mask shows)
        self._no_actions = np.zeros(self.encoder.num_actions, dtype=np.int8)
        self._over = False  # the episode ended: every agent takes its dead step
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space:
        try:
            return self.observation_spaces[agent]
        except KeyError:
            raise self._unknown(agent) from None

    def action_space(self, agent: str) -> spaces.Space:
        try:
            space = self.action_spaces[agent]
        except KeyError:
            raise self._unknown(agent) from None
        pending = self._space_seeds.pop(agent, None)
        if pending is not None:
            space.seed(pending)
        return space

    # -- the episode ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode, dealt from `seed`. `options`: game options for this episode
        only (`{"rounds_to_win": 1}`) over the environment's own, where they keep its
        spaces; a key that is no option of the game is warned of and not used
        (PettingZoo's api_test resets with `{"options": 1}` and requires it taken)."""
        changes, _own, rest = game_changes(self.game, options)
        # Checked before anything changes: a refused reset keeps the game in play.
        game, encoder = self._episodes.get(changes)
        if rest:
            warnings.warn(
                _("reset options {given} are not options of {game} and are not used; "
                  "allowed: {allowed} (this episode only; each must keep the "
                  "environment's spaces)", given=sorted(rest), game=self.game.name,
                  allowed=allowed_reset_options(self.game)), stacklevel=2)
        if seed is not None:
            seed = as_seed(seed)
            self._seeds.restart(seed)
            self._space_seeds = {agent: seed + number
                                 for number, agent in enumerate(self.possible_agents)}
        else:
            seed = self._seeds.next()
        self.seed_ = seed
        if encoder is not self.encoder:
            # Another writer fills the kept vectors now: each is written afresh.
            self.encoder = encoder
            self._update = encoder.update
            for canvas in self._canvases.values():
                canvas.forget()
        self.episode_game = game
        self.state_ = game.new_initial_state(seed)
        self._legal = None
        self._position += 1
        self._over = False
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        if self.state_.is_terminal():
            # Over at its deal (Mahjongg's deal=random can deal no free pair and no
            # favour to spend): the returns are the rewards, and every agent takes its
            # dead step from player_0 on. (current_player is -1 there: the last agent
            # was chosen, not terminated, with an all-zero mask.)
            self.agent_selection = self.possible_agents[-1]
            self._end(self.state_)
        else:
            self.agent_selection = self.possible_agents[self.state_.current_player]
        if self.render_mode == "human":
            self.render()

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        return _AgentIterable(self, max_iter)

    def last(self, observe: bool = True
             ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        try:
            agent = self.agent_selection
        except AttributeError:  # set by the first reset
            raise RuntimeError(_(RESET_FIRST)) from None
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self._require_state()
        try:
            canvas = self._canvases[agent]
        except KeyError:
            raise self._unknown(agent) from None
        if canvas.player == state.current_player and not self._over:
            legal = self._legal
            if legal is None:
                legal = self._legal = state.legal_actions()
            mask = self._mask.show(legal, self._position).copy()
        else:
            mask = self._no_actions.copy()
        return {"observation": self._update(state, canvas).copy(), "action_mask": mask}

    def _legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._require_state().legal_actions()
        return self._legal

    def raw_view(self, agent: str) -> dict[str, Any]:
        """The agent's `view()` as the engine gives it (a JSON-able dict)."""
        try:
            seat = self._seat[agent]
        except KeyError:
            raise self._unknown(agent) from None
        return self._require_state().view(seat)

    def _unknown(self, agent: Any) -> ValueError:
        return ValueError(_("unknown agent {agent}; the agents are {agents}",
                            agent=repr(agent), agents=", ".join(self.possible_agents)))

    def step(self, action: int | None) -> None:
        if self._over:
            if not self.agents:  # every agent took its dead step
                raise RuntimeError(_(EPISODE_OVER))
            self._was_dead_step(action)
            return
        state = self._require_state()
        legal = self._legal
        if legal is None:
            legal = self._legal = state.legal_actions()
        if action is None:
            self._end_illegal(self.agent_selection, illegal_reason(state, None))
            return
        if type(action) is not int:
            action = as_action(action)
        if not self._mask.allows(action, legal, self._position):
            self._end_illegal(self.agent_selection, illegal_reason(state, action))
            return
        state.apply_action(action)
        self._legal = None
        self._position += 1
        if state.is_terminal():
            self._end(state)
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        if self.render_mode == "human":
            self.render()

    def _end(self, state: State) -> None:
        agent = self.agent_selection
        self._over = True
        for seat, value in enumerate(state.returns()):
            self.rewards[self.possible_agents[seat]] = float(value)
        self._finish(agent)

    def _end_illegal(self, agent: str, reason: str) -> None:
        self._over = True
        self.rewards[agent] = -1.0
        self.infos[agent] = {"illegal_action": True, "reason": reason}
        self._finish(agent)
        if self.render_mode == "human":
            self.render()

    def _finish(self, agent: str) -> None:
        self._cumulative_rewards[agent] = 0.0
        for other in self.agents:
            self.terminations[other] = True
        self._accumulate_rewards()
        self.agent_selection = self._next_live(agent)

    def _next_live(self, agent: str) -> str:
        # After the end every agent takes one dead step, starting with the one after `agent`.
        index = self.agents.index(agent)
        return self.agents[(index + 1) % len(self.agents)]

    def render(self) -> str | None:
        """The board as a spectator sees it, as text: returned with
        `render_mode="ansi"`, printed (and None returned) with `"human"`, which also
        prints it after every reset and move."""
        if self.render_mode is None:
            return None
        text = render_text(self._require_state(), self.game)
        if self.render_mode == "human":
            print(text, flush=True)
            return None
        return text

    def close(self) -> None:
        return None

    def _require_state(self) -> State:
        if self.state_ is None:
            raise RuntimeError(_(RESET_FIRST))
        return self.state_


def env(game: str, render_mode: str | None = None, **options: Any) -> PyramidsAECEnv:
    """The PettingZoo AEC environment of `game` with `options` (validated by the game)."""
    return PyramidsAECEnv(game, render_mode=render_mode, **options)


def parallel_env(game: str, render_mode: str | None = None, **options: Any) -> Any:
    """The same game as a PettingZoo parallel environment (one agent acts each step)."""
    return turn_based_aec_to_parallel(env(game, render_mode=render_mode, **options))
