"""A plain reference model of Temple of Inscriptions, written from the rules page only.

It starts from a dealt position (hands, swap zone, pile order, treasure, start
player: read from the engine's first state, since the deal is chance) and works
out from the rules which moves are legal and what each one does. Moves are the
action strings of the rules page (`swap K S`, `swap pass`, `summon`, `pass`,
`set C J`). Cards are kinds: `L1`..`L9` and `J`.

The only other thing it borrows is the chance generator, for the order of a
reshuffled discard pile (the cards go in kind order, then are shuffled).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

KINDS = tuple(f"L{level}" for level in range(1, 10)) + ("J",)
SET_CHOICES = [(c, j) for c in range(4) for j in range(4 - c)]  # (0,0) (0,1) .. (3,0)


def action_number(move: str, swap_size: int) -> int:
    """The action number of a move, as the rules page numbers them."""
    words = move.split()
    base = 10 * swap_size
    if move == "swap pass":
        return base
    if words[0] == "swap":
        return KINDS.index(words[1]) * swap_size + int(words[2]) - 1
    if move == "summon":
        return base + 1
    if move == "pass":
        return base + 2
    return base + 3 + SET_CHOICES.index((int(words[1]), int(words[2])))


@dataclass
class Construction:
    level: int
    summoner: int
    paid: bool
    order: list[int]  # who sets, summoner first
    asked: int = 0
    sets: list[tuple[int, int, int]] = field(default_factory=list)  # (player, cards, pairs)

    def units_by_player(self, players: int) -> list[int]:
        units = [0] * players
        for player, cards, pairs in self.sets:
            units[player] += cards + pairs
        return units

    def units(self) -> int:
        return sum(cards + pairs for _, cards, pairs in self.sets)


@dataclass
class TempleModel:
    players: int
    options: dict[str, Any]
    hands: list[Counter[str]]
    zone: list[str | None]
    pile: list[str]  # the top is the end
    discard: Counter[str]
    removed: Counter[str]
    treasure: list[int]
    start_player: int
    rng: Any  # the chance generator, for reshuffles only
    built: int = 0
    round: int = 1
    phase: str = "swap"
    current: int = 0
    acted: int = 0  # swaps done, or passes in a row
    construction: Construction | None = None
    known: list[Counter[str]] = field(default_factory=list)
    quiet_rounds: int = 0
    stirred: bool = True  # the first round's draws happened before the model starts
    ended_by: str | None = None

    def __post_init__(self) -> None:
        self.current = self.start_player
        self.known = [Counter() for _ in range(self.players)]

    # -- cards -------------------------------------------------------------
    def usable(self, kind: str) -> bool:
        return kind == "J" or int(kind[1:]) > self.built

    def draw(self) -> str | None:
        """The next usable card: built levels are discarded; an empty pile is the discard
        pile reshuffled, without built levels (they leave the game); None when no card."""
        while True:
            if not self.pile:
                for kind in KINDS:
                    if self.usable(kind):
                        self.pile += [kind] * self.discard[kind]
                    else:
                        self.removed[kind] += self.discard[kind]
                    del self.discard[kind]
                self.rng.shuffle(self.pile)
                if not self.pile:
                    return None
            kind = self.pile.pop()
            if self.usable(kind):
                self.stirred = True
                return kind
            self.discard[kind] += 1

    # -- legal moves ---------------------------------------------------------
    def legal(self) -> set[str]:
        hand = self.hands[self.current]
        if self.phase == "swap":
            return {"swap pass"} | {f"swap {kind} {slot + 1}" for kind in KINDS if hand[kind]
                                    for slot, taken in enumerate(self.zone) if taken}
        if self.phase == "summon":
            return {"summon", "pass"}
        if self.phase == "set":
            assert self.construction is not None
            missing = 5 - self.construction.units()
            level = f"L{self.construction.level}"
            return {f"set {c} {j}" for c, j in SET_CHOICES
                    if c + j <= missing and c <= hand[level] and 2 * j <= hand["J"]}
        return set()

    def lower_known(self, player: int, kind: str, count: int) -> None:
        self.known[player][kind] = max(0, self.known[player][kind] - count)

    # -- moves ---------------------------------------------------------------
    def apply(self, move: str) -> None:
        assert move in self.legal(), (move, sorted(self.legal()))
        player, words = self.current, move.split()
        if self.phase == "swap":
            if move != "swap pass":
                given, slot = words[1], int(words[2]) - 1
                taken = self.zone[slot]
                assert taken is not None
                self.hands[player][given] -= 1
                self.lower_known(player, given, 1)
                self.hands[player][taken] += 1
                self.known[player][taken] += 1
                self.zone[slot] = given
            self.acted += 1
            self.current = (player + 1) % self.players
            if self.acted == self.players:
                self.phase, self.acted = "summon", 0
        elif self.phase == "summon":
            if move == "pass":
                self.acted += 1
                self.current = (player + 1) % self.players
                if self.acted == self.players:
                    self.end_round()
            else:
                paid = self.treasure[player] > 0
                self.treasure[player] -= int(paid)
                order = [(player + i) % self.players for i in range(self.players)]
                self.construction = Construction(self.built + 1, player, paid, order)
                self.phase = "set"
        else:
            c = self.construction
            assert c is not None
            cards, pairs = int(words[1]), int(words[2])
            level = f"L{c.level}"
            self.hands[player][level] -= cards
            self.hands[player]["J"] -= 2 * pairs
            self.lower_known(player, level, cards)
            self.lower_known(player, "J", 2 * pairs)
            c.sets.append((player, cards, pairs))
            c.asked += 1
            if c.units() == 5:
                self.success(c)
            elif c.asked == self.players:
                self.failure(c)
            else:
                self.current = c.order[c.asked]

    def success(self, c: Construction) -> None:
        level = f"L{c.level}"
        self.built = c.level
        for player, units in enumerate(c.units_by_player(self.players)):
            self.treasure[player] += c.level * units
        for _, cards, pairs in c.sets:
            self.discard[level] += cards
            self.discard["J"] += 2 * pairs
        for player, hand in enumerate(self.hands):
            self.discard[level] += hand[level]
            hand[level] = 0
            self.known[player][level] = 0
        emptied = [slot for slot, kind in enumerate(self.zone) if kind == level]
        self.discard[level] += len(emptied)  # all of them first, then the refills
        for slot in emptied:
            self.zone[slot] = self.draw()
        self.stirred = True
        self.construction = None
        if self.built == 9:
            self.quiet_rounds = 0
            self.end_game("level 9 built")
            return
        self.phase, self.acted = "summon", 0
        self.current = (c.summoner + 1) % self.players

    def failure(self, c: Construction) -> None:
        level = f"L{c.level}"
        for player, cards, pairs in c.sets:
            for kind, count in ((level, cards), ("J", 2 * pairs)):
                self.hands[player][kind] += count
                self.known[player][kind] += count
        self.construction = None
        self.end_round()

    # -- rounds and the end --------------------------------------------------
    def can_never_build(self) -> bool:
        """Nothing usable left to draw, and no arrangement of the hands and the swap zone
        sets 5 units of the current level (each player at most 3)."""
        level = f"L{self.built + 1}"
        if any(self.usable(kind) for kind in self.pile + list(+self.discard)):
            return False
        zone_cards = [kind for kind in self.zone if kind is not None]
        if zone_cards:  # swaps can bring any card to any hand that has a card to give
            sizes = [sum(hand.values()) for hand in self.hands]
            everything = sum(self.hands, Counter()) + Counter(zone_cards)
            reach = {(0, 0)}  # (level cards used, jewels used), per player in turn
            best = 0
            for size in sizes:
                reach = {(lc + c, jw + 2 * j) for lc, jw in reach for c, j in SET_CHOICES
                         if c + 2 * j <= size and lc + c <= everything[level]
                         and jw + 2 * j <= everything["J"]}
            best = max(lc + jw // 2 for lc, jw in reach)
            return best < 5
        return sum(min(3, hand[level] + hand["J"] // 2) for hand in self.hands) < 5

    def end_round(self) -> None:
        self.quiet_rounds = 0 if self.stirred else self.quiet_rounds + 1
        if self.can_never_build():
            self.end_game("level cannot be built")
            return
        if self.quiet_rounds >= 2 * self.players:
            self.end_game("no progress")
            return
        if self.round == self.options["max_rounds"]:
            self.end_game("max_rounds")
            return
        self.round += 1
        self.start_player = self.next_start_player()
        self.stirred = False
        for i in range(self.players):
            player = (self.start_player + i) % self.players
            for _ in range(2):
                kind = self.draw()
                if kind is not None:
                    self.hands[player][kind] += 1
        self.phase, self.acted, self.current = "swap", 0, self.start_player

    def next_start_player(self) -> int:
        rule, last, n = self.options["start_rule"], self.start_player, self.players
        if rule in ("rotate", "lot"):
            return (last + 1) % n
        if rule == "leader_last":
            order = [(last + i) % n for i in range(n)]
            leader = max(order, key=lambda p: (self.treasure[p], -order.index(p)))
            return (leader + 1) % n
        order = [(last + 1 + i) % n for i in range(n)]  # poorest
        return min(order, key=lambda p: (self.treasure[p], order.index(p)))

    def end_game(self, why: str) -> None:
        self.ended_by, self.phase, self.construction = why, "over", None

    def scores(self) -> list[int]:
        return [t + hand["J"] for t, hand in zip(self.treasure, self.hands, strict=True)]

    def winners(self) -> list[int]:
        best = max(zip(self.scores(), (hand["J"] for hand in self.hands), strict=True))
        return [p for p in range(self.players)
                if (self.scores()[p], self.hands[p]["J"]) == best]

    def returns(self) -> list[float]:
        if self.phase != "over":
            return [0.0] * self.players
        winners = self.winners()
        k = len(winners)
        if k == self.players:
            return [0.0] * self.players
        return [1 / k if p in winners else -1 / (self.players - k) for p in range(self.players)]
