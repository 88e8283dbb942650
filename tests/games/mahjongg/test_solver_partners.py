"""The walk over pairings: removals with fixed partners worked by hand, clearings
that replay, agreement with the brute-force reference, and its place in `solve`."""

from __future__ import annotations

import pytest

from pyramids.core.rng import Rng
from pyramids.games.mahjongg import solver as solver_module
from pyramids.games.mahjongg.blueprints import load_layout
from pyramids.games.mahjongg.deal import deal_random
from pyramids.games.mahjongg.geometry import Geometry, mask_of, tiles_in
from pyramids.games.mahjongg.solver import SolverOptions, _geometry_tables, solve
from pyramids.games.mahjongg.solver_partners import WALK_LENGTH, PartnerSearch
from tests.games.mahjongg.test_solver import (
    X,
    Y,
    assert_clears,
    brute_force,
    dense_position,
    solve_reference,
)


def walk_for(geo: Geometry, groups: list[list[int]], seed: int = 0) -> PartnerSearch:
    class_mask = [mask_of(group) for group in groups]
    return PartnerSearch(
        geo, class_mask, geo.all_mask, _geometry_tables(geo).neighbour_mask, Rng(seed)
    )


def partners(size: int, *pairs: tuple[int, int]) -> list[int]:
    partner = [-1] * size
    for a, b in pairs:
        partner[a], partner[b] = b, a
    return partner


# Four tiles of one class: 0 in a row's middle with 2 and 3 at its ends (0 is
# blocked on both sides), 1 on top of 0. Pairing 0 with 1 can never work (1 lies
# on 0); pairing 1 with 2 and 0 with 3 clears: 1 and 2 leave, then 0 is free.
ROW_AND_STACK = Geometry.from_positions([(2, 0, 0), (2, 0, 1), (0, 0, 0), (4, 0, 0)])


def test_removals_with_fixed_partners_worked_by_hand() -> None:
    walk = walk_for(ROW_AND_STACK, [[0, 1, 2, 3]])
    left, order = walk.remove_pairs(partners(4, (0, 1), (2, 3)))
    assert tiles_in(left) == [0, 1]  # 2 and 3 leave; 0 lies under its partner
    assert order == [(2, 3)]
    left, order = walk.remove_pairs(partners(4, (1, 2), (0, 3)))
    assert left == 0
    assert order == [(1, 2), (0, 3)]
    # 0 and 3 cannot start (0 is covered), 1 and 2 can: same outcome either way.
    left, order = walk.remove_pairs(partners(4, (1, 3), (0, 2)))
    assert left == 0 and order == [(1, 3), (0, 2)]


def test_the_walk_finds_the_pairing_that_clears_and_respects_ruled_out_pairs() -> None:
    faces = [X, X, X, X]
    for seed in range(20):
        clearing = walk_for(ROW_AND_STACK, [[0, 1, 2, 3]], seed).run(200, set())
        assert clearing is not None
        assert_clears(ROW_AND_STACK, faces, clearing)
    # With 1-2 ruled out, only 1-3 with 0-2 is left.
    ruled_out = {mask_of([1, 2])}
    for seed in range(20):
        clearing = walk_for(ROW_AND_STACK, [[0, 1, 2, 3]], seed).run(200, ruled_out)
        assert clearing is not None and sorted(clearing) == [(0, 2), (1, 3)]


def test_a_lost_position_never_gets_a_clearing() -> None:
    # Two classes crossed: X on Y and Y on X, in two stacks.
    geo = Geometry.from_positions([(0, 0, 0), (0, 0, 1), (4, 0, 0), (4, 0, 1)])
    walk = walk_for(geo, [[0, 3], [1, 2]])
    assert not brute_force(geo, [X, Y, Y, X], geo.all_mask, True)
    assert walk.run(3 * WALK_LENGTH, set()) is None


def test_agrees_with_brute_force_on_crowded_boards() -> None:
    # Every clearing it returns replays; it never returns one for a lost board,
    # and on these small boards it finds one for every board that has one.
    found = 0
    for seed in range(400):
        geo, faces = dense_position(seed)
        groups: dict[int, list[int]] = {}
        for tile, face in enumerate(faces):
            groups.setdefault(face, []).append(tile)
        clearing = walk_for(geo, list(groups.values()), seed).run(2_000, set())
        if brute_force(geo, faces, geo.all_mask, True):
            assert clearing is not None, seed
            assert_clears(geo, faces, clearing)
            found += 1
        else:
            assert clearing is None, seed
    assert found >= 200


def test_the_same_seed_walks_the_same_way() -> None:
    geo, faces = dense_position(5)
    groups: dict[int, list[int]] = {}
    for tile, face in enumerate(faces):
        groups.setdefault(face, []).append(tile)
    first = walk_for(geo, list(groups.values()), 3)
    again = walk_for(geo, list(groups.values()), 3)
    for _ in range(5):
        assert first.run(7, set()) == again.run(7, set())
        assert first.partner == again.partner and first.stuck == again.stuck


def test_the_walk_decides_a_turtle_deal_the_restarts_miss() -> None:
    # Random Turtle deal 6 stayed open for 60 s (3.8 million nodes before a
    # restart found a clearing) until the walk over pairings joined the search.
    turtle = load_layout("turtle")
    faces = deal_random(turtle, Rng(6))
    result = solve(turtle.geometry, faces, node_limit=60_000)
    assert result.solvable is True
    assert_clears(turtle.geometry, faces, result.moves)
    without = SolverOptions(partner_search=False)
    assert solve(turtle.geometry, faces, node_limit=60_000, options=without).solvable is None


@pytest.mark.parametrize("seed", [6, 39])
def test_node_budget_covers_the_walk(seed: int) -> None:
    # The walk's steps count as nodes: a budget stops it too, with "unknown",
    # and the same budget gives the same answer every time.
    turtle = load_layout("turtle")
    faces = deal_random(turtle, Rng(seed))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver_module, "PARTNER_SEARCH_AFTER", 0)
        patch.setattr(solver_module, "PARTNER_SEARCH_SHARE", 8.0)
        first = solve(turtle.geometry, faces, node_limit=3_000)
        again = solve(turtle.geometry, faces, node_limit=3_000)
    assert first.nodes <= 3_001  # (a search node past the limit is counted, then stops)
    assert (first.solvable, first.moves, first.nodes) == (again.solvable, again.moves, again.nodes)
    if first.solvable is None:
        assert first.moves == []
    else:
        assert_clears(turtle.geometry, faces, first.moves)


def test_solve_with_the_walk_after_every_attempt_agrees_with_brute_force() -> None:
    # The walk runs after every failed attempt from the first: the verdicts must
    # not change, its clearings must replay, and it must be what finds some.
    found_by_walk = 0
    run = PartnerSearch.run

    def counted(
        walk: PartnerSearch, steps: int, forbidden: set[int]
    ) -> list[tuple[int, int]] | None:
        nonlocal found_by_walk
        clearing = run(walk, steps, forbidden)
        found_by_walk += clearing is not None
        return clearing

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PartnerSearch, "run", counted)
        patch.setattr(solver_module, "PARTNER_SEARCH_AFTER", 0)
        patch.setattr(solver_module, "FIRST_DIVE", 2)
        patch.setattr(solver_module, "RESTART_BASE", 1)
        for seed in range(400):
            geo, faces = dense_position(seed)
            result = solve_reference(geo, faces)
            assert result.solvable is brute_force(geo, faces, geo.all_mask, True), seed
            if result.solvable:
                assert_clears(geo, faces, result.moves)
    assert found_by_walk >= 100
