"""The codecs Pacal's saved states share (see `pyramids.core.saving`)."""

from __future__ import annotations

from pyramids.core.saving import Int, ListOf
from pyramids.games.pacal.pyramid import HIGHEST_CARD, LOWEST_CARD

CARD = Int(LOWEST_CARD, HIGHEST_CARD)
SEAT = Int(0, 1)
# A pyramid half (`visible` or `covered`) per player: ten values, 0 for none.
PYRAMID_HALVES = ListOf(ListOf(Int(0, HIGHEST_CARD)), length=2)
