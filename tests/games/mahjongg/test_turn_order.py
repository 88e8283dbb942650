"""The turn order option: `round` (the next seat) and `behind` (the lowest score moves next)."""

from __future__ import annotations

import json
import random

import pytest

from pyramids.core import GameRecord, OptionError, load
from pyramids.games.mahjongg import modes
from pyramids.games.mahjongg.state import MahjonggState

from .conftest import MINI_FACES, mini_game


@pytest.mark.parametrize(
    ("order", "player", "scores", "matched", "expected"),
    [
        ("round", 0, [0, 900], True, 1),
        ("round", 1, [0, 900], True, 0),
        ("behind", 0, [500, 0, 0], True, 1),  # two tie lowest: the first after the mover
        ("behind", 1, [500, 200, 0], True, 2),
        ("behind", 2, [500, 200, 100], True, 2),  # strictly lowest: moves again
        ("behind", 1, [100, 100, 100], True, 2),  # all equal: the mover comes last
        ("behind", 2, [100, 100, 100], True, 0),
        ("behind", 3, [300, 0, 300, 0], True, 1),
        ("behind", 2, [500, 200, 100], False, 0),  # a pass: the next seat, whatever the scores
        ("behind", 0, [0, 0], False, 1),
    ],
)
def test_next_player(order: str, player: int, scores: list[int], matched: bool,
                     expected: int) -> None:
    assert modes.next_player(order, player, scores, matched) == expected


def test_the_player_behind_moves_again() -> None:
    """The mini deal worked by hand (pairs (0,9) Golden Pharaoh with the capstone 9,
    (1,6) Scarab 1, (2,5) Ra-Horus, (3,4) Harvest-Oasis, (7,8) Glyph 5; 5 is a vault
    that 6 touches)."""
    state = mini_game(players=2, turn_order="behind").state_with_faces(MINI_FACES, seed=1)
    state.apply_string("match 7 8")  # seat 1: 100 x 1
    assert state.scores == [100, 0] and state.current_player == 1
    state.apply_string("match 0 9")  # seat 2: 500 x 2 + 1,000 for the capstone
    assert state.scores == [100, 2000] and state.current_player == 0
    state.apply_string("match 1 6")  # seat 1: 100 + 20 (streak 2) + 750 (vault 5 unlocked)
    assert state.scores == [970, 2000]
    assert state.current_player == 0  # still behind: seat 1 moves again
    state.apply_string("sight")  # a favor does not end the turn
    assert state.current_player == 0
    state.apply_string("match 2 5")  # 250 (the streak was broken by the favor)
    assert state.scores == [1220, 2000] and state.current_player == 0
    state.apply_string("match 3 4")  # 300 + 20: the monument is cleared
    assert state.is_terminal()
    # Tokens at the end: seat 1 had 2, spent 1 on sight, won 1 for the vault: 2 x 200.
    assert state.scores == [1940, 2400]
    assert state.returns() == [-1.0, 1.0]


def test_the_same_moves_in_seat_order() -> None:
    state = mini_game(players=2).state_with_faces(MINI_FACES, seed=1)
    state.apply_string("match 7 8")
    state.apply_string("match 0 9")
    state.apply_string("match 1 6")
    assert state.current_player == 1  # the next seat, though seat 1 is behind


def test_passes_go_round_and_a_full_round_of_them_ends_the_game() -> None:
    state = mini_game(players=3, turn_order="behind").state_with_faces(MINI_FACES, seed=1)
    state.apply_string("pass")  # seat 1
    assert state.current_player == 1
    state.apply_string("match 7 8")  # seat 2 leads; seats 3 and 1 tie at 0
    assert state.current_player == 2
    state.apply_string("pass")  # seat 3
    assert state.current_player == 0
    state.apply_string("pass")  # seat 1
    assert state.current_player == 1 and not state.is_terminal()
    state.apply_string("pass")  # seat 2: three passes running
    assert state.is_terminal()
    assert state.view(None)["result"]["reason"] == "all-passed"


def lowest_after(mover: int, scores: list[int]) -> int:
    """The rule again, written another way: of the lowest scores, the nearest seat
    after the mover, counting the mover itself as the farthest."""
    seats = len(scores)
    low = min(scores)
    return min((seat for seat in range(seats) if scores[seat] == low),
               key=lambda seat: (seat - mover - 1) % seats)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_follow_the_turn_order(players: int) -> None:
    game = load("mahjongg", players=players, layout="giza-step-ramp", turn_order="behind")
    space = game.actions
    rng = random.Random(players)
    moved_twice = 0
    for number in range(12):
        state = game.new_initial_state(number)
        while not state.is_terminal():
            mover = state.current_player
            legal = state.legal_actions()
            pairs = [a for a in legal if space.kind(a) == "match"]
            action = rng.choice(pairs) if pairs and rng.random() < 0.9 else rng.choice(legal)
            kind = space.kind(action)
            state.apply_action(action)
            if state.is_terminal():
                break
            if kind == "match":
                assert state.current_player == lowest_after(mover, state.scores)
                moved_twice += state.current_player == mover
            elif kind == "pass":
                assert state.current_player == (mover + 1) % players
            else:
                assert state.current_player == mover
    assert moved_twice > 0  # the catch-up happened, not only seat order


def test_a_game_under_either_order_replays_from_its_record() -> None:
    for order in modes.TURN_ORDERS:
        game = load("mahjongg", players=3, layout="giza-step-ramp", turn_order=order)
        state = game.new_initial_state(5)
        rng = random.Random(5)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        record = GameRecord.from_state(state)
        again = GameRecord.from_json(record.to_json()).replay()[-1]
        assert isinstance(again, MahjonggState)
        assert again.history() == state.history() and again.scores == state.scores
        assert again.game.options["turn_order"] == order


def test_a_record_from_before_the_option_plays_in_seat_order() -> None:
    game = load("mahjongg", players=2, layout="giza-step-ramp")
    state = game.new_initial_state(3)
    record = GameRecord.from_state(state).to_dict()
    del record["options"]["turn_order"]
    again = GameRecord.from_json(json.dumps(record)).replay()[-1]
    assert again.game.options["turn_order"] == "round"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mode": "coop", "players": 2, "turn_order": "behind"},
         "turn_order=behind is for the Standard Expedition, not mode=coop; allowed here: "
         "turn_order=round"),
        ({"mode": "time-attack", "turn_order": "behind"}, "not mode=time-attack"),
        ({"players": 2, "turn_order": "scores"}, "one of round, behind"),
    ],
)
def test_a_turn_order_that_does_not_fit_is_refused(options: dict[str, object],
                                                    message: str) -> None:
    with pytest.raises(OptionError, match=message):
        load("mahjongg", **options)
