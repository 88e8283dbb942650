from hypothesis import given
from hypothesis import strategies as st

from pyramids.games.mahjongg.geometry import Geometry, mask_of, tiles_in


@given(st.sets(st.integers(min_value=0, max_value=300)))
def test_masks_and_tile_lists_round_trip(tiles: set[int]) -> None:
    assert tiles_in(mask_of(tiles)) == sorted(tiles)


def test_a_row_of_three_under_a_half_offset_tile() -> None:
    # Three tiles in a row on layer 0; one tile on layer 1 sits half over the
    # first two (x=1), so both are covered; the third is covered by nothing.
    geometry = Geometry.from_positions([(0, 0, 0), (2, 0, 0), (4, 0, 0), (1, 0, 1)])
    everything = geometry.all_mask
    assert geometry.above[0] == (3,) and geometry.above[1] == (3,)
    assert geometry.free_tiles(everything) == [2, 3]
    without_top = everything & ~(1 << 3)
    # The middle tile has neighbours on both sides; the ends have one open side.
    assert geometry.free_tiles(without_top) == [0, 2]
    assert not geometry.is_exposed(0, without_top)
    assert geometry.is_exposed(0, mask_of([0]))
