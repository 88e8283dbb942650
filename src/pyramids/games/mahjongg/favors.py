"""Scarab favors: what Ra Sight shows, which tiles Anubis Shift may lift, and the
Sandstorm Reshuffle.

Rules implemented (rules page, "Scarab tokens and favors"):
- **Ra Sight** (`sight_cost`, 1 token): for the rest of the turn the player's view
  lists every currently valid pair (`sight_pairs`);
- **Anubis Shift** (`shift_cost`, 1 token) **[ours]**: one present tile that is not
  free counts as free for the rest of the turn; a face-down tile is turned face up;
- **Sandstorm Reshuffle** (`reshuffle_cost`, 3 tokens, only when no valid pair
  exists): the faces of all remaining tiles are shuffled over the same positions;
  with `deal=solvable` the new arrangement is solvable whenever one exists.
Spent tokens go back to the bank. Each favor is bought at most once a turn
**[ours]** (a second Sight shows nothing new; one tile at a time is lifted).

Sets of tiles are bit masks, as in `geometry`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pyramids.core.rng import Rng
from pyramids.games.mahjongg.geometry import Geometry, tiles_in

Pair = tuple[int, int]

SIGHT = "sight"
SHIFT = "shift"
RESHUFFLE = "reshuffle"
FAVORS = (SIGHT, SHIFT, RESHUFFLE)


def free_mask(geometry: Geometry, present: int) -> int:
    """The tiles free under the free-tile rule, as a mask."""
    return geometry.free_mask(present)


def valid_pairs(free: int, tile_class: Sequence[int]) -> list[Pair]:
    """Every pair of free tiles of one match class, (smaller id, larger id), sorted."""
    by_class: dict[int, list[int]] = {}
    for tile in tiles_in(free):
        by_class.setdefault(tile_class[tile], []).append(tile)
    pairs: list[Pair] = []
    for group in by_class.values():
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                pairs.append((a, b))
    pairs.sort()
    return pairs


def has_valid_pair(free: int, tile_class: Sequence[int]) -> bool:
    seen: set[int] = set()
    for tile in tiles_in(free):
        klass = tile_class[tile]
        if klass in seen:
            return True
        seen.add(klass)
    return False


def shift_targets(present: int, free: int) -> int:
    """The tiles Anubis Shift may lift: present and not free."""
    return present & ~free


def reshuffle_random(faces: Sequence[int], present: int, rng: Rng) -> list[int]:
    """The faces of the present tiles shuffled over the same positions."""
    tiles = tiles_in(present)
    moving = [faces[tile] for tile in tiles]
    rng.shuffle(moving)
    result = list(faces)
    for tile, face in zip(tiles, moving, strict=True):
        result[tile] = face
    return result
