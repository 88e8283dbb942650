"""The solver's search with its hot loop in C (`_solvercore`, built at install).

`CompiledSearch` is `solver._Search` with the steps that cost the time done by
the compiled core: an attempt of the search over positions (free tiles,
candidate pairs and their order, the transposition table, the deadlock and
pairing tests inside the search), the pairing tests at the root, the walk over
partners and slices of the search over pairings (where the core has
coroutines, i.e. on Linux, and no class has more than eight tiles; else
`solver_pairings` runs it from the pairs the core ruled out). The loop over
attempts and the budgets stay in `solver`. The core is a port of the Python
code, draw for draw: both give the same verdict, the same clearing and the
same node count for every deal and budget (the tests compare them).

The core is optional: `pip install` builds it when a C compiler is present
(`setup.py`, `optional=True`), and without it the solver is the pure-Python one.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from pyramids.core.rng import Rng
from pyramids.games.mahjongg import solver, solver_pairings, solver_partners
from pyramids.games.mahjongg.geometry import Geometry
from pyramids.games.mahjongg.solver import (
    PARTNER_SEED,
    Pair,
    SolverOptions,
    _Board,
    _BudgetExhausted,
    _geometry_tables,
    _RestartNow,
    _Search,
)
from pyramids.games.mahjongg.solver_pairings import PairingDeadlinePassed

try:
    from pyramids.games.mahjongg import _solvercore
except ImportError:  # not built: no compiler at install time
    _core: Any = None
else:
    _core = _solvercore

# Layouts up to this many tiles fit the core's masks; bigger ones use the reference.
MAX_TILES: int = _core.MAX_TILES if _core is not None else 0

# attempt()'s statuses (and pairings()'s: 2 is "not known yet" there, 3 the deadline).
_LOST, _CLEARED, _RESTART, _EXHAUSTED = range(4)
_DEADLINE = 3
_UNSUPPORTED = -1

_BOARDS: dict[int, tuple[Geometry, Any]] = {}


def available() -> bool:
    """Whether the compiled core is importable here."""
    return _core is not None


def _masks(masks: Any, width: int) -> bytes:
    return b"".join(mask.to_bytes(width, "little") for mask in masks)


def _core_board(geometry: Geometry) -> Any:
    """The geometry's tables in the core's form (kept per geometry)."""
    cached = _BOARDS.get(id(geometry))
    if cached is not None and cached[0] is geometry:
        return cached[1]
    width = 8 * _core.MASK_WORDS
    tables = _geometry_tables(geometry)
    below = [sum(1 << t for t in set(row)) for row in geometry.below]
    core_board = _core.Board(
        geometry.size,
        _masks(geometry.above_mask, width),
        _masks(geometry.left_mask, width),
        _masks(geometry.right_mask, width),
        _masks(below, width),
        _masks(tables.neighbour_mask, width),
        list(tables.weight),
    )
    if len(_BOARDS) >= 16:
        _BOARDS.clear()
    _BOARDS[id(geometry)] = (geometry, core_board)
    return core_board


def _option_flags(options: SolverOptions) -> int:
    flags = 0
    for bit, on in enumerate((
        options.transposition, options.clear_free_classes, options.sibling_exclusion,
        options.deadlock_pruning, options.move_ordering, options.inner_pairings,
    )):
        if on:
            flags |= 1 << bit
    return flags


def _tunables() -> tuple[object, ...]:
    """The Python modules' tuning constants, read at each solve: one source for
    both implementations (a test that changes one changes both)."""
    return (
        solver.RESTART_NOISE, solver.INNER_PAIRINGS_AFTER, solver.INNER_PAIRWISE_AFTER,
        solver.INNER_CACHE_LIMIT, solver_partners.WALK_LENGTH, solver_partners.PAIRING_TRIES,
        solver_partners._ACCEPT, solver_pairings.PROPAGATE_LIMIT, solver_pairings.CLOCK_EVERY,
    )


class CompiledSearch(_Search):
    """`solver._Search` whose attempts, pairing tests and walk run in C.

    It keeps no Python tables of its own (they cost more than a quick solve):
    `board` is built only if the search over pairings has to run in Python.
    """

    def __init__(  # (the base's __init__ builds the Python tables: not called)
        self,
        geometry: Geometry,
        class_keys: Sequence[int],
        present: int,
        options: SolverOptions,
        node_limit: int | None,
        deadline: float | None,
    ) -> None:
        if _core is None:
            raise RuntimeError("the compiled solver core is not built here")
        self.core = _core.Search(
            _core_board(geometry),
            list(class_keys),
            present.to_bytes(8 * _core.MASK_WORDS, "little"),
            -1 if node_limit is None else max(0, node_limit),
            _option_flags(options),
            _tunables(),
        )
        self.geometry = geometry
        self.class_keys = class_keys
        self.present = present
        self.options = options
        self.node_limit = node_limit
        self.deadline = deadline
        self.attempt_limit = float("inf")
        self.noise = None
        self.forbidden = set()
        self.partner_search = None
        self.pairing_search = None

    @property
    def odd_class(self) -> bool:
        """Whether some class has an odd number of tiles (then the deal is lost)."""
        return bool(self.core.odd)

    # The core counts the nodes; the shared loop in `solver` reads and adds to them.
    @property
    def nodes(self) -> int:
        return int(self.core.nodes)

    @nodes.setter
    def nodes(self, value: int) -> None:
        self.core.nodes = value

    def _seconds_left(self) -> float:
        return -1.0 if self.deadline is None else max(0.0, self.deadline - time.perf_counter())

    def _root_free(self, present: int) -> int:
        return 0  # (the core keeps the root's free tiles itself)

    def _root_deadlocked(self, present: int) -> bool:
        return bool(self.core.root_deadlocked())

    def _attempt(self, present: int, free: int, moves: list[Pair]) -> bool:
        limit = -1 if math.isinf(self.attempt_limit) else int(self.attempt_limit)
        noise = -1 if self.noise is None else self.noise.state
        status, clearing = self.core.attempt(limit, noise, self._seconds_left())
        if status == _RESTART:
            raise _RestartNow
        if status == _EXHAUSTED:
            raise _BudgetExhausted
        moves.extend(clearing)
        return bool(status == _CLEARED)

    def _settle(self, present: int, free: int, pairwise: bool = False) -> bool:
        return bool(self.core.settle(pairwise))

    def _walk(self, present: int, steps: int) -> list[Pair] | None:
        clearing = self.core.walk(steps, Rng(PARTNER_SEED).state)
        return None if clearing is None else list(clearing)

    def _search_pairings(self, present: int, tests: int) -> tuple[bool | None, list[Pair]]:
        if self.pairing_search is None:
            compiled = _CompiledPairings(self)
            if compiled.supported():
                self.pairing_search = compiled  # type: ignore[assignment]
            else:
                # The Python search starts from the root's ruled-out pairs.
                self.board = _Board(self.geometry, self.class_keys, self.present)
                self.forbidden = {(1 << a) | (1 << b) for a, b in self.core.forbidden_pairs()}
        return super()._search_pairings(present, tests)


class _CompiledPairings:
    """`solver_pairings.PairingSearch`'s interface over the core's search."""

    def __init__(self, search: CompiledSearch) -> None:
        self.search = search
        self.tests = 0
        self.clearing: list[Pair] = []

    def supported(self) -> bool:
        """Whether the core runs it here (it needs coroutines and classes of at
        most eight tiles); it starts from the root's ruled-out pairs."""
        status, _, _ = self.search.core.pairings(0, -1.0)
        return bool(status != _UNSUPPORTED)

    def run(self, tests: int) -> bool | None:
        status, clearing, self.tests = self.search.core.pairings(
            tests, self.search._seconds_left()
        )
        if status == _DEADLINE:
            raise PairingDeadlinePassed
        if status == _CLEARED:
            self.clearing = list(clearing)
            return True
        return False if status == _LOST else None
