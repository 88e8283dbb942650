"""`lookahead`: Pacal solo played by the chance of completing the pyramid, one draw deep.

The card after this one is a uniformly random card among those this player has
not seen: the face-down base cards are as unknown as the pile, so every unseen
value is equally likely to come next. For each legal field the policy therefore
averages, over every unseen value, the best chance of completion it can keep
after placing that value too (no chance when the value fits nowhere: the game is
lost; certainty when the pyramid is full). The chance of a position is
`completion_chance`: a logistic model of the pyramid's shape, fitted to the
outcomes of greedy games (`python benchmarks/pacal_solo_value.py`,
which prints `CHANCE_WEIGHTS`), so a lost game and a full pyramid sit on the same
scale as every position between them.

The shape is read as the building rule sees it: each run of empty fields between
two visible values (or an edge) must be filled with values from between them,
and each gap between two neighbouring occupied fields can only take a card by
covering one of them. So the features are, with `U` the number of unseen values:
the empty fields (and their square), for each run of `k` empty fields with `n`
values to come between its bounds the slack `k log((n+1)/(k+1))` (summed over the
runs with `n >= k`), how cramped the runs are (`k^2/(n+1)`), the
smallest spare `n - k`, the open and closed fields, the number of runs, `U`,
and the share of the values to come that fit nowhere (dead: between two
neighbouring closed fields) or only by covering (absorbed), each also times the
empty fields.

It takes about 3.4 ms of CPU a move (each unseen value x the legal fields x the
fields that value may take; `benchmarks/pacal_solo_value.py compare`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pyramids.agents.greedy import best_by
from pyramids.agents.greedy.pacal import (
    HIGHEST,
    Pyramid,
    action_scores,
    availability,
    field_of,
    legal_fields,
    placed,
    pyramid_from_view,
    used_values,
)
from pyramids.core import Rng, State

FIELDS = 10
EDGE = HIGHEST + 1

#: Fitted by `python benchmarks/pacal_solo_value.py fit --deals 20000 --seed 1`
#: (logistic regression, Newton's method, on the 247,109 positions of 20,000 seeded
#: greedy games). The order is `shape_features`'.
CHANCE_WEIGHTS: tuple[float, ...] = (
    -0.0888, -1.2101, 0.8302, 0.8266, 1.0748, -2.1116, 0.2668, 0.0553, -0.4817, 0.0951,
    -3.2460, 0.6144, 0.1964, 0.2692,
)


def shape_features(pyramid: Pyramid, counts: Sequence[int]) -> list[float]:
    """The features `completion_chance` weighs, with `counts` the prefix counts of the
    values to come (`availability`)."""
    visible, covered = pyramid
    unseen = max(counts[EDGE], 1)
    slack = tight = 0.0
    runs = opened = closed = dead = absorbed = empty = 0
    spare = 20
    high, run, last, last_closed = EDGE, 0, -1, True  # the edge above F1 counts as closed
    for index in range(FIELDS):
        value = visible[index]
        if not value:
            run += 1
            empty += 1
            continue
        if covered[index]:
            closed += 1
        else:
            opened += 1
        between = counts[high] - counts[value + 1]
        if run:
            runs += 1
            slack, tight, spare = _add_run(run, between, slack, tight, spare)
        elif index == last + 1:
            if last_closed and covered[index]:
                dead += between
            else:
                absorbed += between
        high, run, last, last_closed = value, 0, index, bool(covered[index])
    between = counts[high] - counts[1]
    if run:
        runs += 1
        slack, tight, spare = _add_run(run, between, slack, tight, spare)
    elif last == FIELDS - 1:
        if last_closed:
            dead += between
        else:
            absorbed += between
    return [
        1.0, float(empty), empty * empty / 10.0, slack, dead / unseen,
        dead / unseen * empty, float(opened), float(closed), unseen / 10.0, float(runs),
        tight, absorbed / unseen, min(spare, 20) / 10.0, absorbed / unseen * empty,
    ]


def _add_run(fields: int, values: int, slack: float, tight: float,
             spare: int) -> tuple[float, float, int]:
    # A run with fewer values than fields adds no slack; it is cramped (`tight`)
    # and its spare is negative. It is not quite lost: covering a bound may widen it.
    if values >= fields:
        slack += fields * math.log((values + 1.0) / (fields + 1.0))
    return slack, tight + fields * fields / (values + 1.0), min(spare, values - fields)


def completion_chance(pyramid: Pyramid, counts: Sequence[int],
                      weights: Sequence[float] = CHANCE_WEIGHTS) -> float:
    """The modelled chance of completing `pyramid` with `counts` values to come (1 when
    it is full)."""
    if all(pyramid[0]):
        return 1.0
    z = sum(w * x for w, x in zip(weights, shape_features(pyramid, counts), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def counts_after_each_draw(unseen: Sequence[int]) -> dict[int, list[int]]:
    """For each value of `unseen`, the prefix counts of the others (`availability`):
    the values still to come once it is drawn."""
    everything = set(unseen)
    return {card: availability(everything - {card}) for card in unseen}


def field_outlook(pyramid: Pyramid, unseen: Sequence[int],
                  weights: Sequence[float] = CHANCE_WEIGHTS,
                  after_draw: dict[int, list[int]] | None = None) -> float:
    """The chance of completing `pyramid` after the next draw, a uniformly random value
    of `unseen`, is placed as well as the model can tell (0 when it fits nowhere).
    `after_draw`: `counts_after_each_draw(unseen)`, when the caller weighs several
    fields against the same draws."""
    if all(pyramid[0]):
        return 1.0
    if not unseen:
        return 0.0
    if after_draw is None:
        after_draw = counts_after_each_draw(unseen)
    total = 0.0
    for card in unseen:
        options = legal_fields(pyramid, card)
        if not options:
            continue
        counts = after_draw[card]
        total += max(completion_chance(placed(pyramid, field, card), counts, weights)
                     for field in options)
    return total / len(unseen)


def lookahead_scores(state: State) -> dict[int, float]:
    """Every legal placement with its chance of completion, one draw deep (in the
    match, which this model does not cover, greedy's scores)."""
    if state.game.num_players != 1:
        return action_scores(state)
    view = state.view(state.current_player)
    card = view["card"]
    pyramid = pyramid_from_view(view["pyramid"])
    unseen = sorted(set(range(1, HIGHEST + 1)) - used_values([view["pyramid"]]) - {card})
    after_draw = counts_after_each_draw(unseen)  # the same draws follow every field
    scores = {}
    for action in state.legal_actions():
        field = field_of(state.action_to_string(action))
        scores[action] = (
            -float("inf") if field is None
            else field_outlook(placed(pyramid, field, card), unseen, after_draw=after_draw)
        )
    return scores


def lookahead_choose(state: State, rng: Rng) -> int:
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    scores = lookahead_scores(state)
    return best_by(sorted(scores), scores.__getitem__, rng)
