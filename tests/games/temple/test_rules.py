"""Temple rules worked by hand on built positions."""

from __future__ import annotations

import json

import pytest

from pyramids.core import TERMINAL, IllegalActionError, OptionError, RecordError, load
from tests.games.temple.helpers import counts, position


def play(state, *texts: str) -> None:
    for text in texts:
        state.apply_string(text)


def test_successful_construction_pays_level_times_units_and_discards_the_level() -> None:
    # Level 2 under construction; seat 0 summons and sets 2 cards + 1 jewel pair.
    state = position(
        hands=[{"L2": 2, "J": 2, "L5": 1}, {"L2": 1, "L3": 1}, {"L2": 2, "J": 1}],
        zone=["L4", "L2", "J", "L2"],
        pile_top=["L1", "L6", "L7"],
        built=1,
        treasure=[3, 3, 3],
    )
    play(state, "summon")
    assert state.treasure == [2, 3, 3]
    assert state.view(None)["phase"] == "set" and state.current_player == 0
    play(state, "set 2 1")
    assert state.current_player == 1
    assert state.view(1)["construction"]["missing"] == 2
    play(state, "set 1 0")
    assert state.current_player == 2
    # Only one unit is still missing, so seat 2 may set at most one card.
    assert state.legal_action_strings() == ["set 0 0", "set 1 0"]
    play(state, "set 1 0")
    # Earnings on level 2: 2 points per unit. 3 units: 6, 1 unit: 2.
    assert state.treasure == [2 + 6, 3 + 2, 3 + 2]
    assert state.built == 2
    # The set cards (4 L2 + 2 jewels), seat 2's left-over L2 and the two L2 of the
    # swap zone go to the discard pile.
    assert state.view(None)["discard"] == {"L2": 4 + 1 + 2, "J": 2, "L1": 1}
    assert counts(state, 0) == {"L5": 1}
    assert counts(state, 1) == {"L3": 1}
    assert counts(state, 2) == {"J": 1}
    # Slot 2 drew L1 (built: discarded, drawn again) then L6; slot 4 drew L7.
    assert state.view(None)["swap_zone"] == ["L4", "L6", "J", "L7"]
    # Phase 3 goes on with the player after the summoner.
    assert state.view(None)["phase"] == "summon"
    assert state.current_player == 1
    assert state.view(None)["level"] == 3


def test_failed_construction_returns_cards_and_keeps_the_point_paid() -> None:
    state = position(
        hands=[{"L1": 1}, {"L1": 1, "J": 2, "L4": 1}, {"L1": 1}],
        zone=["L5", "L6", "L7", "L8"],
        pile_top=["L9", "J", "L3", "L3", "L4", "L5"],
        treasure=[3, 2, 3],
        current=1,
        acted=1,  # seat 0 already passed
    )
    play(state, "summon", "set 1 1", "set 1 0")
    assert state.current_player == 0
    play(state, "set 0 0")
    # 3 units < 5: failure. Cards go back, the point stays paid, the round ends.
    assert state.treasure == [3, 1, 3]
    assert state.built == 0
    assert state.round == 2 and state.start_player == 1
    view = state.view(0)
    assert view["phase"] == "swap" and view["current_player"] == 1
    # Round 2 draws: seat 1 (L9, J), seat 2 (L3, L3), seat 0 (L4, L5).
    assert counts(state, 1) == {"L1": 1, "J": 3, "L4": 1, "L9": 1}
    assert counts(state, 2) == {"L1": 1, "L3": 2}
    assert counts(state, 0) == {"L1": 1, "L4": 1, "L5": 1}
    # The table saw those cards go back.
    assert view["known"] == [{}, {"L1": 1, "J": 2}, {"L1": 1}]
    assert view["construction"] is None


def test_jewel_pairs_stand_in_for_level_cards() -> None:
    state = position(hands=[{"J": 3, "L1": 1}, {"J": 4}, {"L1": 1}])
    play(state, "summon")
    assert state.legal_action_strings() == ["set 0 0", "set 0 1", "set 1 0", "set 1 1"]
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="2 jewel pairs need 4 jewels, you hold 3"):
        play(state, "set 0 2")
    with pytest.raises(IllegalActionError, match="you hold only 1 card of level 1"):
        play(state, "set 2 1")
    assert state.to_json() == before
    play(state, "set 1 1")
    assert counts(state, 0) == {"J": 1}
    play(state, "set 0 2")  # seat 1: 4 jewels, 2 units
    assert counts(state, 1) == {}
    play(state, "set 1 0")
    assert state.built == 1
    # Earnings on level 1: seat 0 set 2 units, seat 1 2 units, seat 2 1 unit.
    assert state.treasure == [3 - 1 + 2, 3 + 2, 3 + 1]


def test_three_unit_cap_and_stop_at_five() -> None:
    state = position(hands=[{"L1": 5}, {"L1": 1, "J": 2}, {"L1": 1}])
    play(state, "summon")
    # At most 3 units a player, even with 5 cards.
    assert state.legal_action_strings()[-1] == "set 3 0"
    assert "set 4 0" not in state.legal_action_strings()
    with pytest.raises(IllegalActionError):
        state.string_to_action("set 4 0")
    play(state, "set 3 0")
    # Two units missing: seat 1 may not set 3.
    with pytest.raises(IllegalActionError, match="only 2 units still missing"):
        play(state, "set 1 2")
    assert state.legal_action_strings() == ["set 0 0", "set 0 1", "set 1 0", "set 1 1"]
    play(state, "set 1 1")
    # Built at 5 units: seat 2 is never asked, and its L1 is discarded unpaid.
    assert state.built == 1
    assert state.view(None)["phase"] == "summon"
    assert state.current_player == 1
    assert counts(state, 2) == {}
    assert state.view(None)["discard"] == {"L1": 7, "J": 2}
    assert state.treasure == [3 - 1 + 3, 3 + 2, 3]


def test_drawn_card_of_a_built_level_is_discarded_and_replaced() -> None:
    # Levels 1 and 2 are built. Everyone passes, the round ends, round 2 draws.
    state = position(
        hands=[{}, {}, {}],
        zone=["L5", "L6", "L7", "L8"],
        pile_top=["L3", "L1", "L2", "L2", "J", "L4", "L9", "L3", "L5"],
        built=2,
        rest="removed",
        acted=0,
    )
    play(state, "pass", "pass", "pass")
    assert state.round == 2 and state.start_player == 1
    # Seat 1 draws L3 then L1 (discarded), L2 (discarded), L2 (discarded), J.
    assert counts(state, 1) == {"L3": 1, "J": 1}
    assert counts(state, 2) == {"L4": 1, "L9": 1}
    assert counts(state, 0) == {"L3": 1, "L5": 1}
    assert state.view(None)["discard"] == {"L1": 1, "L2": 2}


def test_reshuffle_leaves_built_levels_out() -> None:
    state = position(
        hands=[{}, {}, {}],
        zone=["L5", "L6", "L7", "L8"],
        pile_top=["L3"],
        discard={"L1": 3, "L2": 2, "L4": 2, "J": 1},
        built=2,
        rest="removed",
    )
    assert state.view(None)["pile_size"] == 1
    play(state, "pass", "pass", "pass")
    # Seat 1 draws L3; the pile is empty, so the discard pile without L1/L2 (which
    # leave the game) becomes the pile: L4, L4, J. The next 3 draws take them all;
    # then no card is left, and seat 0 draws nothing.
    view = state.view(None)
    assert view["pile_size"] == 0
    assert view["discard"] == {}
    assert view["out_of_game"]["L1"] >= 3 and view["out_of_game"]["L2"] >= 2
    drawn = {"L3": 0, "L4": 0, "J": 0}
    for seat in (1, 2):
        for name, n in counts(state, seat).items():
            drawn[name] += n
    assert drawn == {"L3": 1, "L4": 2, "J": 1}
    assert view["hand_sizes"] == [0, 2, 2]


def test_nothing_is_drawn_when_no_card_is_left() -> None:
    # Level 2 can still be built from the hands (3 + 2 cards), so the game goes on.
    state = position(
        hands=[{"J": 1, "L2": 3}, {"L2": 2}, {}],
        zone=["L5", "L6", "L7", "L8"],
        discard={"L1": 2},
        built=1,
        rest="removed",
    )
    play(state, "pass", "pass", "pass")
    view = state.view(None)
    assert view["hand_sizes"] == [4, 2, 0]
    assert view["pile_size"] == 0 and view["discard"] == {}
    assert view["out_of_game"]["L1"] == 7
    assert view["phase"] == "swap" and view["round"] == 2


def test_summon_is_free_at_zero_points() -> None:
    state = position(hands=[{}, {}, {}], treasure=[0, 1, 0], start_rule="rotate")
    play(state, "summon")
    assert state.treasure == [0, 1, 0]
    assert state.view(None)["construction"]["paid"] is False
    play(state, "set 0 0", "set 0 0", "set 0 0")
    assert state.treasure == [0, 1, 0]
    play(state, "swap pass", "swap pass", "swap pass", "summon")
    assert state.treasure == [0, 0, 0]  # seat 1 pays its last point
    assert state.view(None)["construction"]["paid"] is True


def test_swap_gives_a_card_for_a_slot_and_the_table_knows_it() -> None:
    state = position(hands=[{"L3": 1}, {"J": 1}, {}], zone=["L5", None, "J", "L8"],
                     phase="swap")
    assert state.legal_action_strings() == ["swap L3 1", "swap L3 3", "swap L3 4", "swap pass"]
    with pytest.raises(IllegalActionError, match="slot 2 is empty"):
        play(state, "swap L3 2")
    with pytest.raises(IllegalActionError, match="you hold no jewel card"):
        play(state, "swap J 1")
    play(state, "swap L3 1")
    assert counts(state, 0) == {"L5": 1}
    assert state.view(None)["swap_zone"] == ["L3", None, "J", "L8"]
    assert state.view(None)["known"][0] == {"L5": 1}
    play(state, "swap J 1")
    assert state.view(None)["known"][1] == {"L3": 1}
    play(state, "swap pass")
    assert state.view(None)["phase"] == "summon"


def test_level_nine_ends_the_game_tie_broken_by_jewels() -> None:
    # 2 players, level 9. Seat 0 sets 3 units, seat 1 sets 2: 27 and 18 points.
    state = position(players=2, hands=[{"L9": 3}, {"L9": 2, "J": 4}], built=8,
                     treasure=[0, 10], rest="removed")
    play(state, "summon", "set 3 0", "set 2 0")
    assert state.is_terminal() and state.current_player == TERMINAL
    assert state.legal_actions() == []
    # Scores: 27 + 0 jewels = 27; 10 + 18 + 4 jewels = 32.
    view = state.view(0)
    assert view["scores"] == [27, 32] and view["winners"] == [1]
    assert state.returns() == [-1.0, 1.0]


def test_tie_on_score_goes_to_more_jewels_then_is_shared() -> None:
    # Seats 0 and 1 reach 13 points; seat 1 has more jewels.
    state = position(hands=[{"L9": 1}, {"L9": 2, "J": 1}, {"L9": 2, "J": 2}],
                     built=8, treasure=[5, 4, 0], rest="removed")
    play(state, "summon", "set 1 0", "set 2 0", "set 2 0")
    assert state.view(None)["scores"] == [4 + 9, 4 + 18 + 1, 0 + 18 + 2]
    state = position(hands=[{"L9": 1, "J": 1}, {"L9": 2, "J": 1}, {"L9": 2}],
                     built=8, treasure=[14, 4, 5], rest="removed")
    play(state, "summon", "set 1 0", "set 2 0", "set 2 0")
    # 13 + 9 + 1 = 23, 4 + 18 + 1 = 23, 5 + 18 = 23: seats 0 and 1 have a jewel each.
    view = state.view(None)
    assert view["scores"] == [23, 23, 23]
    assert view["winners"] == [0, 1] and view["winner"] is None
    assert state.returns() == [0.5, 0.5, -1.0]


def test_full_tie_returns_zero_for_everyone() -> None:
    state = position(players=2, hands=[{"L9": 3}, {"L9": 2}], built=8,
                     treasure=[10, 18], rest="removed")
    play(state, "summon", "set 3 0", "set 2 0")
    # 10 - 1 + 27 = 36 and 18 + 18 = 36, no jewels on either side.
    assert state.view(None)["scores"] == [36, 36]
    assert state.view(None)["winners"] == [0, 1]
    assert state.returns() == [0.0, 0.0]


def test_start_player_moves_one_seat_a_round_and_max_rounds_ends_the_game() -> None:
    game = load("temple", players=3, max_rounds=4, start_rule="rotate")
    state = game.new_initial_state(7)
    starts = []
    while not state.is_terminal():
        starts.append(state.start_player)
        assert state.current_player == state.start_player
        for _ in range(3):
            state.apply_string("swap pass")
        for _ in range(3):
            state.apply_string("pass")
    assert starts == [0, 1, 2, 0]
    assert state.round == 4 and state.built == 0
    view = state.view(None)
    assert view["phase"] == "over" and len(view["scores"]) == 3
    assert sum(state.returns()) == pytest.approx(0.0)


def test_action_strings_are_tolerant_and_unknown_text_is_refused() -> None:
    state = load("temple").new_initial_state(1)
    assert state.string_to_action("  SWAP   l3  2 ") == state.string_to_action("swap L3 2")
    assert state.action_to_string(state.string_to_action("Set 1  2")) == "set 1 2"
    for text in ["swap L0 1", "swap L3 5", "swap X 1", "set 2 2", "set -1 0", "summon now",
                 "swap", "set 1", "L3"]:
        with pytest.raises(IllegalActionError, match="allowed"):
            state.string_to_action(text)
    with pytest.raises(IllegalActionError):
        state.action_to_string(state.game.num_distinct_actions)


def test_wrong_phase_action_is_refused_with_the_reason() -> None:
    state = load("temple").new_initial_state(1)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="phase 2"):
        state.apply_string("summon")
    assert state.to_json() == before


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 6}, "players=6 is too large"),
        ({"players": 1}, "too small"),
        ({"jewels": "many"}, "not valid"),
        ({"cards_per_level": 1, "jewels": 0, "start_hand": 2}, "too few to deal"),
        ({"cards_per_level": 2, "jewels": 5}, "make at most 4"),
        ({"colour": "red"}, "unknown option"),
    ],
)
def test_bad_options_are_refused(options: dict, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        load("temple", **options)


def test_saved_state_round_trips_and_a_tampered_one_is_refused() -> None:
    state = position(hands=[{"L1": 3}, {"L1": 1, "J": 2}, {}])
    play(state, "summon", "set 2 0")
    game = state.game
    text = state.to_json()
    assert game.state_from_json(text).to_json() == text
    data = json.loads(text)
    data["state"]["hands"][2] = {"L1": 1}  # a card out of nowhere
    with pytest.raises(RecordError, match="do not add up"):
        game.state_from_json(json.dumps(data))
    data = json.loads(text)
    data["state"]["current"] = 2  # seat 1 sets next, not seat 2
    with pytest.raises(RecordError, match="next to set"):
        game.state_from_json(json.dumps(data))


def test_swap_zone_cards_of_the_built_level_all_go_before_the_slots_are_refilled() -> None:
    # Level 2: seat 0 sets 3 cards, seat 1 sets 2. Both L2 of the swap zone are
    # discarded first; the pile is empty, so refilling slot 1 reshuffles the discard
    # pile: all 7 L2 (5 set, 2 from the zone) leave the game, and the two jewels
    # become the pile, one for slot 1 and one for slot 3.
    state = position(
        hands=[{"L2": 3}, {"L2": 2}, {}],
        zone=["L2", "J", "L2", "L5"],
        discard={"J": 2},
        built=1,
        rest="removed",
    )
    play(state, "summon", "set 3 0", "set 2 0")
    view = state.view(None)
    assert view["built"] == 2
    assert view["swap_zone"] == ["J", "J", "J", "L5"]
    assert view["out_of_game"]["L2"] == 7
    assert view["discard"] == {} and view["pile_size"] == 0
