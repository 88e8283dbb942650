"""Structural shifts: removing a keystone settles the monument beneath it.

Rule implemented (rules page, "Capstones, vaults, face-down tiles") **[ours]**,
option `structural_shifts`: a capstone is the keystone of its monument. When a
pair holding a capstone is removed, the stones beneath it settle: every
face-down tile on a lower layer whose footprint lies within `settle_reach`
tiles of the capstone's footprint (overlapping it, or up to that many tiles
beside it, on the half-tile grid: `|dx| <= 2 × reach + 1` and
`|dy| <= 2 × reach + 1`) turns face up, for everyone to see.

A settling only shows faces: no tile moves, and what is free, what matches and
what scores stay as they were, so the all-seeing solver (which knows every
face already) answers exactly as before.
"""

from __future__ import annotations

from pyramids.games.mahjongg.geometry import Geometry


def settle_zone(geometry: Geometry, keystone: int, reach: int) -> int:
    """The tiles that a keystone's removal turns face up (if face down), as a mask."""
    kx, ky, kz = geometry.positions[keystone]
    span = 2 * reach + 1
    zone = 0
    for tile, (x, y, z) in enumerate(geometry.positions):
        if z < kz and abs(x - kx) <= span and abs(y - ky) <= span:
            zone |= 1 << tile
    return zone
