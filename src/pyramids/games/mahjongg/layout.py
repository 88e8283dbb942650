"""A layout: tile positions plus the blueprint markers (capstones, vaults, face-down).

Markers are sets of tile numbers (indices into `positions`). Positions are kept
in reading order (layer, then row, then column) so that tile numbers, and the
tile ids of a deal, are stable for a given layout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from pyramids.games.mahjongg.geometry import Geometry, Position


def reading_order(position: Position) -> tuple[int, int, int]:
    x, y, z = position
    return (z, y, x)


@dataclass(frozen=True)
class Layout:
    name: str
    positions: tuple[Position, ...]
    capstones: frozenset[int] = frozenset()
    vaults: frozenset[int] = frozenset()
    face_down: frozenset[int] = frozenset()
    title: str = ""
    description: str = ""
    source: str = field(default="", compare=False)

    @cached_property
    def geometry(self) -> Geometry:
        return Geometry.from_positions(self.positions)

    @property
    def size(self) -> int:
        return len(self.positions)

    @property
    def layers(self) -> int:
        return 1 + max((z for _, _, z in self.positions), default=-1)

    @property
    def width(self) -> int:
        """Width in half-tile cells (the rightmost tile's x + 2)."""
        return max((x for x, _, _ in self.positions), default=-2) + 2

    @property
    def height(self) -> int:
        return max((y for _, y, _ in self.positions), default=-2) + 2

    def highest_tiles(self) -> frozenset[int]:
        """The tiles on the top layer: KMahjongg imports make these the capstones."""
        top = self.layers - 1
        return frozenset(i for i, (_, _, z) in enumerate(self.positions) if z == top)
