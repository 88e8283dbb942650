"""What `view(player)` returns in Pacal and Pacal solo (see rules.md, "What a player sees").

Fields are numbered from 1 (F1..F10) in `legal_fields`; seats are 0 and 1 in the
data (interfaces show them from 1). A field is a list of the cards on it, the
visible card last; a covered card shows as its value only to its owner's view
once revealed by the rules, otherwise it is not in the list.
"""

# No `from __future__ import annotations` here: TypedDict reads NotRequired only
# from evaluated annotations (Python 3.11).
from typing import Annotated, Literal, NotRequired, TypedDict

from pyramids.core.views import Capacity, Outcome

Direction = Literal["descending", "ascending"]

# The capacities the rules bound each list by (`Capacity`): ten fields, a field holds
# at most two cards (one covering the other), two seats, a hand of 15 cards that
# only shrinks, an offer of two cards.
FIELDS = Capacity(10)
TWO = Capacity(2)
HAND = Capacity(15)
#: [row, column] of each field.
FieldPositions = Annotated[list[Annotated[list[int], TWO]], FIELDS]
#: A pyramid: each field's cards, oldest first.
Pyramid = Annotated[list[Annotated[list[int], TWO]], FIELDS]


class RoundResult(TypedDict):
    """How the last finished round ended."""

    round: int
    winner: int | None
    reason: str
    pyramids: Annotated[list[Pyramid], TWO]
    spreads: Annotated[list[int], TWO]
    occupied: Annotated[list[int], TWO]


class PacalView(TypedDict):
    """A seat's (or a spectator's, `viewer` None) view of the two-player match."""

    game: Literal["pacal"]
    viewer: int | None
    phase: Literal["offer", "pick", "place", "last_card", "over"]
    current_player: int
    direction: Direction
    layout: FieldPositions
    round: int
    rounds_to_win: int
    max_rounds: int
    round_wins: Annotated[list[int], TWO]
    starting_player: int
    active_player: int
    turns_played: int
    #: The two face-down apex cards revealed to decide who starts, this round.
    revealed_apex_bases: Annotated[list[int], TWO] | None
    pyramids: Annotated[list[Pyramid], TWO]
    spreads: Annotated[list[int], TWO]
    hand_sizes: Annotated[list[int], TWO]
    offer: Annotated[list[int], TWO] | None
    picked: int | None
    to_place: Annotated[list[int | None], TWO]
    declined: Annotated[list[bool], TWO]
    last_round: RoundResult | None
    winner: int | None
    returns: Annotated[list[float], TWO] | None
    outcome: Outcome | None
    #: Only in a seat's own view:
    hand: NotRequired[Annotated[list[int], HAND]]
    card_to_place: NotRequired[int | None]
    legal_fields: NotRequired[Annotated[list[int], FIELDS]]


class PacalSoloView(TypedDict):
    """The view of the one-player game."""

    game: Literal["pacal-solo"]
    viewer: int | None
    phase: Literal["place", "over"]
    current_player: int
    direction: Direction
    layout: FieldPositions
    pyramid: Pyramid
    card: int | None
    legal_fields: Annotated[list[int], FIELDS]
    draws: int
    pile_size: int
    result: Literal["playing", "won", "lost"]
    won: bool
    score: int | None
    spread: int
    outcome: Outcome | None
