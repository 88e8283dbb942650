"""The Solar Barque time track of Pharaoh's Time Attack and its speed bonuses.

Rules implemented (rules page, "Pharaoh's Time Attack"; every number an option):
- The track has `spaces = ceil(time_limit_seconds / barque_space_seconds)`
  spaces after space 0 (the start, where the seed sets the marker); the last
  one is **sunset**. The barque stands on space `elapsed // barque_space_seconds`
  (at most sunset) and reaches sunset when the time is up **[ours: one space
  a minute of the 15-minute countdown]**.
- **Quick pair [ours]**: a pair removed at most `speed_pair_seconds` after the
  previous pair (or after the start, for the first) adds `speed_pair_bonus`.
- **Layer before sunset [ours]**: a pair that empties a layer of the monument
  adds `speed_layer_bonus` for every space the barque has still to sail to
  sunset (two layers emptied by one pair: twice).
- The clock is the interface's (`clock S` actions), or with `clock=turns` the
  engine's own: each move takes `turn_seconds` **[ours]**, for play without a
  real clock. The engine never reads a clock either way.

These bonuses are time attack's only; the other modes have no track.
"""

from __future__ import annotations

from dataclasses import dataclass

REAL = "real"
TURNS = "turns"
CLOCKS = (REAL, TURNS)


@dataclass(frozen=True)
class Track:
    """The numbers of one game's track (all options)."""

    limit: int  # time_limit_seconds
    space_seconds: int  # barque_space_seconds
    quick_seconds: int  # speed_pair_seconds
    quick_bonus: int  # speed_pair_bonus
    layer_bonus: int  # speed_layer_bonus

    @property
    def spaces(self) -> int:
        """The spaces after space 0; the last is sunset."""
        return -(-self.limit // self.space_seconds)

    def space(self, elapsed: int) -> int:
        """Where the barque stands after `elapsed` seconds (0 = start)."""
        if elapsed >= self.limit:
            return self.spaces
        return min(self.spaces, elapsed // self.space_seconds)

    def spaces_left(self, elapsed: int) -> int:
        """Spaces the barque has still to sail to sunset."""
        return self.spaces - self.space(elapsed)

    def is_quick(self, elapsed: int, last_pair_at: int) -> bool:
        """Whether a pair now follows the previous one (or the start) quickly enough."""
        return elapsed - last_pair_at <= self.quick_seconds

    def quick_pair_bonus(self, elapsed: int, last_pair_at: int) -> int:
        return self.quick_bonus if self.is_quick(elapsed, last_pair_at) else 0

    def layers_bonus(self, elapsed: int, layers_emptied: int) -> int:
        """What emptying `layers_emptied` layers at `elapsed` is worth."""
        return self.layer_bonus * self.spaces_left(elapsed) * layers_emptied


def layers_emptied(layer_masks: tuple[int, ...], before: int, after: int) -> list[int]:
    """The layers (z) that held a tile in `before` and hold none in `after`."""
    return [
        z for z, mask in enumerate(layer_masks) if before & mask and not after & mask
    ]
