"""The exact search over pairings: the relaxed removal worked by hand, agreement
with the brute-force reference (both verdicts), slices, and its place in `solve`."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from pyramids.core.rng import Rng
from pyramids.games.mahjongg import solver as solver_module
from pyramids.games.mahjongg.blueprints import load_layout
from pyramids.games.mahjongg.geometry import Geometry, mask_of, tiles_in
from pyramids.games.mahjongg.solver import (
    PAIRING_SEARCH_AFTER,
    SolverOptions,
    _geometry_tables,
    solve_classes,
)
from pyramids.games.mahjongg.solver_pairings import PairingSearch, take_pairs
from pyramids.games.mahjongg.tiles import match_class
from tests.games.mahjongg.test_solver import (
    X,
    assert_clears,
    brute_force,
    dense_position,
    finder_for,
    small_positions,
    solve_reference,
)


def search_for(
    geo: Geometry, faces: list[int], present: int | None = None, pantheon: bool = True,
    forbidden: frozenset[int] = frozenset(),
) -> PairingSearch:
    present = geo.all_mask if present is None else present
    groups: dict[int, int] = {}
    for tile in tiles_in(present):
        key = match_class(faces[tile], pantheon)
        groups[key] = groups.get(key, 0) | 1 << tile
    return PairingSearch(
        geo, list(groups.values()), present, _geometry_tables(geo).neighbour_mask, forbidden
    )


# Four tiles of one class: three stacked (0 at the bottom, 1 on it, 2 on top)
# and 3 alone. Every pairing puts two stacked tiles together or makes a cycle
# (0 with 2 needs 1 gone first, and 1 pairs with 3... after 2 has gone).
STACK_OF_THREE = Geometry.from_positions([(0, 0, 0), (0, 0, 1), (0, 0, 2), (8, 0, 0)])


def test_the_relaxed_removal_worked_by_hand() -> None:
    geo = STACK_OF_THREE
    nmask = _geometry_tables(geo).neighbour_mask
    free = geo.free_mask(geo.all_mask)
    assert tiles_in(free) == [2, 3]
    # Class open, every partner possible: 2 and 3 go (each has a free possible
    # partner), then 1 (2 is gone), then 0. The relaxation alone proves nothing.
    anyone = [mask_of([1, 2, 3]), mask_of([0, 2, 3]), mask_of([0, 1, 3]), mask_of([0, 1, 2])]
    left, order = take_pairs(geo, nmask, geo.all_mask, free, [-1] * 4, anyone)
    assert left == 0 and order == []
    # Fixed partners 0-1 and 2-3: 2 and 3 go; then 1 is free, but 0, under it,
    # is not: stuck.
    only = [mask_of([1]), mask_of([0]), mask_of([3]), mask_of([2])]
    left, order = take_pairs(geo, nmask, geo.all_mask, free, [1, 0, 3, 2], only)
    assert tiles_in(left) == [0, 1] and order == [(2, 3)]
    # Fixed partners 0-3 and 1-2: 1 lies under 2, stuck at once.
    left, order = take_pairs(geo, nmask, geo.all_mask, free, [3, 2, 1, 0], [0] * 4)
    assert left == geo.all_mask and order == []


def test_a_stack_of_three_is_lost_though_the_relaxation_alone_clears_it() -> None:
    search = search_for(STACK_OF_THREE, [X] * 4)
    assert search.run(100) is False
    assert search.clearing == []
    assert not brute_force(STACK_OF_THREE, [X] * 4, STACK_OF_THREE.all_mask, True)


def test_agrees_with_brute_force_on_crowded_boards() -> None:
    verdicts = []
    for seed in range(400):
        geo, faces = dense_position(seed)
        expected = brute_force(geo, faces, geo.all_mask, True)
        search = search_for(geo, faces)
        assert search.run(1 << 30) is expected, seed
        if expected:
            assert_clears(geo, faces, search.clearing)
        verdicts.append(expected)
    assert verdicts.count(False) >= 40 and verdicts.count(True) >= 40


@settings(max_examples=300, deadline=None)
@given(small_positions())
def test_agrees_with_brute_force_with_the_pairs_ruled_out(
    position: tuple[Geometry, list[int], int, bool],
) -> None:
    # Classes of two to eight tiles, boards part cleared, and the pairs that
    # `settle_pairings` rules out kept out from the start (as `solve` does).
    geo, faces, present, pantheon = position
    classes = [match_class(faces[t], pantheon) for t in tiles_in(present)]
    if not present or any(classes.count(c) % 2 for c in set(classes)):
        return
    finder, free = finder_for(geo, faces, present, pantheon)
    ruled_out = finder.settle_pairings(present, free, pairwise=True)
    expected = brute_force(geo, faces, present, pantheon)
    if ruled_out is None:
        assert not expected
        return
    search = search_for(geo, faces, present, pantheon, frozenset(ruled_out))
    assert search.run(1 << 30) is expected
    if expected:
        assert_clears(geo, faces, search.clearing, present, pantheon)


def test_slices_give_the_same_answer_as_one_run() -> None:
    for seed in (3, 17, 83):
        geo, faces = dense_position(seed)
        whole = search_for(geo, faces)
        verdict = whole.run(1 << 30)
        sliced = search_for(geo, faces)
        runs = 0
        while sliced.run(1) is None:
            runs += 1
        assert (sliced.verdict, sliced.clearing, sliced.tests) == (
            verdict, whole.clearing, whole.tests
        )
        assert runs >= 1


def classic_deal(seed: int) -> list[int]:
    """The benchmark's `--standard-tiles` deal: 36 groups of four, shuffled."""
    groups = [tile // 4 for tile in range(144)]
    Rng(seed).shuffle(groups)
    return groups


def test_a_classic_turtle_deal_the_search_over_positions_cannot_prove_lost() -> None:
    # Classic-set deal 158: lost, but the search over positions alone stays
    # open for 60 s (750,000 nodes). The search over pairings proves it at its
    # first node, as soon as it starts.
    geometry = load_layout("turtle").geometry
    keys = classic_deal(158)
    budget = PAIRING_SEARCH_AFTER + 20_000
    result = solve_classes(geometry, keys, node_limit=budget)
    assert result.solvable is False
    assert PAIRING_SEARCH_AFTER <= result.nodes < PAIRING_SEARCH_AFTER + 5_000
    without = SolverOptions(pairing_search=False)
    assert solve_classes(geometry, keys, node_limit=budget, options=without).solvable is None


def test_solve_with_the_pairing_search_early_agrees_with_brute_force() -> None:
    # The search over pairings after every failed attempt from the first: the
    # verdicts must not change, and it must be what decides some boards.
    decided = []
    run = PairingSearch.run

    def counted(search: PairingSearch, tests: int) -> bool | None:
        verdict = run(search, tests)
        if verdict is not None:
            decided.append(verdict)
        return verdict

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PairingSearch, "run", counted)
        patch.setattr(solver_module, "PARTNER_SEARCH_AFTER", 0)
        patch.setattr(solver_module, "PAIRING_SEARCH_AFTER", 0)
        patch.setattr(solver_module, "PAIRING_TEST_NODES", 1)
        patch.setattr(solver_module, "PAIRING_SEARCH_SHARE", 4.0)
        patch.setattr(solver_module, "PAIRWISE_AFTER", 0)
        patch.setattr(solver_module, "FIRST_DIVE", 2)
        patch.setattr(solver_module, "RESTART_BASE", 1)
        # (Without the pairing tests the search over positions proves less.)
        options = SolverOptions(partner_search=False, root_pairings=False, inner_pairings=False)
        for seed in range(400):
            geo, faces = dense_position(seed)
            result = solve_reference(geo, faces, options=options)
            assert result.solvable is brute_force(geo, faces, geo.all_mask, True), seed
            if result.solvable:
                assert_clears(geo, faces, result.moves)
    assert decided.count(True) >= 100 and decided.count(False) >= 20
