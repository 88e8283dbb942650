"""OpenSpiel's `ISMCTSBot` over the pyramids games, every random choice from one seed.

OpenSpiel has two `ISMCTSBot`s, and only one can play a game written in Python,
as every pyramids game is (open_spiel 2.0.2):

- `pyspiel.ISMCTSBot` (C++) cannot. Its `step` lets go of Python's lock (GIL)
  and then calls back into the Python game for an information state: the process
  dies of a segmentation fault, no exception, before any pyramids code runs.
  Reached another way (`pyspiel.Bot.step(bot, state)`) it stops with
  "ResampleFromInfostate() not implemented": OpenSpiel's bridge to Python games
  does not pass `ResampleFromInfostate` on. Nothing in a Python game can mend
  either, and its constructor is not given the game, so it cannot refuse one.
- `open_spiel.python.algorithms.ismcts.ISMCTSBot` (Python) can: it asks the
  state for `resample_from_infostate`, which the adapter answers
  (`PyramidsSpielState.resample_from_infostate`: what the seat cannot see
  redrawn by the engine's `resample_hidden`, the seat's information state and
  view unchanged). Left to itself it draws those worlds from OpenSpiel's
  `UniformProbabilitySampler`, which is not seeded, so two runs differ.

`ismcts_bot(game, seed=...)` builds the Python bot for a pyramids game with one
NumPy generator, seeded from `seed`, for everything: the bot's choices, the
random playouts of its evaluator, and the numbers each redrawn world comes from
(`set_resampler`). The same seed and the same game play the same moves. A game
it cannot search is refused, in words, when the bot is made.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from pyramids.agents.base import number_between, whole_number
from pyramids.core import OptionError
from pyramids.core.errors import N_
from pyramids.openspiel.game import PyramidsSpielGame, PyramidsSpielState

NAME = "ismcts"
#: `max_world_samples` for a new world each simulation.
UNLIMITED = ismcts.UNLIMITED_NUM_WORLD_SAMPLES
FINAL_POLICIES = {
    "max-visit-count": ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    "normalized-visit-count": ismcts.ISMCTSFinalPolicyType.NORMALIZED_VISITED_COUNT,
    "max-value": ismcts.ISMCTSFinalPolicyType.MAX_VALUE,
}


def ismcts_bot(
    game: Any,
    seed: int = 0,
    simulations: int = 100,
    uct_c: float = 2.0,
    rollouts: int = 1,
    max_world_samples: int = ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
    final_policy: str = "max-visit-count",
) -> ismcts.ISMCTSBot:
    """OpenSpiel's (Python) `ISMCTSBot` for `game`, a game loaded as
    `pyspiel.load_game("pyramids_<game>", ...)`, seeded by `seed`.

    `simulations` per move; `uct_c` the exploration constant; `rollouts` random
    playouts per leaf; `max_world_samples` how many redrawn worlds a move searches
    (-1: a new one each simulation); `final_policy` how the move is chosen from the
    search (`max-visit-count`, `normalized-visit-count`, `max-value`). A game that
    is not a pyramids game, or a bad setting, raises `OptionError` saying what is
    allowed, and no bot is made."""
    seed = whole_number(NAME, "seed", seed, 0)
    return seeded_bot(game, np.random.RandomState(seed % 2**32), simulations=simulations,
                      uct_c=uct_c, rollouts=rollouts, max_world_samples=max_world_samples,
                      final_policy=final_policy)


def seeded_bot(
    game: Any,
    random_state: np.random.RandomState,
    *,
    simulations: int = 100,
    uct_c: float = 2.0,
    rollouts: int = 1,
    max_world_samples: int = ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
    final_policy: str = "max-visit-count",
    agent: str = NAME,
) -> ismcts.ISMCTSBot:
    """`ismcts_bot` drawing every random number from `random_state`, which it keeps:
    reseeding that generator in place starts the bot again (the bot keeps no tree
    between moves). `agent`: the name its refusals give (the arena's
    `openspiel-ismcts`)."""
    if not isinstance(game, PyramidsSpielGame):
        raise OptionError(
            N_("{agent}: it searches the pyramids games loaded through OpenSpiel "
               "(pyspiel.load_game('pyramids_<game>') after importing pyramids.openspiel), "
               "not {game}; use OpenSpiel's own ISMCTSBot for other games"),
            agent=agent, game=_describe(game))
    game_type = game.get_type()
    if (game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL
            or game_type.information != pyspiel.GameType.Information.IMPERFECT_INFORMATION):
        # Every pyramids game is both; a plugin's game says otherwise here, not in C++.
        raise OptionError(
            N_("{agent}: it searches games where the seats move in turn and some of the game "
               "is hidden; {game} is not one"), agent=agent, game=game_type.short_name)
    simulations = whole_number(agent, "simulations", simulations, 1)
    rollouts = whole_number(agent, "rollouts", rollouts, 1)
    uct_c = number_between(agent, "uct_c", uct_c, 0)
    if max_world_samples != ismcts.UNLIMITED_NUM_WORLD_SAMPLES:
        max_world_samples = whole_number(agent, "max_world_samples", max_world_samples, 1)
    if final_policy not in FINAL_POLICIES:
        raise OptionError(N_("{agent}: {setting}={value} is not valid; allowed: {allowed}"),
                          agent=agent, setting="final_policy", value=repr(final_policy),
                          allowed=", ".join(FINAL_POLICIES))
    evaluator = mcts.RandomRolloutEvaluator(rollouts, random_state)
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c, simulations, max_world_samples=max_world_samples,
        random_state=random_state, final_policy_type=FINAL_POLICIES[final_policy],
    )

    def resample(state: PyramidsSpielState, player: int) -> PyramidsSpielState:
        # The world's numbers come from the bot's generator, not OpenSpiel's unseeded
        # UniformProbabilitySampler: the same seed redraws the same worlds.
        return state.resample_from_infostate(player, random_state.uniform)

    bot.set_resampler(resample)
    return bot


def _describe(game: Any) -> str:
    get_type = getattr(game, "get_type", None)
    if callable(get_type):
        return repr(get_type().short_name)
    return repr(type(game).__name__)
