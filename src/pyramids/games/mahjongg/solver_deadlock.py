"""Proofs that a Mahjongg position is lost, for pruning the solver's search.

Every test here is sound: it answers True only when no clearing exists. It
never claims a position can be won.

The facts it combines, for a position (the set of present tiles):

- a tile lying on another (overlapping it, one layer up) leaves strictly before it;
- a tile can leave only when its left side or its right side is open. Its
  **left chain** is the present tiles reached by stepping left, neighbour to
  neighbour, through present tiles. If it leaves with its left side open, every
  tile of its left chain left strictly before it: the nearest one needed its own
  left side open then (its right side touched the tile), and so on down the chain;
- when a match class has exactly two tiles left, they are **partners**: they
  leave together, at the same moment.

For a pair P = (c, d) that must leave together, `pair_deadlocked` grows two sets:
`after`, tiles that cannot leave before P (P itself, what lies under it, their
partners, a tile whose left and right chains both hold such a tile), and
`before`, tiles that must leave strictly before P (what lies on it, their
partners, and the chain on one side of a tile when the other side holds a tile
that cannot leave before it). A tile in both sets, or a tile of either whose
both sides are closed for good, is a contradiction: no clearing exists.
"""

from __future__ import annotations

from collections.abc import Sequence

from pyramids.games.mahjongg.geometry import Geometry, tiles_in

_RowTables = tuple[tuple[int, ...], tuple[int, ...], list[dict[int, tuple[int, int]]]]
_ROW_TABLES: dict[int, tuple[Geometry, _RowTables]] = {}
# Entries a tile's chain cache may hold before it is emptied (bounds memory).
CHAIN_CACHE_LIMIT = 1 << 14


def row_tables(geometry: Geometry) -> _RowTables:
    """Per tile: the tiles sharing its row (same layer, linked by side contacts)
    and the tiles it lies on, as masks, and a cache of its chains keyed by the
    present tiles of its row (they depend on nothing else), all kept per geometry."""
    cached = _ROW_TABLES.get(id(geometry))
    if cached is not None and cached[0] is geometry:
        return cached[1]
    row_mask = []
    for tile in range(geometry.size):
        seen = {tile}
        frontier = [tile]
        while frontier:
            t = frontier.pop()
            for u in geometry.left[t] + geometry.right[t]:
                if u not in seen:
                    seen.add(u)
                    frontier.append(u)
        row_mask.append(sum(1 << t for t in seen))
    below_mask = tuple(sum(1 << t for t in set(row)) for row in geometry.below)
    chain_cache: list[dict[int, tuple[int, int]]] = [{} for _ in range(geometry.size)]
    tables = (tuple(row_mask), below_mask, chain_cache)
    if len(_ROW_TABLES) >= 16:
        _ROW_TABLES.clear()
    _ROW_TABLES[id(geometry)] = (geometry, tables)
    return tables


class DeadlockFinder:
    """The geometry's tables plus the deal's match classes, for repeated checks."""

    def __init__(
        self, geometry: Geometry, tile_class: Sequence[int], class_mask: Sequence[int]
    ) -> None:
        self.above = geometry.above_mask
        self.below = geometry.below
        self.left = geometry.left
        self.right = geometry.right
        self.left_mask = geometry.left_mask
        self.right_mask = geometry.right_mask
        self.tile_class = tile_class
        self.class_mask = class_mask
        self.row_mask, self.below_mask, self.chain_cache = row_tables(geometry)
        self.partners: dict[int, int] = {}

    def chains(self, tile: int, present: int) -> tuple[int, int]:
        """The tile's left and right chains among the present tiles (cached per
        geometry, by the present tiles of its row)."""
        key = present & self.row_mask[tile]
        cache = self.chain_cache[tile]
        found = cache.get(key)
        if found is None:
            found = (self._walk(tile, present, self.left), self._walk(tile, present, self.right))
            if len(cache) >= CHAIN_CACHE_LIMIT:
                cache.clear()
            cache[key] = found
        return found

    @staticmethod
    def _walk(tile: int, present: int, side: Sequence[Sequence[int]]) -> int:
        reached = 0
        frontier = [tile]
        while frontier:
            t = frontier.pop()
            for u in side[t]:
                bit = 1 << u
                if present & bit and not reached & bit:
                    reached |= bit
                    frontier.append(u)
        return reached

    def partner(self, tile: int, present: int) -> int:
        """The bit of the tile it must pair with, when known, else 0.

        Known: the other tile of its class when exactly two are left, or a
        partner in `partners` (fixed by `settle_pairings`, or assumed while it
        tests a pairing).
        """
        mate = self.partners.get(tile)
        if mate is not None and present >> mate & 1:
            return 1 << mate
        rest = present & self.class_mask[self.tile_class[tile]]
        if rest.bit_count() == 2:
            return rest ^ (1 << tile)
        return 0

    def pair_deadlocked(self, c: int, d: int, present: int) -> bool:
        """Whether tiles c and d can never leave together (see the module docstring)."""
        after = self._after_closure((1 << c) | (1 << d), present)
        if after is None:
            return True
        pair = (1 << c) | (1 << d)
        before = 0
        # Each entry: a tile that must be free strictly before P (or P's own tiles,
        # which must be free at P's moment), with the tiles that cannot precede it.
        work: list[tuple[int, int]] = [(c, after), (d, after)]
        above = self.above
        while work:
            tile, not_before_it = work.pop()
            new = present & above[tile] & ~before
            if present & self.left_mask[tile] and present & self.right_mask[tile]:
                left_chain, right_chain = self.chains(tile, present)
                left_open = not left_chain & not_before_it
                right_open = not right_chain & not_before_it
                if not left_open and not right_open:
                    return True
                if not left_open:
                    new |= right_chain & ~before
                elif not right_open:
                    new |= left_chain & ~before
            while new:
                low = new & -new
                new ^= low
                if before & low:
                    continue
                if after & low:
                    return True
                before |= low
                t = low.bit_length() - 1
                mate = self.partner(t, present)
                # A tile leaving before P: P's tiles and everything after P, and
                # its partner (leaving with it), cannot leave before it.
                if mate and not before & mate:
                    if after & mate:
                        return True
                    new |= mate
                work.append((t, after | mate))
            if before & pair:
                return True
        return False

    def _after_closure(self, seed: int, present: int) -> int | None:
        """Tiles that cannot leave before the seed tiles; None on a contradiction."""
        after = seed
        frontier = seed
        below_mask = self.below_mask
        chains = self.chains
        partner = self.partner
        while frontier:
            bit = frontier & -frontier
            frontier ^= bit
            tile = bit.bit_length() - 1
            grow = below_mask[tile] | partner(tile, present)
            left_chain, right_chain = chains(tile, present)
            # A tile between this one and another that cannot leave before P is
            # walled in on both sides until after P. (A chain tile's own chain on
            # the far side lies within this tile's chain on that side, so a
            # chain holding no such tile has none to test.)
            if left_chain & after:
                candidates = left_chain & ~after & ~grow
                while candidates:
                    low = candidates & -candidates
                    candidates ^= low
                    if after & chains(low.bit_length() - 1, present)[0]:
                        grow |= low
            if right_chain & after:
                candidates = right_chain & ~after & ~grow
                while candidates:
                    low = candidates & -candidates
                    candidates ^= low
                    if after & chains(low.bit_length() - 1, present)[1]:
                        grow |= low
            grow &= present & ~after
            after |= grow
            frontier |= grow
        return after

    def forced_pairs(self, present: int) -> list[tuple[int, int]]:
        pairs = []
        for cmask in self.class_mask:
            rest = present & cmask
            if rest and rest.bit_count() == 2:
                low = rest & -rest
                pairs.append((low.bit_length() - 1, (rest ^ low).bit_length() - 1))
        return pairs

    def any_pair_deadlocked(self, present: int) -> bool:
        return any(self.pair_deadlocked(c, d, present) for c, d in self.forced_pairs(present))

    def settle_pairings(self, present: int, free: int) -> list[int] | None:
        """Rule out the pairings of four-tile classes that deadlock, to a fixpoint.

        For each class with exactly four tiles left (not all free), each of its
        three pairings is tested by assuming its two pairs and checking both for
        a deadlock. A pairing that deadlocks is in no clearing: its pairs are
        returned (two-bit masks) as never to be matched. A class left with one
        pairing gets its partners fixed in `partners` (later checks use them),
        and the classes are tested again. None: some class has no pairing left,
        so the position is lost. (Three tiles of a class stacked one on another
        are the common case: every pairing puts two of them together.)
        The facts hold for every position reached from `present`.
        """
        ruled_out: set[int] = set()
        partners = self.partners
        settled: set[int] = set()
        changed = True
        while changed:
            changed = False
            for klass, cmask in enumerate(self.class_mask):
                rest = present & cmask
                if klass in settled or rest.bit_count() != 4 or not rest & ~free:
                    continue
                a, b, c, d = tiles_in(rest)
                usable = []
                for (p, q), (r, t) in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
                    keys = ((1 << p) | (1 << q), (1 << r) | (1 << t))
                    if keys[0] in ruled_out:
                        continue
                    saved = {tile: partners.get(tile) for tile in (p, q, r, t)}
                    partners.update({p: q, q: p, r: t, t: r})
                    try:
                        dead = self.pair_deadlocked(p, q, present) or self.pair_deadlocked(
                            r, t, present
                        )
                    finally:
                        for tile, old in saved.items():
                            if old is None:
                                del partners[tile]
                            else:
                                partners[tile] = old
                    if dead:
                        ruled_out.update(keys)
                    else:
                        usable.append((p, q, r, t))
                if not usable:
                    return None
                if len(usable) == 1:
                    p, q, r, t = usable[0]
                    partners.update({p: q, q: p, r: t, t: r})
                    settled.add(klass)
                    changed = True
        return sorted(ruled_out)
