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

`settle_pairings` applies this to whole classes: assuming a pairing of a
class (say four tiles, three ways to pair them) makes all its tiles partners,
and a pairing under which one of its pairs deadlocks is in no clearing. Tested
one class at a time, then (`pairwise`) two at a time, to a fixpoint.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

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
        # Per tile, its class's tiles (the hot loops read this, not the two above).
        # (Absent tiles carry class 0, which an empty board does not have.)
        self.class_of: list[int] = [class_mask[k] if class_mask else 0 for k in tile_class]
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
        rest = present & self.class_of[tile]
        if rest.bit_count() == 2:
            return rest ^ (1 << tile)
        return 0

    def pair_deadlocked(self, c: int, d: int, present: int) -> bool:
        """Whether tiles c and d can never leave together (see the module docstring)."""
        return self.pair_closure(c, d, present) is None

    def pair_closure(self, c: int, d: int, present: int) -> int | None:
        """None when tiles c and d can never leave together, else the tiles the
        proof attempt reached (the `after` and `before` sets): the only tiles whose
        partners it asked, so partners fixed elsewhere cannot change its answer."""
        after = self._after_closure((1 << c) | (1 << d), present)
        if after is None:
            return None
        pair = (1 << c) | (1 << d)
        before = 0
        # Each entry: a tile that must be free strictly before P (or P's own tiles,
        # which must be free at P's moment), with the tiles that cannot precede it.
        work: list[tuple[int, int]] = [(c, after), (d, after)]
        above = self.above
        left_mask, right_mask = self.left_mask, self.right_mask
        chains = self.chains
        partner = self.partner
        while work:
            tile, not_before_it = work.pop()
            new = present & above[tile] & ~before
            if present & left_mask[tile] and present & right_mask[tile]:
                left_chain, right_chain = chains(tile, present)
                left_open = not left_chain & not_before_it
                right_open = not right_chain & not_before_it
                if not left_open and not right_open:
                    return None
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
                    return None
                before |= low
                t = low.bit_length() - 1
                mate = partner(t, present)
                # A tile leaving before P: P's tiles and everything after P, and
                # its partner (leaving with it), cannot leave before it.
                if mate and not before & mate:
                    if after & mate:
                        return None
                    new |= mate
                work.append((t, after | mate))
            if before & pair:
                return None
        return after | before

    def _after_closure(self, seed: int, present: int) -> int | None:
        """Tiles that cannot leave before the seed tiles; None on a contradiction."""
        after = seed
        frontier = seed
        below_mask = self.below_mask
        row_mask = self.row_mask
        chain_cache = self.chain_cache
        chains = self.chains
        partners = self.partners
        class_of = self.class_of
        while frontier:
            bit = frontier & -frontier
            frontier ^= bit
            tile = bit.bit_length() - 1
            # `partner` and `chains`, inlined: this loop is the solver's hottest.
            grow = below_mask[tile]
            mate = partners.get(tile) if partners else None
            if mate is not None and present >> mate & 1:
                grow |= 1 << mate
            else:
                rest = present & class_of[tile]
                if rest.bit_count() == 2:
                    grow |= rest ^ bit
            found = chain_cache[tile].get(present & row_mask[tile])
            left_chain, right_chain = found if found is not None else chains(tile, present)
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

    def settle_pairings(
        self, present: int, free: int, pairwise: bool = False, largest: int = 4
    ) -> list[int] | None:
        """Rule out the pairings of classes that deadlock, to a fixpoint.

        For each class with four to `largest` tiles left (not all free), each of
        its pairings (3 for four tiles, 15 for six, 105 for eight) is tested by
        assuming its pairs and checking each for a deadlock. A pairing that
        deadlocks is in no clearing. The pairs left in no pairing of their class
        are returned (two-bit masks) as never to be matched. Pairs common to all
        the pairings a class has left (all of them, when one is left) get their
        partners fixed in `partners` (later checks use them), and the classes are
        tested again. None: some class has no pairing left, so the position is
        lost. (Three tiles of a class stacked one on another are the common case:
        every pairing puts two of them together.)

        With `pairwise`, two classes are also tested together: a pairing of one
        class that deadlocks with every pairing still open to another is in no
        clearing either (a clearing pairs both classes somehow). Such crossings,
        e.g. two classes each with one tile on a tile of the other, prove many
        of the lost deals that single classes do not. It costs tens of
        milliseconds on Turtle, so the solver runs it only on stubborn deals.
        The facts hold for every position reached from `present`.
        """
        domains: dict[int, list[Pairing]] = {}
        for klass, cmask in enumerate(self.class_mask):
            rest = present & cmask
            if 4 <= rest.bit_count() <= largest and rest & ~free:
                domains[klass] = class_pairings(tiles_in(rest))
        settled: set[int] = set()
        reach: dict[Pairing, int] = {}
        while True:
            if not self._settle_singly(present, domains, settled, reach):
                return None
            if not pairwise:
                break
            narrowed = self._settle_pairwise(present, domains, settled, reach)
            if narrowed is None:
                return None
            if not narrowed:
                break
        return sorted(
            key for klass, usable in domains.items() for key in _unused_pairs(
                present & self.class_mask[klass], usable)
        )

    def _settle_singly(
        self,
        present: int,
        domains: dict[int, list[Pairing]],
        settled: set[int],
        reach: dict[Pairing, int],
    ) -> bool:
        """Drop each class's pairings that deadlock alone; False if a class has none.

        `reach` gets, for each pairing kept, the tiles its tests reached.
        """
        changed = True
        while changed:
            changed = False
            for klass, usable in domains.items():
                if klass in settled:
                    continue
                kept = []
                for pairing in usable:
                    reached = self._pairings_reach((pairing,), present)
                    if reached is not None:
                        reach[pairing] = reached
                        kept.append(pairing)
                domains[klass] = kept
                if not kept:
                    return False
                if len(kept) < len(usable) and self._fix_common(kept):
                    changed = True
                if len(kept) == 1:
                    settled.add(klass)
        return True

    def _settle_pairwise(
        self,
        present: int,
        domains: dict[int, list[Pairing]],
        settled: set[int],
        reach: dict[Pairing, int],
    ) -> bool | None:
        """Drop pairings with no compatible pairing of some other open class.

        True if any was dropped (the single tests are then worth running
        again), None if a class has none left. Two pairings need testing
        together only when one's tests reached a tile of the other's class:
        otherwise the other's partners were never asked, and the joint test
        would run exactly as the two single ones did (and pass).
        """
        open_classes = [klass for klass in domains if klass not in settled]
        class_mask = self.class_mask
        narrowed = False
        for i, one in enumerate(open_classes):
            for other in open_classes[i + 1:]:
                if one in settled or other in settled:
                    continue
                for klass, mate in ((one, other), (other, one)):
                    mate_mask, klass_mask = class_mask[mate], class_mask[klass]
                    usable = domains[klass]
                    kept = [
                        pairing for pairing in usable
                        if any(
                            not (reach[pairing] & mate_mask or reach[partner] & klass_mask)
                            or self._pairings_reach((pairing, partner), present) is not None
                            for partner in domains[mate]
                        )
                    ]
                    if len(kept) == len(usable):
                        continue
                    domains[klass] = kept
                    narrowed = True
                    if not kept:
                        return None
                    self._fix_common(kept)
                    if len(kept) == 1:
                        settled.add(klass)
        return narrowed

    def _fix_common(self, usable: list[Pairing]) -> bool:
        """Fix as partners the pairs every pairing left has; whether any is new."""
        common = set(_pairs_of(usable[0]))
        for pairing in usable[1:]:
            common &= set(_pairs_of(pairing))
        partners = self.partners
        new = False
        for p, q in common:
            if partners.get(p) != q:
                partners[p], partners[q] = q, p
                new = True
        return new

    def _pairings_reach(self, pairings: Sequence[Pairing], present: int) -> int | None:
        """Assuming these pairings (partners fixed), None if one of their pairs
        deadlocks, else the tiles the tests reached (see `pair_closure`)."""
        partners = self.partners
        tiles = [tile for pairing in pairings for tile in pairing]
        saved = {tile: partners.get(tile) for tile in tiles}
        pairs = [pair for pairing in pairings for pair in _pairs_of(pairing)]
        for p, q in pairs:
            partners[p], partners[q] = q, p
        try:
            reached = 0
            for p, q in pairs:
                closure = self.pair_closure(p, q, present)
                if closure is None:
                    return None
                reached |= closure
            return reached
        finally:
            for tile, old in saved.items():
                if old is None:
                    del partners[tile]
                else:
                    partners[tile] = old


# A pairing of a class's tiles, as the tiles pair by pair: (p0, q0, p1, q1, ...).
Pairing = tuple[int, ...]


def _pairs_of(pairing: Pairing) -> list[tuple[int, int]]:
    return list(zip(pairing[0::2], pairing[1::2], strict=True))


def uses_a_pair_of(pairing: Sequence[int], pairs: Set[int]) -> bool:
    """Whether a pairing (tiles listed pair by pair) pairs two tiles that form
    one of `pairs` (two-bit masks), e.g. a pair ruled out."""
    return any(
        (1 << pairing[i]) | (1 << pairing[i + 1]) in pairs for i in range(0, len(pairing), 2)
    )


def class_pairings(tiles: list[int]) -> list[Pairing]:
    """Every way to split the tiles (an even number) into pairs."""
    if not tiles:
        return [()]
    first, rest = tiles[0], tiles[1:]
    return [
        (first, mate, *others)
        for i, mate in enumerate(rest)
        for others in class_pairings(rest[:i] + rest[i + 1:])
    ]


def _unused_pairs(tiles: int, usable: list[Pairing]) -> set[int]:
    """The pairs (two-bit masks) of these tiles that no pairing left uses."""
    group = tiles_in(tiles)
    every = {(1 << a) | (1 << b) for i, a in enumerate(group) for b in group[i + 1:]}
    used = {(1 << p) | (1 << q) for pairing in usable for p, q in _pairs_of(pairing)}
    return every - used
