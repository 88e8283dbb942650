"""The 50 cards and their shuffle.

A round deals all 50 cards, so shuffling is a large share of a fast random
playout. Rather than one generator call per swap (`Rng.shuffle`), the swaps'
random indices are read as the digits of one uniform number per batch: the
radices 50, 49, ... are grouped so that each group's product P fits in 64 bits,
a 64-bit draw below the largest multiple of P is kept (others are redrawn, so
there is no bias), and its mixed-radix digits are the Fisher-Yates indices.
About six generator calls shuffle the deck instead of 49.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TypeVar

from pyramids.core.rng import Rng
from pyramids.games.pacal.pyramid import HIGHEST_CARD, LOWEST_CARD

DECK = tuple(range(LOWEST_CARD, HIGHEST_CARD + 1))
_SPACE = 1 << 64
T = TypeVar("T")


@lru_cache(maxsize=64)
def _batches(size: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(accept-below limit, radices) groups for a Fisher-Yates shuffle of `size` items."""
    batches = []
    radices: list[int] = []
    product = 1
    for radix in range(size, 1, -1):
        if product * radix > _SPACE:
            batches.append(((_SPACE // product) * product, tuple(radices)))
            radices, product = [], 1
        radices.append(radix)
        product *= radix
    if radices:
        batches.append(((_SPACE // product) * product, tuple(radices)))
    return tuple(batches)


def shuffled(rng: Rng, items: Sequence[T]) -> list[T]:
    """`items` in a uniformly random order drawn from `rng`."""
    out = list(items)
    position = len(out) - 1
    for limit, radices in _batches(len(out)):
        draw = rng.next_u64()
        while draw >= limit:
            draw = rng.next_u64()
        for radix in radices:
            draw, pick = divmod(draw, radix)
            out[position], out[pick] = out[pick], out[position]
            position -= 1
    return out


def shuffled_deck(rng: Rng) -> list[int]:
    """The 50 cards in a uniformly random order drawn from `rng`."""
    return shuffled(rng, DECK)
