"""Small hand-built layouts and deals for the Mahjongg engine tests."""

from __future__ import annotations

from typing import Any

import pytest

from pyramids.games.mahjongg.game import MahjonggGame
from pyramids.games.mahjongg.layout import Layout
from pyramids.games.mahjongg.tiles import FACE_BY_NAME

# Ten tiles, tile ids in reading order (layer, row, column):
#
#   layer 0, row y=0:  0 1 2 3 4        (x = 0 2 4 6 8)
#   layer 0, row y=4:  5V 6             (5 is a burial vault, 6 touches its right side)
#   layer 0, row y=8:  7 8
#   layer 1:           9C at x=3, y=0   (the capstone, lying on tiles 1 and 2)
MINI_POSITIONS = (
    (0, 0, 0), (2, 0, 0), (4, 0, 0), (6, 0, 0), (8, 0, 0),
    (0, 4, 0), (2, 4, 0),
    (0, 8, 0), (2, 8, 0),
    (3, 0, 1),
)
CAPSTONE = 9
VAULT = 5


def face(name: str) -> int:
    return FACE_BY_NAME[name.lower()].index


# The deal of the worked game: pairs (0,9) Pharaoh, (1,6) Scarab 1, (2,5) Ra-Horus,
# (3,4) Harvest-Oasis (seasons), (7,8) Glyph 5.
MINI_FACES = [
    face("Golden Pharaoh"), face("Scarab 1"), face("Ra"), face("Harvest"), face("Oasis"),
    face("Horus"), face("Scarab 1"),
    face("Glyph 5"), face("Glyph 5"),
    face("Golden Pharaoh"),
]


def mini_layout(face_down: frozenset[int] = frozenset()) -> Layout:
    return Layout(
        "mini",
        MINI_POSITIONS,
        capstones=frozenset({CAPSTONE}),
        vaults=frozenset({VAULT}),
        face_down=face_down,
    )


def mini_game(face_down: frozenset[int] = frozenset(), **options: Any) -> MahjonggGame:
    options.setdefault("layout", "mini")
    return MahjonggGame(layout_object=mini_layout(face_down), **options)


@pytest.fixture
def mini() -> MahjonggGame:
    return mini_game()


# Six tiles: two towers of two and a free pair beside them.
#
#   layer 0: 0 at x=0, 1 at x=4, 2 at x=8, 3 at x=10 (2 and 3 touch)
#   layer 1: 4 on 0, 5 on 1
# With faces X, Y, Z, Z, Y, X the towers cross: after `match 2 3` the free tiles
# 4 (Y) and 5 (X) do not match, and each one's partner lies under the other.
STACKS_POSITIONS = ((0, 0, 0), (4, 0, 0), (8, 0, 0), (10, 0, 0), (0, 0, 1), (4, 0, 1))
STACKS_FACES = [
    face("Scarab 1"), face("Scarab 2"), face("Glyph 9"), face("Glyph 9"),
    face("Scarab 2"), face("Scarab 1"),
]


def stacks_game(**options: Any) -> MahjonggGame:
    options.setdefault("layout", "stacks")
    return MahjonggGame(layout_object=Layout("stacks", STACKS_POSITIONS), **options)


# Four Scarab 1s: 0 and 1 alone, 3 on top of 2. Matching 0 with 1 first loses
# (3 would lie on its only partner); any pair with 3 wins.
TRAP_POSITIONS = ((0, 0, 0), (4, 0, 0), (8, 0, 0), (8, 0, 1))
TRAP_FACES = [face("Scarab 1")] * 4


def trap_game(**options: Any) -> MahjonggGame:
    options.setdefault("layout", "trap")
    return MahjonggGame(layout_object=Layout("trap", TRAP_POSITIONS), **options)
