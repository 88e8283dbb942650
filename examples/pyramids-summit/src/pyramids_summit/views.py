"""What `view(player)` returns, declared once: the conformance check compares every
view with it, and the RL observation gives each list its declared slots.

No `from __future__ import annotations` here: Python 3.11 reads `NotRequired` only
from evaluated annotations (docs/adding-a-game.md, "The view's type").
"""

from typing import Annotated, Literal, NotRequired, TypedDict

from pyramids.core.views import PER_SEAT, Capacity, Outcome

#: Cards in a hand: dealt 3, each turn one played and one drawn.
HAND = 3


class SummitView(TypedDict):
    """What a seat sees: everything public, and its own hand (a spectator, None,
    sees no hand). Another seat's cards and the deck's order are never in it."""

    game: Literal["summit"]
    height: int
    steps: Annotated[list[int], PER_SEAT]
    hand_sizes: Annotated[list[int], PER_SEAT]
    stone: int
    deck_size: int
    to_move: int
    hand: NotRequired[Annotated[list[int], Capacity(HAND)]]
    outcome: Outcome | None
