"""The `sharp` Pacal policy (the `hard` level): worked positions for its reasoning."""

from __future__ import annotations

import pytest

from pyramids.agents.greedy.pacal import (
    OWN_HAND,
    THEIR_HAND,
    mask_of,
    sharp_scores,
    source_availability,
)
from pyramids.core import load
from pyramids.games.pacal.match import PacalState


def test_values_to_come_are_weighted_by_where_they_come_from() -> None:
    # This player holds 10 and 20; 5, 15, 30 and 40 are unseen, and the opponent
    # holds one card, so each unseen value is in its hand with chance 1/4.
    counts = source_availability([10, 20], 1.0, mask_of([5, 15, 30, 40]), 1, 2.0)
    share = 2.0 * 1 / 4
    assert counts[6] == pytest.approx(share)  # 5
    assert counts[11] == pytest.approx(share + 1.0)  # 5, 10
    assert counts[21] == pytest.approx(2 * share + 2.0)  # 5, 10, 15, 20
    assert counts[51] == pytest.approx(4 * share + 2.0)
    # With the defaults a card in this player's hand weighs more than an unseen one,
    # even at a round's start (the opponent holds 15 of the 35 cards it has not seen).
    start = source_availability([], OWN_HAND, (1 << 36) - 2, 15, THEIR_HAND)
    assert start[36] / 35 == pytest.approx(THEIR_HAND * 15 / 35)
    assert start[36] / 35 < OWN_HAND


def _placing_12(hand: list[int]) -> dict[str, float]:
    """Late in a round (turn 10, the opponent holds three cards) this player picked
    12 and places it. Its pyramid is 50 45 40 35 30 25 20 on F1..F7 (all open), F8-F10
    empty: 12 on F10 leaves F8 and F9 for values 13-19, 12 on F8 leaves F9 and F10
    for values below 12."""
    game = load("pacal")
    mine = [[50], [45], [40], [35], [30], [25], [20], [], [], []]
    theirs = [[49], [46], [41], [36], [31], [24], [18], [], [], []]
    state = PacalState.from_position(game, hands=[hand, [12, 44, 9]],
                                     pyramids=[mine, theirs], active=1, turn=10,
                                     round_number=2)
    state.apply_action(state.string_to_action("offer 12 44"))
    state.apply_action(state.string_to_action("pick 12"))
    assert state.view(0)["card_to_place"] == 12
    scores = sharp_scores(state)
    return {state.action_to_string(a): score for a, score in scores.items()}


def test_sharp_leaves_the_empty_fields_its_own_hand_can_fill() -> None:
    # Holding 13, 15 and 17, the fields left for 13-19 will be filled from its own
    # hand; values below 12 would have to come from the opponent's three cards.
    high = _placing_12([13, 15, 17])
    assert max(high, key=high.__getitem__) == "place F10"
    # Holding 3, 5 and 7, the mirror image.
    low = _placing_12([3, 5, 7])
    assert max(low, key=low.__getitem__) == "place F8"
    assert low["place F10"] < low["place F9"] < low["place F8"]
