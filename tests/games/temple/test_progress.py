"""Who starts each round (`start_rule`), and the endings of a game that cannot progress."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pyramids.agents import make_agent
from pyramids.core import OptionError, RecordError, load
from pyramids.games.temple.progress import (
    IDLE_ROUNDS_PER_PLAYER,
    can_never_build,
    max_units,
    next_start_player,
)
from pyramids.games.temple.state import (
    ENDED_BUILT,
    ENDED_CAP,
    ENDED_IDLE,
    ENDED_STUCK,
    TempleState,
)
from tests.games.temple.helpers import kind, position


def play(state: TempleState, *texts: str) -> None:
    for text in texts:
        state.apply_string(text)


def pass_round(state: TempleState) -> None:
    """Every player passes the swap and the summon."""
    for _ in range(2 * state.num_players):
        play(state, "swap pass" if state.view(None)["phase"] == "swap" else "pass")


# -- start_rule -----------------------------------------------------------------------------


def test_lot_draws_the_first_start_player_from_the_seed_and_keeps_the_deal() -> None:
    rotate, lot = load("temple", start_rule="rotate"), load("temple", start_rule="lot")
    firsts = []
    for seed in range(40):
        by_rotate, by_lot = rotate.new_initial_state(seed), lot.new_initial_state(seed)
        assert by_rotate.start_player == 0
        # The deal is the one `rotate` makes (the start player is drawn after it); only
        # the order of round 1's draws follows the start player.
        assert by_lot.zone == by_rotate.zone and by_lot.pile == by_rotate.pile
        assert sorted(map(tuple, by_lot.hands)) != [] and sum(map(sum, by_lot.hands)) == sum(
            map(sum, by_rotate.hands))
        assert by_lot.current_player == by_lot.start_player
        assert lot.new_initial_state(seed).start_player == by_lot.start_player  # replays
        firsts.append(by_lot.start_player)
    assert set(firsts) == {0, 1, 2, 3}
    state = lot.new_initial_state(3)
    first = state.start_player
    pass_round(state)
    assert state.round == 2 and state.start_player == (first + 1) % 4


@pytest.mark.parametrize(
    ("rule", "previous", "treasure", "expected"),
    [
        ("rotate", 2, [9, 0, 4], 0),
        ("lot", 1, [0, 5, 5], 2),
        # The least treasure starts.
        ("poorest", 0, [7, 8, 2], 2),
        # Seats 1 and 2 tie for the least: from the seat after the previous start player
        # (seat 2) the order is 0, 1, 2, so seat 1.
        ("poorest", 2, [5, 2, 2], 1),
        ("poorest", 1, [3, 3, 3], 2),  # an even table rotates
        # The leader (seat 0) acts last: the seat after it starts.
        ("leader_last", 1, [9, 5, 5], 1),
        ("leader_last", 0, [4, 9, 1, 3], 2),
        # Seats 1 and 2 tie for the most: counting from the previous start player
        # (seat 2) the order is 2, 0, 1, so seat 2 leads and seat 0 starts.
        ("leader_last", 2, [5, 9, 9], 0),
        ("leader_last", 1, [6, 6, 6], 2),  # an even table rotates
    ],
)
def test_next_start_player(rule: str, previous: int, treasure: list[int], expected: int) -> None:
    assert next_start_player(rule, previous, treasure) == expected


@pytest.mark.parametrize(("rule", "expected"), [("rotate", 0), ("lot", 0), ("poorest", 1),
                                                ("leader_last", 3)])
def test_the_start_rule_picks_the_next_round_start_player_in_play(rule: str,
                                                                  expected: int) -> None:
    # Round 1 was started by seat 3; seat 1 is the poorest, seat 2 the richest.
    state = position(4, hands=[{"L1": 1}, {"L1": 2}, {"L1": 2}, {}], treasure=[5, 2, 8, 4],
                     start_player=3, current=3, start_rule=rule)
    play(state, "pass", "pass", "pass", "pass")
    assert state.round == 2
    assert state.start_player == expected and state.current_player == expected
    assert state.view(None)["start_player"] == expected


def test_an_unknown_start_rule_is_refused_with_the_allowed_ones() -> None:
    with pytest.raises(OptionError, match="start_rule=clockwise is not valid; allowed: one of "
                                          "rotate, lot, poorest, leader_last"):
        load("temple", start_rule="clockwise")


# -- a level that can never be built --------------------------------------------------------


def test_max_units_worked_by_hand() -> None:
    # Hands of 4, 2 and 0 cards; 3 level cards and 2 jewels (1 pair): 4 units at most.
    assert max_units([4, 2, 0], 3, 2) == 4
    # 3 cards + 2 pairs make 5 units but need 7 places in hand; there are 6.
    assert max_units([4, 2, 0], 3, 4) == 4
    # With 7 places: seat 0 sets 2 cards + 1 pair, seat 1 a card + 1 pair.
    assert max_units([4, 3, 0], 3, 4) == 5
    # Each player sets at most 3 units, whatever they hold.
    assert max_units([9, 1], 9, 0) == 4
    assert max_units([], 5, 10) == 0


def test_can_never_build_needs_an_empty_draw_and_too_few_units() -> None:
    level2, jewel = kind("L2"), kind("J")
    hands = [[0] * 10 for _ in range(3)]
    hands[0][level2], hands[1][level2], hands[1][jewel], hands[1][kind("L5")] = 3, 1, 1, 1
    empty = [0] * 10
    # 3 + 1 units in hand, the zone empty: short of 5.
    assert can_never_build(1, hands, [-1, -1], [0, 0], empty)
    # A usable card still to draw (a jewel in the pile, or an L5 discarded) keeps hope.
    assert not can_never_build(1, hands, [-1, -1], [jewel], empty)
    discard = empty[:]
    discard[kind("L5")] = 1
    assert not can_never_build(1, hands, [-1, -1], [], discard)
    # Cards of built levels (L1) do not count.
    assert can_never_build(1, hands, [-1, -1], [0], empty)
    # A jewel in the zone: seat 1 gives its L5 for it and sets 1 card + 1 pair; 3 + 2 = 5.
    assert not can_never_build(1, hands, [jewel, -1], [], empty)
    # Without the L5 seat 1 has no room for the pair (a hand keeps its size): 4 at most.
    hands[1][kind("L5")] = 0
    assert can_never_build(1, hands, [jewel, -1], [], empty)
    assert not can_never_build(9, hands, [-1], [], empty)  # the game is over anyway


def test_a_level_that_can_never_be_built_ends_the_game_scored() -> None:
    state = position(
        hands=[{"J": 1}, {}, {}],
        zone=["L5", "L6", "L7", "L8"],
        discard={"L1": 2},
        built=1,
        treasure=[4, 6, 5],
        rest="removed",
    )
    play(state, "pass", "pass", "pass")
    view = state.view(None)
    assert view["phase"] == "over" and state.is_terminal()
    assert view["ended_by"] == ENDED_STUCK
    assert view["scores"] == [4 + 1, 6, 5] and view["winner"] == 1
    assert state.returns() == [-0.5, 1.0, -0.5]


def test_a_stuck_ending_counts_its_quiet_last_round_like_every_other_ending() -> None:
    """`quiet_rounds` in a finished game counts up to and including its last round,
    whichever rule ended it (docs/rules/temple.md). Before, a game that ended because
    the level could never be built left its last quiet round out, while the same round
    ended by "no progress" was counted: the view (and the RL observation) read 2 where
    three quiet rounds had passed."""
    state = position(
        hands=[{"J": 1}, {}, {}],
        zone=["L5", "L6", "L7", "L8"],
        discard={"L1": 2},
        built=1,
        rest="removed",
    )
    # Two quiet rounds before this one, and nothing drawn in this one (nothing is left).
    state.quiet_rounds, state.stirred = 2, False
    assert state.view(None)["quiet_rounds"] == 2
    play(state, "pass", "pass", "pass")
    view = state.view(None)
    assert view["ended_by"] == ENDED_STUCK
    assert view["quiet_rounds"] == 3
    # The same round with a card drawn in it ends the run: 0.
    state = position(hands=[{"J": 1}, {}, {}], zone=["L5", "L6", "L7", "L8"],
                     discard={"L1": 2}, built=1, rest="removed")
    state.quiet_rounds, state.stirred = 2, True
    play(state, "pass", "pass", "pass")
    assert state.view(None)["ended_by"] == ENDED_STUCK
    assert state.view(None)["quiet_rounds"] == 0


# -- rounds with nothing drawn and no level built ------------------------------------------


def idle_table(zone: list[str | None]) -> TempleState:
    # Level 2 can be built (3 + 2 units in hand) but nothing is left to draw.
    return position(players=2, hands=[{"L2": 3, "J": 2}, {"L2": 2}], zone=zone, built=1,
                    rest="removed")


def test_rounds_with_nothing_drawn_and_nothing_built_end_the_game() -> None:
    state = idle_table(["J", None, None, None])
    play(state, "pass", "pass")  # round 1 (the saved position counts as having moved)
    assert state.round == 2 and state.view(None)["quiet_rounds"] == 0
    # Round 2 (start: seat 1): seat 0 swaps an L2 for the jewel; swaps do not count.
    play(state, "swap pass", "swap L2 1", "pass", "pass")
    assert state.view(None)["quiet_rounds"] == 1
    limit = IDLE_ROUNDS_PER_PLAYER * 2
    for quiet in range(2, limit):
        pass_round(state)
        assert state.view(None)["quiet_rounds"] == quiet and not state.is_terminal()
    pass_round(state)
    view = state.view(None)
    assert view["phase"] == "over" and view["ended_by"] == ENDED_IDLE
    assert view["round"] == 1 + limit and view["quiet_rounds"] == limit
    assert view["scores"] == [3 + 3, 3]  # treasure 3 each, and seat 0's 3 jewels


def test_a_level_built_resets_the_count() -> None:
    state = idle_table([None] * 4)
    play(state, "pass", "pass")
    pass_round(state)
    assert state.view(None)["quiet_rounds"] == 1
    # Round 3 starts with seat 0, which summons level 2 with seat 1: built.
    play(state, "swap pass", "swap pass", "summon", "set 3 0", "set 2 0")
    assert state.built == 2
    play(state, "pass", "pass")  # level 3 cannot be built: the game ends at once
    assert state.view(None)["ended_by"] == ENDED_STUCK


def test_endings_round_trip_and_old_saves_still_load() -> None:
    state = idle_table([None] * 4)
    play(state, "pass", "pass")
    pass_round(state)
    game = state.game
    text = state.to_json()
    assert game.state_from_json(text).to_json() == text
    data = json.loads(text)
    del data["state"]["quiet_rounds"], data["state"]["stirred"], data["state"]["ended_by"]
    old = game.state_from_json(json.dumps(data))
    assert old.quiet_rounds == 0 and not old.is_terminal()
    data = json.loads(text)
    data["state"]["ended_by"] = ENDED_BUILT  # a game under way has not ended
    with pytest.raises(RecordError, match="ended_by"):
        game.state_from_json(json.dumps(data))


# -- no accepted setting runs into the round cap ----------------------------------------------

# The edges of the option ranges, and the settings that stalled until the cap before the
# two endings existed (`docs/balance/temple/proposals.md`: jewels=0, and cards_per_level=4
# with jewels=8). The full sweep is `benchmarks/temple_balance_study.py stalls`.
BOUNDARIES: list[dict[str, Any]] = [
    {"players": 4, "jewels": 0},
    {"players": 2, "jewels": 0, "start_rule": "rotate"},
    {"players": 3, "cards_per_level": 4, "jewels": 8, "start_hand": 2},
    {"players": 3, "cards_per_level": 4, "jewels": 8, "start_rule": "poorest"},
    {"players": 2, "cards_per_level": 1, "jewels": 8, "start_hand": 1, "swap_size": 10},
    {"players": 5, "cards_per_level": 5, "jewels": 0, "start_hand": 0, "swap_size": 0},
    {"players": 5, "cards_per_level": 2, "jewels": 6, "start_hand": 0, "swap_size": 10},
    {"players": 5, "cards_per_level": 50, "jewels": 100, "start_hand": 30, "swap_size": 10,
     "start_treasure": 1000},
    {"players": 2, "start_treasure": 0, "start_hand": 0, "swap_size": 0},
]


@pytest.mark.parametrize("options", BOUNDARIES)
def test_greedy_games_at_the_edges_of_the_options_never_reach_the_round_cap(
    options: dict[str, Any],
) -> None:
    game = load("temple", **options)
    for seed in range(12):
        state = game.new_initial_state(seed)
        agents = [make_agent("greedy", seed=seed * 8 + seat) for seat in range(game.num_players)]
        while not state.is_terminal():
            state.apply_action(agents[state.current_player].step(state))
        assert state.view(None)["ended_by"] != ENDED_CAP, f"seed {seed} reached the cap"
