"""`planner` in a Pacal match: rollouts that improve on `sharp` (the `expert` level).

`sharp` (greedy/pacal.py) looks one turn into the offer tree and judges what
follows by a formula: the shapes, the bullets and the danger that the opponent
holds two cards this player cannot place. The planner checks the formula
against play. At each decision it takes `sharp`'s scores; when the best move
leads the next by more than `CLEAR_LEAD` (a chance of winning the round), it
plays it. Otherwise it tries `sharp`'s `CANDIDATES` best moves on the same
`rollouts` worlds: the opponent's hand and the face-down base cards redealt at
random among themselves (`resample_hidden`, so it never sees a hidden card).
In each world, after each candidate, both players play on by `sharp`, each
from its own view, to the end of the round (the agent's `horizon`, `end` by
default), which counts 1, 0 or 1/2. With a number as the horizon the rollout
stops when that many more turns have begun, and the position is judged by
`sharp`'s chance of winning the round from this player's view. Either way the
opponent's offers are played from a hand it could really hold, instead of
being guessed by the danger formula.

`sharp`'s best move stays unless another does better on the same worlds by
more than `MARGIN` standard errors of the paired differences (common random
numbers: most worlds end alike after two candidates, so the comparison is sharp
where separate samples would be noise; the ISMCTS expert, whose 40 rollouts
each played a whole round on its own world, lost 46 of 100 matches to `sharp`
alone).

Every random choice comes from the planner's seed: the worlds from its
generator, the rollouts' ties from the world's number.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from pyramids.agents.greedy.pacal import (
    TURNS,
    Outlook,
    Side,
    mask_of,
    match_progress,
    pyramid_from_view,
    round_chance,
    sharp_choose,
    sharp_counts,
    sharp_scores,
    unseen_mask,
)
from pyramids.core import Rng, State

if TYPE_CHECKING:
    from pyramids.agents.planner import PlannerAgent

CLEAR_LEAD = 0.3  # sharp's best leads the next by this much: no rollouts
CANDIDATES = 3  # sharp's best moves tried on the sampled worlds
MARGIN = 1.0  # standard errors of the paired differences a challenger must win by


def plan_pacal_match(agent: PlannerAgent, state: State) -> int:
    """The planner's move in a Pacal match (the `planner` companion of `pacal`)."""
    scores = sharp_scores(state)
    ranked = sorted(scores, key=lambda action: (-scores[action], action))
    if len(ranked) == 1 or scores[ranked[0]] - scores[ranked[1]] > CLEAR_LEAD:
        return ranked[0]
    candidates = ranked[:CANDIDATES]
    me = state.current_player
    public = state.view(None)
    start = (public["round"], public["turns_played"])
    values: dict[int, list[float]] = {action: [] for action in candidates}
    for world_number in range(agent.rollouts):
        world = state.resample_hidden(me, agent.rng)
        for action in candidates:
            played = world.clone()
            played.apply_action(action)
            values[action].append(rollout_value(played, me, start, Rng(world_number),
                                                 agent.horizon))
    best = candidates[0]
    for challenger in candidates[1:]:
        if clearly_better(values[challenger], values[best]):
            best = challenger
    return best


def clearly_better(challenger: list[float], incumbent: list[float]) -> bool:
    """Whether the challenger's mean over the same worlds beats the incumbent's by
    more than `MARGIN` standard errors of the paired differences."""
    differences = [c - i for c, i in zip(challenger, incumbent, strict=True)]
    count = len(differences)
    mean = sum(differences) / count
    if mean <= 0:
        return False
    if count < 2:
        return True
    variance = sum((d - mean) ** 2 for d in differences) / (count - 1)
    return mean > MARGIN * math.sqrt(variance / count)


def rollout_value(world: State, me: int, start: tuple[int, int], rng: Rng,
                  horizon: int | None = None) -> float:
    """Both players play `sharp` to the end of the round, or with a `horizon` until
    that many more turns have begun; then `me`'s result or chance of winning it."""
    start_round, start_turn = start
    if horizon is None:
        horizon = TURNS + 1  # beyond the last cards: the round is played out
    through_last_cards = start_turn + horizon > TURNS
    while not world.is_terminal():
        round_number, phase, turns = match_progress(world)
        if round_number != start_round:
            break
        if (phase == "offer" and turns >= start_turn + horizon) or (
                phase == "last_card" and not through_last_cards):
            return position_chance(world.view(me), me)
        world.apply_action(sharp_choose(world, rng))
    return round_result(world.view(None), me, start_round)


def round_result(public: dict[str, Any], me: int, round_number: int) -> float:
    """1, 0 or 1/2 for the round `round_number`, which has ended."""
    last = public["last_round"]
    if last is None or last["round"] != round_number or last["winner"] is None:
        return 0.5
    return 1.0 if last["winner"] == me else 0.0


def position_chance(view: dict[str, Any], me: int) -> float:
    """`sharp`'s chance that `me` wins the round, between turns, from its own view."""
    pyramids = view["pyramids"]
    unseen = unseen_mask(view)
    their_hand = view["hand_sizes"][1 - me]
    my_counts, their_counts = sharp_counts(view, unseen, their_hand)
    mine = Side(pyramid_from_view(pyramids[me]), my_counts)
    theirs = Side(pyramid_from_view(pyramids[1 - me]), their_counts)
    offering = view["phase"] == "offer"
    turns_left = TURNS - view["turns_played"] if offering else 0
    outlook = Outlook(unseen, their_hand, turns_left)
    return round_chance(mine, theirs, mask_of(view["hand"]), outlook,
                        offering and view["active_player"] == me)
