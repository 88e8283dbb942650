"""The Solar Barque time track of Pharaoh's Time Attack: spaces, speed bonuses,
the turn clock and sunset (rules page, "Pharaoh's Time Attack")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import pyramids
from pyramids.core import GameRecord, IllegalActionError, OptionError
from pyramids.games.mahjongg.barque import Track, layers_emptied

from .conftest import MINI_FACES, mini_game

BEFORE = json.loads((Path(__file__).parent / "data" / "saves_before_schema.json").read_text())


def default_track() -> Track:
    return Track(limit=900, space_seconds=60, quick_seconds=10, quick_bonus=50, layer_bonus=50)


def test_the_fifteen_minutes_are_fifteen_spaces_ending_at_sunset() -> None:
    track = default_track()
    assert track.spaces == 15
    assert [track.space(s) for s in (0, 59, 60, 250, 899, 900)] == [0, 0, 1, 4, 14, 15]
    assert track.spaces_left(250) == 11
    assert track.layers_bonus(250, 1) == 550
    assert track.layers_bonus(250, 2) == 1100
    assert track.layers_bonus(900, 1) == 0
    # A limit that is not a whole number of spaces: the last, short space is sunset's.
    short = Track(limit=100, space_seconds=30, quick_seconds=10, quick_bonus=50, layer_bonus=50)
    assert (short.spaces, short.space(89), short.space(90), short.space(99)) == (4, 2, 3, 3)
    assert short.space(100) == 4


def test_a_quick_pair_is_at_most_the_quick_seconds_after_the_previous() -> None:
    track = default_track()
    assert [track.quick_pair_bonus(now, last) for now, last in
            ((0, 0), (8, 0), (30, 8), (31, 30), (41, 31), (42, 31))] == [50, 50, 0, 50, 50, 0]


@given(st.lists(st.integers(0, 900), min_size=1, max_size=30), st.integers(1, 600))
def test_the_barque_only_sails_forward_and_reaches_sunset_at_the_limit(
    times: list[int], space_seconds: int
) -> None:
    track = Track(limit=900, space_seconds=space_seconds, quick_seconds=10, quick_bonus=50,
                  layer_bonus=50)
    spaces = [track.space(t) for t in sorted(times)]
    assert spaces == sorted(spaces)
    assert all(0 <= s <= track.spaces for s in spaces)
    assert all((track.space(t) == track.spaces) == (t >= 900) for t in times)


def test_layers_emptied_names_the_layers_a_removal_empties() -> None:
    layers = (0b0011, 0b0100, 0b1000)
    assert layers_emptied(layers, 0b1111, 0b0011) == [1, 2]
    assert layers_emptied(layers, 0b0011, 0b0001) == []
    assert layers_emptied(layers, 0b0011, 0) == [0]


def test_the_speed_bonuses_of_a_hand_timed_game() -> None:
    # The mini layout's worked game, with pairs at 0, 8, 30, 31 and 45 seconds.
    state = mini_game(mode="time-attack").state_with_faces(MINI_FACES, seed=1)
    view = state.view(0)
    assert view["barque"] == {"space": 0, "spaces": 15, "space_seconds": 60,
                              "spaces_left": 15, "clock": "real", "quick_until": 10,
                              "quick_bonus": 50,
                              "layer_bonus": 750}

    def play(clock: int | None, move: str) -> dict[str, object]:
        if clock is not None:
            state.apply_string(f"clock {clock}")
        state.apply_string(move)
        return state.view(0)["last_move"]

    first = play(None, "match 7 8")  # Glyph 5s on the base, at 0 s
    assert (first["speed_bonus"], first["layer_bonus"], first["points"]) == (50, 0, 150)
    second = play(8, "match 0 9")  # the capstone pair empties layer 1 at 8 s
    assert (second["speed_bonus"], second["layer_bonus"], second["layers_emptied"]) == (
        50, 750, [1])
    assert second["points"] == 1000 + 1000 + 20 + 50 + 750
    third = play(30, "match 1 6")  # 22 s after the previous pair: not quick
    assert (third["speed_bonus"], third["layer_bonus"]) == (0, 0)
    assert third["points"] == 200 + 40 + 750  # doubled, streak 3, the vault
    fourth = play(31, "match 2 5")
    assert (fourth["speed_bonus"], fourth["points"]) == (50, 500 + 60 + 50)
    assert state.view(0)["barque"]["quick_until"] == 41
    fifth = play(65, "match 3 4")  # empties the base at 65 s: space 1, 14 to sunset
    assert (fifth["speed_bonus"], fifth["layer_bonus"], fifth["layers_emptied"]) == (
        0, 700, [0])
    assert fifth["points"] == 600 + 80 + 700
    assert state.is_terminal() and state.end_reason == "cleared"
    total = 150 + 2820 + 990 + 610 + 1380
    assert state.scores == [total + 3 * 200]  # 2 tokens + 1 from the vault
    result = state.result()
    assert (result["time_left"], result["time_score"]) == (835, 835 + 3 * 30)


def test_without_bonuses_the_track_scores_nothing() -> None:
    game = mini_game(mode="time-attack", speed_pair_bonus=0, speed_layer_bonus=0)
    state = game.state_with_faces(MINI_FACES, seed=1)
    state.apply_string("match 7 8")
    assert state.view(0)["last_move"]["points"] == 100
    assert "speed_bonus" not in state.view(0)["last_move"]


@pytest.mark.parametrize(("clock", "first", "second"), [("real", 8, 30), ("turns", 0, 4)])
def test_without_bonuses_quick_until_still_follows_the_last_pair(
    clock: str, first: int, second: int
) -> None:
    """With both speed bonuses 0 the time of a pair was not kept: the view said "the
    next pair is quick until second 10" (the start's window) for the whole game."""
    game = mini_game(mode="time-attack", speed_pair_bonus=0, speed_layer_bonus=0,
                     clock=clock, turn_seconds=4)
    state = game.state_with_faces(MINI_FACES, seed=1)
    assert state.view(0)["barque"]["quick_until"] == 10  # from the start

    def pair(at: int, move: str) -> dict[str, object]:
        if clock == "real":
            state.apply_string(f"clock {at}")
        # With clock=turns a move is made at the time reached so far, then its
        # 4 seconds pass: the pairs are at 0 and 4.
        state.apply_string(move)
        return state.view(0)

    assert pair(first, "match 7 8")["barque"]["quick_until"] == first + 10
    view = pair(second, "match 0 9")
    assert (view["barque"]["quick_until"], view["barque"]["quick_bonus"]) == (second + 10, 0)
    assert "speed_bonus" not in view["last_move"]  # and still nothing scored
    # Undo takes the pair's time back with the pair.
    state.apply_string("undo")
    assert state.view(0)["barque"]["quick_until"] == first + 10


def test_the_real_clock_ends_the_game_at_sunset() -> None:
    state = mini_game(mode="time-attack").state_with_faces(MINI_FACES, seed=1)
    state.apply_string("match 7 8")
    state.apply_string("clock 900")
    assert state.is_terminal() and state.end_reason == "time-up"
    view = state.view(0)
    assert view["barque"]["space"] == view["barque"]["spaces"] == 15
    assert view["barque"]["spaces_left"] == 0
    assert view["time_left"] == 0


def test_the_turn_clock_gives_each_action_its_seconds_and_ends_at_sunset() -> None:
    game = mini_game(mode="time-attack", clock="turns", turn_seconds=10,
                     time_limit_seconds=25)
    state = game.state_with_faces(MINI_FACES, seed=1)
    assert not [a for a in state.legal_action_strings() if a.startswith("clock")]
    with pytest.raises(IllegalActionError, match="unknown move 'clock 5'"):
        state.apply_string("clock 5")
    state.apply_string("match 7 8")  # at 0 s: quick
    assert (state.elapsed, state.view(0)["last_move"]["speed_bonus"]) == (10, 50)
    state.apply_string("hint")  # a hint takes its 10 s too
    assert state.elapsed == 20
    state.apply_string("match 0 9")  # at 20 s, 20 s after the previous pair
    assert state.view(0)["last_move"]["speed_bonus"] == 0
    assert state.is_terminal() and state.end_reason == "time-up"
    assert state.elapsed == 25  # the clock stops at the limit
    assert state.view(0)["barque"]["space"] == state.view(0)["barque"]["spaces"]


def test_clearing_on_the_last_turn_beats_sunset() -> None:
    game = mini_game(mode="time-attack", clock="turns", turn_seconds=10,
                     time_limit_seconds=50)
    state = game.state_with_faces(MINI_FACES, seed=1)
    for move in ("match 7 8", "match 0 9", "match 1 6", "match 2 5", "match 3 4"):
        state.apply_string(move)
    assert state.end_reason == "cleared"
    assert state.result()["time_left"] == 10  # the last pair started at 40 s


def test_the_turn_clock_replays_from_its_record() -> None:
    game = pyramids.load("mahjongg", layout="giza-step-ramp", mode="time-attack",
                         clock="turns", turn_seconds=7)
    state = game.new_initial_state(3)
    while not state.is_terminal():
        legal = state.legal_action_strings()
        matches = [a for a in legal if a.startswith("match")]
        state.apply_string(matches[0] if matches else "pass")
    # The move that ends the game (here the clearing pair) stops the clock first.
    assert state.end_reason == "cleared"
    assert state.elapsed == 7 * (len(state.history()) - 1)
    replayed = GameRecord.from_json(GameRecord.from_state(state).to_json()).final_state()
    assert replayed.to_json() == state.to_json()


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("clock", "sundial", r"clock=sundial is not valid; allowed: one of real, turns"),
        ("barque_space_seconds", 0, r"barque_space_seconds=0 is too small; allowed: an "
                                    r"integer >= 1"),
        ("turn_seconds", -1, r"turn_seconds=-1 is too small"),
        ("speed_pair_bonus", "many", r"speed_pair_bonus=many is not valid"),
    ],
)
def test_bad_track_options_say_what_is_allowed(option: str, value: object, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        pyramids.load("mahjongg", mode="time-attack", **{option: value})


def test_time_attack_records_from_before_the_track_replay_without_its_bonuses() -> None:
    (record,) = [r for r in BEFORE["records"] if r["options"]["mode"] == "time-attack"]
    assert "speed_pair_bonus" not in record["options"]
    replayed = GameRecord(record["game"], record["options"], record["seed"],
                          record["actions"]).final_state()
    options = replayed.game.options
    assert (options["speed_pair_bonus"], options["speed_layer_bonus"]) == (0, 0)
    assert options["reveal_favor"] is False and options["structural_shifts"] is False
    # The same moves under today's rules score the bonuses on top.
    today = pyramids.load("mahjongg", **{**record["options"]}).new_initial_state(record["seed"])
    for action in record["actions"]:
        today.apply_string(replayed.action_to_string(action) if isinstance(action, int)
                           else action)
        if today.is_terminal():
            break
    assert today.scores[0] > replayed.scores[0]


def test_the_move_log_tells_the_speed_bonuses_and_a_settling_in_words() -> None:
    from pyramids.play.logs.mahjongg import describe_mahjongg

    from .test_reveal_and_settling import KEYSTONE_FACES, keystone_game

    state = keystone_game(mode="time-attack").state_with_faces(KEYSTONE_FACES, 1)
    before = state.view(0)
    state.apply_string("match 8 9")  # the capstone at 0 s: quick, and it empties layer 2
    lines = [str(words) for words in describe_mahjongg("match 8 9", 0, 0, before,
                                                       state.view(0))]
    text = " ".join(lines)
    assert "quick pair bonus 50" in text and "layer before sunset 750" in text
    assert "Turned face up: Scarab 1, Scarab 1." in text  # the settling
    for number in ("8", "9"):
        assert f" {number} " not in f" {text} "
    fresh = keystone_game().state_with_faces(KEYSTONE_FACES, 1)
    before = fresh.view(None)
    fresh.apply_string("reveal 2")
    (line,) = describe_mahjongg("reveal 2", 0, None, before, fresh.view(None))
    assert str(line) == "Seat 1 used Tile Reveal on Scarab 1 (1 token)."


def test_the_plain_text_board_draws_the_track() -> None:
    from pyramids.play.text.mahjongg import barque_track, render_mahjongg

    game = mini_game(mode="time-attack", clock="turns", turn_seconds=60,
                     time_limit_seconds=300)
    state = game.state_with_faces(MINI_FACES, seed=1)
    assert "Solar Barque ◆────☼ 5 spaces to sunset" in render_mahjongg(state.view(0))
    state.apply_string("match 7 8")
    state.apply_string("match 0 9")  # 120 s gone: space 2 of 5
    assert f"Solar Barque {barque_track(2, 5)} 3 spaces to sunset" in render_mahjongg(
        state.view(0))
    assert barque_track(2, 5) == "━━◆──☼"
