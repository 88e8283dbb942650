"""`planner`: search for one-player games, and `mcts` for everything else.

- **Pacal solo**: the cards to come are a uniformly random order of the cards
  this player has not seen (the face-down base cards are as unknown as the
  pile). For each legal field the planner estimates the chance of completing the
  pyramid, and then the expected number of draws, by playing sampled orders of
  the unseen cards to the end with the greedy placement rule. It spends its
  samples by successive halving: `rollouts` orders for every field, twice as
  many more for the better half, and so on until one field is left. Fields are
  judged on the same sampled orders (common random numbers), so the comparison
  between them is sharp.
- **Mahjongg, one player**: when every face on the board is visible, the exact
  solver (`pyramids.games.mahjongg.solver`, given a node budget) finds a
  complete clearing from the current position and the planner follows it; it
  re-solves whenever the position is not the one it planned for. With hidden
  faces, or when the solver gives no verdict within its budget, it plays the
  greedy move.
- Any other game: `mcts` with the given budget.
"""

from __future__ import annotations

from typing import Any

from pyramids.agents.greedy import greedy_action
from pyramids.agents.greedy.pacal import (
    HIGHEST,
    Pyramid,
    availability,
    evaluate,
    legal_fields,
    placed,
    pyramid_from_view,
    used_values,
)
from pyramids.agents.mcts import MctsAgent
from pyramids.core import Rng, State

FIELDS = 10
DEFAULT_ROLLOUTS = 24
MAHJONGG_NODE_LIMIT = 200_000


class PlannerAgent:
    name = "planner"

    def __init__(self, seed: int | None = 0, rollouts: int = DEFAULT_ROLLOUTS,
                 node_limit: int = MAHJONGG_NODE_LIMIT, **mcts_options: Any) -> None:
        if rollouts < 1:
            raise ValueError(f"planner: rollouts must be at least 1, got {rollouts}")
        self.rng = Rng(seed)
        self.rollouts = rollouts
        self.node_limit = node_limit
        self.fallback = MctsAgent(seed=seed, **mcts_options)
        self._plan: list[int] = []
        self._plan_key: str | None = None

    def step(self, state: State) -> int:
        name = state.game.name
        if name == "pacal-solo":
            return self._pacal_solo(state)
        if name == "mahjongg" and state.game.num_players == 1:
            return self._mahjongg_solo(state)
        return self.fallback.step(state)

    # ----- Pacal solo ---------------------------------------------------------------

    def _pacal_solo(self, state: State) -> int:
        view = state.view(state.current_player)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        card = view["card"]
        fields = {a: int(state.action_to_string(a).split()[1][1:]) - 1 for a in legal}
        pyramid = pyramid_from_view(view["pyramid"])
        unseen = sorted(set(range(1, HIGHEST + 1)) - used_values([view["pyramid"]]) - {card})
        drawn = view["draws"]
        # Successive halving: every field gets `rollouts` sampled orders, the better
        # half twice as many more, and so on until one field is left; all fields
        # in a round share the same orders (common random numbers).
        tallies = {a: [0, 0, 0] for a in legal}  # wins, draws when won, orders played
        alive = sorted(legal)
        orders: list[list[int]] = []
        batch = self.rollouts
        while True:
            for _ in range(batch):
                order = list(unseen)
                self.rng.shuffle(order)
                orders.append(order)
            for action in alive:
                after = placed(pyramid, fields[action], card)
                tally = tallies[action]
                for order in orders[tally[2]:]:
                    won, used = play_out(after, order)
                    if won:
                        tally[0] += 1
                        tally[1] += used
                tally[2] = len(orders)
            if len(alive) <= 1:
                break
            alive.sort(key=lambda a: _outlook(tallies[a], drawn), reverse=True)
            alive = sorted(alive[: max(1, len(alive) // 2)])
            batch *= 2
        return max(sorted(legal), key=lambda a: (tallies[a][2], _outlook(tallies[a], drawn)))

    # ----- Mahjongg solo ------------------------------------------------------------

    def _mahjongg_solo(self, state: State) -> int:
        from pyramids.agents.mahjongg_planning import next_action

        action = next_action(self, state)
        if action is None:
            return greedy_action(state, self.rng)
        return action


def _outlook(tally: list[int], drawn: int) -> tuple[float, float]:
    """The chance of completing the pyramid, then the fewest expected draws."""
    wins, draws, played = tally
    mean_draws = draws / wins if wins else float(FIELDS * 2)
    return (wins / played if played else 0.0, -(drawn + mean_draws))


def play_out(pyramid: Pyramid, order: list[int]) -> tuple[bool, int]:
    """Place cards from `order` greedily until the pyramid is full (won) or a card fits
    nowhere (lost); the cards drawn."""
    free = set(order)
    visible, covered = pyramid
    current: Pyramid = (list(visible), list(covered))
    empty = sum(1 for v in visible if not v)
    draws = 0
    for card in order:
        if not empty:
            return True, draws
        draws += 1
        free.discard(card)
        options = legal_fields(current, card)
        if not options:
            return False, draws
        counts = availability(free)
        best_field = max(options, key=lambda f: evaluate(placed(current, f, card), counts, True))
        if not current[0][best_field]:
            empty -= 1
        current = placed(current, best_field, card)
    return empty == 0, draws

