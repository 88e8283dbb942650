"""`mcts`: information-set Monte Carlo tree search (single-observer ISMCTS).

Each iteration deals a fresh determinization with `state.resample_hidden(me,
rng)` (so the agent never uses what it cannot see), walks one shared tree keyed
by actions with UCT, adds one node, plays a rollout (random, or the `greedy`
policy) and backs the returns up for every seat. Because the legal actions
differ between determinizations, a child's exploration term counts how often
it was *available* rather than its parent's visits (Cowling, Powley and
Whitehouse 2012). Returns are rescaled to [0, 1] with the smallest and
largest seen so far, so scores of any size work with one exploration constant.

Budget: `iterations=N` is exact and, with a seed, deterministic; `time=S` stops
after S seconds of thinking (the agent reads the clock; engines never do). When
neither is given the agent thinks for `DEFAULT_TIME` seconds, which answers
within one second a move.
"""

from __future__ import annotations

import math
import time as clock
from collections.abc import Callable

from pyramids.core import Rng, State

DEFAULT_TIME = 0.8
ROLLOUT_POLICIES = ("random", "greedy")

Policy = Callable[[State, Rng], int]


class Node:
    __slots__ = ("children", "visits", "available", "totals")

    def __init__(self, players: int) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * players


class MctsAgent:
    name = "mcts"

    def __init__(
        self,
        seed: int | None = 0,
        iterations: int | None = None,
        time: float | None = None,
        rollout: str = "random",
        exploration: float = 0.7,
        rollout_depth: int | None = None,
    ) -> None:
        if rollout not in ROLLOUT_POLICIES:
            raise ValueError(
                f"mcts: rollout={rollout!r} is not valid; allowed: {', '.join(ROLLOUT_POLICIES)}"
            )
        if iterations is not None and iterations < 1:
            raise ValueError(f"mcts: iterations must be at least 1, got {iterations}")
        if time is not None and time <= 0:
            raise ValueError(f"mcts: time must be a positive number of seconds, got {time}")
        if rollout_depth is not None and rollout_depth < 0:
            raise ValueError(f"mcts: rollout_depth must be 0 or more, got {rollout_depth}")
        self.rng = Rng(seed)
        self.iterations = iterations
        self.time = DEFAULT_TIME if iterations is None and time is None else time
        self.rollout = rollout
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.last_iterations = 0
        self._policy: Policy | None = None

    def _rollout_policy(self) -> Policy:
        if self._policy is None:
            if self.rollout == "greedy":
                from pyramids.agents.greedy import greedy_action

                self._policy = greedy_action
            else:
                self._policy = _random_action
        return self._policy

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("mcts: the game is over; there is no move to choose")
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = self.search(state)
        me = state.current_player
        # The most visited move; its mean return breaks ties, then the lowest action.
        return max(legal, key=lambda a: _visits_and_mean(root, a, me))

    def search(self, state: State) -> Node:
        """The search tree after the budget is spent (its root's children are the moves)."""
        me = state.current_player
        players = state.game.num_players
        root = Node(players)
        bounds = [math.inf, -math.inf]
        deadline = None if self.time is None else clock.perf_counter() + self.time
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and clock.perf_counter() >= deadline:
                break
            self._iterate(state.resample_hidden(me, self.rng), root, players, bounds)
            done += 1
        self.last_iterations = done
        return root

    def _iterate(self, world: State, root: Node, players: int, bounds: list[float]) -> None:
        node = root
        path = [root]
        while not world.is_terminal():
            legal = world.legal_actions()
            mover = world.current_player
            untried = []
            for action in legal:
                child = node.children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.available += 1
            if untried:
                action = untried[self.rng.randrange(len(untried))]
                child = Node(players)
                child.available = 1
                node.children[action] = child
                world.apply_action(action)
                path.append(child)
                break
            action = self._select(node, legal, mover, bounds)
            world.apply_action(action)
            node = node.children[action]
            path.append(node)
        outcome = self._play_out(world)
        low, high = min(outcome), max(outcome)
        bounds[0] = min(bounds[0], low)
        bounds[1] = max(bounds[1], high)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for seat in range(players):
                totals[seat] += outcome[seat]

    def _select(self, node: Node, legal: list[int], mover: int, bounds: list[float]) -> int:
        low, high = bounds
        span = high - low if high > low else 1.0
        best_action = legal[0]
        best_score = -math.inf
        for action in legal:
            child = node.children[action]
            mean = (child.totals[mover] / child.visits - low) / span
            score = mean + self.exploration * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best_score = score
                best_action = action
        return best_action

    def _play_out(self, world: State) -> list[float]:
        policy = self._rollout_policy()
        depth = 0
        while not world.is_terminal():
            if self.rollout_depth is not None and depth >= self.rollout_depth:
                break
            world.apply_action(policy(world, self.rng))
            depth += 1
        return [float(r) for r in world.returns()]


def _visits_and_mean(root: Node, action: int, me: int) -> tuple[int, float]:
    child = root.children.get(action)
    if child is None or child.visits == 0:
        return (0, -math.inf)
    return (child.visits, child.totals[me] / child.visits)


def _random_action(state: State, rng: Rng) -> int:
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]
