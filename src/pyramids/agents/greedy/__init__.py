"""`greedy`: a one-move-deep heuristic player per game, from the strategy notes.

Each game has its own module here with `choose(state, rng) -> action`, working
from `state.view(player)` and `state.legal_actions()` only (plus trying an
action on a clone of the state, which shows nothing hidden). `greedy_action`
picks the module by the game's name; a game without one is played at random.
Ties between equally good actions are broken with the agent's own seeded
generator, so a seed replays a game exactly.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from pyramids.core import Rng, State

Policy = Callable[[State, Rng], int]

POLICY_MODULES = {
    "pacal": "pyramids.agents.greedy.pacal",
    "pacal-solo": "pyramids.agents.greedy.pacal",
    "temple": "pyramids.agents.greedy.temple",
    "mahjongg": "pyramids.agents.greedy.mahjongg",
}

_policies: dict[str, Policy] = {}


def policy_for(game_name: str) -> Policy | None:
    """The greedy policy for a game, or None when it has none."""
    if game_name not in _policies:
        module_name = POLICY_MODULES.get(game_name)
        if module_name is None:
            return None
        _policies[game_name] = importlib.import_module(module_name).choose
    return _policies[game_name]


def random_action(state: State, rng: Rng) -> int:
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


def greedy_action(state: State, rng: Rng) -> int:
    """The greedy move for the player to move (random for a game with no policy)."""
    policy = policy_for(state.game.name)
    if policy is None:
        return random_action(state, rng)
    return policy(state, rng)


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = Rng(seed)

    def step(self, state: State) -> int:
        return greedy_action(state, self.rng)


def best_by(actions: list[int], score: Callable[[int], float], rng: Rng) -> int:
    """The action with the highest score; ties broken at random with `rng`."""
    best: list[int] = []
    best_score = -float("inf")
    for action in actions:
        value = score(action)
        if value > best_score + 1e-12:
            best, best_score = [action], value
        elif abs(value - best_score) <= 1e-12:
            best.append(action)
    return best[rng.randrange(len(best))]
