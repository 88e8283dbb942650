"""The compiled solver core against the pure-Python reference: the same verdict,
the same clearing and the same node count on deals of every shipped layout, and
the switch that picks one."""

from __future__ import annotations

import os

import pytest

from pyramids.core.rng import Rng
from pyramids.games.mahjongg import solver as solver_module
from pyramids.games.mahjongg import solver_compiled
from pyramids.games.mahjongg.blueprints import load_layout
from pyramids.games.mahjongg.deal import deal_random, deal_solvable
from pyramids.games.mahjongg.geometry import Geometry
from pyramids.games.mahjongg.solver import (
    SOLVER_ENV,
    SolverOptions,
    choose_implementation,
    compiled_available,
    solve,
    solve_classes,
)
from pyramids.games.mahjongg.tiles import match_class
from tests.games.mahjongg.test_solver import assert_clears

SHIPPED_LAYOUTS = [
    "turtle", "giza-step-ramp", "great-zenith", "pharaohs-tomb", "sphinx-guard",
    "twin-pyramids-of-dahshur",
]
needs_core = pytest.mark.skipif(not compiled_available(), reason="the compiled core is not built")


def test_the_core_is_built_where_ci_requires_it() -> None:
    # CI sets PYRAMIDS_REQUIRE_COMPILED=1: there a failed build must fail the run,
    # not pass quietly on the fallback.
    if os.environ.get("PYRAMIDS_REQUIRE_COMPILED") != "1":
        pytest.skip("PYRAMIDS_REQUIRE_COMPILED is not set")
    assert compiled_available()
    assert choose_implementation() == "compiled"


def _assert_twins(geo: Geometry, faces: list[int], present: int, node_limit: int,
                  pantheon: bool = True) -> bool | None:
    reference = solve(geo, faces, present, pantheon, node_limit=node_limit,
                      implementation="python")
    compiled = solve(geo, faces, present, pantheon, node_limit=node_limit,
                     implementation="compiled")
    assert (compiled.solvable, compiled.moves, compiled.nodes) == (
        reference.solvable, reference.moves, reference.nodes
    )
    if compiled.solvable:
        assert_clears(geo, faces, compiled.moves, present, pantheon)
    return compiled.solvable


def _played_position(geo: Geometry, faces: list[int], rng: Rng, pairs: int) -> int:
    """The tiles left after up to `pairs` random legal matches (what a hint sees)."""
    present = geo.all_mask
    for _ in range(pairs):
        free = geo.free_tiles(present)
        options = [(a, b) for i, a in enumerate(free) for b in free[i + 1:]
                   if match_class(faces[a], True) == match_class(faces[b], True)]
        if not options:
            break
        a, b = rng.choice(options)
        present &= ~((1 << a) | (1 << b))
    return present


@needs_core
@pytest.mark.parametrize("layout_name", SHIPPED_LAYOUTS)
def test_compiled_matches_the_reference_on_every_shipped_layout(layout_name: str) -> None:
    # Solvable deals (the game's default), random deals, and positions part-way
    # through a game, with a node budget short enough for the reference (it is
    # what hints and warnings use): where a budget runs out, both must say so.
    layout = load_layout(layout_name)
    geo = layout.geometry
    verdicts = []
    for seed in range(36):
        pantheon = seed % 5 != 0
        if seed % 3 == 0:
            faces = deal_solvable(layout, Rng(seed), pantheon)
        else:
            faces = deal_random(layout, Rng(seed))
        present = geo.all_mask if seed % 3 != 2 else _played_position(geo, faces, Rng(seed), 12)
        verdicts.append(_assert_twins(geo, faces, present, 600, pantheon))
    assert verdicts.count(True) >= 8 and verdicts.count(False) >= 1, verdicts


@needs_core
def test_compiled_matches_the_reference_on_classic_deals_past_every_stage() -> None:
    # A stubborn classic deal (42, lost) reaches the root pairing tests, the
    # walk over partners and the search over pairings within 20,000 nodes.
    turtle = load_layout("turtle")
    groups = [tile // 4 for tile in range(turtle.size)]
    Rng(42).shuffle(groups)
    reference = solve_classes(turtle.geometry, groups, node_limit=20_000,
                              implementation="python")
    compiled = solve_classes(turtle.geometry, groups, node_limit=20_000,
                             implementation="compiled")
    assert (compiled.solvable, compiled.moves, compiled.nodes) == (
        reference.solvable, reference.moves, reference.nodes
    )
    assert reference.nodes > solver_module.PAIRING_SEARCH_AFTER


@needs_core
def test_compiled_honours_each_switched_off_speed_up() -> None:
    turtle = load_layout("turtle")
    faces = deal_random(turtle, Rng(11))
    for name in ("transposition", "clear_free_classes", "sibling_exclusion",
                 "deadlock_pruning", "move_ordering", "inner_pairings", "restarts"):
        options = SolverOptions(**{name: False})  # type: ignore[arg-type]
        reference = solve(turtle.geometry, faces, node_limit=800, options=options,
                          implementation="python")
        compiled = solve(turtle.geometry, faces, node_limit=800, options=options,
                         implementation="compiled")
        assert (compiled.solvable, compiled.moves, compiled.nodes) == (
            reference.solvable, reference.moves, reference.nodes
        ), name


def test_layouts_beyond_the_core_use_the_reference() -> None:
    # 200 tiles in one row: more than the core's masks hold. The answer still comes.
    positions = [(2 * i, 0, 0) for i in range(200)]
    geo = Geometry.from_positions(positions)
    faces = [0] * 200
    present = (1 << 0) | (1 << 1) | (1 << 198) | (1 << 199)
    for implementation in ("python", "compiled") if compiled_available() else ("python",):
        result = solve(geo, faces, present, implementation=implementation)
        assert result.solvable is True
        assert_clears(geo, faces, result.moves, present)


def test_the_switch_reads_the_parameter_then_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(SOLVER_ENV, "python")
    assert choose_implementation() == "python"
    assert choose_implementation("python") == "python"
    monkeypatch.delenv(SOLVER_ENV)
    assert choose_implementation() == ("compiled" if compiled_available() else "python")


def test_a_bad_switch_names_what_is_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SOLVER_ENV, "fast")
    with pytest.raises(ValueError, match="PYRAMIDS_SOLVER is 'fast'.*'python' and 'compiled'"):
        choose_implementation()
    with pytest.raises(ValueError, match="implementation is 'C'"):
        choose_implementation("C")


def test_asking_for_a_missing_core_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver_compiled, "_core", None)
    assert not compiled_available()
    assert choose_implementation() == "python"  # the fallback, when nobody asked
    with pytest.raises(RuntimeError, match="not built here"):
        choose_implementation("compiled")
    monkeypatch.setenv(SOLVER_ENV, "compiled")
    with pytest.raises(RuntimeError, match="PYRAMIDS_SOLVER asks for the compiled solver"):
        solve(load_layout("giza-step-ramp").geometry, [0] * 72)


def test_class_keys_beyond_64_bits_still_get_an_answer() -> None:
    # solve_classes takes any integers as keys; the core reads 64-bit ones and
    # leaves the others to the reference, with the same answer.
    layout = load_layout("turtle")
    keys = [tile // 4 for tile in range(layout.size)]
    Rng(3).shuffle(keys)
    huge = [(1 << 80) + key for key in keys]
    small = solve_classes(layout.geometry, keys, node_limit=500)
    big = solve_classes(layout.geometry, huge, node_limit=500)
    assert (big.solvable, big.moves, big.nodes) == (small.solvable, small.moves, small.nodes)
    assert small.nodes > 1


@needs_core
def test_solves_in_threads_match_solves_in_turn() -> None:
    # The core lets go of the interpreter lock while it searches: solves running
    # at once in threads (as the server's workers do) share only the geometry.
    from concurrent.futures import ThreadPoolExecutor

    turtle = load_layout("turtle")
    deals = [deal_random(turtle, Rng(seed)) for seed in range(16)]

    def verdict(faces: list[int]) -> tuple[bool | None, list[tuple[int, int]], int]:
        result = solve(turtle.geometry, faces, node_limit=3_000)
        return result.solvable, result.moves, result.nodes

    in_turn = [verdict(faces) for faces in deals]
    with ThreadPoolExecutor(max_workers=4) as pool:
        at_once = list(pool.map(verdict, deals))
    assert at_once == in_turn


@needs_core
def test_the_python_pairing_search_beside_the_core_gives_the_same_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Where the core cannot run the search over pairings (no coroutines, or a
    # class of more than eight tiles) the Python one runs beside it, from the
    # pairs the core ruled out: the answer must not change.
    turtle = load_layout("turtle")
    groups = [tile // 4 for tile in range(turtle.size)]
    Rng(42).shuffle(groups)
    monkeypatch.setattr(solver_compiled._CompiledPairings, "supported", lambda self: False)
    ran = []
    original = solver_module.PairingSearch.run

    def counted(search: solver_module.PairingSearch, tests: int) -> bool | None:
        ran.append(tests)
        return original(search, tests)

    monkeypatch.setattr(solver_module.PairingSearch, "run", counted)
    mixed = solve_classes(turtle.geometry, groups, node_limit=20_000, implementation="compiled")
    assert ran, "the Python search over pairings did not run"
    monkeypatch.undo()
    core = solve_classes(turtle.geometry, groups, node_limit=20_000, implementation="compiled")
    assert (mixed.solvable, mixed.moves, mixed.nodes) == (core.solvable, core.moves, core.nodes)
