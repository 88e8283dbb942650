"""A full-information Mahjongg solver: an exact verdict, and what the game builds on it.

`solve` answers whether the tiles on the board can all be removed, knowing every
face. It returns a complete clearing sequence when they can, and says
"unsolvable" only after exhausting every possibility; when a node or time budget
stops it first, the verdict is `None` (unknown), never a guess.

The search is a depth-first search over sets of present tiles (bit masks, see
`geometry`), with these speed-ups, each switchable in `SolverOptions` so the
benchmark can measure it:

- **transposition table**: the present tiles alone decide the rest of the game,
  so a set already shown to be a dead end is never searched again;
- **clear free classes**: when every remaining tile of a match class is free,
  removing all of them at once (in any pairing) is safe. Removing tiles only
  ever frees others, and those tiles can only pair among themselves, so any
  clearing can be reordered to start with them. This covers a last free pair
  and the four free identical tiles whose pairing does not matter;
- **move ordering**: pairs that free more tiles, and tiles that hold up more of
  the board, are tried first, so a solvable deal is usually cleared by the
  first dive;
- **dead-pair pruning**: a match class with exactly two tiles left must be
  removed as that pair. If one of them lies (directly, or through a column of
  present tiles) on the other, or the forced pairs wait on each other in a
  cycle (a tile of one lies on a tile of the other and back), the position is
  lost whatever happens next;
- **incremental free tiles**: a removal can only free the tiles it lay on and
  its side neighbours, so only those are re-tested.

Purity: nothing here reads the clock except `solve` when a caller passes
`time_limit` (it reads `time.perf_counter`); the game engine passes only
`node_limit`, which keeps its hints and warnings deterministic.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pyramids.games.mahjongg.geometry import Geometry, tiles_in
from pyramids.games.mahjongg.solver_deadlock import DeadlockFinder
from pyramids.games.mahjongg.tiles import match_class

Pair = tuple[int, int]
import os
_FULL = os.environ.get('FULL', '1') == '1'
_FULL2 = os.environ.get('FULL2', '0') == '1'
_ORD = int(os.environ.get('ORD', '0'))


@dataclass(frozen=True)
class SolverOptions:
    """Which speed-ups the search uses (all on by default; the verdicts never change)."""

    transposition: bool = True
    clear_free_classes: bool = True
    move_ordering: bool = True
    dead_pair_pruning: bool = True
    incremental_free: bool = True
    sibling_exclusion: bool = True


@dataclass
class SolveResult:
    """`solvable`: True, False, or None when a budget ran out before a verdict.

    `moves` is a complete clearing sequence (pairs of tile numbers, smaller
    first) when `solvable` is True, and empty otherwise. `nodes` counts the
    positions the search entered; `seconds` is the wall time `solve` measured.
    """

    solvable: bool | None
    moves: list[Pair] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


class BudgetExhausted(Exception):
    """Raised inside the search when the node or time budget runs out."""


class _Board:
    """Tables for one geometry and deal, shared by every node of a search."""

    def __init__(self, geometry: Geometry, faces: Sequence[int], pantheon_pairs: bool) -> None:
        n = geometry.size
        if len(faces) != n:
            raise ValueError(f"the deal has {len(faces)} faces for {n} positions")
        self.geometry = geometry
        self.size = n
        class_ids: dict[int, int] = {}
        self.tile_class: list[int] = []
        for face in faces:
            key = match_class(face, pantheon_pairs)
            self.tile_class.append(class_ids.setdefault(key, len(class_ids)))
        self.class_mask: list[int] = [0] * len(class_ids)
        for tile, klass in enumerate(self.tile_class):
            self.class_mask[klass] |= 1 << tile
        self.above = geometry.above_mask
        self.left = geometry.left_mask
        self.right = geometry.right_mask
        self.below = geometry.below
        # Tiles whose freedom can change when this one leaves.
        self.neighbours: list[tuple[int, ...]] = [
            tuple(geometry.below[t]) + tuple(geometry.left[t]) + tuple(geometry.right[t])
            for t in range(n)
        ]
        self.weight = _blocking_weights(geometry)

    def free_mask(self, present: int) -> int:
        above, left, right = self.above, self.left, self.right
        free = 0
        for tile in tiles_in(present):
            if present & above[tile]:
                continue
            if not present & left[tile] or not present & right[tile]:
                free |= 1 << tile
        return free


def _blocking_weights(geometry: Geometry) -> list[int]:
    """How much of the board a tile holds up: the tiles under it, and along its row.

    Used only to order moves. Tiles under it count double, because nothing can
    free them until it leaves; side neighbours count once per tile beyond them.
    """
    n = geometry.size
    under: list[int] = [0] * n
    # Layers from the top down, so a tile's under-closure is built from those above.
    order = sorted(range(n), key=lambda t: geometry.positions[t][2])
    for tile in order:
        closure = 0
        for lower in geometry.below[tile]:
            closure |= 1 << lower
        under[tile] = closure
    for tile in sorted(order, key=lambda t: geometry.positions[t][2]):
        for lower in geometry.below[tile]:
            under[tile] |= under[lower]
    weights = []
    for tile in range(n):
        row_reach = _row_reach(geometry, tile)
        weights.append(2 * under[tile].bit_count() + row_reach)
    return weights


def _row_reach(geometry: Geometry, tile: int) -> int:
    """The fewer tiles on either side of it in its row (what freeing it waits on)."""
    sides = []
    for side in (geometry.left, geometry.right):
        seen = 0
        frontier = list(side[tile])
        visited = set(frontier)
        while frontier:
            seen += len(frontier)
            nxt = []
            for t in frontier:
                for u in side[t]:
                    if u not in visited:
                        visited.add(u)
                        nxt.append(u)
            frontier = nxt
        sides.append(seen)
    return min(sides)


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
        self.failed: set[int] = set()
        self.forbidden: set[int] = set()
        self.finder = DeadlockFinder(board.geometry, board.tile_class, board.class_mask)

    # -- helpers ---------------------------------------------------------------

    def _free_after(self, present: int, free: int, a: int, b: int) -> int:
        board = self.board
        if not self.options.incremental_free:
            return board.free_mask(present)
        above, left, right = board.above, board.left, board.right
        free &= present
        for tile in board.neighbours[a] + board.neighbours[b]:
            bit = 1 << tile
            if present & bit and not free & bit and not present & above[tile]:
                if not present & left[tile] or not present & right[tile]:
                    free |= bit
        return free

    def _burial(self, tiles: int, present: int) -> int:
        """Roughly how many tiles must leave before these are free."""
        total = 0
        finder = self.finder
        above = self.board.above
        for t in tiles_in(tiles):
            total += (present & above[t]).bit_count()
            left_chain, right_chain = finder.chains(t, present)
            total += min(left_chain.bit_count(), right_chain.bit_count())
        return total

    # -- search ----------------------------------------------------------------

    def run(self, present: int) -> list[Pair] | None:
        free = self.board.free_mask(present)
        if self.options.dead_pair_pruning and self.finder.any_pair_deadlocked(present):
            self.nodes += 1
            return None
        moves: list[Pair] = []
        if self._search(present, free, moves):
            return moves
        return None

    def _search(self, present: int, free: int, moves: list[Pair]) -> bool:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise BudgetExhausted
        if self.deadline is not None and not self.nodes & 1023:
            if time.perf_counter() > self.deadline:
                raise BudgetExhausted
        if not present:
            return True
        options = self.options
        failed = self.failed
        if options.transposition and present in failed:
            return False
        entry = present
        board = self.board
        class_mask = board.class_mask
        tile_class = board.tile_class
        forbidden = self.forbidden
        depth = len(moves)
        dead = False
        # Forced removals, repeated until none applies.
        while options.clear_free_classes:
            cleared = False
            seen_classes = 0
            for tile in tiles_in(free):
                klass = tile_class[tile]
                if seen_classes >> klass & 1:
                    continue
                seen_classes |= 1 << klass
                rest = present & class_mask[klass]
                if rest & ~free:
                    continue
                group = tiles_in(rest)
                if forbidden and self._any_forbidden(group):
                    dead = True
                    break
                for i in range(0, len(group), 2):
                    a, b = group[i], group[i + 1]
                    moves.append((a, b))
                    present &= ~((1 << a) | (1 << b))
                    free = self._free_after(present, free, a, b)
                cleared = True
            if dead or not cleared:
                break
            if not present:
                return True
            if options.transposition and present in failed:
                dead = True
                break
        if not dead:
            dead = self._try_moves(present, free, moves)
            if dead is False:
                return True
        del moves[depth:]
        if options.transposition:
            failed.add(entry)
            failed.add(present)
        return False

    def _try_moves(self, present: int, free: int, moves: list[Pair]) -> bool:
        """Try each candidate pair; False when one leads to a clearing, True when none does."""
        options = self.options
        forbidden = self.forbidden
        board = self.board
        class_mask = board.class_mask
        tile_class = board.tile_class
        finder = self.finder
        added: list[int] = []
        checked_all = False
        try:
            for a, b in self._candidate_pairs(present, free):
                key = (1 << a) | (1 << b)
                if key in forbidden:
                    continue
                after = present & ~key
                rest = after & class_mask[tile_class[a]]
                lost = False
                if options.dead_pair_pruning and rest.bit_count() == 2:
                    low = rest & -rest
                    c, d = low.bit_length() - 1, (rest ^ low).bit_length() - 1
                    lost = finder.pair_deadlocked(c, d, after)
                if not lost:
                    moves.append((a, b))
                    if self._search(after, self._free_after(after, free, a, b), moves):
                        return False
                    moves.pop()
                    if options.dead_pair_pruning and not checked_all and _FULL:
                        # A failure below may come from a lost pair here: check them all once.
                        checked_all = True
                        if finder.any_pair_deadlocked(present):
                            return True
                        if _FULL2:
                            lost_keys = finder.lost_pairings(present, free)
                            if lost_keys is None:
                                return True
                            for k in lost_keys:
                                if k not in forbidden:
                                    forbidden.add(k)
                                    added.append(k)
                if options.sibling_exclusion:
                    # No clearing from here pairs a with b: a clearing that did could
                    # take that pair first. With four of the class left, the other
                    # two are then never paired either.
                    for k in (key, rest) if rest.bit_count() == 2 else (key,):
                        if k not in forbidden:
                            forbidden.add(k)
                            added.append(k)
            return True
        finally:
            for k in added:
                forbidden.discard(k)

    def _any_forbidden(self, group: list[int]) -> bool:
        forbidden = self.forbidden
        for i in range(len(group)):
            for j in range(i + 1, len(group)):
                if (1 << group[i]) | (1 << group[j]) in forbidden:
                    return True
        return False

    def _candidate_pairs(self, present: int, free: int) -> list[Pair]:
        board = self.board
        tile_class = board.tile_class
        by_class: dict[int, list[int]] = {}
        for tile in tiles_in(free):
            by_class.setdefault(tile_class[tile], []).append(tile)
        pairs: list[Pair] = []
        for group in by_class.values():
            for i in range(len(group)):
                for j in range(i + 1, len(group)):
                    pairs.append((group[i], group[j]))
        if self.options.move_ordering and len(pairs) > 1:
            weight = board.weight
            class_mask = board.class_mask
            scored = []
            for a, b in pairs:
                key = (1 << a) | (1 << b)
                after = present & ~key
                new_free = self._free_after(after, free, a, b)
                opened_mask = new_free & ~free
                opened = opened_mask.bit_count()
                if _ORD == 0:
                    score = opened * 100 + weight[a] + weight[b]
                elif _ORD == 1:
                    score = weight[a] + weight[b]
                else:
                    new_matches = 0
                    for t in tiles_in(opened_mask):
                        if new_free & class_mask[tile_class[t]] & ~(1 << t):
                            new_matches += 1
                    score = new_matches * 1000 + opened * 100 + weight[a] + weight[b]
                    if _ORD == 3:
                        rest = after & class_mask[tile_class[a]]
                        if rest.bit_count() == 2:
                            score -= 20 * self._burial(rest, after)
                scored.append((-score, a, b))
            scored.sort()
            pairs = [(a, b) for _, a, b in scored]
        return pairs


def solve(
    geometry: Geometry,
    faces: Sequence[int],
    present_mask: int | None = None,
    pantheon_pairs: bool = True,
    node_limit: int | None = None,
    time_limit: float | None = None,
    options: SolverOptions | None = None,
) -> SolveResult:
    """Decide whether the present tiles (all tiles by default) can be cleared.

    `faces[i]` is the face of tile i (faces of absent tiles are ignored).
    `node_limit` bounds the positions searched; `time_limit` (seconds, read from
    `time.perf_counter`) bounds the wall time. Either stops the search with
    `solvable=None`.
    """
    started = time.perf_counter()
    present = geometry.all_mask if present_mask is None else present_mask
    _check_present(geometry, faces, present, pantheon_pairs)
    board = _Board(geometry, faces, pantheon_pairs)
    deadline = None if time_limit is None else started + time_limit
    search = _Search(board, options or SolverOptions(), node_limit, deadline)
    try:
        moves = search.run(present)
    except BudgetExhausted:
        return SolveResult(None, [], search.nodes, time.perf_counter() - started)
    seconds = time.perf_counter() - started
    if moves is None:
        return SolveResult(False, [], search.nodes, seconds)
    return SolveResult(True, [(min(a, b), max(a, b)) for a, b in moves], search.nodes, seconds)


def _check_present(
    geometry: Geometry, faces: Sequence[int], present: int, pantheon_pairs: bool
) -> None:
    if present < 0 or present > geometry.all_mask:
        raise ValueError("present_mask has bits beyond the layout's tiles")
    counts: dict[int, int] = {}
    for tile in tiles_in(present):
        key = match_class(faces[tile], pantheon_pairs)
        counts[key] = counts.get(key, 0) + 1
    # An odd class can never be cleared; the search would prove it, but slowly.
    del counts
