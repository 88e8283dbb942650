"""Pacal's actions: one fixed, finite set of ints with their strings.

Match (`pacal`), 1286 actions:
- 0..1224     `offer A B`  an unordered pair of cards, A < B, in lexicographic order
- 1225..1274  `pick V`     V = 1..50
- 1275..1284  `place F1`..`place F10`
- 1285        `decline`    (the last card only)

Solo (`pacal-solo`), 10 actions: 0..9 `place F1`..`place F10`.

Parsing is tolerant of case and extra spaces, accepts `offer B A` for `offer A B`
and `place 3` for `place F3`; anything else raises `IllegalActionError`.
"""

from __future__ import annotations

import operator

from pyramids.core.errors import N_, IllegalActionError, Words
from pyramids.games.pacal.pyramid import FIELD_COUNT, HIGHEST_CARD, LOWEST_CARD

OFFER_COUNT = HIGHEST_CARD * (HIGHEST_CARD - 1) // 2
PICK_BASE = OFFER_COUNT - LOWEST_CARD  # `pick V` is PICK_BASE + V
PLACE_BASE = OFFER_COUNT + HIGHEST_CARD  # `place F(i+1)` is PLACE_BASE + i
DECLINE = PLACE_BASE + FIELD_COUNT
NUM_ACTIONS = DECLINE + 1
SOLO_NUM_ACTIONS = FIELD_COUNT


def _pair_tables() -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...]]:
    pairs: list[tuple[int, int]] = []
    ids = [[-1] * (HIGHEST_CARD + 1) for _ in range(HIGHEST_CARD + 1)]
    for low in range(LOWEST_CARD, HIGHEST_CARD + 1):
        for high in range(low + 1, HIGHEST_CARD + 1):
            ids[low][high] = ids[high][low] = len(pairs)
            pairs.append((low, high))
    return tuple(pairs), tuple(tuple(row) for row in ids)


# OFFER_PAIRS[action] is (A, B); OFFER_IDS[A][B] (either order) the offer action.
OFFER_PAIRS, OFFER_IDS = _pair_tables()
PLACE_ACTIONS = tuple(PLACE_BASE + index for index in range(FIELD_COUNT))

_MATCH_STRINGS = (
    tuple(f"offer {low} {high}" for low, high in OFFER_PAIRS)
    + tuple(f"pick {value}" for value in range(LOWEST_CARD, HIGHEST_CARD + 1))
    + tuple(f"place F{index + 1}" for index in range(FIELD_COUNT))
    + ("decline",)
)
_SOLO_STRINGS = tuple(f"place F{index + 1}" for index in range(FIELD_COUNT))

MATCH_SYNTAX = Words(N_("'offer A B' (two different cards 1..50), 'pick V' (1..50), "
                        "'place F1'..'place F10', 'decline'"))
SOLO_SYNTAX = "'place F1'..'place F10'"


def offer_action(first: int, second: int) -> int:
    return OFFER_IDS[first][second]


def _as_index(action: object) -> int | None:
    """The action as an int (numpy ints included), or None when it is not integral."""
    if isinstance(action, bool):
        return None
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return None


def match_action_to_string(action: int) -> str:
    index = _as_index(action)
    if index is not None and 0 <= index < NUM_ACTIONS:
        return _MATCH_STRINGS[index]
    # Only a program passes numbers, so this one speaks to its author.
    raise IllegalActionError(
        f"pacal: {action!r} is not an action; actions are 0..{NUM_ACTIONS - 1}"
    )


def solo_action_to_string(action: int) -> str:
    index = _as_index(action)
    if index is not None and 0 <= index < SOLO_NUM_ACTIONS:
        return _SOLO_STRINGS[index]
    raise IllegalActionError(
        f"pacal-solo: {action!r} is not an action; actions are 0..{SOLO_NUM_ACTIONS - 1}"
    )


def _card(word: str) -> int | None:
    if word.isdigit():
        value = int(word)
        if LOWEST_CARD <= value <= HIGHEST_CARD:
            return value
    return None


def _field(words: list[str]) -> int | None:
    """The field index named by the words after `place` (`F3`, `f3`, `3`, `F 3`)."""
    text = "".join(words)
    if text.startswith("f"):
        text = text[1:]
    if text.isdigit() and 1 <= int(text) <= FIELD_COUNT:
        return int(text) - 1
    return None


def match_string_to_action(text: str) -> int:
    words = text.strip().lower().split() if isinstance(text, str) else []
    if words:
        verb, rest = words[0], words[1:]
        if verb == "offer" and len(rest) == 2:
            first, second = _card(rest[0]), _card(rest[1])
            if first is not None and second is not None and first != second:
                return OFFER_IDS[first][second]
        elif verb == "pick" and len(rest) == 1:
            value = _card(rest[0])
            if value is not None:
                return PICK_BASE + value
        elif verb == "place" and rest:
            index = _field(rest)
            if index is not None:
                return PLACE_BASE + index
        elif verb == "decline" and not rest:
            return DECLINE
    raise IllegalActionError(N_("unknown move '{text}'; the moves are {allowed}"),
                             text=text, allowed=MATCH_SYNTAX)


def solo_string_to_action(text: str) -> int:
    words = text.strip().lower().split() if isinstance(text, str) else []
    if len(words) >= 2 and words[0] == "place":
        index = _field(words[1:])
        if index is not None:
            return index
    raise IllegalActionError(N_("unknown move '{text}'; the moves are {allowed}"),
                             text=text, allowed=SOLO_SYNTAX)
