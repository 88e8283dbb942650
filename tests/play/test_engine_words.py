"""Every error an engine raises reads as player words in English and Korean.

Engines cannot reach the catalogue, so their errors carry `Words` (a message id
and values) that the interfaces translate. Over many random positions of every
game, random illegal moves (by number and by typed text) and bad options are
refused with words that: are all in the catalogue with a Korean translation,
format without a placeholder left over, name no action number, and count seats
from 1.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import pyramids
from pyramids.core import IllegalActionError, OptionError, PyramidsError, State
from pyramids.core.errors import PluralWords, Words
from pyramids.play.i18n import catalogue_json, words_text

GAMES: dict[str, dict[str, Any]] = {
    "pacal": {"rounds_to_win": 1},
    "pacal-solo": {},
    "temple": {"players": 3},
    "mahjongg": {"players": 2, "deal": "random"},
}
TYPED = [
    "", "dance", "offer 3 3", "offer 1 99", "pick 0", "place F11", "place F0", "decline now",
    "swap L10 1", "swap J 9", "set 4 0", "set -1 2", "match 1 1", "match 0 9999", "shift x",
    "clock 99999", "reveal -1", "undo", "hint", "finish", "sight", "reshuffle", "summon", "pass",
]
PLACEHOLDER = re.compile(r"\{\w+\}")
ZERO_SEAT = re.compile(r"\b(player|seat) 0\b|0번 자리")
REPR = re.compile(r"Words\(|<\w[\w.]* object|\bNone\b")


def _msgids(words: Words) -> list[str]:
    ids = [words.msgid]
    for value in words.values.values():
        if isinstance(value, PyramidsError):
            value = value.words
        if isinstance(value, Words):
            ids += _msgids(value)
    return ids


def _check(error: PyramidsError, korean: dict[str, object]) -> tuple[str, str]:
    for msgid in _msgids(error.words):
        assert korean.get(msgid), f"no Korean for {msgid!r}"
    english, hangul = words_text(error, "en"), words_text(error, "ko")
    # str() is the English with options as keys (for logs), the same message.
    assert words_text(error, "en", keys=True) == str(error) \
        or isinstance(error.words, PluralWords)
    for text in (english, hangul):
        assert not PLACEHOLDER.search(text), text
        assert not ZERO_SEAT.search(text), text
        assert not REPR.search(text), text
    assert hangul != english, english
    return english, hangul


def _random_position(name: str, seed: int) -> State:
    state = pyramids.load(name, **GAMES[name]).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(60)):
        legal = state.legal_actions()
        if not legal:
            break
        state.apply_action(rng.choice(legal))
    return state


@pytest.mark.parametrize("name", sorted(GAMES))
def test_illegal_moves_are_refused_in_player_words_in_both_languages(name: str) -> None:
    korean = catalogue_json("ko")["messages"]
    refused = 0
    for seed in range(12):
        state = _random_position(name, seed)
        rng = random.Random(seed)
        before = state.to_json()
        legal = set(state.legal_actions())
        size = state.game.num_distinct_actions
        numbers = [rng.randrange(size) for _ in range(25)] + [-1, size]
        for action in numbers:
            if action in legal:
                continue
            with pytest.raises(IllegalActionError) as caught:
                state.apply_action(action)
            english, _hangul = _check(caught.value, korean)
            refused += 1
            # A program's number is never echoed back; the player reads the move.
            try:
                label = state.action_to_string(action)
            except ValueError:  # a number out of range has no string
                label = ""
            if action >= 1000:
                assert str(action) not in english.replace(label, ""), english
        for text in TYPED:
            try:
                action = state.string_to_action(text)
            except IllegalActionError as error:
                _check(error, korean)
                refused += 1
                continue
            if action not in legal:
                with pytest.raises(IllegalActionError) as caught:
                    state.apply_action(action)
                _check(caught.value, korean)
                refused += 1
        assert state.to_json() == before
    assert refused > 100


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("pacal", {"rounds_to_win": 0}),
        ("pacal", {"max_rounds": 1, "rounds_to_win": 2}),
        ("pacal", {"direction": "sideways"}),
        ("temple", {"players": 9}),
        ("temple", {"cards_per_level": 1, "jewels": 0}),
        ("temple", {"colour": "red", "size": 2}),
        ("mahjongg", {"mode": "coop", "players": 1}),
        ("mahjongg", {"mode": "time-attack", "players": 2}),
        ("mahjongg", {"bank": 1, "start_tokens": 2}),
        ("mahjongg", {"layout": "no-such-board"}),
        ("mahjongg", {"warn_unsolvable": "maybe"}),
    ],
)
def test_bad_options_are_refused_in_player_words(name: str, options: dict) -> None:
    with pytest.raises(OptionError) as caught:
        pyramids.load(name, **options)
    _check(caught.value, catalogue_json("ko")["messages"])


def test_a_refusal_names_the_move_and_why_in_korean() -> None:
    # Pacal opens with an offer: picking a card now is refused, and says what to do.
    state = pyramids.load("pacal").new_initial_state(7)
    with pytest.raises(IllegalActionError) as caught:
        state.apply_string("decline")
    assert str(caught.value) == ("the move 'decline' is illegal: you must offer two of "
                                 "your hand cards ('offer A B')")
    assert words_text(caught.value, "ko") == (
        "'decline' 수는 둘 수 없습니다: 손의 카드 두 장을 제안해야 합니다 ('offer A B')")


def test_plural_words_follow_the_count_in_english() -> None:
    from pyramids.games.temple.construction import why_set_is_illegal

    one = why_set_is_illegal(2, 0, 3, 5, 0, missing=1)
    two = why_set_is_illegal(3, 0, 3, 5, 0, missing=2)
    assert str(one) == "only 1 unit still missing"
    assert str(two) == "only 2 units still missing"
    assert words_text(two, "ko") == "이제 2단위만 부족합니다"
