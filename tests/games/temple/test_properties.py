"""Temple invariants over many random games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramids.core import Rng, load
from pyramids.games.temple.cards import JEWEL, LEVELS, NUM_KINDS, new_deck
from pyramids.games.temple.construction import UNITS_TO_BUILD
from pyramids.games.temple.progress import IDLE_ROUNDS_PER_PLAYER, can_never_build
from pyramids.games.temple.state import (
    EMPTY_SLOT,
    ENDED_BUILT,
    ENDED_CAP,
    ENDED_IDLE,
    ENDED_STUCK,
    TempleState,
)

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"players": 2},
    {"players": 3},
    {"players": 5},
    {"players": 3, "cards_per_level": 5, "jewels": 6, "swap_size": 2, "start_hand": 2,
     "max_rounds": 60},
    {"players": 5, "cards_per_level": 3, "jewels": 4, "swap_size": 1, "start_hand": 0,
     "start_treasure": 0, "max_rounds": 40},
    {"players": 4, "start_rule": "lot"},
    {"players": 3, "start_rule": "poorest", "cards_per_level": 4, "jewels": 8},
    {"players": 2, "start_rule": "leader_last", "jewels": 0},
]


def card_totals(state: TempleState) -> list[int]:
    """Every card's place counted once: pile, discard, out of game, zone, hands, construction."""
    totals = [0] * NUM_KINDS
    for kind in state.pile:
        totals[kind] += 1
    for kind in state.zone:
        if kind != EMPTY_SLOT:
            totals[kind] += 1
    for counts in (state.discard, state.removed, *state.hands):
        for kind, n in enumerate(counts):
            assert n >= 0
            totals[kind] += n
    if state.construction is not None:
        for _, cards, pairs in state.construction.sets:
            totals[state.built] += cards
            totals[JEWEL] += 2 * pairs
    return totals


def expected_treasure_after(before: TempleState, action: int) -> list[int]:
    """Treasure after `action`, from the summoning point and the earnings alone."""
    treasure = list(before.treasure)
    text = before.action_to_string(action)
    player = before.current_player
    if text == "summon" and treasure[player] > 0:
        treasure[player] -= 1
    elif text.startswith("set ") and before.construction is not None:
        cards, pairs = (int(word) for word in text.split()[1:])
        if before.construction.units + cards + pairs >= UNITS_TO_BUILD:
            units = before.construction.units_by_player(before.num_players)
            units[player] += cards + pairs
            for seat, n in enumerate(units):
                treasure[seat] += before.level * n
    return treasure


def play_checked(options: dict[str, Any], seed: int, agent_seed: int) -> TempleState:
    game = load("temple", **options)
    deck = [0] * NUM_KINDS
    for kind in new_deck(game.options["cards_per_level"], game.options["jewels"]):
        deck[kind] += 1
    state = game.new_initial_state(seed)
    rng = random.Random(agent_seed)
    while not state.is_terminal():
        assert card_totals(state) == deck, "a card was lost or duplicated"
        for hand in state.hands:
            assert not any(hand[:state.built]), "a hand holds a card of a built level"
        assert all(kind == EMPTY_SLOT or kind >= state.built for kind in state.zone)
        assert state.round <= game.options["max_rounds"]
        action = rng.choice(state.legal_actions())
        before = state.clone()
        state.apply_action(action)
        assert state.treasure == expected_treasure_after(before, action)
        assert state.built in (before.built, before.built + 1), "levels are built one at a time"
        assert min(state.treasure) >= 0
    assert card_totals(state) == deck
    assert_ending_is_explained(state)
    return state


def assert_ending_is_explained(state: TempleState) -> None:
    """The reason a finished game gives is true of its final position."""
    ended_by = state.view(None)["ended_by"]
    assert (ended_by == ENDED_BUILT) == (state.built == LEVELS)
    if ended_by == ENDED_STUCK:
        assert can_never_build(state.built, state.hands, state.zone, state.pile, state.discard)
    elif ended_by == ENDED_IDLE:
        assert state.quiet_rounds == IDLE_ROUNDS_PER_PLAYER * state.num_players
    elif ended_by == ENDED_CAP:
        assert state.round == state.game.options["max_rounds"]
    else:
        assert ended_by == ENDED_BUILT


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), agent_seed=st.integers(0, 2**32),
       options=st.sampled_from(OPTION_SETS))
def test_cards_are_conserved_and_treasure_moves_only_by_the_rules(
    seed: int, agent_seed: int, options: dict[str, Any]
) -> None:
    play_checked(options, seed, agent_seed)


def test_thousands_of_random_games_end_and_score() -> None:
    ended_by_cap = 0
    games = 0
    for options in OPTION_SETS[:4]:
        game = load("temple", **options)
        for index in range(500):
            state = game.new_initial_state(index)
            rng = random.Random(index)
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            games += 1
            ended_by_cap += state.view(None)["ended_by"] == ENDED_CAP
            returns = state.returns()
            assert abs(sum(returns)) < 1e-9, "returns are zero-sum"
            view = state.view(None)
            best = max(view["scores"])
            assert all(view["scores"][seat] == best for seat in view["winners"])
            assert max(returns) == returns[view["winners"][0]]
            # The finishing order (what ratings read): the winners first, every other
            # place by score, and a lower return never above a higher one.
            places = state.standings()
            assert {seat for seat, place in enumerate(places) if place == max(places)} \
                == set(view["winners"])
            for seat, other in ((s, o) for s in range(len(places)) for o in range(len(places))):
                if view["scores"][seat] > view["scores"][other]:
                    assert places[seat] > places[other]
                if returns[seat] > returns[other]:
                    assert places[seat] > places[other]
    # With the default deck random play builds the whole pyramid long before the cap.
    assert ended_by_cap < games * 0.01


def hidden_twin(state: TempleState, viewer: int, rng: random.Random) -> TempleState | None:
    """A copy where one card unseen by `viewer` is swapped with a card of the pile."""
    twin = state.clone()
    others = [seat for seat in range(state.num_players)
              if seat != viewer and sum(state.hands[seat]) > sum(state.known[seat])]
    if not others or not twin.pile:
        return None
    seat = rng.choice(others)
    hand, known = twin.hands[seat], twin.known[seat]
    free = [kind for kind in range(NUM_KINDS) if hand[kind] > known[kind]]
    given = rng.choice(free)
    candidates = [i for i, kind in enumerate(twin.pile)
                  if kind != given and (kind == JEWEL or kind >= twin.built)]
    if not candidates:
        return None
    index = rng.choice(candidates)
    taken = twin.pile[index]
    hand[given] -= 1
    hand[taken] += 1
    twin.pile[index] = given
    return twin


def test_views_never_carry_other_hands() -> None:
    rng = random.Random(5)
    checked = 0
    for options in OPTION_SETS[:4]:
        game = load("temple", **options)
        for index in range(20):
            state = game.new_initial_state(1000 + index)
            while not state.is_terminal():
                viewer = rng.randrange(state.num_players)
                twin = hidden_twin(state, viewer, rng)
                if twin is not None:
                    assert twin.to_json() != state.to_json()
                    assert twin.view(viewer) == state.view(viewer)
                    assert twin.view(None) == state.view(None)
                    checked += 1
                view = state.view(viewer)
                assert view["hand"] == {k: v for k, v in view["hand"].items() if v}
                assert "hands" not in view and "pile" not in view
                assert "hand" not in state.view(None)
                state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 1000


def random_positions(first_seed: int, games: int, rng: random.Random) -> Iterator[TempleState]:
    """Every position of `games` games of each option set, random moves from `rng`,
    the finished one last: the state is the game's own, moved on after each yield."""
    for options in OPTION_SETS:
        game = load("temple", **options)
        for index in range(games):
            state = game.new_initial_state(first_seed + index)
            while not state.is_terminal():
                yield state
                state.apply_action(rng.choice(state.legal_actions()))
            yield state


def test_turn_view_is_the_movers_view_in_part_and_hides_as_much() -> None:
    """`turn_view` (what greedy's rollouts read) gives the values of the mover's
    view under the same keys, and a twin that differs only where the mover cannot
    see gives the same turn view."""
    rng = random.Random(17)
    phases: dict[str, int] = {}
    for state in random_positions(2000, 12, rng):
        if state.is_terminal():
            assert state.turn_view()["phase"] == "over"
            continue
        mover = state.current_player
        turn, view = state.turn_view(), state.view(mover)
        for key in ("phase", "level", "hand", "swap_zone"):
            assert turn[key] == view[key], key
        if view["construction"] is None:
            assert turn["construction"] is None
        else:
            assert turn["construction"].items() <= view["construction"].items()
        twin = hidden_twin(state, mover, rng)
        if twin is not None:
            assert twin.turn_view() == turn
        phases[turn["phase"]] = phases.get(turn["phase"], 0) + 1
    assert min(phases[phase] for phase in ("swap", "summon", "set")) > 500


def unseen_from_view(view: dict[str, Any], options: dict[str, Any]) -> list[int]:
    """The cards a seat cannot place, worked out from its view alone: the deck less
    the discard, the cards out of the game, the swap zone, the construction, its
    hand and what the table knows of the other hands."""
    names = [f"L{level}" for level in range(1, LEVELS + 1)] + ["J"]
    unseen = [options["cards_per_level"]] * LEVELS + [options["jewels"]]
    placed = [view["discard"], view["out_of_game"], view["hand"]]
    placed += [known for seat, known in enumerate(view["known"]) if seat != view["viewer"]]
    for counts in placed:
        for name, n in counts.items():
            unseen[names.index(name)] -= n
    for name in view["swap_zone"]:
        if name is not None:
            unseen[names.index(name)] -= 1
    construction = view["construction"]
    if construction is not None:
        for entry in construction["sets"]:
            unseen[construction["level"] - 1] -= entry["cards"]
            unseen[JEWEL] -= 2 * entry["jewel_pairs"]
    return unseen


def test_counting_view_counts_what_the_mover_sees_and_hides_as_much() -> None:
    """`counting_view` (what greedy's summon reads in rollouts) holds the mover's
    view as counts; its unseen cards are those the view cannot place and are
    exactly the pile and the unknown cards of the other hands; a twin that differs
    only where the mover cannot see gives the same counts."""
    rng = random.Random(23)
    names = [f"L{level}" for level in range(1, LEVELS + 1)] + ["J"]
    checked = 0
    for state in random_positions(3000, 10, rng):
        if state.is_terminal():
            with pytest.raises(ValueError, match="game is over"):
                state.counting_view()
            continue
        mover = state.current_player
        counts, view = state.counting_view(), state.view(mover)
        assert counts.mover == mover and counts.level == state.level
        assert {names[k]: n for k, n in enumerate(counts.hand) if n} == view["hand"]
        assert counts.treasure == view["treasure"]
        assert counts.hand_sizes == view["hand_sizes"]
        assert [{names[k]: n for k, n in enumerate(known) if n}
                for known in counts.known] == view["known"]
        assert counts.unseen == unseen_from_view(view, state.game.options)
        truly_unseen = [state.pile.count(kind) for kind in range(NUM_KINDS)]
        for seat in range(state.num_players):
            if seat != mover:
                for kind in range(NUM_KINDS):
                    truly_unseen[kind] += state.hands[seat][kind] - state.known[seat][kind]
        assert counts.unseen == truly_unseen
        twin = hidden_twin(state, mover, rng)
        if twin is not None:
            assert twin.counting_view() == counts
        checked += 1
    assert checked > 5000

def test_resample_hidden_keeps_the_view_and_redeals_the_rest() -> None:
    game = load("temple", players=4)
    rng = random.Random(11)
    changed = mover_redealt = 0
    for index in range(40):
        state = game.new_initial_state(index)
        while not state.is_terminal():
            player = state.current_player
            sampled = state.resample_hidden(player, Rng(rng.randrange(1 << 30)))
            assert sampled.view(player) == state.view(player)
            assert sampled.legal_actions() == state.legal_actions()
            assert card_totals(sampled) == card_totals(state)
            for seat in range(4):
                assert all(h >= k for h, k in zip(sampled.hands[seat], state.known[seat],
                                                  strict=True))
                assert not any(sampled.hands[seat][:state.built])
            changed += sampled.hands != state.hands
            # From another seat's side the mover's hand is hidden too.
            other = (player + 1) % 4
            seen = state.resample_hidden(other, Rng(rng.randrange(1 << 30)))
            assert seen.view(other) == state.view(other)
            assert seen.hands[other] == state.hands[other]
            mover_redealt += seen.hands[player] != state.hands[player]
            # Playing on from a sample must be a legal game.
            sampled.apply_action(rng.choice(sampled.legal_actions()))
            state.apply_action(rng.choice(state.legal_actions()))
    assert changed > 1000, "resampling should deal the other hands differently"
    assert mover_redealt > 1000, "another seat must not learn the mover's hand"
