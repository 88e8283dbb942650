"""An exact search over pairings: the solver's other way to decide a deal.

A clearing pairs up the tiles of each match class somehow, and removing tiles
never blocks another. Two facts follow, for a position and its free tiles:

- **all partners fixed**: take pairs of partners whose two tiles are free until
  none is left; whatever the order, the board ends clear exactly when some
  clearing uses these partners (`take_pairs`);
- **some partners fixed** (a pairing chosen for some classes, a set of possible
  pairings left to each other class): let a tile of an open class leave once
  it is free and one of its possible partners is free or gone, and a fixed pair
  once both its tiles are free. A clearing that keeps to the choices removes
  each tile no sooner than this relaxed removal does (by induction over its
  moves: fewer tiles present never blocks a tile). So when the relaxed removal
  sticks with tiles left, no clearing keeps to the choices.

`PairingSearch` searches the pairings class by class with that test, as a
constraint solver would: at each node, each pairing left to an open class is
assumed alone and dropped when the relaxed removal then sticks (singleton
consistency, to a fixpoint); a class with none left proves the node lost; a
class with one left is fixed. It then branches on the open class with the
fewest pairings left. Once every class is fixed, the test is exact: a clearing,
or a dead end. The answer is exact either way; the search over positions
(`solver`) is better at finding clearings quickly, this one at proving deals
lost, because it never tries the same pairs in another order (measurements:
docs/solver.md). The compiled core (`_solvercore.c`) runs the same search,
pausing at the same tests.

Pairings ruled out beforehand (`forbidden` pairs, proved in no clearing by
`solver_deadlock`) are dropped from the start. Classes with more pairings than
`PROPAGATE_LIMIT` (six tiles or more) are only assumed in turn, not tested
ahead, which keeps the cost of a node bounded.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence, Set

from pyramids.games.mahjongg.geometry import Geometry, tiles_in
from pyramids.games.mahjongg.solver_deadlock import Pairing, class_pairings, uses_a_pair_of

Pair = tuple[int, int]

# Classes with more pairings left than this are not tested ahead (see above).
PROPAGATE_LIMIT = 3
# Removal tests between two looks at the clock.
CLOCK_EVERY = 64


class PairingDeadlinePassed(Exception):
    """The deadline passed before a verdict."""


def take_pairs(
    geometry: Geometry,
    neighbour_mask: Sequence[int],
    present: int,
    free: int,
    partner: Sequence[int],
    possible: Sequence[int],
) -> tuple[int, list[Pair]]:
    """Remove what can leave: the tiles left, and the fixed pairs taken in order.

    `partner[t]` is t's fixed partner, or -1 when its class is open; then
    `possible[t]` holds its possible partners (a mask) and it leaves once it is
    free and one of them is free or gone (the relaxation in the module
    docstring). With every partner fixed the pairs taken are a clearing when
    no tile is left.
    """
    above, left, right = geometry.above_mask, geometry.left_mask, geometry.right_mask
    order: list[Pair] = []
    # Tiles worth a look: open ones, and fixed ones whose partner is free too.
    waiting = [
        tile for tile in tiles_in(free)
        if partner[tile] < 0 or (partner[tile] > tile and free >> partner[tile] & 1)
    ]
    while waiting:
        tile = waiting.pop()
        if not free >> tile & 1:  # (gone meanwhile: `free` keeps present tiles only)
            continue
        mate = partner[tile]
        if mate >= 0:
            if not free >> mate & 1:
                continue
            gone = (1 << tile) | (1 << mate)
            order.append((tile, mate) if tile < mate else (mate, tile))
            touched = neighbour_mask[tile] | neighbour_mask[mate]
        else:
            if not possible[tile] & (free | ~present):
                continue
            gone = 1 << tile
            touched = neighbour_mask[tile]
            # Open class-mates that waited for a partner may go now.
            waiting.extend(tiles_in(possible[tile] & free & ~gone))
        present &= ~gone
        free &= present
        # (The free test inlined, as in `solver._Search._free_after`: the hot loop.)
        candidates = touched & present & ~free
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            other = bit.bit_length() - 1
            if not present & above[other] and (
                not present & left[other] or not present & right[other]
            ):
                free |= bit
                mate = partner[other]
                if mate < 0:
                    waiting.append(other)
                    waiting.extend(tiles_in(possible[other] & free))
                elif free >> mate & 1:
                    waiting.append(other)
    return present, order


class PairingSearch:
    """The exact search over pairings of one position, resumable in slices."""

    def __init__(
        self,
        geometry: Geometry,
        class_mask: Sequence[int],
        present: int,
        neighbour_mask: Sequence[int],
        forbidden: Set[int],
        deadline: float | None = None,
    ) -> None:
        self.geometry = geometry
        self.neighbour_mask = neighbour_mask
        self.present = present
        self.free = geometry.free_mask(present)
        self.deadline = deadline
        self.groups = [tiles_in(present & cmask) for cmask in class_mask if present & cmask]
        self.tests = 0  # removal tests so far, the measure of its work
        self.verdict: bool | None = None
        self.clearing: list[Pair] = []
        domains = [
            [pairing for pairing in class_pairings(group) if not uses_a_pair_of(pairing, forbidden)]
            for group in self.groups
        ]
        self._steps = self._search(domains)

    def run(self, tests: int) -> bool | None:
        """Go on for at most `tests` removal tests: the verdict once known
        (True: `clearing` holds a clearing), else None.
        `PairingDeadlinePassed` when the deadline passes."""
        limit = self.tests + tests
        while self.verdict is None and self.tests < limit:
            try:
                next(self._steps)
            except StopIteration as finished:
                self.clearing = finished.value or []
                self.verdict = finished.value is not None
        return self.verdict

    def _search(
        self, domains: list[list[Pairing]]
    ) -> Generator[None, None, list[Pair] | None]:
        narrowed = yield from self._narrow(domains)
        if narrowed is None:
            return None
        domains, partner, possible = narrowed
        open_classes = [k for k, domain in enumerate(domains) if len(domain) > 1]
        if not open_classes:
            yield
            left, order = self._take(partner, possible)
            return order if not left else None
        branch = min(open_classes, key=lambda k: len(domains[k]))
        for pairing in domains[branch]:
            trial = list(domains)
            trial[branch] = [pairing]
            clearing = yield from self._search(trial)
            if clearing is not None:
                return clearing
        return None

    def _narrow(
        self, domains: list[list[Pairing]]
    ) -> Generator[None, None, tuple[list[list[Pairing]], list[int], list[int]] | None]:
        """Drop the pairings whose assumption alone makes the removal stick, to
        a fixpoint: the domains left and their partner tables, or None if lost.
        (It pauses before each removal test: `run` keeps to its budget.)"""
        if not all(domains):
            return None
        domains = list(domains)
        size = self.geometry.size
        partner = [-1] * size
        possible = [0] * size
        for k, domain in enumerate(domains):
            _set_class(partner, possible, self.groups[k], domain)
        yield
        if self._take(partner, possible)[0]:
            return None
        changed = True
        while changed:
            changed = False
            for k, domain in enumerate(domains):
                if not 1 < len(domain) <= PROPAGATE_LIMIT:
                    continue
                kept = []
                for pairing in domain:
                    trial_partner = list(partner)
                    trial_possible = list(possible)
                    _set_class(trial_partner, trial_possible, self.groups[k], [pairing])
                    yield
                    if not self._take(trial_partner, trial_possible)[0]:
                        kept.append(pairing)
                if not kept:
                    return None
                if len(kept) < len(domain):
                    domains[k] = kept
                    _set_class(partner, possible, self.groups[k], kept)
                    changed = True
        return domains, partner, possible

    def _take(self, partner: list[int], possible: list[int]) -> tuple[int, list[Pair]]:
        self.tests += 1
        if (
            self.deadline is not None
            and not self.tests % CLOCK_EVERY
            and time.perf_counter() > self.deadline
        ):
            raise PairingDeadlinePassed
        return take_pairs(
            self.geometry, self.neighbour_mask, self.present, self.free, partner, possible
        )


def _set_class(
    partner: list[int], possible: list[int], group: list[int], domain: list[Pairing]
) -> None:
    """Write a class's partners (one pairing left) or possible partners (several)."""
    for tile in group:
        possible[tile] = 0
        partner[tile] = -1
    for pairing in domain:
        for i in range(0, len(pairing), 2):
            a, b = pairing[i], pairing[i + 1]
            possible[a] |= 1 << b
            possible[b] |= 1 << a
    if len(domain) == 1:
        pairing = domain[0]
        for i in range(0, len(pairing), 2):
            partner[pairing[i]] = pairing[i + 1]
            partner[pairing[i + 1]] = pairing[i]
