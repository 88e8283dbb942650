"""What `view(player)` returns in Temple of Inscriptions (see rules.md).

Cards are named by kind: `L1`..`L9` (construction cards of a level) and `J`
(jewels); a count of cards is an object from kind to number, listing only the
kinds present. Seats are numbered from 0 in the data (interfaces show them from 1).
"""

# No `from __future__ import annotations` here: TypedDict reads NotRequired only
# from evaluated annotations (Python 3.11).
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from pyramids.core.views import PER_SEAT, Capacity, Outcome


def _swap_slots(game: Any) -> int:
    return int(game.options["swap_size"])


#: The swap zone has `swap_size` slots (an option).
SWAP_SLOTS = Capacity(_swap_slots)

#: A card's kind, as `pyramids.games.temple.cards.KIND_NAMES` names them.
CardKind = Literal["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "L9", "J"]


class SetView(TypedDict):
    """One player's cards set into the construction."""

    player: int
    cards: int
    jewel_pairs: int


class ConstructionView(TypedDict):
    level: int
    summoner: int
    paid: bool
    #: The summoner, then each other seat once.
    sets: Annotated[list[SetView], PER_SEAT]
    units_by_player: Annotated[list[int], PER_SEAT]
    units: int
    missing: int
    next: int


class TempleView(TypedDict):
    game: Literal["temple"]
    viewer: int | None
    players: int
    phase: Literal["swap", "summon", "set", "over"]
    current_player: int
    round: int
    max_rounds: int
    start_player: int
    quiet_rounds: int
    level: int | None
    built: int
    treasure: Annotated[list[int], PER_SEAT]
    hand_sizes: Annotated[list[int], PER_SEAT]
    #: The cards of each hand that everyone has seen (taken from the swap zone).
    known: Annotated[list[dict[CardKind, int]], PER_SEAT]
    #: The face-up cards of the swap zone, slot by slot (None: an empty slot).
    swap_zone: Annotated[list[CardKind | None], SWAP_SLOTS]
    discard: dict[CardKind, int]
    out_of_game: dict[CardKind, int]
    pile_size: int
    passes: int
    construction: ConstructionView | None
    outcome: Outcome | None
    #: Only in a seat's own view:
    hand: NotRequired[dict[CardKind, int]]
    #: Only at the end:
    jewels: NotRequired[Annotated[list[int], PER_SEAT]]
    scores: NotRequired[Annotated[list[int], PER_SEAT]]
    winners: NotRequired[Annotated[list[int], PER_SEAT]]
    winner: NotRequired[int | None]
    ended_by: NotRequired[str]
