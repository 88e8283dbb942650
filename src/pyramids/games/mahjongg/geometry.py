"""Board geometry: the half-tile grid, which tiles touch, and the free-tile rule.

Rules implemented (rules page, "Geometry"), on KMahjongg's grid:
- a tile at `(x, y, z)` covers the cells `x..x+1`, `y..y+1` of layer `z`; two
  tiles of one layer never share a cell;
- **top freedom**: no tile on layer `z+1` overlaps it, even partly
  (`|dx| <= 1` and `|dy| <= 1`);
- **side freedom**: the left side is open (no tile on layer `z` at `x-2` with
  `|dy| <= 1`) or the right side is open (likewise at `x+2`);
- a tile is **free** when both hold.
For burial vaults the front and back sides count too: a tile on layer `z` at
`y-2` or `y+2` with `|dx| <= 1`.

Tiles are numbered 0..n-1 in the order of `positions`; sets of tiles on the
board are bit masks (bit i set = tile i present), which keeps the free-tile
test to a few integer operations for the engine and the solver alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Position = tuple[int, int, int]


def overlaps(a: Position, b: Position) -> bool:
    """Whether two tiles on the same or adjacent layers share a cell in plan view."""
    return abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def mask_of(tiles: Iterable[int]) -> int:
    mask = 0
    for tile in tiles:
        mask |= 1 << tile
    return mask


def tiles_in(mask: int) -> list[int]:
    """The tile numbers whose bits are set, ascending."""
    if mask.bit_count() > 8:
        # For dense masks, scanning the binary text beats peeling bits (profiled).
        return [i for i, bit in enumerate(bin(mask)[:1:-1]) if bit == "1"]
    tiles = []
    while mask:
        low = mask & -mask
        tiles.append(low.bit_length() - 1)
        mask ^= low
    return tiles


@dataclass(frozen=True)
class Geometry:
    """The fixed relations between the positions of a layout.

    `above[i]`: tiles on layer z+1 overlapping tile i (they block it from above);
    `below[i]`: tiles on layer z-1 it rests on; `left[i]`/`right[i]`: tiles on
    its layer touching its left/right side; `front[i]`/`back[i]`: touching its
    back (y-2) and front (y+2) sides, used for vaults. Each also as a bit mask.
    """

    positions: tuple[Position, ...]
    above: tuple[tuple[int, ...], ...] = field(repr=False)
    below: tuple[tuple[int, ...], ...] = field(repr=False)
    left: tuple[tuple[int, ...], ...] = field(repr=False)
    right: tuple[tuple[int, ...], ...] = field(repr=False)
    back: tuple[tuple[int, ...], ...] = field(repr=False)
    front: tuple[tuple[int, ...], ...] = field(repr=False)
    above_mask: tuple[int, ...] = field(repr=False)
    left_mask: tuple[int, ...] = field(repr=False)
    right_mask: tuple[int, ...] = field(repr=False)
    sides_mask: tuple[int, ...] = field(repr=False)  # left | right | front | back

    @classmethod
    def from_positions(cls, positions: Sequence[Position]) -> Geometry:
        positions = tuple((int(x), int(y), int(z)) for x, y, z in positions)
        by_layer: dict[int, list[int]] = {}
        for index, (_, _, z) in enumerate(positions):
            by_layer.setdefault(z, []).append(index)
        n = len(positions)
        above: list[list[int]] = [[] for _ in range(n)]
        below: list[list[int]] = [[] for _ in range(n)]
        left: list[list[int]] = [[] for _ in range(n)]
        right: list[list[int]] = [[] for _ in range(n)]
        back: list[list[int]] = [[] for _ in range(n)]
        front: list[list[int]] = [[] for _ in range(n)]
        for i, (x, y, z) in enumerate(positions):
            for j in by_layer.get(z + 1, ()):
                if overlaps(positions[i], positions[j]):
                    above[i].append(j)
                    below[j].append(i)
            for j in by_layer.get(z, ()):
                jx, jy, _ = positions[j]
                dx, dy = jx - x, jy - y
                if dx == -2 and abs(dy) <= 1:
                    left[i].append(j)
                elif dx == 2 and abs(dy) <= 1:
                    right[i].append(j)
                elif dy == -2 and abs(dx) <= 1:
                    back[i].append(j)
                elif dy == 2 and abs(dx) <= 1:
                    front[i].append(j)
        freeze = lambda rows: tuple(tuple(row) for row in rows)  # noqa: E731
        return cls(
            positions=positions,
            above=freeze(above),
            below=freeze(below),
            left=freeze(left),
            right=freeze(right),
            back=freeze(back),
            front=freeze(front),
            above_mask=tuple(mask_of(row) for row in above),
            left_mask=tuple(mask_of(row) for row in left),
            right_mask=tuple(mask_of(row) for row in right),
            sides_mask=tuple(
                mask_of(left[i] + right[i] + back[i] + front[i]) for i in range(n)
            ),
        )

    @property
    def size(self) -> int:
        return len(self.positions)

    @property
    def all_mask(self) -> int:
        return (1 << len(self.positions)) - 1

    def is_free(self, tile: int, present: int) -> bool:
        """Free: nothing on top, and the left or the right side open."""
        if present & self.above_mask[tile]:
            return False
        return not (present & self.left_mask[tile]) or not (present & self.right_mask[tile])

    def is_uncovered(self, tile: int, present: int) -> bool:
        """Nothing lies on it (what turns a face-down tile face up)."""
        return not present & self.above_mask[tile]

    def is_exposed(self, tile: int, present: int) -> bool:
        """Nothing on it and nothing touching its four sides (what unlocks a vault)."""
        return not present & (self.above_mask[tile] | self.sides_mask[tile])

    def free_tiles(self, present: int) -> list[int]:
        return [tile for tile in tiles_in(present) if self.is_free(tile, present)]

    def free_mask(self, present: int) -> int:
        """The free tiles among `present`, as a mask (the hot path of engine and solver)."""
        above, left, right = self.above_mask, self.left_mask, self.right_mask
        free = 0
        for tile in tiles_in(present):
            if present & above[tile]:
                continue
            if not present & left[tile] or not present & right[tile]:
                free |= 1 << tile
        return free

    def overlapping_pairs_on_layer(self) -> list[tuple[int, int]]:
        """Pairs of tiles on one layer that share a cell (an unsound layout)."""
        clashes = []
        for i, a in enumerate(self.positions):
            for j in range(i + 1, len(self.positions)):
                b = self.positions[j]
                if a[2] == b[2] and overlaps(a, b):
                    clashes.append((i, j))
        return clashes
