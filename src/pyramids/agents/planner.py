"""`planner`: search for one-player games and Pacal matches, `mcts` for everything else.

- **Pacal solo**: the cards to come are a uniformly random order of the cards
  this player has not seen (the face-down base cards are as unknown as the
  pile). For each legal field the planner estimates the chance of completing the
  pyramid, and then the expected number of draws, by playing sampled orders of
  the unseen cards to the end with the greedy placement rule. It plays the
  greedy field unless another completes clearly more pyramids: the other fields
  compete by successive halving (`rollouts` orders for every field, twice as
  many more for the better half, and so on until one is left), the greedy field
  plays every order, and the survivor replaces it only when a sign test on the
  orders where exactly one of the two completes favours the survivor by more
  than `MARGIN` standard errors. All fields play the same sampled orders
  (common random numbers), so the comparison between them is sharp; without
  the greedy default the noise in choosing among nearly equal fields cost as
  much as the search found.
- **Mahjongg, one player**: when every face on the board is visible, the exact
  solver (`pyramids.games.mahjongg.solver`, given a node budget) finds a
  complete clearing from the current position and the planner follows it; it
  re-solves whenever the position is not the one it planned for. With hidden
  faces, or when the solver gives no verdict within its budget, it plays the
  greedy move.
- **A Pacal match**: `sharp`'s move unless rollouts on sampled deals show
  another clearly better (`pyramids.agents.pacal_planning`; `rollouts` is the
  number of sampled deals, `horizon` how far each is played: `end`, the
  default, plays the round out; a number N stops when N more turns have begun
  and judges the position by `sharp`'s formula).
- Any other game: `mcts` with the given budget.

A game's manifest names its planner (`planner`: a function `(agent, state)`
returning an action, or None where it does not apply, as for Mahjongg with
several players); a game without one is played by `mcts`.
"""

from __future__ import annotations

import math
from typing import Any

from pyramids.agents.base import check_options, not_valid, option_names, whole_number
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
from pyramids.core import Game, OptionError, Rng, State, companion_of
from pyramids.core.errors import N_, Words

FIELDS = 10
DEFAULT_ROLLOUTS = 24
DUEL_ROLLOUTS = 8
MARGIN = 1.5
LOST = -1  # a sampled order on which the pyramid is not completed
MAHJONGG_NODE_LIMIT = 200_000


class PlannerAgent:
    name = "planner"

    @staticmethod
    def serves(game: str) -> bool:
        """A game whose manifest names a planner: elsewhere it plays mcts."""
        return companion_of(game, "planner") is not None

    def __init__(self, seed: int | None = 0, rollouts: int = DEFAULT_ROLLOUTS,
                 node_limit: int = MAHJONGG_NODE_LIMIT, horizon: int | str = "end",
                 **mcts_options: Any) -> None:
        # The options `mcts` takes are the planner's too (for the games it leaves to `mcts`).
        check_options(self.name, mcts_options,
                      ["rollouts", "node_limit", "horizon", *(option_names(MctsAgent) or ())])
        self.rng = Rng(seed)
        self.rollouts = whole_number(self.name, "rollouts", rollouts, 1)
        self.node_limit = whole_number(self.name, "node_limit", node_limit, 1)
        # Turns begun before a Pacal rollout is judged; None: the round is played out.
        self.horizon: int | None = None
        if horizon != "end":
            if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 1:
                raise not_valid(self.name, "horizon", horizon, Words(N_(
                    "'end' (play each sampled round out) or a whole number of at least 1 "
                    "(the turns begun before a position is judged)")))
            self.horizon = horizon
        try:
            self.fallback = MctsAgent(seed=seed, **mcts_options)
        except OptionError as error:
            if error.words.values.get("agent") != "mcts":
                raise
            # The player typed `planner:...`: name that agent, not the mcts it passes on to.
            raise OptionError(Words(error.words.msgid, **{
                **error.words.values, "agent": self.name})) from None
        self._plan: list[int] = []
        self._plan_key: str | None = None

    def reseed(self, seed: int | None) -> None:
        """Play on as a new planner made with `seed`: a new generator, no plan kept,
        and its `mcts` reseeded alike."""
        self.rng = Rng(seed)
        self.fallback.reseed(seed)
        self._plan = []
        self._plan_key = None

    @property
    def thinks_by_clock(self) -> bool:
        """Whether the games it leaves to `mcts` are played by the clock: plain
        `planner` leaves them to plain `mcts` (0.8 s a move), `planner:iterations=N` to
        a budget of iterations. `thinks_by_clock_in` answers for one game."""
        return bool(self.fallback.thinks_by_clock)

    def thinks_by_clock_in(self, game: Game) -> bool:
        """Whether it thinks by the clock in `game`: not where it plans the game itself
        (Pacal, Pacal solo, Mahjongg alone); where `mcts` plays (Temple, Mahjongg at a
        table), as that `mcts` does. Plain `planner` in Temple was taken for an agent
        a seed replays."""
        return self.thinks_by_clock and not plans(game)

    def step(self, state: State) -> int:
        plan = companion_of(state.game.name, "planner")
        if plan is not None:
            action: int | None = plan(self, state)
            if action is not None:
                return action
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
        # The greedy placement is the default; another field replaces it only when
        # it completes clearly more pyramids on the same sampled orders.
        counts = availability(set(unseen))
        default = max(sorted(legal), key=lambda a: evaluate(
            placed(pyramid, fields[a], card), counts, True))
        # Successive halving among the other fields: each gets `rollouts` sampled
        # orders, the better half twice as many more, and so on until one is left,
        # which then plays at least `DUEL_ROLLOUTS` x `rollouts` orders. Every field
        # plays the same orders (common random numbers); the default plays them all.
        results: dict[int, list[int]] = {a: [] for a in legal}  # draws used, LOST
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
                played = results[action]
                for order in orders[len(played):]:
                    won, used = play_out(after, order)
                    played.append(used if won else LOST)
            challengers = [a for a in alive if a != default]
            if len(challengers) > 1:
                challengers.sort(key=lambda a: _outlook(results[a], drawn), reverse=True)
                challengers = challengers[: max(1, len(challengers) // 2)]
                alive = sorted([*challengers, default])
            elif len(orders) >= DUEL_ROLLOUTS * self.rollouts:
                break
            batch *= 2
        if not challengers:
            return default
        return challengers[0] if _clearly_better(results[challengers[0]], results[default]) \
            else default

    # ----- Mahjongg solo ------------------------------------------------------------

    def _mahjongg_solo(self, state: State) -> int:
        from pyramids.agents.mahjongg_planning import next_action

        action = next_action(self, state)
        if action is None:
            return greedy_action(state, self.rng)
        return action


def plan_pacal_solo(agent: PlannerAgent, state: State) -> int:
    """The planner's move in Pacal solo (the `planner` companion of `pacal-solo`)."""
    return agent._pacal_solo(state)


def plan_mahjongg_solo(agent: PlannerAgent, state: State) -> int | None:
    """The planner's move in one-player Mahjongg; None with several players (mcts plays)."""
    if state.game.num_players != 1:
        return None
    return agent._mahjongg_solo(state)


def _alone(game: Game) -> bool:
    return game.num_players == 1


# The tables it plans: the others go to mcts (`plans`).
plan_mahjongg_solo.applies = _alone  # type: ignore[attr-defined]


def plans(game: Game) -> bool:
    """Whether the planner plays `game` itself: its manifest names a planner that applies
    to the game's table (a planner function's `applies(game)`, where it has one)."""
    plan = companion_of(game.name, "planner")
    if plan is None:
        return False
    applies = getattr(plan, "applies", None)
    return True if applies is None else bool(applies(game))


def _outlook(results: list[int], drawn: int) -> tuple[float, float]:
    """The chance of completing the pyramid, then the fewest expected draws."""
    wins = [used for used in results if used != LOST]
    mean_draws = sum(wins) / len(wins) if wins else float(FIELDS * 2)
    return (len(wins) / len(results) if results else 0.0, -(drawn + mean_draws))


def _clearly_better(challenger: list[int], default: list[int]) -> bool:
    """Whether the challenger completes more pyramids than the default on the same
    orders by more than `MARGIN` standard errors (a sign test on the orders where
    exactly one of them completes)."""
    pairs = list(zip(challenger, default, strict=True))
    only_challenger = sum(1 for c, d in pairs if c != LOST and d == LOST)
    only_default = sum(1 for c, d in pairs if d != LOST and c == LOST)
    split = only_challenger + only_default
    return split > 0 and only_challenger - only_default > MARGIN * math.sqrt(split)


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

