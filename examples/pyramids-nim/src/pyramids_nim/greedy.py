"""Nim's greedy policy: leave the other player a multiple of four stones when possible."""

from __future__ import annotations

from pyramids.core import Rng, State


def choose(state: State, rng: Rng) -> int:
    legal = state.legal_actions()
    stones: int = state.view(state.current_player)["stones"]
    for action in legal:
        if (stones - (action + 1)) % 4 == 0:
            return action
    return legal[rng.randrange(len(legal))]
