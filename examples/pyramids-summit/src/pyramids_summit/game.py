"""The rules of Summit as a `Game` and a `State` (the rules page is rules.md).

Actions: 0..8 mean "play 1".."play 9". The state keeps every hand and the deck's
order (the deal shuffles once, from the seed; nothing is drawn at random later),
so a seed and the moves replay a game exactly. `view(p)` shows seat p its own
hand and everyone the public rest; `resample_hidden(p)` deals what p cannot see
(the others' hands and the deck) afresh from the same unseen cards.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pyramids.core import (
    TERMINAL,
    Game,
    IllegalActionError,
    Option,
    RandomSource,
    Rng,
    State,
)
from pyramids.core.api import ZERO_SUM
from pyramids.core.errors import N_, Words

from .views import HAND

#: The cards are 1..CARDS, COPIES of each.
CARDS = 9
COPIES = 2
NUMBERS = {str(card) for card in range(1, CARDS + 1)}


class SummitGame(Game):
    name: ClassVar[str] = "summit"
    option_specs = (
        Option("players", 2, int, "number of climbers", minimum=2, maximum=4),
        Option("height", 5, int, "steps to the summit", minimum=1, maximum=12),
    )

    @property
    def num_players(self) -> int:
        return int(self.options["players"])

    @property
    def num_distinct_actions(self) -> int:
        return CARDS

    def returns_kind(self) -> str | None:
        return ZERO_SUM

    def new_initial_state(self, seed: int | str | None = None) -> SummitState:
        deck = [card for card in range(1, CARDS + 1) for _ in range(COPIES)]
        Rng(seed).shuffle(deck)
        hands = [sorted(deck.pop() for _ in range(HAND)) for _ in range(self.num_players)]
        stone = deck.pop()
        return SummitState(self, seed, hands, deck, stone, [0] * self.num_players, 0, [])

    def _state_from_dict(self, data: dict[str, Any]) -> SummitState:
        """A saved state, checked field by field: a bad one raises ValueError naming it."""
        n = self.num_players
        hands, deck, stone = data["hands"], data["deck"], data["stone"]
        steps, player, history = data["steps"], data["player"], data["history"]
        if not (isinstance(hands, list) and len(hands) == n
                and all(isinstance(hand, list) and len(hand) <= HAND for hand in hands)):
            raise ValueError(f"hands: not {n} hands of at most {HAND} cards")
        if not isinstance(deck, list):
            raise ValueError("deck: not a list of cards")
        cards = [card for hand in hands for card in hand] + deck + [stone]
        if not all(type(card) is int and 1 <= card <= CARDS for card in cards):
            raise ValueError(f"hands, deck, stone: a card is not 1..{CARDS}")
        if any(cards.count(card) > COPIES for card in set(cards)):
            raise ValueError(f"hands, deck, stone: a card is there more than {COPIES} times")
        if not (isinstance(steps, list) and len(steps) == n
                and all(type(step) is int and step >= 0 for step in steps)):
            raise ValueError(f"steps: not {n} counts of 0 or more")
        if player not in range(n):
            raise ValueError(f"player: {player!r} is not a seat 0..{n - 1}")
        if not (isinstance(history, list)
                and all(type(a) is int and 0 <= a < CARDS for a in history)):
            raise ValueError(f"history: not a list of actions 0..{CARDS - 1}")
        return SummitState(self, data["seed"], hands, deck, stone, steps, player, history)


class SummitState(State):
    def __init__(self, game: SummitGame, seed: int | str | None, hands: list[list[int]],
                 deck: list[int], stone: int, steps: list[int], player: int,
                 history: list[int]) -> None:
        self.game = game
        self.seed = seed
        self.hands = [sorted(hand) for hand in hands]
        self.deck = list(deck)  # the top card is the last
        self.stone = stone
        self.steps = list(steps)
        self.player = player  # the seat to play, while the game goes on
        self._history = list(history)

    @property
    def height(self) -> int:
        return int(self.game.options["height"])

    # -- the play -------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.player

    def is_terminal(self) -> bool:
        return max(self.steps) >= self.height or not any(self.hands)

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        return sorted({card - 1 for card in self.hands[self.player]})

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            if self.is_terminal():
                raise self.illegal(action, Words(N_("the game is over")))
            raise self.illegal(action, Words(N_("you hold no such card")))
        card = action + 1
        hand = self.hands[self.player]
        hand.remove(card)
        if card > self.stone:
            self.steps[self.player] += 1
        elif card == self.stone:
            self.steps[self.player] += 2
        self.stone = card
        if self.deck:
            hand.append(self.deck.pop())
            hand.sort()
        self._history.append(action)
        n = self.game.num_players
        for step in range(1, n + 1):  # the next climber who still holds a card
            following = (self.player + step) % n
            if self.hands[following]:
                self.player = following
                break

    def action_to_string(self, action: int) -> str:
        if not 0 <= action < CARDS:
            raise ValueError(f"action {action} is not 0..{CARDS - 1}")
        return f"play {action + 1}"

    def string_to_action(self, text: str) -> int:
        words = text.split()
        if len(words) == 2 and words[0] == "play" and words[1] in NUMBERS:
            return int(words[1]) - 1
        raise IllegalActionError(N_("unknown move '{text}'; the moves are 'play N' (1..9)"),
                                 text=text)

    # -- the end ---------------------------------------------------------------------

    def returns(self) -> list[float]:
        """Zero-sum: the winners share what the others lose."""
        n = self.game.num_players
        if not self.is_terminal():
            return [0.0] * n
        best = max(self.steps)
        winners = [seat for seat in range(n) if self.steps[seat] == best]
        return [1 / len(winners) - 1 / n if seat in winners else -1 / n for seat in range(n)]

    # -- what each seat sees ---------------------------------------------------------

    def view(self, player: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "game": "summit", "height": self.height, "steps": list(self.steps),
            "hand_sizes": [len(hand) for hand in self.hands], "stone": self.stone,
            "deck_size": len(self.deck), "to_move": self.current_player,
        }
        if player is not None:
            view["hand"] = list(self.hands[player])
        view["outcome"] = self.outcome()
        return view

    def resample_hidden(self, player: int | None, rng: RandomSource) -> SummitState:
        """A copy with the cards `player` cannot see (the others' hands, the deck) dealt
        again at random: each hand keeps its size, the deck its length."""
        copy = self.clone()
        unseen = list(self.deck)
        for seat, hand in enumerate(self.hands):
            if seat != player:
                unseen += hand
        for i in range(len(unseen) - 1, 0, -1):
            j = rng.randrange(i + 1)
            unseen[i], unseen[j] = unseen[j], unseen[i]
        for seat, hand in enumerate(self.hands):
            if seat != player:
                copy.hands[seat] = sorted(unseen.pop() for _ in hand)
        copy.deck = unseen
        return copy

    # -- copies and saving -----------------------------------------------------------

    def clone(self) -> SummitState:
        assert isinstance(self.game, SummitGame)
        return SummitState(self.game, self.seed, self.hands, self.deck, self.stone,
                           self.steps, self.player, self._history)

    def history(self) -> list[int]:
        return list(self._history)

    def _to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "hands": [list(hand) for hand in self.hands],
                "deck": list(self.deck), "stone": self.stone, "steps": list(self.steps),
                "player": self.player, "history": list(self._history)}
