"""A full-information Mahjongg solver: an exact verdict, and what the game builds on it.

`solve` answers whether the tiles on the board can all be removed, knowing every
face. It returns a complete clearing sequence when they can, and says
"unsolvable" only after exhausting every possibility; when a node or time budget
stops it first, the verdict is `None` (unknown), never a guess.

The search is a depth-first search over sets of present tiles (bit masks, see
`geometry`). Two facts make most of it work:

- removing tiles never makes another tile blocked, so a pair that some clearing
  removes can always be removed earlier instead: what matters is *which* tiles
  get paired, not in what order;
- hence when every remaining tile of a match class is free, removing all of them
  at once (in any pairing) is safe.

The speed-ups, each switchable in `SolverOptions` so that the benchmark can
measure it (the verdicts never depend on them):

- **transposition table**: the present tiles alone decide the rest of the game,
  so a set already shown to be a dead end is not searched again;
- **clear free classes**: the safe removal above, done without branching. It
  covers a last free pair and four free identical tiles, whose pairing does not
  matter;
- **sibling exclusion**: once removing pair (a, b) from a position has failed, no
  clearing of that position pairs a with b (it could take that pair first), so
  the rest of that position's search never pairs them; with four tiles of the
  class left, the other two are never paired either (one partition of the four
  is ruled out);
- **deadlock pruning**: when a move leaves a class with two tiles, they must
  leave together; `solver_deadlock` proves some such pairs can never be free at
  once (one lies on the other, or they wait on each other through other pairs,
  rows and stacks), and the move is not tried;
- **move ordering**: pairs that free tiles matching other free tiles come first,
  then pairs that free more tiles or hold up more of the board, and a move that
  leaves the class's last two tiles deeply buried comes late;
- **incremental free tiles**: a removal can only free the tiles it lay on and its
  side neighbours, so only those are re-tested;
- **restarts**: a first dive that has not cleared the board in `FIRST_DIVE`
  nodes is abandoned for fresh ones whose move order is largely random (seeded
  noise, `Rng(attempt)`, so results are reproducible), with budgets of
  `RESTART_BASE` times the Luby sequence 1, 1, 2, 1, 1, 2, 4, ...; dead ends
  proved on the way stay in the transposition table. Since the budgets grow
  without end, some attempt is a complete search and the verdict stays exact.
  Most solvable deals that the first dive misses are cleared by a later one
  long before a complete search would get there;
- **root pairings**: before the second attempt (or at once without restarts),
  `DeadlockFinder.settle_pairings` tests the three pairings of every class of
  four: pairings that deadlock are ruled out for the whole search, and a class
  with none left proves the deal lost (three tiles of a class stacked on one
  another is the usual case). Easy deals skip it;
- **pairwise pairings**: once a deal has cost `PAIRWISE_AFTER` nodes, the
  pairings of every two classes of four are tested together: a pairing that
  deadlocks with each pairing left to another class is ruled out too, to a
  fixpoint (arc consistency). Two classes each holding up the other prove
  lost about half the deals that the restarts left open. A pair of pairings
  is tested together only when one's deadlock test reached a tile of the
  other's class (otherwise the joint test would run exactly as the single
  ones did);
- **inner pairings**: a position whose moves have cost more than
  `INNER_PAIRINGS_AFTER` nodes without a clearing gets the same pairing test
  (one class at a time; two at a time as well past `INNER_PAIRWISE_AFTER`):
  a big failed subtree is often a lost position, which the test then proves
  at once, and otherwise the pairs it rules out are skipped below it. Facts
  found there hold for the positions below it only: its fixed partners are
  dropped after the test, its ruled-out pairs when the search leaves it. The
  result is remembered per position, so that restarts apply it on entry.
  Only positions that already cost hundreds of nodes pay for it;
- **partner search**: once a deal has cost `PARTNER_SEARCH_AFTER` nodes,
  every failed restart attempt is followed by a slice of a walk over
  pairings (`solver_partners`): with every tile's partner fixed, taking free
  pairs until none is left decides at once whether those partners clear the
  board, so the walk changes partners where the removals stick. It can only
  find clearings, never prove a deal lost, and it complements the restarts,
  which find the clearings of most deals but not of the stubborn ones. Its
  slice takes as many steps as the attempt took nodes, each step counted as
  a node;
- **pairing search**: once a deal has cost `PAIRING_SEARCH_AFTER` nodes (and
  its root pairings have been tested two classes at a time), each failed
  attempt is also followed by a slice of an exact search over the pairings
  of the classes (`solver_pairings`), resumed where the last slice stopped.
  It proves lost deals that the search over positions cannot exhaust,
  because it never tries the same pairs in another order.

Why each speed-up is there, and what it was measured to be worth, is in
docs/solver.md, with the benchmark figures.

Two implementations run this search: the code here (the reference, and the
fallback) and a compiled core, `_solvercore.c` via `solver_compiled`, which
does the same steps draw for draw: same verdicts, clearings and node counts.
`solve(..., implementation=...)` or the `PYRAMIDS_SOLVER` environment variable
picks one ("python" or "compiled"); by default the compiled core when it was
built at install.

Bookkeeping that never changes a verdict: pairs already ruled out at a node
are dropped before they are scored; scoring a pair computes the position it
leaves and that position's free tiles, which the move then reuses; a tile's
left and right chains and its burial (move ordering) depend on the geometry
and the present tiles of its row (and above it) only, so they are cached per
geometry across searches; a
position whose forced pair passed the deadlock test is remembered, so that the
restarts do not test it again, and one that failed it joins the transposition
table.

Purity: nothing here reads the clock except `solve` when a caller passes
`time_limit` (it reads `time.perf_counter`, the compiled core the monotonic
clock); the game engine passes only `node_limit`, which keeps its hints and
warnings deterministic, and the same with either implementation.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pyramids.core.rng import Rng
from pyramids.games.mahjongg.geometry import Geometry, tiles_in
from pyramids.games.mahjongg.solver_deadlock import DeadlockFinder, row_tables
from pyramids.games.mahjongg.solver_pairings import PairingDeadlinePassed, PairingSearch
from pyramids.games.mahjongg.solver_partners import PartnerSearch
from pyramids.games.mahjongg.tiles import NUM_FACES, match_class

Pair = tuple[int, int]
# The environment variable that picks the implementation, and its values.
SOLVER_ENV = "PYRAMIDS_SOLVER"
IMPLEMENTATIONS = ("python", "compiled")
# A candidate move: the pair, the present tiles after it and their free tiles.
_Move = tuple[int, int, int, int]


@dataclass(frozen=True)
class SolverOptions:
    """Which speed-ups the search uses (all on by default; verdicts never change)."""

    transposition: bool = True
    clear_free_classes: bool = True
    sibling_exclusion: bool = True
    deadlock_pruning: bool = True
    move_ordering: bool = True
    incremental_free: bool = True
    restarts: bool = True
    root_pairings: bool = True
    pairwise_pairings: bool = True
    inner_pairings: bool = True
    partner_search: bool = True
    pairing_search: bool = True


@dataclass
class SolveResult:
    """`solvable`: True, False, or None when a budget ran out before a verdict.

    `moves` is a complete clearing sequence (pairs of tile numbers, smaller
    first, in order) when `solvable` is True, and empty otherwise. `nodes` counts
    the positions the search entered; `seconds` is the wall time `solve` took.
    """

    solvable: bool | None
    moves: list[Pair] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


class _BudgetExhausted(Exception):
    pass


class _RestartNow(Exception):
    pass


# Nodes of the first dive, and the unit of the later (randomized) attempts.
FIRST_DIVE = 256
RESTART_BASE = 64
# How far random noise can move a candidate pair's score (a freed tile is 100,
# a newly possible pair 1000): enough to reorder most moves, while the heuristic
# still leans (measured choice: docs/solver.md).
RESTART_NOISE = 6000
# Nodes after which the root pairings are also tested two classes at a time
# (`pairwise_pairings`, tens of milliseconds): only deals this stubborn pay it.
PAIRWISE_AFTER = 2048
# Nodes a position's moves must have cost (failing) before the pairings of its
# classes are tested there too (`inner_pairings`, 1-3 ms each one class at a
# time), and the nodes after which they are tested two classes at a time as
# well (costlier; both thresholds measured: docs/solver.md).
INNER_PAIRINGS_AFTER = 256
INNER_PAIRWISE_AFTER = 8192
# Positions whose inner pairing test is remembered before the memory is emptied.
INNER_CACHE_LIMIT = 1 << 16
# Nodes after which each failed restart attempt is followed by a slice of
# `solver_partners.PartnerSearch`, of PARTNER_SEARCH_SHARE times the attempt's
# budget in steps (each step counts as a node; it costs about as much).
PARTNER_SEARCH_AFTER = 512
PARTNER_SEARCH_SHARE = 1.0
# Steps between two looks at the clock while the partner search runs.
PARTNER_SEARCH_CHUNK = 1024
# The seed of the walk's own random stream (apart from the restarts' noise).
PARTNER_SEED = "partners"
# Nodes after which (and once the root pairings have been tested two classes
# at a time) `solver_pairings.PairingSearch` goes on for PAIRING_SEARCH_SHARE
# nodes' worth of removal tests per node of each failed attempt, a test
# counted as PAIRING_TEST_NODES nodes (a test costs some four nodes' time).
# It is for the lost deals that the search over positions and the walk cannot
# exhaust: the slowest 1% of this game's deals (docs/solver.md).
PAIRING_SEARCH_AFTER = 16384
PAIRING_SEARCH_SHARE = 1.0
PAIRING_TEST_NODES = 4
# Entries a tile's burial cache may hold before it is emptied (bounds memory).
BURIAL_CACHE_LIMIT = 1 << 14
# Positions remembered as free of a deadlock before the memory is emptied.
DEADLOCK_CACHE_LIMIT = 1 << 20


class _Board:
    """Tables for one geometry and deal, shared by every node of a search."""

    def __init__(self, geometry: Geometry, class_keys: Sequence[int], present: int) -> None:
        n = geometry.size
        self.geometry = geometry
        class_ids: dict[int, int] = {}
        self.tile_class: list[int] = [0] * n
        for tile in tiles_in(present):
            self.tile_class[tile] = class_ids.setdefault(class_keys[tile], len(class_ids))
        self.class_mask: list[int] = [0] * len(class_ids)
        for tile in tiles_in(present):
            self.class_mask[self.tile_class[tile]] |= 1 << tile
        self.above = geometry.above_mask
        self.left = geometry.left_mask
        self.right = geometry.right_mask
        tables = _geometry_tables(geometry)
        self.neighbours = tables.neighbours
        self.neighbour_mask = tables.neighbour_mask
        self.burial_mask = tables.burial_mask
        self.burial_cache = tables.burial_cache
        self.weight = tables.weight

    def free_mask(self, present: int) -> int:
        return self.geometry.free_mask(present)


@dataclass(frozen=True)
class _GeometryTables:
    neighbours: tuple[tuple[int, ...], ...]  # tiles whose freedom can change when it leaves
    neighbour_mask: tuple[int, ...]  # the same, as masks
    weight: tuple[int, ...]  # how much of the board it holds up (move ordering)
    burial_mask: tuple[int, ...]  # the tiles its burial depends on: its row and above it
    burial_cache: list[dict[int, int]]  # per tile: its burial, keyed by those present


_TABLES: dict[int, tuple[Geometry, _GeometryTables]] = {}


def _geometry_tables(geometry: Geometry) -> _GeometryTables:
    cached = _TABLES.get(id(geometry))
    if cached is not None and cached[0] is geometry:
        return cached[1]
    n = geometry.size
    neighbours = tuple(
        tuple(geometry.below[t]) + tuple(geometry.left[t]) + tuple(geometry.right[t])
        for t in range(n)
    )
    row_mask = row_tables(geometry)[0]
    tables = _GeometryTables(
        neighbours,
        tuple(sum(1 << t for t in row) for row in neighbours),
        _blocking_weights(geometry),
        tuple(geometry.above_mask[t] | row_mask[t] for t in range(n)),
        [{} for _ in range(n)],
    )
    if len(_TABLES) >= 16:
        _TABLES.clear()
    _TABLES[id(geometry)] = (geometry, tables)
    return tables


def _blocking_weights(geometry: Geometry) -> tuple[int, ...]:
    """How much of the board a tile holds up, for ordering moves only.

    Twice the tiles under it (through the whole stack: nothing frees them while
    it stays), plus the tiles on the shorter side of its row (what its removal
    brings closer to an open side).
    """
    n = geometry.size
    under = [0] * n
    for tile in sorted(range(n), key=lambda t: geometry.positions[t][2]):
        for lower in geometry.below[tile]:
            under[tile] |= (1 << lower) | under[lower]
    return tuple(
        2 * under[tile].bit_count()
        + min(_reach(geometry.left, tile), _reach(geometry.right, tile))
        for tile in range(n)
    )


def _reach(side: Sequence[Sequence[int]], tile: int) -> int:
    seen = {tile}
    frontier = [tile]
    while frontier:
        t = frontier.pop()
        for u in side[t]:
            if u not in seen:
                seen.add(u)
                frontier.append(u)
    return len(seen) - 1


def _attempt_budget(attempt: int) -> int:
    """Nodes for restart attempt 0, 1, ...: a long first dive, then the Luby
    sequence (1, 1, 2, 1, 1, 2, 4, ...) of short ones, which grows without end."""
    if not attempt:
        return FIRST_DIVE
    return RESTART_BASE * _luby(attempt)


def _luby(i: int) -> int:
    """The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ... (its i-th term, from 1)."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    if i == (1 << k) - 1:
        return 1 << (k - 1)
    return _luby(i - (1 << (k - 1)) + 1)


class _Search:
    def __init__(
        self,
        board: _Board,
        options: SolverOptions,
        node_limit: int | None,
        deadline: float | None,
    ) -> None:
        self.board = board
        self.options = options
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0
        self.failed: set[int] = set()  # present masks proved not clearable
        # Positions (plus the class of their forced pair, shifted above the
        # tiles' bits) whose pair `pair_deadlocked` has cleared, with the current
        # `finder.partners`; emptied when they change.
        self.deadlock_free: set[int] = set()
        self.forbidden: set[int] = set()  # pairs (two-bit masks) no clearing here uses
        self.finder = DeadlockFinder(board.geometry, board.tile_class, board.class_mask)
        self.attempt_limit = float("inf")
        self.noise: Rng | None = None
        # Positions whose pairings were tested inside the search: how far (1:
        # one class at a time, 2: two at a time too) and the pairs ruled out
        # there (facts for every position below them).
        self.inner_settled: dict[int, tuple[int, list[int]]] = {}
        self.partner_search: PartnerSearch | None = None
        self.pairing_search: PairingSearch | None = None

    def run(self, present: int) -> list[Pair] | None:
        if self.options.deadlock_pruning and self._root_deadlocked(present):
            self.nodes = 1
            return None
        free = self._root_free(present)
        attempt = 0
        options = self.options
        pairwise_done = not (options.root_pairings and options.pairwise_pairings)
        if options.root_pairings and not options.restarts:
            if not self._settle(present, free, pairwise=not pairwise_done):
                return None
            pairwise_done = True
        while True:
            moves: list[Pair] = []
            if self.options.restarts:
                # A long first dive, then short randomized ones whose budgets
                # (Luby) grow without end, so some attempt is complete: exact.
                self.attempt_limit = self.nodes + _attempt_budget(attempt)
                self.noise = Rng(attempt) if attempt else None
            try:
                found = self._attempt(present, free, moves)
            except _RestartNow:
                # The first dive failed: this deal is worth a closer look at its
                # pairings before the next (which often proves it lost at once).
                if not attempt and options.root_pairings and not self._settle(present, free):
                    return None
                # A deal still open after thousands of nodes is worth the
                # costlier test of two classes' pairings together.
                if not pairwise_done and self.nodes >= PAIRWISE_AFTER:
                    pairwise_done = True
                    if not self._settle(present, free, pairwise=True):
                        return None
                if self.nodes >= PARTNER_SEARCH_AFTER:
                    spent = _attempt_budget(attempt)
                    if options.partner_search:
                        clearing = self._search_partners(present, int(PARTNER_SEARCH_SHARE * spent))
                        if clearing is not None:
                            return clearing
                    if (
                        options.pairing_search
                        and pairwise_done
                        and self.nodes >= PAIRING_SEARCH_AFTER
                    ):
                        tests = int(PAIRING_SEARCH_SHARE * spent) // PAIRING_TEST_NODES
                        solvable, clearing = self._search_pairings(present, tests)
                        if solvable is not None:
                            return clearing if solvable else None
                attempt += 1
                continue
            return moves if found else None

    # The steps an implementation provides (`solver_compiled` overrides them;
    # `run` above, the pairing search and the budgets are shared).

    def _root_free(self, present: int) -> int:
        return self.board.free_mask(present)

    def _root_deadlocked(self, present: int) -> bool:
        return self.finder.any_pair_deadlocked(present)

    def _attempt(self, present: int, free: int, moves: list[Pair]) -> bool:
        """One attempt within `attempt_limit` and with `noise`: whether it cleared
        the board (then `moves` holds the clearing); `_RestartNow` when it ran out."""
        return self._search(present, free, moves)

    def _search_partners(self, present: int, steps: int) -> list[Pair] | None:
        """Go on with the walk over pairings for `steps` steps (counted as nodes)."""
        while steps > 0:
            chunk = min(steps, PARTNER_SEARCH_CHUNK)
            if self.node_limit is not None:
                chunk = min(chunk, self.node_limit - self.nodes)
            if chunk <= 0 or (self.deadline is not None and time.perf_counter() > self.deadline):
                raise _BudgetExhausted
            self.nodes += chunk
            steps -= chunk
            clearing = self._walk(present, chunk)
            if clearing is not None:
                return clearing
        return None

    def _walk(self, present: int, steps: int) -> list[Pair] | None:
        """A slice of `steps` steps of the walk (started on the first call)."""
        walk = self.partner_search
        if walk is None:
            board = self.board
            # Its own seeded stream, apart from the restarts' noise.
            walk = self.partner_search = PartnerSearch(
                board.geometry, board.class_mask, present, board.neighbour_mask,
                Rng(PARTNER_SEED),
            )
        # Only the root's facts are in `forbidden` between attempts.
        return walk.run(steps, self.forbidden)

    def _search_pairings(self, present: int, tests: int) -> tuple[bool | None, list[Pair]]:
        """Go on with the search over pairings for about `tests` removal tests
        (each counted as PAIRING_TEST_NODES nodes): its verdict once known (else
        None) and its clearing."""
        search = self.pairing_search
        if search is None:
            board = self.board
            # Only the root's facts are in `forbidden` between attempts.
            search = self.pairing_search = PairingSearch(
                board.geometry, board.class_mask, present, board.neighbour_mask,
                self.forbidden, self.deadline,
            )
        if self.node_limit is not None:
            tests = min(tests, (self.node_limit - self.nodes) // PAIRING_TEST_NODES)
        before = search.tests
        try:
            verdict = search.run(tests)
        except PairingDeadlinePassed:
            raise _BudgetExhausted from None
        finally:
            self.nodes += (search.tests - before) * PAIRING_TEST_NODES
        if verdict is None and self.node_limit is not None and self.nodes >= self.node_limit:
            raise _BudgetExhausted
        return verdict, search.clearing

    def _settle(self, present: int, free: int, pairwise: bool = False) -> bool:
        """Rule out the pairings that deadlock at the root; False if all of a class do."""
        self.nodes += 1
        ruled_out = self.finder.settle_pairings(present, free, pairwise)
        if ruled_out is None:
            return False
        self.forbidden.update(ruled_out)  # facts for the whole search
        self.deadlock_free.clear()  # fixed partners may prove more deadlocks now
        return True

    def _settle_inner(self, present: int, free: int, pairwise: bool) -> list[int] | None:
        """`settle_pairings` at a position inside the search: None if lost,
        else the pairs it rules out (for the positions below it only)."""
        finder = self.finder
        saved = finder.partners
        finder.partners = dict(saved)  # partners fixed here hold below here only
        try:
            ruled_out = finder.settle_pairings(present, free, pairwise)
        finally:
            finder.partners = saved
        if ruled_out is not None:
            if len(self.inner_settled) >= INNER_CACHE_LIMIT:
                self.inner_settled.clear()
            self.inner_settled[present] = (2 if pairwise else 1, ruled_out)
        return ruled_out

    def _free_after(self, present: int, free: int, a: int, b: int) -> int:
        """The free tiles once a and b have left `present` (free: before they left)."""
        board = self.board
        if not self.options.incremental_free:
            return board.free_mask(present)
        above, left, right = board.above, board.left, board.right
        free &= present
        nmask = board.neighbour_mask
        candidates = (nmask[a] | nmask[b]) & present & ~free
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            tile = bit.bit_length() - 1
            if not present & above[tile] and (
                not present & left[tile] or not present & right[tile]
            ):
                free |= bit
        return free

    def _search(self, present: int, free: int, moves: list[Pair]) -> bool:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _BudgetExhausted
        if (
            self.deadline is not None
            and not self.nodes & 255
            and time.perf_counter() > self.deadline
        ):
            raise _BudgetExhausted
        if self.nodes > self.attempt_limit:
            raise _RestartNow
        if not present:
            return True
        options = self.options
        failed = self.failed
        if options.transposition and present in failed:
            return False
        entry = present
        depth = len(moves)
        lost = False
        if options.clear_free_classes:
            cleared = self._clear_free_classes(present, free, moves)
            if cleared is None:
                lost = True
            else:
                present, free = cleared
                if not present:
                    return True
                if options.transposition and present != entry and present in failed:
                    lost = True
        if not lost and not self._try_moves(present, free, moves):
            return True
        del moves[depth:]
        if options.transposition:
            failed.add(entry)
            failed.add(present)
        return False

    def _clear_free_classes(
        self, present: int, free: int, moves: list[Pair]
    ) -> tuple[int, int] | None:
        """Remove every class whose remaining tiles are all free, until none is.

        None when such a class holds a pair known to be in no clearing: then no
        pairing of it works (all are interchangeable), so the position is lost.
        """
        forbidden = self.forbidden
        class_mask = self.board.class_mask
        while True:
            cleared = False
            for cmask in class_mask:
                rest = present & cmask
                if not rest or rest & ~free:
                    continue
                group = tiles_in(rest)
                if forbidden and _holds_forbidden_pair(group, forbidden):
                    return None
                for i in range(0, len(group), 2):
                    a, b = group[i], group[i + 1]
                    moves.append((a, b))
                    present &= ~((1 << a) | (1 << b))
                    free = self._free_after(present, free, a, b)
                cleared = True
            if not cleared:
                return present, free

    def _try_moves(self, present: int, free: int, moves: list[Pair]) -> bool:
        """Try each candidate pair: False once one leads to a clearing, True if none does."""
        options = self.options
        forbidden = self.forbidden
        board = self.board
        class_mask = board.class_mask
        tile_class = board.tile_class
        finder = self.finder
        failed = self.failed
        deadlock_free = self.deadlock_free
        class_shift = board.geometry.size
        added: list[int] = []

        def forbid(pairs: Iterable[int]) -> None:
            # Ruled out for this position and below it; `finally` lifts them.
            for pair in pairs:
                if pair not in forbidden:
                    forbidden.add(pair)
                    added.append(pair)

        # Test this position's pairings once its moves have cost enough nodes
        # (or at once when an earlier attempt did): a big failed subtree is
        # often a lost position that the test proves at once.
        start = self.nodes
        # 0: not tested here yet, 1: one class at a time, 2: two at a time too.
        stage = 0 if options.inner_pairings else 2
        if not stage:
            known = self.inner_settled.get(present)
            if known is not None:
                stage = known[0]
                forbid(known[1])
        try:
            for a, b, after, after_free in self._candidate_pairs(present, free):
                key = (1 << a) | (1 << b)
                if key in forbidden:
                    continue
                rest = after & class_mask[tile_class[a]]
                last_two = rest.bit_count() == 2
                dead = False
                if (
                    options.deadlock_pruning
                    and last_two
                    and rest & ~after_free  # two free partners can leave at once
                    and after not in failed  # (the search below answers at once)
                ):
                    # Restarts come back to the same positions: check each once
                    # (keyed by the position and the pair's class).
                    checked = after | tile_class[a] << class_shift
                    if checked not in deadlock_free:
                        if finder.pair_deadlocked(
                            (rest & -rest).bit_length() - 1, rest.bit_length() - 1, after
                        ):
                            dead = True
                            if options.transposition:
                                failed.add(after)
                        else:
                            if len(deadlock_free) >= DEADLOCK_CACHE_LIMIT:
                                deadlock_free.clear()
                            deadlock_free.add(checked)
                if not dead:
                    moves.append((a, b))
                    if self._search(after, after_free, moves):
                        return False
                    moves.pop()
                if options.sibling_exclusion:
                    forbid((key, rest) if last_two else (key,))
                if stage < 2 and self.nodes - start > INNER_PAIRINGS_AFTER:
                    wanted = 2 if self.nodes - start > INNER_PAIRWISE_AFTER else 1
                    if wanted <= stage:
                        continue
                    stage = wanted
                    ruled_out = self._settle_inner(present, free, wanted == 2)
                    if ruled_out is None:
                        return True
                    forbid(ruled_out)
            return True
        finally:
            for pair in added:
                forbidden.discard(pair)

    def _candidate_pairs(self, present: int, free: int) -> list[_Move]:
        """The pairs to try here, best first, each with the position it leaves
        and that position's free tiles (scoring computes them anyway)."""
        board = self.board
        forbidden = self.forbidden
        pairs: list[_Move] = []
        for cmask in board.class_mask:
            group_mask = free & cmask
            if group_mask & (group_mask - 1):  # two free tiles or more
                group = tiles_in(group_mask)
                for i in range(len(group) - 1):
                    a = group[i]
                    for j in range(i + 1, len(group)):
                        b = group[j]
                        key = (1 << a) | (1 << b)
                        # A pair ruled out now stays ruled out while this node
                        # tries its moves: no need to score it.
                        if key not in forbidden:
                            after = present & ~key
                            pairs.append((a, b, after, self._free_after(after, free, a, b)))
        if not self.options.move_ordering or len(pairs) < 2:
            return pairs
        weight = board.weight
        class_mask = board.class_mask
        tile_class = board.tile_class
        noise = self.noise
        scored = []
        for move in pairs:
            a, b, after, now_free = move
            opened = now_free & ~free
            new_moves = 0
            unseen = opened
            while unseen:
                bit = unseen & -unseen
                unseen ^= bit
                if now_free & class_mask[tile_class[bit.bit_length() - 1]] & ~bit:
                    new_moves += 1
            score = 1000 * new_moves + 100 * opened.bit_count() + weight[a] + weight[b]
            rest = after & class_mask[tile_class[a]]
            if rest.bit_count() == 2:
                score -= 20 * self._burial(rest, after)
            if noise is not None:
                # (A 64-bit draw reduced mod the spread: its bias is far below
                # anything that matters for ordering.)
                score += noise.next_u64() % RESTART_NOISE
            scored.append((-score, a, b, move))
        scored.sort()
        return [move for *_, move in scored]

    def _burial(self, tiles: int, present: int) -> int:
        """Roughly how many tiles must leave before these are free."""
        total = 0
        board = self.board
        burial_mask = board.burial_mask
        burial_cache = board.burial_cache
        while tiles:
            low = tiles & -tiles
            tiles ^= low
            tile = low.bit_length() - 1
            key = present & burial_mask[tile]
            cache = burial_cache[tile]
            value = cache.get(key)
            if value is None:
                value = (present & board.above[tile]).bit_count()
                left_chain, right_chain = self.finder.chains(tile, present)
                value += min(left_chain.bit_count(), right_chain.bit_count())
                if len(cache) >= BURIAL_CACHE_LIMIT:
                    cache.clear()
                cache[key] = value
            total += value
        return total


def _holds_forbidden_pair(group: list[int], forbidden: set[int]) -> bool:
    for i in range(len(group)):
        for j in range(i + 1, len(group)):
            if (1 << group[i]) | (1 << group[j]) in forbidden:
                return True
    return False


def _check_input(geometry: Geometry, faces: Sequence[int], present: int) -> None:
    if len(faces) != geometry.size:
        raise ValueError(f"the deal has {len(faces)} faces for {geometry.size} positions")
    if present < 0 or present > geometry.all_mask:
        raise ValueError(
            f"present_mask has bits beyond the layout's {geometry.size} tiles"
        )
    for tile in tiles_in(present):
        if not 0 <= faces[tile] < NUM_FACES:
            raise ValueError(f"tile {tile} has face {faces[tile]}, not one of 0..{NUM_FACES - 1}")


def _odd_class(class_keys: Sequence[int], present: int) -> bool:
    counts: dict[int, int] = {}
    for tile in tiles_in(present):
        counts[class_keys[tile]] = counts.get(class_keys[tile], 0) + 1
    return any(count % 2 for count in counts.values())


def solve(
    geometry: Geometry,
    faces: Sequence[int],
    present_mask: int | None = None,
    pantheon_pairs: bool = True,
    node_limit: int | None = None,
    time_limit: float | None = None,
    options: SolverOptions | None = None,
    implementation: str | None = None,
) -> SolveResult:
    """Decide whether the present tiles (all tiles by default) can be cleared.

    `faces[i]` is the face of tile i (faces of absent tiles are not read).
    `node_limit` bounds the positions searched; `time_limit` (seconds, read from
    `time.perf_counter`) bounds the wall time. Either stops the search with
    `solvable=None`. A class with an odd number of tiles left is answered
    unsolvable at once. `implementation` picks "python" or "compiled" (see
    `choose_implementation`); both give the same answer, node for node.
    """
    present = geometry.all_mask if present_mask is None else present_mask
    _check_input(geometry, faces, present)
    keys = [match_class(faces[t], pantheon_pairs) if present >> t & 1 else -1
            for t in range(geometry.size)]
    return solve_classes(
        geometry, keys, present, node_limit, time_limit, options, implementation
    )


def compiled_available() -> bool:
    """Whether the compiled core (`_solvercore`, built at install) is importable."""
    from pyramids.games.mahjongg import solver_compiled

    return solver_compiled.available()


def choose_implementation(implementation: str | None = None) -> str:
    """"python" or "compiled": the one asked for, else `PYRAMIDS_SOLVER`, else
    the compiled core when it is importable (both answer alike, the compiled
    one faster). Asking for "compiled" where it is not built is an error."""
    wanted = implementation
    source = "implementation"
    if wanted is None:
        wanted = os.environ.get(SOLVER_ENV) or None
        source = SOLVER_ENV
    if wanted is None:
        return "compiled" if compiled_available() else "python"
    if wanted not in IMPLEMENTATIONS:
        raise ValueError(
            f"{source} is {wanted!r}; the solver implementations are "
            + " and ".join(repr(name) for name in IMPLEMENTATIONS)
        )
    if wanted == "compiled" and not compiled_available():
        raise RuntimeError(
            f"{source} asks for the compiled solver, but its core is not built here "
            "(reinstall with a C compiler present, or ask for 'python')"
        )
    return wanted


def solve_classes(
    geometry: Geometry,
    class_keys: Sequence[int],
    present_mask: int | None = None,
    node_limit: int | None = None,
    time_limit: float | None = None,
    options: SolverOptions | None = None,
    implementation: str | None = None,
) -> SolveResult:
    """`solve` for tiles given by match class (equal keys match) rather than face.

    For tile sets other than this game's, e.g. the standard 36 groups of four
    that published solver figures use.
    """
    compiled = choose_implementation(implementation) == "compiled"
    started = time.perf_counter()
    present = geometry.all_mask if present_mask is None else present_mask
    if len(class_keys) != geometry.size:
        raise ValueError(f"{len(class_keys)} classes for {geometry.size} positions")
    if present < 0 or present > geometry.all_mask:
        raise ValueError(f"present_mask has bits beyond the layout's {geometry.size} tiles")
    deadline = None if time_limit is None else started + time_limit
    options = options or SolverOptions()
    search: _Search
    if compiled:
        from pyramids.games.mahjongg import solver_compiled
    core_search = None
    if compiled and geometry.size <= solver_compiled.MAX_TILES:
        try:
            core_search = solver_compiled.CompiledSearch(
                geometry, class_keys, present, options, node_limit, deadline
            )
        except (TypeError, OverflowError):  # keys other than 64-bit integers
            core_search = None
    if core_search is not None:
        search = core_search
        if core_search.odd_class:
            return SolveResult(False, [], 0, time.perf_counter() - started)
    else:  # (layouts or keys beyond the compiled core's take the reference)
        if _odd_class(class_keys, present):
            return SolveResult(False, [], 0, time.perf_counter() - started)
        search = _Search(_Board(geometry, class_keys, present), options, node_limit, deadline)
    try:
        moves = search.run(present)
    except _BudgetExhausted:
        return SolveResult(None, [], search.nodes, time.perf_counter() - started)
    seconds = time.perf_counter() - started
    if moves is None:
        return SolveResult(False, [], search.nodes, seconds)
    return SolveResult(True, moves, search.nodes, seconds)


def safe_pair(
    geometry: Geometry,
    faces: Sequence[int],
    present_mask: int,
    pantheon_pairs: bool = True,
    node_limit: int | None = None,
) -> Pair | None:
    """A valid pair after which the board can still be cleared.

    None when the board is empty, proved unsolvable, or the budget ran out.
    """
    result = solve(geometry, faces, present_mask, pantheon_pairs, node_limit)
    if result.solvable and result.moves:
        return result.moves[0]
    return None


def all_free(geometry: Geometry, present_mask: int) -> bool:
    """Whether every tile on the board is free (then the game can finish itself)."""
    return all(geometry.is_free(tile, present_mask) for tile in tiles_in(present_mask))


def finish_sequence(
    geometry: Geometry, faces: Sequence[int], present_mask: int, pantheon_pairs: bool = True
) -> list[Pair] | None:
    """The pairs that clear a board whose tiles are all free, or None.

    None when some tile is not free or some class has an odd count. With every
    tile free, any pairing within each class works (removing tiles frees others).
    """
    if not all_free(geometry, present_mask):
        return None
    by_class: dict[int, list[int]] = {}
    for tile in tiles_in(present_mask):
        by_class.setdefault(match_class(faces[tile], pantheon_pairs), []).append(tile)
    pairs: list[Pair] = []
    for group in by_class.values():
        if len(group) % 2:
            return None
        pairs.extend((group[i], group[i + 1]) for i in range(0, len(group), 2))
    pairs.sort()
    return pairs
