"""Building one level of the pyramid: units, caps, success, failure and earnings.

Rules implemented (rules page, "Phase 3: construction"):
- a *unit* is one construction card of the level under construction or a pair
  of jewels;
- the summoner sets first, then each other player once, in seat order after the
  summoner; each sets 0 to `MAX_UNITS_PER_PLAYER` units and never more than the
  units still missing;
- the level is built as soon as `UNITS_TO_BUILD` units are set (success); when
  everyone has had their chance with fewer set, the construction fails;
- on success each player who set units earns `level x units` treasure points.
"""

from __future__ import annotations

from typing import Any

from pyramids.core.errors import N_, PluralWords, Words

UNITS_TO_BUILD = 5
MAX_UNITS_PER_PLAYER = 3

# Every (level cards, jewel pairs) a player may set, whatever the position.
SET_CHOICES: tuple[tuple[int, int], ...] = tuple(
    (cards, pairs)
    for cards in range(MAX_UNITS_PER_PLAYER + 1)
    for pairs in range(MAX_UNITS_PER_PLAYER + 1 - cards)
)


def why_set_is_illegal(cards: int, pairs: int, level: int, level_cards_held: int,
                       jewels_held: int, missing: int) -> Words | None:
    """Why setting `cards` level cards and `pairs` jewel pairs is not allowed, or None."""
    units = cards + pairs
    if cards < 0 or pairs < 0:
        return Words(N_("counts cannot be negative"))
    if units > MAX_UNITS_PER_PLAYER:
        return Words(N_("a player sets at most {most} units, this is {units}"),
                     most=MAX_UNITS_PER_PLAYER, units=units)
    if units > missing:
        return PluralWords("only {count} unit still missing",
                           "only {count} units still missing", missing)
    if cards > level_cards_held:
        return PluralWords("you hold only {count} card of level {level}",
                           "you hold only {count} cards of level {level}",
                           level_cards_held, level=level)
    if 2 * pairs > jewels_held:
        return PluralWords("{count} jewel pair needs {jewels} jewels, you hold {held}",
                           "{count} jewel pairs need {jewels} jewels, you hold {held}",
                           pairs, jewels=2 * pairs, held=jewels_held)
    return None


def earnings(level: int, units: int) -> int:
    """Treasure earned by a player who set `units` units on a successful `level`."""
    return level * units


class Construction:
    """A construction in progress: who summoned, who has set what, who sets next."""

    __slots__ = ("summoner", "paid", "order", "sets")

    def __init__(self, summoner: int, paid: bool, num_players: int,
                 sets: list[tuple[int, int, int]] | None = None) -> None:
        self.summoner = summoner
        self.paid = paid
        # The summoner first, then each other player once in seat order after them.
        self.order = [(summoner + offset) % num_players for offset in range(num_players)]
        self.sets: list[tuple[int, int, int]] = sets if sets is not None else []

    def copy(self) -> Construction:
        twin = Construction.__new__(Construction)
        twin.summoner = self.summoner
        twin.paid = self.paid
        twin.order = self.order
        twin.sets = list(self.sets)
        return twin

    @property
    def units(self) -> int:
        return sum(cards + pairs for _, cards, pairs in self.sets)

    @property
    def missing(self) -> int:
        return UNITS_TO_BUILD - self.units

    @property
    def complete(self) -> bool:
        return self.units >= UNITS_TO_BUILD

    @property
    def everyone_has_set(self) -> bool:
        return len(self.sets) >= len(self.order)

    @property
    def next_setter(self) -> int:
        return self.order[len(self.sets)]

    def record(self, player: int, cards: int, pairs: int) -> None:
        self.sets.append((player, cards, pairs))

    def units_by_player(self, num_players: int) -> list[int]:
        units = [0] * num_players
        for player, cards, pairs in self.sets:
            units[player] += cards + pairs
        return units

    def to_dict(self) -> dict[str, Any]:
        return {"summoner": self.summoner, "paid": self.paid,
                "sets": [list(entry) for entry in self.sets]}

    @classmethod
    def from_dict(cls, data: dict[str, Any], num_players: int) -> Construction:
        summoner = int(data["summoner"])
        if not 0 <= summoner < num_players:
            raise ValueError(f"summoner {summoner} is not a seat")
        sets = [(int(p), int(c), int(j)) for p, c, j in data["sets"]]
        construction = cls(summoner, bool(data["paid"]), num_players, sets)
        for (player, cards, pairs), expected in zip(sets, construction.order, strict=False):
            if player != expected or (cards, pairs) not in SET_CHOICES:
                raise ValueError(f"construction set {[player, cards, pairs]} is out of turn "
                                 "or over the 3-unit cap")
        if construction.complete or construction.everyone_has_set:
            raise ValueError("a finished construction cannot be under way")
        return construction
