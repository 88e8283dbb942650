"""Advice on a Mahjongg position: hints, the unsolvable warning, solvable reshuffles.

Hints and the warning use the full-information solver (`solver`) with a node
budget (`solver_nodes`), so they stay deterministic. They look only at
positions without face-down tiles: with tiles still face down, a hint is any
valid pair and no warning is given, so nothing hidden leaks into a view. The
solver's verdicts are cached per board (faces and tiles present), since a view
asks again for the same position.

The warning needs only "proved lost" or not, and a clearing the solver found
proves more than its own board solvable: removing tiles never blocks another
tile, so every board that line passes through, and every board left after
taking any of its pairs in any order (the line minus those pairs still clears
it), can be cleared too. The warning reads those boards off the lines it
keeps (`Lines`) instead of asking the solver. Its answer stays the solver's
answer on that board alone (the solver never calls a clearable board lost),
so it does not depend on which positions or games came before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pyramids.core.rng import Rng
from pyramids.games.mahjongg import deal as dealing
from pyramids.games.mahjongg import favors
from pyramids.games.mahjongg.geometry import Geometry
from pyramids.games.mahjongg.solver import solve
from pyramids.games.mahjongg.tiles import match_class

if TYPE_CHECKING:
    from pyramids.games.mahjongg.state import MahjonggState

Verdict = tuple[bool | None, tuple[int, int] | None]
CACHE_LIMIT = 4096
#: Clearing lines kept per deal (faces), newest first, and deals kept (the oldest
#: dropped first): at most 64 x 8 lines of a few kilobytes each.
LINES_PER_FACES = 8
DEALS_KEPT = 64

Pair = tuple[int, int]


class Lines:
    """Clearing lines known to clear a board, per deal (faces), newest first: the
    board, the line's pairs in order, and each tile's place in it.

    A line also clears every board its pairs leave, taken in any order (removing
    tiles never blocks another, so each pair left stays free at its turn). When
    the last move paired two tiles the line pairs elsewhere (a with a', b with
    b'), the line's partners with a' and b' paired instead are tried: the pairs
    are taken as they come free, and the line they make is kept when it clears
    the board."""

    def __init__(self, geometry: Geometry, pantheon_pairs: bool) -> None:
        self.geometry = geometry
        self.pantheon_pairs = pantheon_pairs
        self._lines: dict[tuple[int, ...], list[tuple[int, Sequence[Pair], dict[int, int]]]] = {}

    def add(self, faces: tuple[int, ...], present: int, moves: Sequence[Pair]) -> None:
        turn: dict[int, int] = {}
        for number, (a, b) in enumerate(moves):
            turn[a] = turn[b] = number
        kept = self._lines.pop(faces, None)
        if kept is None:
            if len(self._lines) >= DEALS_KEPT:
                del self._lines[next(iter(self._lines))]
            kept = []
        self._lines[faces] = kept  # (last in the order: the newest deal)
        kept.insert(0, (present, moves, turn))
        del kept[LINES_PER_FACES:]

    def clears(self, faces: tuple[int, ...], present: int) -> bool:
        """Whether a kept line (or one mended as above) clears `present` with these faces."""
        mend = None
        for board, moves, turn in self._lines.get(faces, ()):
            if present & ~board:
                continue
            taken = board & ~present
            rest, split = taken, []
            while rest:
                low = rest & -rest
                tile = low.bit_length() - 1
                a, b = moves[turn[tile]]
                if not (taken >> (b if a == tile else a)) & 1:
                    split.append(tile)
                rest ^= low
            if not split:
                return True
            if mend is None and len(split) == 2:
                mend = (moves, turn, split)
        return mend is not None and self._mend(faces, present, *mend)

    def _mend(self, faces: tuple[int, ...], present: int, moves: Sequence[Pair],
              turn: dict[int, int], split: list[int]) -> bool:
        first, second = (turn[tile] for tile in split)
        a = next(t for t in moves[first] if t != split[0])
        b = next(t for t in moves[second] if t != split[1])
        if (match_class(faces[a], self.pantheon_pairs)
                != match_class(faces[b], self.pantheon_pairs)):
            return False
        # With every tile's partner fixed, taking any free pair never blocks another,
        # so passes over the pairs left (in the line's order, the new pair where
        # the first split one was) clear the board exactly when these partners can.
        above = self.geometry.above_mask
        left = self.geometry.left_mask
        right = self.geometry.right_mask
        pair = (a, b) if a < b else (b, a)
        waiting = [pair if number == min(first, second) else move
                   for number, move in enumerate(moves)
                   if number == min(first, second)
                   or present >> move[0] & 1 and present >> move[1] & 1]
        board = present
        line: list[Pair] = []
        while waiting:
            blocked = []
            for x, y in waiting:
                if (board & above[x] or board & left[x] and board & right[x]
                        or board & above[y] or board & left[y] and board & right[y]):
                    blocked.append((x, y))
                else:
                    line.append((x, y))
                    board &= ~(1 << x | 1 << y)
            if len(blocked) == len(waiting):
                return False
            waiting = blocked
        self.add(faces, present, line)
        return True


class Advice:
    """The solver's advice for one game's layout and options."""

    def __init__(self, geometry: Geometry, pantheon_pairs: bool, node_limit: int,
                 solvable_deals: bool) -> None:
        self.geometry = geometry
        self.pantheon_pairs = pantheon_pairs
        self.node_limit = node_limit
        self.solvable_deals = solvable_deals
        self._verdicts: dict[tuple[tuple[int, ...], int], Verdict] = {}
        self._lines = Lines(geometry, pantheon_pairs)

    def verdict(self, state: MahjonggState) -> Verdict:
        """The solver's verdict on the board and its first move (cached per board)."""
        key = (tuple(state.faces), state.present)
        found = self._verdicts.get(key)
        if found is None:
            found = self._solve(key)
        return found

    def _solve(self, key: tuple[tuple[int, ...], int]) -> Verdict:
        """Ask the solver about a board not in the cache, and keep its verdict (and line)."""
        faces, present = key
        if len(self._verdicts) > CACHE_LIMIT:
            self._verdicts.clear()
        result = solve(self.geometry, faces, present, pantheon_pairs=self.pantheon_pairs,
                       node_limit=self.node_limit)
        first = result.moves[0] if result.solvable and result.moves else None
        found = self._verdicts[key] = (result.solvable, first)
        if result.solvable:
            self._lines.add(faces, present, result.moves)
        return found

    def keep_clearing(self, faces: tuple[int, ...], present: int,
                      moves: Sequence[tuple[int, int]]) -> None:
        """Keep a known clearing of a board (a solvable deal's): the warning reads
        that board and those it leads to off it."""
        self._lines.add(faces, present, moves)

    def proven_unsolvable(self, state: MahjonggState) -> bool:
        """Whether the solver proves that matching alone can no longer clear the board.

        False when unknown (budget spent) and whenever tiles are still face down. The
        tile Anubis Shift lifted this turn can be matched too: while a pair with it
        leaves a board not proved lost, neither is this one."""
        present = state.present
        if state.face_down & present or not present:
            return False
        faces = tuple(state.faces)
        if not self._lost(faces, present):
            return False
        return all(self._lost(faces, present & ~(1 << a | 1 << b))
                   for a, b in state.valid_pairs() if state.shift in (a, b))

    def _lost(self, faces: tuple[int, ...], present: int) -> bool:
        """Whether the solver proves this board lost (cached; an empty board is won)."""
        if not present:
            return False
        key = (faces, present)
        found = self._verdicts.get(key)
        if found is None:
            if self._lines.clears(faces, present):
                return False  # a kept line clears it: the solver cannot call it lost
            found = self._solve(key)
        return found[0] is False

    def hint_pair(self, state: MahjonggState) -> tuple[int, int]:
        """A valid pair after which the board can still be cleared, when the solver
        finds one within its budget (and no tile is face down); else the first valid pair.

        The solver moves free tiles only, so the pairs with the tile Anubis Shift
        lifted this turn are tried as well: each by the verdict on the board it leaves."""
        pairs = state.valid_pairs()
        if not state.face_down & state.present:
            move = self.verdict(state)[1]
            if move is not None and move in pairs:
                return move
            for pair in pairs:
                if state.shift in pair:
                    key = (tuple(state.faces), state.present & ~(1 << pair[0] | 1 << pair[1]))
                    if (self._verdicts.get(key) or self._solve(key))[0]:
                        return pair
        return pairs[0]

    def reshuffle(self, faces: list[int], present: int, rng: Rng,
                  locked_vaults: int) -> list[int]:
        """The Sandstorm Reshuffle: with deal=solvable, an arrangement that clears (and
        keeps the still-locked vaults unlockable) when one is found; else at random."""
        if self.solvable_deals:
            found = dealing.reshuffle_solvable(
                self.geometry, present, faces, rng, self.pantheon_pairs, locked_vaults
            )
            if found is not None:
                return found
        return favors.reshuffle_random(faces, present, rng)
