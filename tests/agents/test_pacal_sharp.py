"""The `sharp` Pacal policy (the `hard` level): worked positions for its reasoning."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramids.agents.greedy.pacal import (
    HIGHEST,
    OWN_HAND,
    THEIR_HAND,
    TURNS,
    Outlook,
    _sides,
    availability,
    gain,
    gains,
    mask_of,
    placeable_mask,
    pyramid_facts,
    pyramid_from_view,
    round_chance,
    sharp_counts,
    sharp_scores,
    source_availability,
    spread,
    unseen_mask,
    used_values,
    worst_of_best,
)
from pyramids.core import load
from pyramids.games.pacal.match import PacalState
from pyramids.games.pacal.pyramid import legal_fields as rule_legal_fields


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


# ----- the shortcuts that make sharp fast give what the plain definitions give -------------


def _positions(seed: int, count: int) -> list[PacalState]:
    """Positions of a match played by random moves from `seed`."""
    game = load("pacal")
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    positions = []
    while not state.is_terminal() and len(positions) < count:
        positions.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return positions


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_a_pyramids_facts_are_its_fields_placeable_values_and_spread(seed: int) -> None:
    for state in _positions(seed, 60):
        for fields in state.view(None)["pyramids"]:
            pyramid = pyramid_from_view(fields)
            visible, covered = pyramid
            # A value is placeable where the building rule gives it a field.
            placeable = mask_of(v for v in range(1, HIGHEST + 1)
                                if rule_legal_fields(visible, covered, v) and v not in visible)
            expected = (sum(1 for v in visible if v), placeable, spread(visible))
            assert pyramid_facts(pyramid) == expected  # the first time: computed
            assert pyramid_facts(pyramid) == expected  # again: remembered
            assert placeable_mask(pyramid) == placeable


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_the_pruned_offer_search_finds_the_full_searchs_value(seed: int) -> None:
    for state in _positions(seed, 40):
        view = state.view(state.current_player)
        if view["phase"] != "offer":
            continue
        me = state.current_player
        mine = pyramid_from_view(view["pyramids"][me])
        theirs = pyramid_from_view(view["pyramids"][1 - me])
        unseen = unseen_mask(view)
        outlook = Outlook(unseen, view["hand_sizes"][1 - me], TURNS - view["turns_played"] - 1)
        counts = sharp_counts(view, unseen, view["hand_sizes"][1 - me])
        hand = mask_of(view["hand"])
        for taken in view["hand"]:
            for returned in view["hand"]:
                their_sides = _sides(theirs, taken, counts[1])
                my_sides = _sides(mine, returned, counts[0])
                if taken == returned or not their_sides or not my_sides:
                    continue
                rest = hand & ~(1 << taken) & ~(1 << returned)
                full = min(max(round_chance(m, t, rest, outlook, False) for m in my_sides)
                           for t in their_sides)
                assert worst_of_best(their_sides, my_sides, rest, outlook) == full


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_gains_judge_the_pyramid_once_and_give_each_cards_gain(seed: int) -> None:
    for state in _positions(seed, 30):
        view = state.view(state.current_player)
        pyramids = view["pyramids"]
        counts = availability(set(range(1, HIGHEST + 1)) - used_values(pyramids))
        cards = view["hand"]
        for fields in pyramids:
            pyramid = pyramid_from_view(fields)
            assert gains(pyramid, cards, counts) == {c: gain(pyramid, c, counts) for c in cards}
