"""A plain reference model of Pacal, written from the rules page only.

It knows nothing of the engine: it is given each round's deal (the two hands,
and in round 1 the two revealed apex base cards) and works out, from the rules,
which moves are legal and what each move does. Moves are the action strings of
the rules page (`offer A B`, `pick V`, `place Fn`, `decline`). The differential
test drives the engine and this model side by side and compares them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FIELDS = 10
ROW_OF = (0, 1, 1, 2, 2, 2, 3, 3, 3, 3)
COLUMN_OF = (0, 0, 1, 0, 1, 2, 0, 1, 2, 3)


def layout(direction: str) -> list[list[int]]:
    """[row, column] of F1..F10 as drawn: `ascending` mirrors each row."""
    if direction == "ascending":
        return [[row, row - column] for row, column in zip(ROW_OF, COLUMN_OF, strict=True)]
    return [[row, column] for row, column in zip(ROW_OF, COLUMN_OF, strict=True)]


def visible(pyramid: list[list[int]]) -> list[int | None]:
    return [cards[-1] if cards else None for cards in pyramid]


def legal_fields(pyramid: list[list[int]], card: int) -> list[int]:
    """Field indexes (0..9) where `card` may go: not closed, and lo < card < hi, where
    hi is the smallest visible value before the field and lo the largest after it."""
    shown = visible(pyramid)
    out = []
    for index in range(FIELDS):
        if len(pyramid[index]) == 2:
            continue
        before = [value for value in shown[:index] if value is not None]
        after = [value for value in shown[index + 1:] if value is not None]
        if (not before or card < min(before)) and (not after or card > max(after)):
            out.append(index)
    return out


def occupied(pyramid: list[list[int]]) -> int:
    return sum(1 for cards in pyramid if cards)


def spread(pyramid: list[list[int]]) -> int:
    shown = [value for value in visible(pyramid) if value is not None]
    return max(shown) - min(shown) if shown else 0


def fewer_spread_wins(pyramids: list[list[list[int]]]) -> int | None:
    a, b = spread(pyramids[0]), spread(pyramids[1])
    return None if a == b else (0 if a < b else 1)


@dataclass
class RoundEnd:
    round: int
    winner: int | None  # None: a drawn round
    starting: int
    reason: str
    pyramids: list[list[list[int]]]


@dataclass
class PacalModel:
    rounds_to_win: int = 3
    max_rounds: int = 15
    start_rule: str = "loser"
    round: int = 0
    round_wins: list[int] = field(default_factory=lambda: [0, 0])
    hands: list[list[int]] = field(default_factory=list)
    pyramids: list[list[list[int]]] = field(default_factory=list)
    starting: int = 0
    active: int = 0
    turns: int = 0
    phase: str = "offer"
    offer: list[int] | None = None
    picked: int | None = None
    to_place: list[int | None] = field(default_factory=lambda: [None, None])
    declined: list[bool] = field(default_factory=lambda: [False, False])
    last_decider: int | None = None  # last-card phase: who decides now
    apex: list[int] | None = None
    last_round: RoundEnd | None = None
    winner: int | None = None  # the match winner when over (None: a draw)
    returns: list[float] | None = None
    ends: list[tuple[str, int | None]] = field(default_factory=list)  # (reason, winner)

    # -- the deal ---------------------------------------------------------
    def deal(self, hands: list[list[int]], apex: list[int] | None = None) -> None:
        """Start the next round with these hands (the apex base cards in round 1)."""
        self.round += 1
        self.hands = [sorted(hand) for hand in hands]
        self.pyramids = [[[] for _ in range(FIELDS)] for _ in range(2)]
        if self.round == 1:
            assert apex is not None
            self.apex = list(apex)
            self.starting = 0 if apex[0] > apex[1] else 1
        else:
            self.apex = None
            last = self.last_round
            assert last is not None
            if last.winner is None or self.start_rule == "rotate":
                self.starting = 1 - last.starting
            elif self.start_rule == "winner":
                self.starting = last.winner
            else:
                self.starting = 1 - last.winner
        self.active = self.starting
        self.turns = 0
        self.phase = "offer"
        self.offer = self.picked = None
        self.to_place = [None, None]
        self.declined = [False, False]
        self.last_decider = None

    # -- whose move, which moves -------------------------------------------
    def current_player(self) -> int:
        if self.phase == "over":
            return -1
        if self.phase == "offer":
            return self.active
        if self.phase == "pick":
            return 1 - self.active
        if self.phase == "place":
            picker = 1 - self.active
            return picker if self.to_place[picker] is not None else self.active
        assert self.last_decider is not None
        return self.last_decider

    def card_to_place(self, seat: int) -> int | None:
        if self.phase == "place":
            return self.to_place[seat]
        if self.phase == "last_card" and self.hands[seat] and not self.declined[seat]:
            return self.hands[seat][0]
        return None

    def legal(self) -> set[str]:
        seat = self.current_player()
        if self.phase == "offer":
            hand = self.hands[seat]
            return {f"offer {a} {b}" for i, a in enumerate(hand) for b in hand[i + 1:]}
        if self.phase == "pick":
            assert self.offer is not None
            return {f"pick {value}" for value in self.offer}
        if self.phase in ("place", "last_card"):
            card = self.card_to_place(seat)
            assert card is not None
            moves = {f"place F{i + 1}" for i in legal_fields(self.pyramids[seat], card)}
            return moves | {"decline"} if self.phase == "last_card" else moves
        return set()

    # -- moves -------------------------------------------------------------
    def apply(self, move: str) -> None:
        assert move in self.legal(), (move, sorted(self.legal()))
        seat = self.current_player()
        words = move.split()
        if words[0] == "offer":
            pair = sorted(int(word) for word in words[1:])
            for value in pair:
                self.hands[seat].remove(value)
            self.offer = pair
            self.phase = "pick"
        elif words[0] == "pick":
            assert self.offer is not None
            value = int(words[1])
            self.picked = value
            self.to_place[seat] = value
            self.to_place[self.active] = [v for v in self.offer if v != value][0]
            self.phase = "place"
            self._must_place()
        elif self.phase == "place":
            card = self.to_place[seat]
            assert card is not None
            self.pyramids[seat][int(words[1][1:]) - 1].append(card)
            self.to_place[seat] = None
            if self.to_place[self.active] is not None:
                self._must_place()
            else:
                self._end_of_turn()
        else:  # the last card
            if move == "decline":
                self.declined[seat] = True
            else:
                self.pyramids[seat][int(words[1][1:]) - 1].append(self.hands[seat].pop())
            if seat == self.starting:
                self.last_decider = 1 - seat
            else:
                self._after_last_cards()

    def _must_place(self) -> None:
        """The player to place has no legal field: that player loses the round at once."""
        seat = self.current_player()
        card = self.to_place[seat]
        assert card is not None
        if not legal_fields(self.pyramids[seat], card):
            self._end_round(1 - seat, "cannot place")

    def _end_of_turn(self) -> None:
        complete = [occupied(p) == FIELDS for p in self.pyramids]
        if complete[0] and complete[1]:
            self._end_round(fewer_spread_wins(self.pyramids), "both complete")
            return
        if complete[0] or complete[1]:
            self._end_round(0 if complete[0] else 1, "complete")
            return
        self.turns += 1
        self.offer = self.picked = None
        if self.turns == 14:
            self.phase = "last_card"
            self.last_decider = self.starting
        else:
            self.active = 1 - self.active
            self.phase = "offer"

    def _after_last_cards(self) -> None:
        complete = [occupied(p) == FIELDS for p in self.pyramids]
        if complete[0] and complete[1]:
            self._end_round(fewer_spread_wins(self.pyramids), "both complete")
        elif complete[0] or complete[1]:
            self._end_round(0 if complete[0] else 1, "complete")
        else:
            counts = [occupied(p) for p in self.pyramids]
            if counts[0] != counts[1]:
                self._end_round(0 if counts[0] > counts[1] else 1, "more fields")
            else:
                self._end_round(fewer_spread_wins(self.pyramids), "more fields")

    def _end_round(self, winner: int | None, reason: str) -> None:
        if winner is not None:
            self.round_wins[winner] += 1
        self.ends.append((reason, winner))
        self.last_round = RoundEnd(self.round, winner, self.starting, reason,
                                   [[list(f) for f in p] for p in self.pyramids])
        if max(self.round_wins) >= self.rounds_to_win or self.round >= self.max_rounds:
            a, b = self.round_wins
            self.winner = None if a == b else (0 if a > b else 1)
            self.returns = [0.0, 0.0] if self.winner is None else (
                [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0])
            self.phase = "over"
        else:
            self.phase = "dealing"  # the test deals the engine's next round


@dataclass
class SoloModel:
    """Pacal solo: each drawn card (given by the test) must go on a legal field."""

    pyramid: list[list[int]] = field(default_factory=lambda: [[] for _ in range(FIELDS)])
    card: int | None = None
    draws: int = 0
    result: str = "playing"
    seen: set[int] = field(default_factory=set)

    def draw(self, card: int) -> None:
        assert 1 <= card <= 50 and card not in self.seen, card
        self.seen.add(card)
        self.card = card
        self.draws += 1
        if not legal_fields(self.pyramid, card):
            self.result = "lost"

    def legal(self) -> set[str]:
        if self.result != "playing":
            return set()
        assert self.card is not None
        return {f"place F{i + 1}" for i in legal_fields(self.pyramid, self.card)}

    def apply(self, move: str) -> None:
        assert move in self.legal(), (move, sorted(self.legal()))
        assert self.card is not None
        self.pyramid[int(move.split()[1][1:]) - 1].append(self.card)
        self.card = None
        if occupied(self.pyramid) == FIELDS:
            self.result = "won"

    def returns(self) -> list[float]:
        return [1.0] if self.result == "won" else [-1.0]
