"""The draw pile, the discard pile and the cards out of the game.

Rules implemented (rules page, "Phase 1: draw"):
- a drawn construction card of a level already built goes to the discard pile
  and the player draws again;
- when the pile is empty, the discard pile, without the cards of built levels
  (those leave the game), is shuffled into a new pile;
- when no card is left at all, nothing is drawn.

The pile is a list of kinds whose top is its end (`pop()` draws); its order is
hidden. The discard pile and the cards out of the game are public kind counts.
"""

from __future__ import annotations

from pyramids.core.rng import Rng
from pyramids.games.temple.cards import JEWEL, LEVELS


def reshuffle(pile: list[int], discard: list[int], removed: list[int], built: int,
              rng: Rng) -> None:
    """Turn the discard pile into a new shuffled pile; cards of built levels leave the game."""
    for kind in range(LEVELS + 1):
        count = discard[kind]
        if not count:
            continue
        discard[kind] = 0
        if kind != JEWEL and kind < built:
            removed[kind] += count
        else:
            pile.extend([kind] * count)
    rng.shuffle(pile)


def draw_card(pile: list[int], discard: list[int], removed: list[int], built: int,
              rng: Rng) -> int | None:
    """The kind of the next usable card, or None when no card is left at all.

    Cards of built levels met on the way are discarded. The loop ends: every turn
    takes a card off the pile, and a reshuffle never brings a built level back.
    """
    while True:
        if not pile:
            reshuffle(pile, discard, removed, built, rng)
            if not pile:
                return None
        kind = pile.pop()
        if kind != JEWEL and kind < built:
            discard[kind] += 1
            continue
        return kind
