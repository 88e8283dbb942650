"""The Royal Architect Score: what a pair, a capstone, a vault and a token are worth.

Rules implemented (rules page, "Scoring"):
- a pair scores its points (100 suit, 250 deity, 300 season/element, 500 royal)
  times the elevation `z + 1` of the higher of its two tiles **[ours: the higher]**;
- while a capstone doubling is running, those pair points count twice
  **[ours: the doubling applies to points × elevation only, not to bonuses]**;
- each removed capstone adds `capstone_bonus` (1,000) and (re)starts a doubling of
  the remover's next `capstone_double_pairs` (3) pairs; two capstones in one pair
  score twice but the doubling does not stack;
- a vault unlocked adds `vault_bonus` (750);
- **[ours]** flawless streak: a pair adds `streak_step × min(streak − 1, streak_cap)`
  where `streak` counts the player's consecutive pairs (this one included) since
  they last used a hint, a favor or an undo;
- each unused token adds `token_end_bonus` (200) at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ScoreRules:
    """The scoring numbers, each an option of the game."""

    capstone_bonus: int = 1000
    capstone_double_pairs: int = 3
    vault_bonus: int = 750
    token_end_bonus: int = 200
    streak_step: int = 20
    streak_cap: int = 10


def elevation(z_a: int, z_b: int) -> int:
    """The layer height of the higher tile of a pair (the base layer is 1)."""
    return max(z_a, z_b) + 1


def pair_base(points: int, z_a: int, z_b: int, doubled: bool) -> int:
    """Pair points times elevation, twice that while a capstone doubling runs."""
    value = points * elevation(z_a, z_b)
    return 2 * value if doubled else value


def streak_bonus(streak: int, rules: ScoreRules) -> int:
    """The flawless-streak bonus of a pair that makes the streak `streak` long."""
    if streak <= 1:
        return 0
    return rules.streak_step * min(streak - 1, rules.streak_cap)


@dataclass(frozen=True)
class PairScore:
    base: int  # points × elevation, doubled while a doubling runs
    streak: int  # the flawless-streak bonus
    capstones: int  # the capstone bonus

    @property
    def total(self) -> int:
        return self.base + self.streak + self.capstones


def score_pair(
    points: int,
    z_a: int,
    z_b: int,
    *,
    doubled: bool,
    streak: int,
    capstones_removed: int,
    rules: ScoreRules,
) -> PairScore:
    """What one removed pair is worth. `streak` includes this pair."""
    return PairScore(
        base=pair_base(points, z_a, z_b, doubled),
        streak=streak_bonus(streak, rules),
        capstones=capstones_removed * rules.capstone_bonus,
    )


def token_bonus(tokens: int, rules: ScoreRules) -> int:
    return tokens * rules.token_end_bonus


@dataclass(frozen=True)
class Standing:
    """What the tie-breaks of a Standard Expedition compare, in order."""

    score: int
    capstones: int
    vaults: int
    deity_pairs: int

    def key(self) -> tuple[int, int, int, int]:
        return (self.score, self.capstones, self.vaults, self.deity_pairs)


def winners(standings: Sequence[Standing]) -> list[int]:
    """The seats with the best standing: highest score, then the capstone remover
    (the most capstones removed), then the most vaults, then the most deity pairs.
    Players equal on all four share the win."""
    if not standings:
        return []
    best = max(standing.key() for standing in standings)
    return [seat for seat, standing in enumerate(standings) if standing.key() == best]
