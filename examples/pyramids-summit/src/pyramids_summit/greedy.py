"""The greedy policy: leap if you can (play the stone's match), else climb with the
lowest card that beats the stone, else get rid of the lowest card.

It reads only the mover's view and legal moves, as every policy must: what it
cannot see (the others' hands, the deck) it never uses.
"""

from __future__ import annotations

from pyramids.core import Rng, State


def choose(state: State, rng: Rng) -> int:
    view = state.view(state.current_player)
    stone, hand = view["stone"], view["hand"]
    if stone in hand:
        return stone - 1
    higher = [card for card in hand if card > stone]
    return (min(higher) if higher else min(hand)) - 1
