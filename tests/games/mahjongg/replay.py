"""Replaying a clearing sequence by the rules, independently of deal.py."""

from __future__ import annotations

from collections.abc import Sequence

from pyramids.games.mahjongg.layout import Layout
from pyramids.games.mahjongg.tiles import faces_match


def replay_clearing(
    layout: Layout,
    faces: Sequence[int],
    order: Sequence[tuple[int, int]],
    pantheon_pairs: bool = True,
    present: int | None = None,
) -> set[int]:
    """Play `order` pair by pair, asserting each pair is on the board, free and
    matching, and that the board ends empty; return the vaults unlocked on the way."""
    geometry = layout.geometry
    board = geometry.all_mask if present is None else present
    unlocked = {v for v in layout.vaults if board >> v & 1 and geometry.is_exposed(v, board)}
    for a, b in order:
        assert a != b
        assert board >> a & 1 and board >> b & 1, f"pair {(a, b)} not on the board"
        assert geometry.is_free(a, board) and geometry.is_free(b, board), f"{(a, b)} not free"
        assert faces_match(faces[a], faces[b], pantheon_pairs), f"{(a, b)} do not match"
        board &= ~((1 << a) | (1 << b))
        unlocked |= {v for v in layout.vaults if board >> v & 1 and geometry.is_exposed(v, board)}
    assert board == 0, "tiles left on the board"
    return unlocked
