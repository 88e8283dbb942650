"""Dealing faces onto a layout: freely, or solvable by construction.

Rules implemented (rules page, "Dealing" and "Sandstorm Reshuffle"):
- `deal_random`: the faces of `tile_set(n)` shuffled over the n positions;
- `deal_solvable`: a deal with at least one complete clearing, built by
  remove-in-reverse: starting from the full board, repeatedly take two tiles
  that are free at that point and give them a matching pair of faces from the
  tile set. The order taken is a clearing sequence (each pair is free and
  matching when its turn comes), returned by `deal_solvable_with_order`. Dead
  ends (tiles left but fewer than two free) are undone by a depth-first search
  with a memo of dead boards and a node budget; a fresh attempt from the same
  rng follows a budget overrun. A layout that no attempt can clear raises
  `LayoutError`: a solvable deal never falls back to a random one;
- `reshuffle_solvable`: the faces of the remaining tiles redistributed over the
  same positions by the same construction, or None when no clearing of those
  positions is found.

**[ours]** The construction also keeps every vault unlockable: a vault is taken
only once it is exposed (nothing on it, nothing touching its four sides), so the
guaranteed clearing unlocks every vault (what Architect Co-op needs to be
winnable). On a layout where no clearing can do that (two vaults in one row
with tiles between them), the deal is solvable without that promise and says
so (`SolvableDeal.vaults_unlockable`).

To spread pairs over the whole monument rather than peel it layer by layer, the
tile taken first is the free one of highest priority, a priority drawn per tile
and attempt as its height plus noise, and its partner is any free tile at random.

Everything random comes from the given `Rng`, so a seed reproduces a deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pyramids.core.errors import N_, LayoutError
from pyramids.core.rng import Rng
from pyramids.games.mahjongg.geometry import Geometry, mask_of, tiles_in
from pyramids.games.mahjongg.layout import Layout
from pyramids.games.mahjongg.tiles import match_class, tile_set

ATTEMPTS = 12
NODE_BUDGET = 4000
# How many layers of height the noise can make up when choosing the first tile
# of a pair: large enough that low tiles are often taken early, small enough
# that towers are mostly taken from the top (which avoids most dead ends).
HEIGHT_NOISE = 2.5

Pair = tuple[int, int]


@dataclass(frozen=True)
class SolvableDeal:
    """A deal and one clearing sequence that proves it solvable."""

    faces: tuple[int, ...]  # face per tile number
    order: tuple[Pair, ...]  # pairs of tile numbers, in clearing order
    vaults_unlockable: bool = True  # whether `order` unlocks every vault it was asked to


def deal_random(layout: Layout, rng: Rng) -> list[int]:
    """The faces of `tile_set(layout.size)` shuffled over the tiles."""
    faces = _tile_set(layout)
    rng.shuffle(faces)
    return faces


def deal_solvable(
    layout: Layout, rng: Rng, pantheon_pairs: bool = True, unlock_vaults: bool = True
) -> list[int]:
    """A deal with at least one complete clearing (see `deal_solvable_with_order`)."""
    return list(deal_solvable_with_order(layout, rng, pantheon_pairs, unlock_vaults).faces)


def deal_solvable_with_order(
    layout: Layout, rng: Rng, pantheon_pairs: bool = True, unlock_vaults: bool = True
) -> SolvableDeal:
    """A solvable deal and its clearing sequence; `LayoutError` if none is found.

    With `unlock_vaults` the clearing also unlocks every vault when the layout
    allows it; when it does not (two vaults in one row, say), the deal is still
    solvable and `vaults_unlockable` is False.
    """
    faces_needed = _tile_set(layout)  # checks the count before searching
    geometry = layout.geometry
    vaults = mask_of(layout.vaults) if unlock_vaults else 0
    order = find_clearing_order(geometry, geometry.all_mask, rng, vaults)
    vaults_unlockable = order is not None
    if order is None and vaults:
        order = find_clearing_order(geometry, geometry.all_mask, rng)
    if order is None:
        raise LayoutError(
            N_("layout '{layout}': found no way to clear all {tiles} tiles in {attempts} "
               "attempts, so it cannot be dealt solvable; deal=random still works"),
            layout=layout.name, tiles=layout.size, attempts=ATTEMPTS)
    faces = [-1] * layout.size
    pairs = _face_pairs(faces_needed, rng, pantheon_pairs)
    if pairs is None:  # tile_set keeps every class even, so this is a bug
        raise LayoutError(N_("layout '{layout}': the tile set cannot be split into pairs"),
                          layout=layout.name)
    _assign(faces, order, pairs, rng)
    return SolvableDeal(tuple(faces), tuple(order), vaults_unlockable)


def reshuffle_solvable(
    geometry: Geometry,
    present: int,
    faces: Sequence[int],
    rng: Rng,
    pantheon_pairs: bool = True,
    vaults: int = 0,
) -> list[int] | None:
    """The faces of the present tiles shuffled over their positions so that they clear.

    `present` is the bit mask of tiles on the board, `faces` the face per tile
    number (entries of absent tiles are kept as they are). `vaults`, a mask of
    still-locked vaults, are kept unlockable where possible. Returns the new face list, or None
    when no clearing of the present positions was found or the remaining faces
    cannot be split into matching pairs.
    """
    found = reshuffle_solvable_with_order(geometry, present, faces, rng, pantheon_pairs, vaults)
    return None if found is None else list(found.faces)


def reshuffle_solvable_with_order(
    geometry: Geometry,
    present: int,
    faces: Sequence[int],
    rng: Rng,
    pantheon_pairs: bool = True,
    vaults: int = 0,
) -> SolvableDeal | None:
    """`reshuffle_solvable` with the clearing sequence of the present tiles."""
    remaining = [faces[tile] for tile in tiles_in(present)]
    pairs = _face_pairs(remaining, rng, pantheon_pairs)
    if pairs is None:
        return None
    vaults &= present
    order = find_clearing_order(geometry, present, rng, vaults)
    vaults_unlockable = order is not None
    if order is None and vaults:
        order = find_clearing_order(geometry, present, rng)
    if order is None:
        return None
    result = list(faces)
    _assign(result, order, pairs, rng)
    return SolvableDeal(tuple(result), tuple(order), vaults_unlockable)


def _tile_set(layout: Layout) -> list[int]:
    if layout.size == 0 or layout.size % 2:
        raise LayoutError(
            N_("layout '{layout}' has {tiles} tiles: a deal needs a positive even number"),
            layout=layout.name, tiles=layout.size)
    return tile_set(layout.size)


def _face_pairs(faces: Sequence[int], rng: Rng, pantheon_pairs: bool) -> list[Pair] | None:
    """The faces split at random into matching pairs, the pairs in random order."""
    by_class: dict[int, list[int]] = {}
    for face in faces:
        by_class.setdefault(match_class(face, pantheon_pairs), []).append(face)
    pairs: list[Pair] = []
    for _, members in sorted(by_class.items()):
        if len(members) % 2:
            return None
        rng.shuffle(members)
        pairs.extend((members[i], members[i + 1]) for i in range(0, len(members), 2))
    rng.shuffle(pairs)
    return pairs


def _assign(faces: list[int], order: Sequence[Pair], pairs: Sequence[Pair], rng: Rng) -> None:
    for (a, b), (face_a, face_b) in zip(order, pairs, strict=True):
        if rng.randrange(2):
            face_a, face_b = face_b, face_a
        faces[a], faces[b] = face_a, face_b


class _OutOfBudget(Exception):
    pass


def find_clearing_order(
    geometry: Geometry,
    present: int,
    rng: Rng,
    vaults: int = 0,
    attempts: int = ATTEMPTS,
    node_budget: int = NODE_BUDGET,
) -> list[Pair] | None:
    """A random order of pairs of tiles that clears `present` taking free tiles only.

    Vaults in the `vaults` mask are taken only when exposed. Returns None when
    the search proves there is none or gives up after `attempts` budgets.
    """
    search = _ClearingSearch(geometry, rng, vaults, node_budget)
    for _ in range(attempts):
        try:
            found = search.run(present)
        except _OutOfBudget:
            continue
        return found
    return None


class _ClearingSearch:
    """Depth-first remove-in-reverse with a memo of dead boards.

    The set of takeable tiles is kept as a bit mask and updated only around the
    two tiles a step removes (the tiles under them and beside them), which keeps
    a step to a few dozen integer operations on a 144-tile board.
    """

    def __init__(self, geometry: Geometry, rng: Rng, vaults: int, node_budget: int) -> None:
        self.above = geometry.above_mask
        self.left = geometry.left_mask
        self.right = geometry.right_mask
        self.sides = geometry.sides_mask
        self.touched = tuple(
            mask_of(
                geometry.below[t] + geometry.left[t] + geometry.right[t]
                + geometry.back[t] + geometry.front[t]
            )
            for t in range(geometry.size)
        )
        self.height = [z for _, _, z in geometry.positions]
        self.rng = rng
        self.vaults = vaults
        self.node_budget = node_budget
        self.dead: set[int] = set()  # boards proved not clearable; valid across attempts
        self.nodes = 0
        self.priority: list[float] = []

    def run(self, present: int) -> list[Pair] | None:
        self.nodes = 0
        # A fresh priority per tile and attempt: high tiles first, blurred by noise.
        random = self.rng.random
        self.priority = [z + HEIGHT_NOISE * random() for z in self.height]
        path: list[Pair] = []
        if self._clear(present, self._takeable(present, present), path):
            return path
        return None

    def _takeable(self, present: int, candidates: int) -> int:
        """The takeable tiles among `candidates` (a mask of present tiles)."""
        above, left, right, sides, vaults = (
            self.above, self.left, self.right, self.sides, self.vaults
        )
        found = 0
        mask = candidates
        while mask:
            low = mask & -mask
            tile = low.bit_length() - 1
            mask ^= low
            if present & above[tile]:
                continue
            if present & left[tile] and present & right[tile]:
                continue
            if vaults & low and present & sides[tile]:
                continue
            found |= low
        return found

    def _clear(self, present: int, takeable: int, path: list[Pair]) -> bool:
        if not present:
            return True
        if present in self.dead:
            return False
        self.nodes += 1
        if self.nodes > self.node_budget:
            raise _OutOfBudget
        tiles = tiles_in(takeable)
        if len(tiles) >= 2:
            priority = self.priority
            firsts = sorted(tiles, key=priority.__getitem__, reverse=True)
            count = len(tiles)
            touched = self.touched
            for first in firsts:
                offset = self.rng.randrange(count)
                for k in range(count):
                    second = tiles[(offset + k) % count]
                    if second == first:
                        continue
                    gone = (1 << first) | (1 << second)
                    rest = present & ~gone
                    around = (touched[first] | touched[second]) & rest
                    after = (takeable & ~gone & ~around) | self._takeable(rest, around)
                    path.append((first, second))
                    if self._clear(rest, after, path):
                        return True
                    path.pop()
        self.dead.add(present)
        return False


def is_clearing_order(
    geometry: Geometry,
    faces: Sequence[int],
    order: Sequence[Pair],
    pantheon_pairs: bool = True,
    present: int | None = None,
) -> bool:
    """Whether `order` clears the board: each pair free and matching at its turn."""
    board = geometry.all_mask if present is None else present
    for a, b in order:
        bits = (1 << a) | (1 << b)
        if a == b or board & bits != bits:
            return False
        if not (geometry.is_free(a, board) and geometry.is_free(b, board)):
            return False
        if match_class(faces[a], pantheon_pairs) != match_class(faces[b], pantheon_pairs):
            return False
        board &= ~bits
    return board == 0
