"""The order in which `finish` removes its pairs (rules page, "Undo, hints, finish").

With `finish_saves_vaults` **[ours]**, finish opens as many of the locked burial
vaults as any order of its pairs can. A locked vault opens when every tile
touching it has gone while it is still there, so:
- the pairs holding no locked vault go first (taking one never loses a vault and
  can only open some);
- the others, one per locked vault at most, go in the order that opens the most
  vaults, found by trying the orders (a vault in pair P opens when every tile
  touching it left in the pairs before P); among equally good orders the first
  in the order given.
Above `EXACT_LIMIT` such pairs (only a home-made layout has that many vaults)
they go in the order given.
"""

from __future__ import annotations

from functools import cache

from pyramids.games.mahjongg.geometry import Geometry, mask_of

Pair = tuple[int, int]
EXACT_LIMIT = 12


def vault_saving_order(pairs: list[Pair], locked: set[int], present: int,
                       geometry: Geometry) -> list[Pair]:
    """`pairs` (all the tiles of `present`, in their base order) reordered so that
    the most vaults of `locked` open."""
    plain = [pair for pair in pairs if not locked.intersection(pair)]
    held = [pair for pair in pairs if locked.intersection(pair)]
    if len(held) > EXACT_LIMIT:
        return plain + held
    start = present & ~mask_of(tile for pair in plain for tile in pair)

    @cache
    def best(done: frozenset[int]) -> tuple[int, tuple[int, ...]]:
        """The most vaults the pairs not in `done` (indices into `held`) can open, and
        the order that does it."""
        left = start & ~mask_of(tile for i in done for tile in held[i])
        result: tuple[int, tuple[int, ...]] = (-1, ())
        for i, pair in enumerate(held):
            if i in done:
                continue
            opened = sum(1 for tile in pair
                         if tile in locked and geometry.is_exposed(tile, left))
            rest = best(done | {i})
            if opened + rest[0] > result[0]:
                result = (opened + rest[0], (i, *rest[1]))
        return result if result[0] >= 0 else (0, ())

    return plain + [held[i] for i in best(frozenset())[1]]
