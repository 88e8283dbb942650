"""The socket's JSON text: the same JSON as the standard library's, for any value it takes."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from pyramids.web.jsontext import dumps
from pyramids.web.rooms import Room, RoomSettings

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_any_value_reads_back_as_the_standard_librarys_json_does(value: Any) -> None:
    text = dumps(value)
    assert json.loads(text) == json.loads(json.dumps(value))


def test_what_orjson_refuses_goes_out_all_the_same() -> None:
    big = {"seed": 2**70, "n": [1, 2]}
    assert json.loads(dumps(big)) == big
    lone = {"text": "a\ud800b"}  # a lone surrogate: the standard library escapes it
    assert dumps(lone) == json.dumps(lone, separators=(",", ":"))
    assert json.loads(dumps({1: "one"})) == {"1": "one"}  # as the standard library
    # Not JSON at all: the standard library wrote Infinity, which a browser's
    # JSON.parse refuses; the socket writes null.
    assert dumps({"x": float("inf")}) == '{"x":null}'


def test_state_messages_are_byte_for_byte_the_compact_json_of_before() -> None:
    rng = random.Random(5)
    for game in ("pacal", "temple"):
        room = Room.create("r", game, {}, 9, "h", RoomSettings())
        room.status = "playing"
        for _ in range(60):
            if room.state.is_terminal():
                break
            seat = room.state.current_player
            message = room.message_for(seat, dict.fromkeys(range(len(room.seats)), True))
            assert dumps(message) == json.dumps(message, separators=(",", ":"))
            room.state.apply_action(rng.choice(room.state.legal_actions()))
    korean = {"lines": ["2번 자리가 38을 골랐습니다."]}
    assert json.loads(dumps(korean)) == korean
