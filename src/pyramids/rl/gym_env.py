"""Gymnasium environments (`gymnasium.make("pyramids/<game>-v0")`): one learner, and
built-in agents at the other seats of a multi-player game.

The observation is the flat vector of `pyramids.rl.encoding` (a `Box`), the
action is an action number (`Discrete(num_distinct_actions)`), and the legal
ones are `info["action_mask"]` (int8). The reward is the learner's return at the
end (+1 won, -1 lost), 0 before. `reset(seed=s)` plays the deal
`game.new_initial_state(s)`. An illegal action ends the episode with reward -1,
`info["illegal_action"] = True`, `info["reason"]` (the engine's words: what was
wrong, what is allowed) and an all-zero `info["action_mask"]`.

A game of two or more players needs `opponents`: the agents that play the other
seats, named as the CLI names them (a level `easy`..`expert`, an agent name, or a
setting such as `mcts:iterations=200`), one for every other seat or a list with
one per other seat, in turn order from the learner's left (the seat after the
learner's first). The learner sits at `seat` (default 0), or with `seat="rotate"`
at the episode's seed modulo the number of players, so that seeded resets
0, 1, 2.. and the unseeded resets after one go round the table. `step` plays the
learner's action and then the opponents' moves until it is the learner's turn
again or the game is over; the observation and the mask are the learner's seat's
only (the PettingZoo environment's for that seat), and so is `render()`'s text.
Every opponent is reseeded from the episode's seed and its seat at each reset, so
`reset(seed=s)` and the learner's actions replay the whole episode, the opponents'
moves included. `reset(options=)` takes, for that episode, `seat` and game options
that keep the spaces, and refuses anything else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from pyramids.core import Game, OptionError, Rng, State, manifests
from pyramids.core.errors import N_
from pyramids.play.i18n import _, ngettext, words_text
from pyramids.rl.aec import (
    EPISODE_OVER,
    RENDER_MODES,
    RESET_FIRST,
    MaskCanvas,
    SeedSource,
    allowed_reset_options,
    check_render_mode,
    game_changes,
    render_text,
)
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
ROTATE = "rotate"
#: What an opponent may be, for the errors that refuse something else.
OPPONENT_FORMS = N_("a level (easy, medium, hard, expert), an agent name, "
                    "or a setting such as mcts:iterations=200")
_SEED_LIMIT = 2**63 - 1  # the unseeded resets' seeds stay below this (SeedSource's range)


def env_id(game: str) -> str:
    return f"pyramids/{game}-{VERSION}"


def opponent_seed(seed: int, seat: int) -> int:
    """The seed of the opponent at `seat` in the episode dealt from `seed`: apart from
    the deal's and every other seat's, so that no two draw the same numbers."""
    return Rng(f"gym-opponent:{seed}:{seat}").next_u64() >> 2


class PyramidsGymEnv(gymnasium.Env):
    """A registered game as a Gymnasium environment for one learner; the other seats,
    if any, are played by built-in agents (`opponents`)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}
    #: reset's own options (beside the game's): the learner's seat for the episode.
    RESET_OPTIONS = ("seat",)

    def __init__(self, game: str | Game, render_mode: str | None = None, *,
                 opponents: str | Sequence[str] | None = None, seat: int | str = 0,
                 **options: Any) -> None:
        self.game = as_game(game, options)
        self._settings = _opponent_settings(self.game, opponents)
        self._rotate = _rotates(self.game, seat)
        self.render_mode = check_render_mode(render_mode)
        #: The learner's seat in this episode (the first episode's until a reset).
        self.seat: int = 0 if self._rotate else int(seat)
        self._home_seat = self.seat  # a fixed seat, for the resets that name none
        # The agents are made once (making some costs more than a move) and reseeded
        # by every reset; an agent without `reseed` (a plugin's) is made afresh then.
        self._agents = _make_opponents(self._settings, self.game)
        #: The agent at each seat (None at the learner's), for this episode.
        self.opponents: list[Any] = self._seated(self.seat)
        self.encoder: Encoder = encoder_for(self.game)
        self._episodes = EpisodeGames(self.game, self.encoder)
        #: The game of the episode in play: `game`, or with reset's options for it.
        self.episode_game: Game = self.game
        self.observation_space = spaces.Box(self.encoder.low, self.encoder.high,
                                            dtype=np.float32)
        self._action_space: spaces.Space = spaces.Discrete(self.encoder.num_actions)
        self._action_space_seed: int | None = None
        self._seeds = SeedSource()
        self._rng: np.random.Generator | None = None
        self._rng_seed: int | None = None
        self.state: State | None = None
        #: The seed of the episode in play (its deal and its opponents'), to replay it.
        self.seed_: int | None = None
        self._legal: list[int] | None = None  # asked of the engine once a position
        # The observation and the mask are kept and updated in place (see PyramidsAECEnv),
        # one vector per seat the learner has taken; what reset and step return are copies.
        self._canvases: dict[int, Canvas] = {}
        self._canvas = self._canvas_of(self.seat)
        self._mask = MaskCanvas(self.encoder.num_actions)
        self._position = 0  # changes with every move and reset (what the mask shows)
        self._ended = False  # an illegal action ended the episode
        self._no_actions = np.zeros(self.encoder.num_actions, dtype=np.int8)

    def _seated(self, seat: int) -> list[Any]:
        """The agents by seat with the learner at `seat`: the list runs in turn order
        from the learner's left, so a rotating learner keeps its neighbours."""
        players = self.game.num_players
        table: list[Any] = [None] * players
        for offset, agent in enumerate(self._agents, start=1):
            table[(seat + offset) % players] = agent
        return table

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new episode, dealt from `seed`. `options`, for this episode only: `seat`
        (the learner's seat), and game options over the environment's own
        (`{"rounds_to_win": 1}`) where they keep its spaces; anything else is refused,
        before anything changes."""
        players = self.game.num_players
        changes, mine, rest = game_changes(self.game, options, self.RESET_OPTIONS)
        if rest:
            raise ValueError(_(
                "reset options {given} are not allowed; allowed: {allowed} (seat: the "
                "learner's seat; the others: options of {game}; each for this episode "
                "only)", given=sorted(rest), game=self.game.name,
                allowed=allowed_reset_options(self.game, self.RESET_OPTIONS)))
        chosen = mine.get("seat")
        if chosen is not None and not _is_seat(chosen, players):
            raise ValueError(_("reset option seat is a seat number from 0 to {last}; "
                               "got {got}", last=players - 1, got=repr(chosen)))
        game, encoder = self._episodes.get(changes)
        if seed is not None:
            seed = as_seed(seed)
            # Gymnasium's `np_random` is seeded by this seed when first used (the game
            # draws from its own generator, and making a NumPy one costs more than a
            # short episode's steps).
            self._rng_seed, self._rng = seed, None
            self._np_random_seed = seed  # Gymnasium's `np_random_seed` reads it
            self._seeds.restart(seed)
            self._action_space_seed = seed
        else:
            seed = self._seeds.next()
            if self._rotate and players > 1 and chosen is None:
                # The seat follows the seed, so that the seed alone replays an episode;
                # an unseeded reset's seed is moved to the next seat round the table.
                seed += (self.seat + 1 - seed) % players
                if seed >= _SEED_LIMIT:
                    seed -= players
        self.seed_ = seed
        seat = int(chosen) if chosen is not None else (
            seed % players if self._rotate else self._home_seat)
        if seat != self.seat:
            self.seat = seat
            self.opponents = self._seated(seat)
            self._canvas = self._canvas_of(seat)
        if encoder is not self.encoder:
            # Another writer fills the kept vectors now: each is written afresh.
            self.encoder = encoder
            for canvas in self._canvases.values():
                canvas.forget()
        self.episode_game = game
        self._reseed_opponents(seed)
        state = self.state = game.new_initial_state(seed)
        self._legal = None
        self._position += 1
        self._ended = False
        self._play_opponents(state)
        info = self._info()
        info["seat"] = self.seat
        observation = self._observe()
        if self.render_mode == "human":
            self.render()
        return observation, info

    def _reseed_opponents(self, seed: int) -> None:
        from pyramids.agents import make_agent_from_setting, reseed_agent

        for seat, agent in enumerate(self.opponents):
            if agent is None:
                continue
            own = opponent_seed(seed, seat)
            if not reseed_agent(agent, own):
                index = self._agents.index(agent)
                fresh = make_agent_from_setting(self._settings[index], seed=own)
                self._agents[index] = self.opponents[seat] = fresh

    def _play_opponents(self, state: State) -> None:
        """The opponents' moves, until the learner is to move or the game is over."""
        opponents = self.opponents
        seat = self.seat
        player = state.current_player
        while player != seat and not state.is_terminal():
            state.apply_action(opponents[player].step(state))
            player = state.current_player

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self._require_state()
        # An illegal action ends the episode too (the state is not terminal then): a step
        # after it would pay the penalty again.
        if self._ended or state.is_terminal():
            raise RuntimeError(_(EPISODE_OVER))
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
            if self.render_mode == "human":
                self.render()
            return self._observe(), -1.0, True, False, info
        state.apply_action(action)
        if self._agents:
            self._play_opponents(state)
        self._legal = None
        self._position += 1
        if self.render_mode == "human":
            self.render()
        if state.is_terminal():
            return (self._observe(), float(state.returns()[self.seat]), True, False,
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
        """The learner's view as text: what its observation encodes, its own hidden
        cards included, never the other seats'. Returned with `render_mode="ansi"`;
        printed (and None returned) with `"human"`, which also prints it after every
        reset and step."""
        if self.render_mode is None:
            return None
        text = render_text(self._require_state(), self.game, self.seat)
        if self.render_mode == "human":
            print(text, flush=True)
            return None
        return text

    def raw_view(self) -> dict[str, Any]:
        """The learner's `view(seat)` as the engine gives it."""
        return self._require_state().view(self.seat)

    def _canvas_of(self, seat: int) -> Canvas:
        canvas = self._canvases.get(seat)
        if canvas is None:
            canvas = self._canvases[seat] = self.encoder.canvas(seat)
        return canvas

    def _observe(self) -> np.ndarray:
        """The learner's observation (a copy: the env's own vector is updated in place)."""
        return self.encoder.update(self._require_state(), self._canvas).copy()

    def _info(self) -> dict[str, Any]:
        state = self._require_state()
        if state.is_terminal():
            return {"action_mask": self._no_actions.copy()}
        return {"action_mask": self._mask.show(self._legal_actions(), self._position).copy()}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as booleans: the method sb3-contrib's
        `MaskablePPO` calls (`info["action_mask"]` holds the same as int8). None is legal
        once the episode is over, an illegal action's end included."""
        state = self._require_state()
        if self._ended or state.is_terminal():
            return self._no_actions.astype(bool)
        return self._mask.show(self._legal_actions(), self._position).astype(bool)

    def _legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._require_state().legal_actions()
        return self._legal

    def _require_state(self) -> State:
        if self.state is None:
            raise RuntimeError(_(RESET_FIRST))
        return self.state


def _opponent_settings(game: Game, opponents: Any) -> list[str]:
    """The agent setting of each other seat, in turn order from the learner's left;
    what is wrong (none for a table, some for a game played alone, a count that is not
    the other seats', something not a setting) is refused, saying what is allowed."""
    others = game.num_players - 1
    table: dict[str, Any] = {"game": game.name, "options": game.options,
                             "players": game.num_players}
    if others == 0:
        if opponents is not None:
            raise ValueError(_(
                "{game} with options {options} has 1 player, so there is no seat for "
                "opponents (got opponents={got}); leave opponents out, or choose a setting "
                "with more players", game=game.name, options=game.options,
                got=repr(opponents)))
        return []
    if opponents is None:
        example = f"gymnasium.make({env_id(game.name)!r}, opponents='hard')"
        raise ValueError(ngettext(
            "{game} with options {options} has {players} players: give opponents=, "
            "{count} agent for the other seat: {forms}, e.g. {example} (or use "
            "pyramids.rl.env for the PettingZoo environment, where you play every seat)",
            "{game} with options {options} has {players} players: give opponents=, the "
            "agents that play the other {count} seats: {forms}; one for all or a list of "
            "{count}, e.g. {example} (or use pyramids.rl.env for the PettingZoo "
            "environment, where you play every seat)",
            others, forms=_(OPPONENT_FORMS), example=example, **table))
    if isinstance(opponents, str):
        settings = [opponents] * others
    elif isinstance(opponents, Sequence):
        settings = list(opponents)
        if len(settings) != others:
            raise ValueError(ngettext(
                "{game} with options {options} has {players} players: opponents takes "
                "one setting for the other seat, or a list of {count}; got a list of "
                "{got}",
                "{game} with options {options} has {players} players: opponents takes "
                "one setting for all {count} other seats, or a list of {count} (one per "
                "other seat, in turn order from the learner's left); got a list of {got}",
                others, got=len(settings), **table))
    else:
        raise TypeError(_("opponents is {forms}, or a list of them; got {got}",
                          forms=_(OPPONENT_FORMS), got=repr(opponents)))
    for setting in settings:
        if not isinstance(setting, str) or not setting.strip():
            raise TypeError(_("each opponent is {forms}; got {got}",
                              forms=_(OPPONENT_FORMS), got=repr(setting)))
    return settings


def _make_opponents(settings: list[str], game: Game) -> list[Any]:
    """The agent of each setting; one that is not an agent, or that thinks by the clock
    in `game` (a seed would not replay its episodes), is refused, saying what is
    allowed."""
    from pyramids.agents import make_agent_from_setting, parse_setting, thinks_by_clock

    agents = []
    for setting in settings:
        try:
            agent = make_agent_from_setting(setting)
        except OptionError as error:
            # The agents' words say what is allowed; which opponent it was is added here.
            raise ValueError(_("opponent {setting}: {reason}", setting=repr(setting),
                               reason=words_text(error))) from None
        if thinks_by_clock(agent, game):
            example = parse_setting(setting)[0] + ":iterations=200"
            raise ValueError(_(
                "opponent {setting} thinks by the clock in {game}, so a seed would not "
                "replay its episodes (its moves would depend on the machine's speed); give "
                "a budget of iterations instead, such as {example}", setting=repr(setting),
                game=game.name, example=example))
        agents.append(agent)
    return agents


def _rotates(game: Game, seat: Any) -> bool:
    """Whether the learner's seat rotates; a fixed seat not at the table is refused."""
    if seat == ROTATE:
        return True
    players = game.num_players
    if _is_seat(seat, players):
        return False
    raise ValueError(ngettext(
        "seat is a seat number from 0 to {last} or {rotate} ({game} has {count} player); "
        "got {got}",
        "seat is a seat number from 0 to {last} or {rotate} ({game} has {count} players); "
        "got {got}", players, last=players - 1, rotate=repr(ROTATE), game=game.name,
        got=repr(seat)))


def _is_seat(seat: Any, players: int) -> bool:
    return (isinstance(seat, (int, np.integer)) and not isinstance(seat, (bool, np.bool_))
            and bool(0 <= seat < players))


def one_player_games() -> list[str]:
    """The registered games whose default options make a one-player game."""
    return [manifest.name for manifest in manifests() if manifest.factory().num_players == 1]


def register_gymnasium() -> list[str]:
    """Register `pyramids/<game>-v0` for every registered game; returns the ids. A game
    played at a table by default needs `opponents=` in `gymnasium.make`."""
    ids = []
    for manifest in manifests():
        ident = env_id(manifest.name)
        if ident not in gymnasium.registry:
            gymnasium.register(id=ident, entry_point=f"{__name__}:PyramidsGymEnv",
                               kwargs={"game": manifest.name}, disable_env_checker=False)
        ids.append(ident)
    return ids
