"""OpenSpiel's MCTS bot as a pyramids agent (`openspiel-mcts`), for `pyramids arena`.

OpenSpiel's `MCTSBot` searches a perfect-information tree, so it is given a
determinization: each move, the agent fills what its seat cannot see at random
(`state.resample_hidden(player, rng)`, the same source our own `mcts` uses),
wraps it as an OpenSpiel state past the deal and lets the bot search it with
`simulations` simulations and random rollouts. It never sees the real hidden
cards. Options: `simulations` (default 200), `rollouts` (default 1), `uct_c`
(default 2.0).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from pyramids.agents import register_agent
from pyramids.agents.base import number_between, whole_number
from pyramids.core import Rng, State
from pyramids.openspiel.game import PyramidsSpielGame, register_games, short_name


class OpenSpielMctsAgent:
    name = "openspiel-mcts"

    def __init__(self, seed: int | None = 0, simulations: int = 200, rollouts: int = 1,
                 uct_c: float = 2.0) -> None:
        self.seed = 0 if seed is None else seed
        self.simulations = whole_number(self.name, "simulations", simulations, 1)
        self.rollouts = whole_number(self.name, "rollouts", rollouts, 1)
        self.uct_c = number_between(self.name, "uct_c", uct_c, 0)
        self._rng = Rng(self.seed)
        self._numpy = np.random.RandomState(self.seed % 2**32)
        self._games: dict[str, tuple[PyramidsSpielGame, Any]] = {}

    def __getstate__(self) -> dict[str, Any]:
        # OpenSpiel's MCTSBot does not pickle ("cannot pickle 'MCTSBot' object"), so an
        # environment with this agent as an opponent could not be copied or saved. The
        # games and bots are a cache: a copy makes its own on first use, over its copy of
        # the generator they share (MCTSBot keeps no tree between moves), so it plays on
        # move for move as the original.
        saved = self.__dict__.copy()
        saved["_games"] = {}
        return saved

    def reseed(self, seed: int | None) -> None:
        """Play on as a new agent made with `seed`: its determinizations and OpenSpiel's
        generator (shared by the bots and their evaluators, reseeded in place) start
        again; MCTSBot keeps no tree between moves."""
        self.seed = 0 if seed is None else seed
        self._rng = Rng(self.seed)
        self._numpy.seed(self.seed % 2**32)

    def _bot(self, state: State) -> tuple[PyramidsSpielGame, Any]:
        key = f"{state.game.name}:{sorted(state.game.options.items())}"
        if key not in self._games:
            register_games()
            game = pyspiel.load_game(short_name(state.game.name), state.game.options)
            evaluator = mcts.RandomRolloutEvaluator(self.rollouts, self._numpy)
            bot = mcts.MCTSBot(game, self.uct_c, self.simulations, evaluator,
                               random_state=self._numpy, solve=False)
            self._games[key] = (game, bot)
        return self._games[key]

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


register_agent(OpenSpielMctsAgent.name, make_openspiel_mcts)
