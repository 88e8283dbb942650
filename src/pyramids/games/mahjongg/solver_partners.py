"""Clearings found by choosing partners: a local search beside the exact solver.

Once every tile's partner is chosen (a pairing of each match class), whether the
board clears needs no search. Removing tiles never blocks another, so taking any
pair whose two tiles are both free never spoils anything: take such pairs until
none is left, and either the board is clear or this choice of partners fails,
whatever the order. What is hard is the choice of partners.

`PartnerSearch` walks over those choices (simulated annealing at a fixed
temperature). It starts from random pairings and repeats: take a tile left on
the board when the removals stuck, give it another tile of its class as partner
(their two old partners pair up), and keep the change when it leaves no more
tiles stuck, or, with probability exp(-d / TEMPERATURE), when it leaves d more,
which lets the walk climb out of local minima. Every `WALK_LENGTH` changes it
starts afresh. Pairs the exact search has ruled out (`forbidden`) are avoided
(they are in no clearing).

It only ever answers with a clearing, which holds by construction (every pair
taken matches and is free at its turn); it cannot prove a deal lost. The solver
runs it between restarts on deals that resist the exact search, where it finds
the clearings of the stubborn solvable deals (measurements: docs/solver.md).
The compiled core (`_solvercore.c`) runs the same walk, draw for draw.

Every random choice comes from the `Rng` it is given: seeded, reproducible.
"""

from __future__ import annotations

import math
from collections.abc import Sequence, Set

from pyramids.core.rng import Rng
from pyramids.games.mahjongg.geometry import Geometry, tiles_in
from pyramids.games.mahjongg.solver_deadlock import uses_a_pair_of
from pyramids.games.mahjongg.solver_pairings import take_pairs

Pair = tuple[int, int]

# How readily the walk accepts a change that leaves more tiles stuck.
TEMPERATURE = 4.0
# Changes before the walk starts again from fresh random pairings.
WALK_LENGTH = 5000
# Tries at a random pairing of one class that avoids the forbidden pairs.
PAIRING_TRIES = 50
_SCALE = 1 << 20
# Acceptance thresholds for a change leaving d more tiles stuck (d >= 1), out of _SCALE.
_ACCEPT = [int(_SCALE * math.exp(-d / TEMPERATURE)) for d in range(1, 200)]


class PartnerSearch:
    """A walk over the pairings of the present tiles, resumable in slices."""

    def __init__(
        self,
        geometry: Geometry,
        class_mask: Sequence[int],
        present: int,
        neighbour_mask: Sequence[int],
        rng: Rng,
    ) -> None:
        self.geometry = geometry
        self.present = present
        self.free = geometry.free_mask(present)
        self.neighbour_mask = neighbour_mask
        self.rng = rng
        self.groups = [tiles_in(present & cmask) for cmask in class_mask if present & cmask]
        self.group_of: dict[int, list[int]] = {
            tile: group for group in self.groups for tile in group
        }
        self.partner: list[int] = [-1] * geometry.size
        self.no_possible = [0] * geometry.size  # (every partner is fixed here)
        self.stuck = 0  # the tiles left when the current pairings' removals stuck
        self.changes = WALK_LENGTH  # forces a fresh start on the first step

    def run(self, steps: int, forbidden: Set[int]) -> list[Pair] | None:
        """Go on for `steps` evaluations of pairings: a clearing, or None."""
        rng = self.rng
        partner = self.partner
        for _ in range(steps):
            if self.changes >= WALK_LENGTH:
                self._fresh_start(forbidden)
                self.changes = 0
                left, order = self.remove_pairs(partner)
                if not left:
                    return order
                self.stuck = left
                continue
            self.changes += 1
            stuck = tiles_in(self.stuck)
            tile = stuck[rng.next_u64() % len(stuck)]
            old = partner[tile]
            choices = [
                other
                for other in self.group_of[tile]
                if other != tile
                and other != old
                and (1 << tile) | (1 << other) not in forbidden
                and (1 << old) | (1 << partner[other]) not in forbidden
            ]
            if not choices:
                continue
            other = choices[rng.next_u64() % len(choices)]
            other_old = partner[other]
            _pair(partner, tile, other)
            _pair(partner, old, other_old)
            left, order = self.remove_pairs(partner)
            if not left:
                return order
            worse = left.bit_count() - self.stuck.bit_count()
            if worse <= 0 or rng.next_u64() % _SCALE < _ACCEPT[min(worse, len(_ACCEPT)) - 1]:
                self.stuck = left
            else:
                _pair(partner, tile, old)
                _pair(partner, other, other_old)
        return None

    def remove_pairs(self, partner: Sequence[int]) -> tuple[int, list[Pair]]:
        """Take free pairs of partners until none is left: the tiles left, and
        the pairs taken in order (a clearing when no tile is left)."""
        return take_pairs(
            self.geometry, self.neighbour_mask, self.present, self.free, partner,
            self.no_possible,
        )

    def _fresh_start(self, forbidden: Set[int]) -> None:
        rng = self.rng
        for group in self.groups:
            for _ in range(PAIRING_TRIES):
                order = list(group)
                rng.shuffle(order)
                if not uses_a_pair_of(order, forbidden):
                    break
            for i in range(0, len(order), 2):
                _pair(self.partner, order[i], order[i + 1])


def _pair(partner: list[int], a: int, b: int) -> None:
    partner[a] = b
    partner[b] = a
