"""What `view(player)` returns in Pacal and Pacal solo (see rules.md, "What a player sees").

Fields are numbered from 1 (F1..F10) in `legal_fields`; seats are 0 and 1 in the
data (interfaces show them from 1). A field is a list of the cards on it, the
visible card last; a covered card shows as its value only to its owner's view
once revealed by the rules, otherwise it is not in the list.
"""

# No `from __future__ import annotations` here: TypedDict reads NotRequired only
# from evaluated annotations (Python 3.11).
from typing import Literal, NotRequired, TypedDict

from pyramids.core.views import Outcome

Direction = Literal["descending", "ascending"]


class RoundResult(TypedDict):
    """How the last finished round ended."""

    round: int
    winner: int | None
    reason: str
    pyramids: list[list[list[int]]]
    spreads: list[int]
    occupied: list[int]


class PacalView(TypedDict):
    """A seat's (or a spectator's, `viewer` None) view of the two-player match."""

    game: Literal["pacal"]
    viewer: int | None
    phase: Literal["offer", "pick", "place", "last_card", "over"]
    current_player: int
    direction: Direction
    layout: list[list[int]]
    round: int
    rounds_to_win: int
    max_rounds: int
    round_wins: list[int]
    starting_player: int
    active_player: int
    turns_played: int
    #: The two face-down apex cards revealed to decide who starts, this round.
    revealed_apex_bases: list[int] | None
    pyramids: list[list[list[int]]]
    spreads: list[int]
    hand_sizes: list[int]
    offer: list[int] | None
    picked: int | None
    to_place: list[int | None]
    declined: list[bool]
    last_round: RoundResult | None
    winner: int | None
    returns: list[float] | None
    outcome: Outcome | None
    #: Only in a seat's own view:
    hand: NotRequired[list[int]]
    card_to_place: NotRequired[int | None]
    legal_fields: NotRequired[list[int]]


class PacalSoloView(TypedDict):
    """The view of the one-player game."""

    game: Literal["pacal-solo"]
    viewer: int | None
    phase: Literal["place", "over"]
    current_player: int
    direction: Direction
    layout: list[list[int]]
    pyramid: list[list[int]]
    card: int | None
    legal_fields: list[int]
    draws: int
    pile_size: int
    result: Literal["playing", "won", "lost"]
    won: bool
    score: int | None
    spread: int
    outcome: Outcome | None
