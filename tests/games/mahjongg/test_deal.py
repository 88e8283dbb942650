"""Dealing: random and solvable-by-construction deals, and the solvable reshuffle."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramids.core.errors import LayoutError
from pyramids.core.rng import Rng
from pyramids.games.mahjongg.blueprints import load_layout
from pyramids.games.mahjongg.deal import (
    deal_random,
    deal_solvable,
    deal_solvable_with_order,
    find_clearing_order,
    is_clearing_order,
    reshuffle_solvable,
    reshuffle_solvable_with_order,
)
from pyramids.games.mahjongg.layout import Layout
from pyramids.games.mahjongg.tiles import FACE_BY_NAME, FACES, match_class, tile_set
from tests.games.mahjongg.replay import replay_clearing

seeds = st.integers(min_value=0, max_value=2**64 - 1)


def test_random_deal_uses_the_tile_set_and_the_seed() -> None:
    layout = load_layout("giza-step-ramp")
    faces = deal_random(layout, Rng(5))
    assert sorted(faces) == tile_set(72)
    assert faces == deal_random(layout, Rng(5))
    assert faces != deal_random(layout, Rng(6))


@settings(max_examples=25, deadline=None)
@given(seeds, st.sampled_from(["turtle", "giza-step-ramp", "great-zenith"]), st.booleans())
def test_solvable_deal_replays_and_is_reproducible(seed: int, name: str, pantheon: bool) -> None:
    layout = load_layout(name)
    deal = deal_solvable_with_order(layout, Rng(seed), pantheon_pairs=pantheon)
    assert sorted(deal.faces) == tile_set(layout.size)
    assert deal.vaults_unlockable
    assert replay_clearing(layout, deal.faces, deal.order, pantheon) == set(layout.vaults)
    assert is_clearing_order(layout.geometry, deal.faces, deal.order, pantheon)
    assert deal_solvable(layout, Rng(seed), pantheon) == list(deal.faces)


def test_without_pantheon_pairs_deities_pair_with_themselves() -> None:
    layout = load_layout("turtle")
    deal = deal_solvable_with_order(layout, Rng(3), pantheon_pairs=False)
    for a, b in deal.order:
        if FACES[deal.faces[a]].group == "deity":
            assert deal.faces[a] == deal.faces[b]


def test_pantheon_pairs_may_pair_partners() -> None:
    # Over a few deals some Ra tile is paired with a Horus tile.
    ra, horus = FACE_BY_NAME["ra"].index, FACE_BY_NAME["horus"].index
    layout = load_layout("turtle")
    crossed = False
    for seed in range(5):
        deal = deal_solvable_with_order(layout, Rng(seed), pantheon_pairs=True)
        crossed |= any({deal.faces[a], deal.faces[b]} == {ra, horus} for a, b in deal.order)
    assert crossed


def test_deals_differ_between_seeds_and_spread_over_layers() -> None:
    layout = load_layout("turtle")
    first = deal_solvable_with_order(layout, Rng(1))
    second = deal_solvable_with_order(layout, Rng(2))
    assert first.faces != second.faces
    # Not peeled layer by layer: some early pair takes a base tile.
    z = [p[2] for p in layout.positions]
    assert any(0 in (z[a], z[b]) for a, b in first.order[:20])


def test_unsolvable_layout_raises_instead_of_dealing() -> None:
    # Two tiles stacked straight up: the lower one is never free while the upper stays.
    tower = Layout("tower", ((0, 0, 0), (0, 0, 1)))
    with pytest.raises(LayoutError, match="found no way to clear all 2 tiles"):
        deal_solvable(tower, Rng(0))
    assert sorted(deal_random(tower, Rng(0))) == tile_set(2)


def test_odd_or_empty_layouts_are_layout_errors() -> None:
    for layout in (Layout("odd", ((0, 0, 0), (2, 0, 0), (4, 0, 0))), Layout("empty", ())):
        with pytest.raises(LayoutError, match="a deal needs a positive even number"):
            deal_random(layout, Rng(0))
        with pytest.raises(LayoutError, match="a deal needs a positive even number"):
            deal_solvable(layout, Rng(0))


def test_vaults_that_cannot_both_be_unlocked_still_deal_solvable() -> None:
    # A row V a V: a is never free while both vaults stay, and each vault needs a
    # gone to be exposed. The deal is still solvable, and says the vaults are not.
    row = Layout("row", ((0, 0, 0), (2, 0, 0), (4, 0, 0), (8, 0, 0)), vaults=frozenset({0, 2}))
    deal = deal_solvable_with_order(row, Rng(0))
    assert not deal.vaults_unlockable
    assert replay_clearing(row, deal.faces, deal.order) != {0, 2}
    # One vault in a longer board: a clearing that unlocks it exists.
    positions = ((0, 0, 0), (2, 0, 0), (4, 0, 0), (8, 0, 0), (10, 0, 0), (12, 0, 0))
    one_vault = Layout("rows", positions, vaults=frozenset({0}))
    deal = deal_solvable_with_order(one_vault, Rng(0))
    assert deal.vaults_unlockable
    assert replay_clearing(one_vault, deal.faces, deal.order) == {0}


def test_small_hand_layout_clears_in_the_only_possible_way() -> None:
    # Tile 3 lies on tile 0; tiles 1 and 2 touch side by side. Any clearing
    # takes 3 before 0.
    layout = Layout("hand", ((0, 0, 0), (4, 0, 0), (6, 0, 0), (0, 0, 1)))
    for seed in range(10):
        deal = deal_solvable_with_order(layout, Rng(seed))
        replay_clearing(layout, deal.faces, deal.order)
        assert [tile for pair in deal.order for tile in pair].index(3) < [
            tile for pair in deal.order for tile in pair
        ].index(0)


def test_is_clearing_order_rejects_bad_sequences() -> None:
    # A row of three (tiles 0 1 2) and a lone tile 3.
    layout = Layout("hand", ((0, 0, 0), (2, 0, 0), (4, 0, 0), (8, 0, 0)))
    s1, s2 = FACE_BY_NAME["scarab 1"].index, FACE_BY_NAME["scarab 2"].index
    geometry = layout.geometry
    assert is_clearing_order(geometry, [s1, s2, s1, s2], [(0, 2), (1, 3)])
    assert not is_clearing_order(geometry, [s1, s2, s2, s1], [(0, 2), (1, 3)])  # no match
    assert not is_clearing_order(geometry, [s1, s1, s2, s2], [(1, 0), (2, 3)])  # 1 blocked
    assert not is_clearing_order(geometry, [s1, s2, s1, s2], [(0, 2)])  # not cleared
    assert not is_clearing_order(geometry, [s1, s2, s1, s2], [(0, 2), (0, 2)])  # gone


@settings(max_examples=15, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=60))
def test_reshuffle_keeps_the_faces_and_clears(seed: int, taken: int) -> None:
    layout = load_layout("pharaohs-tomb")
    rng = Rng(seed)
    deal = deal_solvable_with_order(layout, rng)
    present = layout.geometry.all_mask
    for a, b in deal.order[:taken]:
        present &= ~((1 << a) | (1 << b))
    locked = sum(1 << v for v in layout.vaults if present >> v & 1)
    shuffled = reshuffle_solvable_with_order(
        layout.geometry, present, deal.faces, rng, vaults=locked
    )
    assert shuffled is not None
    on_board = [t for t in range(layout.size) if present >> t & 1]
    assert sorted(shuffled.faces[t] for t in on_board) == sorted(deal.faces[t] for t in on_board)
    off_board = [t for t in range(layout.size) if not present >> t & 1]
    assert all(shuffled.faces[t] == deal.faces[t] for t in off_board)
    replay_clearing(layout, shuffled.faces, shuffled.order, present=present)


def test_reshuffle_changes_the_arrangement_reproducibly() -> None:
    layout = load_layout("turtle")
    faces = deal_solvable(layout, Rng(9))
    present = layout.geometry.all_mask
    once = reshuffle_solvable(layout.geometry, present, faces, Rng(4))
    assert once is not None and once != faces
    assert once == reshuffle_solvable(layout.geometry, present, faces, Rng(4))


def test_reshuffle_returns_none_when_impossible() -> None:
    s1 = FACE_BY_NAME["scarab 1"].index
    tower = Layout("tower", ((0, 0, 0), (0, 0, 1), (4, 0, 0), (6, 0, 0)))
    geometry = tower.geometry
    # Only the tower is left: no arrangement clears it.
    assert reshuffle_solvable(geometry, 0b0011, [s1] * 4, Rng(0)) is None
    # Faces that cannot be split into pairs.
    s2 = FACE_BY_NAME["scarab 2"].index
    assert reshuffle_solvable(geometry, 0b1100, [s1, s1, s1, s2], Rng(0)) is None
    assert reshuffle_solvable(geometry, 0b1100, [s1, s1, s2, s2], Rng(0)) == [s1, s1, s2, s2]


def test_find_clearing_order_on_a_partial_board() -> None:
    layout = load_layout("giza-step-ramp")
    present = layout.geometry.all_mask
    order = find_clearing_order(layout.geometry, present, Rng(0))
    assert order is not None and len(order) == 36
    assert sorted(t for pair in order for t in pair) == list(range(72))


def test_match_classes_of_a_deal_pair_up() -> None:
    layout = load_layout("sphinx-guard")
    deal = deal_solvable_with_order(layout, Rng(11))
    for a, b in deal.order:
        assert match_class(deal.faces[a]) == match_class(deal.faces[b])
