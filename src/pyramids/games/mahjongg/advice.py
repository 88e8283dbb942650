"""Advice on a Mahjongg position: hints, the unsolvable warning, solvable reshuffles.

Hints and the warning use the full-information solver (`solver`) with a node
budget (`solver_nodes`), so they stay deterministic. They look only at
positions without face-down tiles: with tiles still face down, a hint is any
valid pair and no warning is given, so nothing hidden leaks into a view. The
solver's verdicts are cached per board (faces and tiles present), since a view
asks again for the same position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyramids.core.rng import Rng
from pyramids.games.mahjongg import deal as dealing
from pyramids.games.mahjongg import favors
from pyramids.games.mahjongg.geometry import Geometry
from pyramids.games.mahjongg.solver import solve

if TYPE_CHECKING:
    from pyramids.games.mahjongg.state import MahjonggState

Verdict = tuple[bool | None, tuple[int, int] | None]
CACHE_LIMIT = 4096


class Advice:
    """The solver's advice for one game's layout and options."""

    def __init__(self, geometry: Geometry, pantheon_pairs: bool, node_limit: int,
                 solvable_deals: bool) -> None:
        self.geometry = geometry
        self.pantheon_pairs = pantheon_pairs
        self.node_limit = node_limit
        self.solvable_deals = solvable_deals
        self._verdicts: dict[tuple[tuple[int, ...], int], Verdict] = {}

    def verdict(self, state: MahjonggState) -> Verdict:
        """The solver's verdict on the board and its first move (cached per board)."""
        key = (tuple(state.faces), state.present)
        found = self._verdicts.get(key)
        if found is None:
            if len(self._verdicts) > CACHE_LIMIT:
                self._verdicts.clear()
            result = solve(
                self.geometry,
                state.faces,
                state.present,
                pantheon_pairs=self.pantheon_pairs,
                node_limit=self.node_limit,
            )
            first = result.moves[0] if result.solvable and result.moves else None
            found = (result.solvable, first)
            self._verdicts[key] = found
        return found

    def proven_unsolvable(self, state: MahjonggState) -> bool:
        """Whether the solver proves that matching alone can no longer clear the board.

        False when unknown (budget spent) and whenever tiles are still face down."""
        if state.face_down & state.present or not state.present:
            return False
        return self.verdict(state)[0] is False

    def hint_pair(self, state: MahjonggState) -> tuple[int, int]:
        """A valid pair after which the board can still be cleared, when the solver
        finds one within its budget (and no tile is face down); else the first valid pair."""
        pairs = state.valid_pairs()
        if not state.face_down & state.present:
            move = self.verdict(state)[1]
            if move is not None and move in pairs:
                return move
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
