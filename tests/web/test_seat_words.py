"""Refusals that name a seat count from 1, as a person reads seats (the pages' "Seat
1"); the JSON's `seat` fields count from 0 and stay so."""

from __future__ import annotations

from typing import Any

import pytest

from pyramids.play.i18n import words_text
from pyramids.web.rooms import Room, RoomError, RoomSettings, Seat

GAME = "pacal"  # two seats


def room() -> Room:
    return Room.create("r1", GAME, {}, 7, "host", RoomSettings())


@pytest.mark.parametrize(("seat", "english", "korean_number"), [
    (9, "there is no seat 10; this room's seats are 1 to 2", "10"),
    (-1, "there is no seat 0; this room's seats are 1 to 2", "0"),
    ("1", "'1' is not a seat; this room's seats are 1 to 2", "'1'"),
    (True, "'true' is not a seat; this room's seats are 1 to 2", "'true'"),
])
def test_a_seat_that_is_not_there_is_named_counting_from_1(
        seat: Any, english: str, korean_number: str) -> None:
    with pytest.raises(RoomError) as refused:
        room().take_seat("Ana", seat)
    assert refused.value.code == "bad_seat" and str(refused.value) == english
    korean = words_text(refused.value.words, "ko")
    assert korean_number in korean and "1" in korean and "2" in korean
    assert korean != english and "0부터" not in korean


def test_a_stored_action_of_the_wrong_seat_names_it_counting_from_1() -> None:
    """A room whose stored moves do not replay: the words name the seat that stored one
    out of turn as a person counts it (index 1 is the second seat)."""
    first = room()
    move = first.state.action_to_string(first.state.legal_actions()[0])
    assert first.state.current_player == 0
    with pytest.raises(RoomError) as refused:
        Room.restore("r1", GAME, {}, 7, "host", RoomSettings(), [Seat(0), Seat(1)],
                     "playing", [(1, move, False)])
    assert refused.value.code == "corrupt_room"
    assert "stored for seat 2, but it is not its turn" in str(refused.value)
