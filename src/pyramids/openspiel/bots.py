"""OpenSpiel's MCTS and IS-MCTS bots as pyramids agents (`openspiel-mcts`,
`openspiel-ismcts`), for `pyramids arena` and wherever an agent setting is taken.

OpenSpiel's `MCTSBot` searches a perfect-information tree, so it is given a
determinization: each move, the agent fills what its seat cannot see at random
(`state.resample_hidden(player, rng)`, the same source our own `mcts` uses),
wraps it as an OpenSpiel state past the deal and lets the bot search it with
`simulations` simulations and random rollouts. It never sees the real hidden
cards. Options: `simulations` (default 200), `rollouts` (default 1), `uct_c`
(default 2.0).

`openspiel-ismcts` is OpenSpiel's (Python) `ISMCTSBot` as `ismcts_bot` makes it
(`pyramids.openspiel.ismcts`): every simulation searches a world its seat cannot
tell from the real one (`resample_from_infostate`, the engine's
`resample_hidden`), one tree over the seat's information states. Every random
number, the bot's, its playouts' and the worlds', comes from one NumPy generator
seeded from the agent's seed (the arena's per-game seed), so a seed replays its
games. Options: `simulations` (default 100), `uct_c` (2.0), `rollouts` (1),
`max_world_samples` (`unlimited`, a new world each simulation, or N: the worlds
a move draws, searched again and again), `final_policy` (`max-visit-count`,
`normalized-visit-count`, `max-value`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from pyramids.agents import register_agent
from pyramids.agents.base import finite_number, not_valid, number_between, whole_number
from pyramids.core import OptionError, Rng, State
from pyramids.core.errors import N_
from pyramids.openspiel.game import PyramidsSpielGame, register_games, short_name
from pyramids.openspiel.ismcts import FINAL_POLICIES, UNLIMITED, seeded_bot


class _CachedBots:
    """One OpenSpiel game and bot for each pyramids game (and its options) the agent
    meets, made on first use by `_new_bot`. The bots are a cache: OpenSpiel's bots do not
    pickle ("cannot pickle 'MCTSBot' object"), so an environment with this agent as an
    opponent could not be copied or saved; a copy makes its own on first use, over its
    copy of the generator they share (neither bot keeps a tree between moves), so it
    plays on move for move as the original."""

    def __init__(self) -> None:
        self._games: dict[str, tuple[PyramidsSpielGame, Any]] = {}

    def __getstate__(self) -> dict[str, Any]:
        saved = self.__dict__.copy()
        saved["_games"] = {}
        return saved

    def _new_bot(self, game: PyramidsSpielGame) -> Any:
        raise NotImplementedError

    def _bot(self, state: State) -> tuple[PyramidsSpielGame, Any]:
        key = _game_key(state)
        if key not in self._games:
            game = _spiel_game(state)
            self._games[key] = (game, self._new_bot(game))
        return self._games[key]


class OpenSpielMctsAgent(_CachedBots):
    name = "openspiel-mcts"

    def __init__(self, seed: int | None = 0, simulations: int = 200, rollouts: int = 1,
                 uct_c: float = 2.0) -> None:
        self.seed = 0 if seed is None else seed
        self.simulations = whole_number(self.name, "simulations", simulations, 1)
        self.rollouts = whole_number(self.name, "rollouts", rollouts, 1)
        self.uct_c = number_between(self.name, "uct_c", uct_c, 0)
        self._rng = Rng(self.seed)
        self._numpy = np.random.RandomState(self.seed % 2**32)
        super().__init__()

    def reseed(self, seed: int | None) -> None:
        """Play on as a new agent made with `seed`: its determinizations and OpenSpiel's
        generator (shared by the bots and their evaluators, reseeded in place) start
        again; MCTSBot keeps no tree between moves."""
        self.seed = 0 if seed is None else seed
        self._rng = Rng(self.seed)
        self._numpy.seed(self.seed % 2**32)

    def _new_bot(self, game: PyramidsSpielGame) -> Any:
        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, self._numpy)
        return mcts.MCTSBot(game, self.uct_c, self.simulations, evaluator,
                            random_state=self._numpy, solve=False)

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        game, bot = self._bot(state)
        guess = state.resample_hidden(state.current_player, self._rng)
        return int(bot.step(game.state_from_engine(guess)))


def make_openspiel_mcts(seed: int | None = 0, simulations: int = 200, rollouts: int = 1,
                        uct_c: float = 2.0) -> OpenSpielMctsAgent:
    # Named options (no `**options`), so that `make_agent` can name an unknown one.
    return OpenSpielMctsAgent(seed=seed, simulations=simulations, rollouts=rollouts,
                              uct_c=uct_c)


class OpenSpielIsmctsAgent(_CachedBots):
    name = "openspiel-ismcts"

    def __init__(self, seed: int | None = 0, simulations: int = 100, uct_c: float = 2.0,
                 rollouts: int = 1, max_world_samples: int | str = "unlimited",
                 final_policy: str = "max-visit-count") -> None:
        self.seed = 0 if seed is None else seed
        self.simulations = whole_number(self.name, "simulations", simulations, 1)
        self.uct_c = number_between(self.name, "uct_c", uct_c, 0)
        self.rollouts = whole_number(self.name, "rollouts", rollouts, 1)
        self.max_world_samples = _world_samples(self.name, max_world_samples)
        if final_policy not in FINAL_POLICIES:
            raise not_valid(self.name, "final_policy", final_policy, FINAL_POLICIES)
        self.final_policy = final_policy
        # One generator for everything the bots draw (their choices, playouts and
        # worlds), shared by the bot of each game, reseeded in place.
        self._numpy = np.random.RandomState(self.seed % 2**32)
        super().__init__()

    def reseed(self, seed: int | None) -> None:
        """Play on as a new agent made with `seed`: the generator every bot draws from
        is reseeded in place; ISMCTSBot starts a new tree each move."""
        self.seed = 0 if seed is None else seed
        self._numpy.seed(self.seed % 2**32)

    def _new_bot(self, game: PyramidsSpielGame) -> Any:
        # A game it cannot search is refused here, in words, at its first move.
        return seeded_bot(game, self._numpy, simulations=self.simulations,
                          uct_c=self.uct_c, rollouts=self.rollouts,
                          max_world_samples=self.max_world_samples,
                          final_policy=self.final_policy, agent=self.name)

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        game, bot = self._bot(state)
        # The real position is the root; the bot searches only worlds redrawn from what
        # the seat to move can see (every simulation's root is `resample_from_infostate`).
        return int(bot.step(game.state_from_engine(state)))


def _world_samples(agent: str, value: object) -> int:
    """`max_world_samples`: `unlimited` (or -1, OpenSpiel's word for it) or a whole
    number of at least 1."""
    if value == "unlimited" or (not isinstance(value, bool) and value == UNLIMITED):
        return UNLIMITED
    number = finite_number(value)
    if number is not None and number == int(number) and number >= 1:
        return int(number)
    raise OptionError(
        N_("{agent}: {setting} must be 'unlimited' (a new world each simulation) or a whole "
           "number of at least 1, got {value}"),
        agent=agent, setting="max_world_samples", value=repr(value))


def _game_key(state: State) -> str:
    return f"{state.game.name}:{sorted(state.game.options.items())}"


def _spiel_game(state: State) -> PyramidsSpielGame:
    register_games()
    game: PyramidsSpielGame = pyspiel.load_game(short_name(state.game.name),
                                                state.game.options)
    return game


def make_openspiel_ismcts(seed: int | None = 0, simulations: int = 100, uct_c: float = 2.0,
                          rollouts: int = 1, max_world_samples: int | str = "unlimited",
                          final_policy: str = "max-visit-count") -> OpenSpielIsmctsAgent:
    # Named options (no `**options`), so that `make_agent` can name an unknown one.
    return OpenSpielIsmctsAgent(seed=seed, simulations=simulations, uct_c=uct_c,
                                rollouts=rollouts, max_world_samples=max_world_samples,
                                final_policy=final_policy)


register_agent(OpenSpielMctsAgent.name, make_openspiel_mcts)
register_agent(OpenSpielIsmctsAgent.name, make_openspiel_ismcts)
