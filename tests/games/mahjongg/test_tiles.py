from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyramids.games.mahjongg.tiles import (
    FACE_BY_NAME,
    FACES,
    faces_match,
    full_set,
    match_class,
    pair_points,
    tile_set,
)


def face(name: str) -> int:
    return FACE_BY_NAME[name.lower()].index


def test_the_full_set_is_the_rules_page_table() -> None:
    tiles = full_set()
    assert len(tiles) == 144
    groups = Counter(FACES[t].group for t in tiles)
    assert groups == {"suit": 108, "deity": 16, "season": 6, "element": 6, "royal": 8}
    assert Counter(tiles)[face("Scarab 7")] == 4
    assert Counter(tiles)[face("Harvest")] == 2


def test_matching_rules() -> None:
    assert faces_match(face("Papyrus 3"), face("Papyrus 3"))
    assert not faces_match(face("Papyrus 3"), face("Glyph 3"))
    assert faces_match(face("Harvest"), face("Oasis"))
    assert faces_match(face("Sun"), face("Sandstorm"))
    assert not faces_match(face("Sun"), face("Oasis"))
    assert faces_match(face("Ra"), face("Horus"))
    assert faces_match(face("Anubis"), face("Isis"))
    assert not faces_match(face("Ra"), face("Anubis"))
    assert not faces_match(face("Ra"), face("Horus"), pantheon_pairs=False)
    assert faces_match(face("Isis"), face("Isis"), pantheon_pairs=False)
    assert not faces_match(face("Golden Pharaoh"), face("Sacred Scepter"))


def test_pair_points() -> None:
    assert pair_points(face("Glyph 9")) == 100
    assert pair_points(face("Horus")) == 250
    assert pair_points(face("Oasis")) == pair_points(face("Wind")) == 300
    assert pair_points(face("Sacred Scepter")) == 500


def test_seventy_two_tiles_are_half_of_every_four_copy_face() -> None:
    tiles = Counter(tile_set(72))
    for info in FACES:
        if info.copies == 4:
            assert tiles[info.index] == 2, info.name
    assert sum(tiles[f.index] for f in FACES if f.group == "season") == 4
    assert sum(tiles[f.index] for f in FACES if f.group == "element") == 2


@given(st.integers(min_value=1, max_value=200).map(lambda n: 2 * n), st.booleans())
def test_every_subset_has_even_match_classes(count: int, pantheon_pairs: bool) -> None:
    tiles = tile_set(count)
    assert len(tiles) == count
    classes = Counter(match_class(t, pantheon_pairs) for t in tiles)
    assert all(n % 2 == 0 for n in classes.values())


@pytest.mark.parametrize("count", [0, -2, 7])
def test_bad_tile_counts_are_refused(count: int) -> None:
    with pytest.raises(ValueError, match="positive even number"):
        tile_set(count)
