"""The action encoding and its strings."""

from __future__ import annotations

import pytest

from pyramids.core.errors import IllegalActionError
from pyramids.games.pacal import actions as act


def test_action_counts() -> None:
    assert act.OFFER_COUNT == 1225
    assert act.NUM_ACTIONS == 1225 + 50 + 10 + 1
    assert len(set(act.OFFER_PAIRS)) == 1225
    assert all(low < high for low, high in act.OFFER_PAIRS)
    assert tuple(sorted(act.OFFER_PAIRS)) == act.OFFER_PAIRS


def test_every_match_action_round_trips() -> None:
    strings = [act.match_action_to_string(a) for a in range(act.NUM_ACTIONS)]
    assert len(set(strings)) == act.NUM_ACTIONS
    for action, text in enumerate(strings):
        assert act.match_string_to_action(text) == action
    assert strings[0] == "offer 1 2"
    assert strings[1224] == "offer 49 50"
    assert strings[1225] == "pick 1"
    assert strings[1274] == "pick 50"
    assert strings[1275] == "place F1"
    assert strings[1284] == "place F10"
    assert strings[1285] == "decline"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  OFFER   17   3 ", "offer 3 17"),
        ("offer 3 17", "offer 3 17"),
        ("Pick 50", "pick 50"),
        ("place f3", "place F3"),
        ("place 10", "place F10"),
        ("PLACE F 7", "place F7"),
        (" Decline ", "decline"),
    ],
)
def test_parsing_is_tolerant(text: str, expected: str) -> None:
    assert act.match_action_to_string(act.match_string_to_action(text)) == expected


@pytest.mark.parametrize(
    "text",
    ["", "offer 3", "offer 3 3", "offer 0 5", "offer 5 51", "pick", "pick 0", "place F0",
     "place F11", "decline now", "draw", "offer a b", "9999999"],
)
def test_unknown_text_is_rejected(text: str) -> None:
    with pytest.raises(IllegalActionError, match="offer A B"):
        act.match_string_to_action(text)


def test_out_of_range_numbers_have_no_string() -> None:
    for action in (-1, act.NUM_ACTIONS):
        with pytest.raises(IllegalActionError):
            act.match_action_to_string(action)
    with pytest.raises(IllegalActionError):
        act.solo_action_to_string(10)


def test_solo_actions() -> None:
    for index in range(10):
        text = act.solo_action_to_string(index)
        assert text == f"place F{index + 1}"
        assert act.solo_string_to_action(text.upper()) == index
    for text in ("offer 1 2", "place F11", "decline", ""):
        with pytest.raises(IllegalActionError, match="place F1"):
            act.solo_string_to_action(text)
