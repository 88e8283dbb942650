"""The two-player match: turns, every way a round ends, starts, and the match end."""

from __future__ import annotations

import pytest

from pyramids.core import TERMINAL, IllegalActionError, OptionError, load
from pyramids.games.pacal import PacalGame, PacalState

from .helpers import DECLINE, descending, offer, pick, place, position, saved


def test_a_turn_offer_pick_place_place() -> None:
    state = position([[10, 20, 30], [40, 45]], [{}, {}])
    assert state.current_player == 0
    assert state.view(0)["phase"] == "offer"
    assert state.legal_actions() == [offer(10, 20), offer(10, 30), offer(20, 30)]
    state.apply_action(offer(10, 30))
    view = state.view(None)
    assert view["phase"] == "pick" and view["current_player"] == 1
    assert view["offer"] == [10, 30] and view["hand_sizes"] == [1, 2]
    assert state.legal_actions() == [pick(10), pick(30)]
    state.apply_action(pick(30))
    assert state.current_player == 1
    assert state.view(None)["to_place"] == [10, 30]
    assert state.view(None)["picked"] == 30
    assert state.view(1)["card_to_place"] == 30
    assert state.view(0)["card_to_place"] == 10
    state.apply_string("place F1")
    assert state.current_player == 0
    assert state.view(0)["legal_fields"] == list(range(1, 11))
    state.apply_string("place F10")
    view = state.view(None)
    assert view["pyramids"][1][0] == [30] and view["pyramids"][0][9] == [10]
    assert view["phase"] == "offer" and view["current_player"] == 1
    assert view["active_player"] == 1 and view["turns_played"] == 1
    assert view["round_wins"] == [0, 0] and view["round"] == 1


def test_the_picker_who_cannot_place_loses_the_round() -> None:
    state = position([[49, 50, 1], [2, 3]], [{}, {1: [40, 48]}])
    state.apply_action(offer(49, 50))
    state.apply_action(pick(49))
    view = state.view(None)
    assert view["round_wins"] == [1, 0]
    assert view["last_round"]["winner"] == 0
    assert "seat 2 could not place the picked card 49" in view["last_round"]["reason"]
    assert view["last_round"]["pyramids"][1][0] == [40, 48]
    # A new round is dealt at once; the loser starts it.
    assert view["round"] == 2 and view["starting_player"] == 1 and state.current_player == 1
    assert view["hand_sizes"] == [15, 15] and view["revealed_apex_bases"] is None
    assert all(f == [] for p in view["pyramids"] for f in p)


def test_the_offerer_who_cannot_place_loses_the_round() -> None:
    state = position([[49, 50, 1], [2, 3]], [{1: [40, 48]}, {}])
    state.apply_action(offer(49, 50))
    state.apply_action(pick(49))
    assert state.current_player == 1  # the picker can place, so the round goes on
    state.apply_action(place(1))
    view = state.view(None)
    assert view["round_wins"] == [0, 1]
    assert "seat 1 could not place the returned card 50" in view["last_round"]["reason"]
    assert view["last_round"]["pyramids"][1][0] == [49]
    assert view["starting_player"] == 0


def test_the_picker_is_checked_first() -> None:
    # Neither could place; the picker loses and the offerer never places.
    state = position([[49, 50, 1], [2, 3]], [{1: [41, 47]}, {1: [40, 48]}])
    state.apply_action(offer(49, 50))
    state.apply_action(pick(50))
    assert state.view(None)["round_wins"] == [1, 0]


def test_exactly_one_complete_pyramid_wins() -> None:
    state = position([[10, 20, 5], [1, 2]], [descending(45, 9), descending(30, 9)], turn=4)
    state.apply_action(offer(10, 20))
    state.apply_action(pick(20))
    state.apply_action(place(10))  # player 1 completes
    state.apply_action(place(9))  # player 0 covers F9 with 10: nine fields still
    last = state.view(None)["last_round"]
    assert last["winner"] == 1 and "seat 2 completed" in last["reason"]
    assert last["occupied"] == [9, 10]
    assert state.view(None)["round_wins"] == [0, 1]


def test_both_complete_the_smaller_spread_wins() -> None:
    state = position([[10, 20, 5], [1, 2]], [descending(45, 9), descending(30, 9)], turn=4)
    state.apply_action(offer(10, 20))
    state.apply_action(pick(20))
    state.apply_action(place(10))
    state.apply_action(place(10))
    last = state.view(None)["last_round"]
    assert last["spreads"] == [35, 10]
    assert last["winner"] == 1 and "smaller spread" in last["reason"]
    assert state.view(None)["round_wins"] == [0, 1]


def test_both_complete_equal_spreads_draw() -> None:
    state = position([[10, 29, 5], [1, 2]], [descending(45, 9), descending(26, 9)], turn=4)
    state.apply_action(offer(10, 29))
    state.apply_action(pick(10))
    state.apply_action(place(10))
    state.apply_action(place(10))
    view = state.view(None)
    assert view["last_round"]["spreads"] == [16, 16]
    assert view["last_round"]["winner"] is None
    assert view["round_wins"] == [0, 0]
    # After a draw the player who did not start the drawn round starts.
    assert view["round"] == 2 and view["starting_player"] == 1


def last_card_position(
    p0: dict[int, list[int]], p1: dict[int, list[int]], cards: tuple[int, int], starter: int = 0
) -> PacalState:
    return position([[cards[0]], [cards[1]]], [p0, p1], turn=14, starter=starter)


CLOSED_TOP = {1: [46, 47], **{n: [46 - n] for n in range(2, 10)}}  # F1 closed at 47, F2..F9 44..37


def test_last_cards_starting_player_first_and_decline() -> None:
    state = last_card_position(CLOSED_TOP, descending(30, 9), (50, 10), starter=1)
    assert state.view(None)["phase"] == "last_card"
    assert state.current_player == 1
    assert state.legal_actions() == [place(9), place(10), DECLINE]
    state.apply_action(DECLINE)
    assert state.current_player == 0
    # 50 fits nowhere: declining is the only move, and it is no loss.
    assert state.legal_actions() == [DECLINE]
    assert state.view(0)["card_to_place"] == 50 and state.view(0)["legal_fields"] == []
    with pytest.raises(IllegalActionError, match="F1 is closed"):
        state.apply_action(place(1))
    state.apply_action(DECLINE)
    last = state.view(None)["last_round"]
    # Nine fields each; spreads 47-37=10 and 30-22=8.
    assert last["occupied"] == [9, 9] and last["spreads"] == [10, 8]
    assert last["winner"] == 1 and "smaller spread" in last["reason"]


def test_a_declined_last_card_against_a_completed_pyramid() -> None:
    state = last_card_position(CLOSED_TOP, descending(30, 9), (50, 10))
    state.apply_action(DECLINE)
    state.apply_action(place(10))
    last = state.view(None)["last_round"]
    assert last["winner"] == 1 and "completed" in last["reason"]


def test_after_the_last_cards_more_fields_wins() -> None:
    state = last_card_position(CLOSED_TOP, descending(30, 8), (50, 20))
    state.apply_action(DECLINE)
    state.apply_action(DECLINE)
    last = state.view(None)["last_round"]
    assert last["occupied"] == [9, 8]
    assert last["winner"] == 0 and "more fields" in last["reason"]


def test_after_the_last_cards_equal_fields_and_spreads_draw() -> None:
    p1 = {n: [31 - n] for n in range(1, 10)}  # 30..22, spread 8
    p0 = {1: [46, 45], **{n: [46 - n] for n in range(2, 10)}}  # 45, 44..37: spread 8
    state = last_card_position(p0, p1, (50, 12))
    state.apply_action(DECLINE)
    state.apply_action(DECLINE)
    view = state.view(None)
    assert view["last_round"]["spreads"] == [8, 8]
    assert view["last_round"]["winner"] is None
    assert "drawn" in view["last_round"]["reason"]
    assert view["round_wins"] == [0, 0] and view["starting_player"] == 1


def test_completing_with_the_first_last_card_still_waits_for_the_second() -> None:
    # The starter completes with the first last card, the other then completes
    # too: both complete at the same check, so the spread decides.
    state = last_card_position(descending(45, 9), descending(30, 9), (36, 10))
    state.apply_action(place(10))
    assert state.current_player == 1 and state.view(None)["round_wins"] == [0, 0]
    state.apply_action(place(10))
    last = state.view(None)["last_round"]
    assert last["spreads"] == [9, 20] and last["winner"] == 0


@pytest.mark.parametrize("rule", ["loser", "winner", "rotate"])
def test_later_rounds_are_started_by_the_start_rule(rule: str) -> None:
    """The rules' default: the last round's loser starts; the option may name its winner
    or have the players start in turn. After a drawn round, whoever did not start it."""
    import random

    game = load("pacal", start_rule=rule, rounds_to_win=4)
    checked = 0
    for seed in range(30):
        state = game.new_initial_state(seed)
        chooser = random.Random(seed)
        round_number, starter = 1, state.view(None)["starting_player"]
        while not state.is_terminal():
            state.apply_action(chooser.choice(state.legal_actions()))
            view = state.view(None)
            if view["round"] == round_number or state.is_terminal():
                continue
            winner = view["last_round"]["winner"]
            expected = {"loser": 1 - starter if winner is None else 1 - winner,
                        "winner": 1 - starter if winner is None else winner,
                        "rotate": 1 - starter}[rule]
            assert view["starting_player"] == expected == state.current_player, (seed, view)
            checked += 1
            round_number, starter = view["round"], view["starting_player"]
    assert checked > 60  # (a drawn round: test_both_complete_equal_spreads_draw)


def test_round_one_is_started_by_the_higher_revealed_apex_base() -> None:
    game = PacalGame()
    starters = set()
    for seed in range(40):
        state = game.new_initial_state(seed)
        bases = saved(state)["bases"]
        reveal = [bases[0][0], bases[1][0]]
        view = state.view(0)
        assert view["revealed_apex_bases"] == reveal
        expected = 0 if reveal[0] > reveal[1] else 1
        assert view["starting_player"] == expected == state.current_player
        starters.add(expected)
        # No other base card reaches any view.
        hidden = set(bases[0][1:] + bases[1][1:])
        for player in (None, 0, 1):
            shown = state.view(player)
            assert not hidden & set(shown.get("hand", []))
    assert starters == {0, 1}


def win_round_for_player_0(state: PacalState) -> None:
    """From a hand-built position where player 0 offers 49, 50 to a blocked player 1."""
    state.apply_action(offer(49, 50))
    state.apply_action(pick(49))


def test_the_match_goes_to_three_round_wins() -> None:
    state = position([[49, 50, 1], [2, 3]], [{}, {1: [40, 48]}], round_number=5,
                     round_wins=(2, 2))
    win_round_for_player_0(state)
    assert state.is_terminal() and state.current_player == TERMINAL
    assert state.returns() == [1.0, -1.0]
    assert state.legal_actions() == []
    view = state.view(1)
    assert view["phase"] == "over" and view["winner"] == 0 and view["round_wins"] == [3, 2]
    assert view["pyramids"][1][0] == [40, 48]  # the last round stays on the table
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(offer(1, 2))


def test_two_round_wins_do_not_end_the_match() -> None:
    state = position([[49, 50, 1], [2, 3]], [{}, {1: [40, 48]}], round_number=2,
                     round_wins=(1, 0))
    win_round_for_player_0(state)
    assert not state.is_terminal()
    assert state.view(None)["round_wins"] == [2, 0] and state.view(None)["round"] == 3


def test_rounds_to_win_option() -> None:
    game = PacalGame(rounds_to_win=1)
    state = position([[49, 50, 1], [2, 3]], [{}, {1: [40, 48]}], game=game)
    win_round_for_player_0(state)
    assert state.returns() == [1.0, -1.0]


def drawn_final_round(game: PacalGame, round_wins: tuple[int, int]) -> PacalState:
    p1 = {n: [31 - n] for n in range(1, 10)}
    p0 = {1: [46, 45], **{n: [46 - n] for n in range(2, 10)}}
    state = position([[50], [12]], [p0, p1], game=game, turn=14, round_number=3,
                     round_wins=round_wins)
    state.apply_action(DECLINE)
    state.apply_action(DECLINE)
    return state


def test_max_rounds_more_round_wins_takes_the_match() -> None:
    state = drawn_final_round(PacalGame(max_rounds=3), (1, 0))
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.view(None)["winner"] == 0


def test_max_rounds_equal_round_wins_is_a_draw() -> None:
    state = drawn_final_round(PacalGame(max_rounds=3), (1, 1))
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.view(0)["winner"] is None and state.view(0)["returns"] == [0.0, 0.0]


def test_before_max_rounds_the_match_goes_on() -> None:
    state = drawn_final_round(PacalGame(max_rounds=4), (1, 1))
    assert not state.is_terminal() and state.view(None)["round"] == 4


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"direction": "sideways"}, "allowed: one of descending, ascending"),
        ({"rounds_to_win": 0}, "too small"),
        ({"max_rounds": 2}, "max_rounds=2 is below rounds_to_win=3, so no one could reach "
         "it; allowed: max_rounds at least rounds_to_win"),
        ({"rounds": 3}, "unknown option"),
    ],
)
def test_bad_options_are_refused(options: dict, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        load("pacal", **options)


def test_options_are_marked_ours_with_the_page_defaults() -> None:
    specs = {spec.name: spec for spec in PacalGame.option_specs}
    assert {name: spec.default for name, spec in specs.items()} == {
        "direction": "descending", "rounds_to_win": 3, "max_rounds": 15,
        "start_rule": "loser",
    }
    assert all(spec.ours for spec in specs.values())


@pytest.mark.parametrize(
    ("moves", "action", "message"),
    [
        ([], offer(10, 11), "card 11 is not in your hand"),
        ([], pick(10), "must offer"),
        ([], DECLINE, "must offer"),
        ([offer(10, 35)], pick(20), "only 10 or 35 was offered"),
        ([offer(10, 35)], offer(10, 35), "must pick"),
        ([offer(10, 35), pick(35)], place(8), "card 35 cannot go on F8: it needs a value below 30"),
        ([offer(10, 35), pick(35)], place(4), "F4 is closed"),
        ([offer(10, 35), pick(35)], DECLINE, "must place card 35"),
    ],
)
def test_illegal_actions_say_why_and_change_nothing(
    moves: list[int], action: int, message: str
) -> None:
    state = position([[10, 20, 35], [1, 2]], [{}, {1: [40], 4: [31, 30], 8: [9]}])
    for move in moves:
        state.apply_action(move)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=message):
        state.apply_action(action)
    assert state.to_json() == before


def test_views_show_own_hand_only() -> None:
    state = position([[10, 20, 35], [1, 2]], [{}, {}])
    assert state.view(0)["hand"] == [10, 20, 35]
    assert state.view(1)["hand"] == [1, 2]
    assert "hand" not in state.view(None)
    assert state.view(0)["hand_sizes"] == [3, 2]
    with pytest.raises(ValueError, match="players are 0 and 1"):
        state.view(2)


def test_resample_keeps_what_the_player_sees_and_redeals_the_rest() -> None:
    from pyramids.core import Rng

    state = PacalGame().new_initial_state(7)
    real = saved(state)
    differs = 0
    for index in range(20):
        sampled = state.resample_hidden(0, Rng(index))
        body = saved(sampled)
        assert sampled.view(0) == state.view(0)
        assert body["hands"][0] == real["hands"][0]
        assert [b[0] for b in body["bases"]] == [b[0] for b in real["bases"]]  # revealed
        pool = sorted(real["hands"][1] + real["bases"][0][1:] + real["bases"][1][1:])
        assert sorted(body["hands"][1] + body["bases"][0][1:] + body["bases"][1][1:]) == pool
        differs += body["hands"][1] != real["hands"][1]
        assert body["rng"] != real["rng"]
    assert differs >= 19


def test_saved_states_round_trip_and_tampering_is_refused() -> None:
    import json

    from pyramids.core import RecordError

    game = PacalGame()
    state = position([[10, 20, 35], [1, 2]], [{}, {1: [40], 4: [31, 30]}], game=game)
    state.apply_action(offer(10, 35))
    text = state.to_json()
    assert game.state_from_json(text).to_json() == text
    data = json.loads(text)
    data["state"]["hands"][1] = [1, 20]  # 20 is in player 0's hand too
    with pytest.raises(RecordError, match="1..50"):
        game.state_from_json(json.dumps(data))
    data = json.loads(text)
    data["state"]["pyramids"][1][0] = [29]  # F1 below F4 breaks the building rule
    with pytest.raises(RecordError):
        game.state_from_json(json.dumps(data))
    data = json.loads(text)
    data["state"]["phase"] = "dancing"
    with pytest.raises(RecordError):
        game.state_from_json(json.dumps(data))


def test_fourteen_turns_lead_to_the_last_cards() -> None:
    """Random play rarely survives 14 turns; scan seeds for rounds that do."""
    import random

    game = PacalGame()
    found = 0
    for seed in range(300):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        offers_by = [0, 0]
        while not state.is_terminal() and found < 2:
            view = state.view(None)
            if view["phase"] == "offer":
                if view["turns_played"] == 0:
                    offers_by = [0, 0]
                # Each turn takes two cards from the offerer's hand and none from the other's.
                active = view["active_player"]
                assert view["hand_sizes"] == [15 - 2 * offers_by[0], 15 - 2 * offers_by[1]]
                offers_by[active] += 1
            first_last_card = view["hand_sizes"] == [1, 1] and not any(view["declined"])
            if view["phase"] == "last_card" and first_last_card:
                assert view["turns_played"] == 14 and offers_by == [7, 7]
                assert state.current_player == view["starting_player"]
                assert state.legal_actions()[-1] == DECLINE
                found += 1
            state.apply_action(rng.choice(state.legal_actions()))
        if found >= 2:
            break
    assert found == 2


def test_round_reasons_count_seats_from_one_even_from_old_saves() -> None:
    from pyramids.games.pacal.match import seats_from_one

    # Saves keep the engine's reason as it was written, with players from 0.
    assert seats_from_one("no pyramid complete; player 0 occupied more fields (9 against 8)") \
        == "no pyramid complete; seat 1 occupied more fields (9 against 8)"
    assert seats_from_one("player 1 could not place the returned card 33") \
        == "seat 2 could not place the returned card 33"
    assert seats_from_one("both pyramids complete with equal spreads (12)") \
        == "both pyramids complete with equal spreads (12)"
