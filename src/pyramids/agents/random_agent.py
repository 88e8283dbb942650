"""`random`: uniform over the legal actions, from its own seed."""

from __future__ import annotations

from pyramids.core import Rng, State


class RandomAgent:
    name = "random"
    #: Its step costs about one `legal_actions` (see `GreedyAgent.quick`).
    quick = True

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = Rng(seed)

    def reseed(self, seed: int | None) -> None:
        self.rng = Rng(seed)

    def step(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())
