"""Who starts each round, and when a game can no longer progress.

Rules implemented (rules page, "A round: three phases" and "End of the game"),
both **[ours]**; the seed says neither who starts nor what ends a stuck game:

- `start_rule` picks each round's start player:
  - `rotate`: seat 1 starts round 1, then the start player moves one seat a round;
  - `lot`: round 1's start player is drawn by lot (the state's `Rng`, after the
    deal), then it moves one seat a round;
  - `poorest`: round 1's start player is drawn by lot; each later round is
    started by the player with the least treasure, a tie going to the first of
    the tied players in seat order after the previous start player (so a table
    whose treasure is all equal rotates as `rotate` does);
  - `leader_last`: round 1's start player is drawn by lot; each later round is
    started by the player after the one with the most treasure, so the leader
    acts last in every phase; a tie for the most goes to the first of the tied
    players counting from the previous start player (so an even table rotates).
- A game ends, scored as usual, when the level under construction can never be
  built (`can_never_build`): no usable card can be drawn any more (the pile and
  the discard pile hold only cards of built levels), so every hand keeps its
  size for good and the cards of the hands and the swap zone are all the table
  will ever have; if even the best arrangement of those cards (swaps can bring
  any card of the zone into any hand that has a card to give) gives fewer than 5
  units to set, no sequence of moves can build the level.
- A game also ends, scored as usual, when `IDLE_ROUNDS_PER_PLAYER x players`
  rounds in a row pass in which no card was drawn and no level was built: the
  table only swaps cards round among itself (greedy players were seen doing
  that for ever, or passing for ever, where a level could still be built in
  principle; `docs/balance/temple/report.md`).
"""

from __future__ import annotations

from itertools import product

from pyramids.core.rng import Rng
from pyramids.games.temple.cards import JEWEL, LEVELS
from pyramids.games.temple.construction import MAX_UNITS_PER_PLAYER, UNITS_TO_BUILD

START_ROTATE, START_LOT, START_POOREST, START_LEADER_LAST = (
    "rotate", "lot", "poorest", "leader_last")
START_RULES = (START_ROTATE, START_LOT, START_POOREST, START_LEADER_LAST)
IDLE_ROUNDS_PER_PLAYER = 2


def first_start_player(rule: str, players: int, rng: Rng) -> int:
    """The start player of round 1 (drawn with `rng` unless the rule is `rotate`)."""
    if rule == START_ROTATE:
        return 0
    return rng.randrange(players)


def next_start_player(rule: str, previous: int, treasure: list[int]) -> int:
    """The start player of the next round, from the previous one and the treasure now."""
    players = len(treasure)
    if rule == START_POOREST:
        after = [(previous + offset) % players for offset in range(1, players + 1)]
        least = min(treasure)
        return next(seat for seat in after if treasure[seat] == least)
    if rule == START_LEADER_LAST:
        from_previous = [(previous + offset) % players for offset in range(players)]
        most = max(treasure)
        leader = next(seat for seat in from_previous if treasure[seat] == most)
        return (leader + 1) % players
    return (previous + 1) % players


def _usable(kind: int, built: int) -> bool:
    return kind == JEWEL or kind >= built


def can_never_build(built: int, hands: list[list[int]], zone: list[int], pile: list[int],
                    discard: list[int]) -> bool:
    """Whether the level under construction (`built + 1`) can never be built.

    `zone` holds kinds, with a negative number for an empty slot. True only when
    no usable card is left to draw and the best arrangement of the cards of the
    hands and the zone falls short of the 5 units a level needs.
    """
    if built >= LEVELS:
        return False
    if any(_usable(kind, built) for kind in pile):
        return False
    if any(n and _usable(kind, built) for kind, n in enumerate(discard)):
        return False
    level_kind = built
    zone_cards = [kind for kind in zone if kind >= 0]
    if not zone_cards:
        # No swap can change a hand: each player sets what they hold.
        best = sum(min(MAX_UNITS_PER_PLAYER, hand[level_kind] + hand[JEWEL] // 2)
                   for hand in hands)
        return best < UNITS_TO_BUILD
    # Cheap answers first (both exact): the hands as they are already make enough,
    # or even the loosest bound falls short. Only in between is the search needed.
    as_held = sum(min(MAX_UNITS_PER_PLAYER, hand[level_kind] + hand[JEWEL] // 2)
                  for hand in hands)
    if as_held >= UNITS_TO_BUILD:
        return False
    sizes = [sum(hand) for hand in hands]
    cards = sum(hand[level_kind] for hand in hands) + zone_cards.count(level_kind)
    jewels = sum(hand[JEWEL] for hand in hands) + zone_cards.count(JEWEL)
    loosest = min(sum(min(MAX_UNITS_PER_PLAYER, size) for size in sizes), cards + jewels // 2)
    if loosest < UNITS_TO_BUILD:
        return True
    return max_units(sizes, cards, jewels) < UNITS_TO_BUILD


def max_units(sizes: list[int], cards: int, jewels: int) -> int:
    """The most units a table can set when `cards` level cards and `jewels` jewels
    may be shared out at will among hands of these sizes.

    A player setting `u` units with `b` jewel pairs holds `u - b` level cards and
    `2b` jewels, so `b <= size - u`; the units are possible together when the
    level cards and jewels suffice: `sum(u) - cards <= sum(b) <= jewels // 2`.
    """
    best = 0
    caps = [range(min(MAX_UNITS_PER_PLAYER, size) + 1) for size in sizes]
    for units in product(*caps):
        total = sum(units)
        if total <= best:
            continue
        most_pairs = sum(min(u, size - u) for u, size in zip(units, sizes, strict=True))
        if max(0, total - cards) <= min(jewels // 2, most_pairs):
            best = total
    return best
