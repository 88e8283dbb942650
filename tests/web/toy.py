"""`toy-hidden`: a tiny two-seat game with hidden hands, registered only by the web tests.

Twelve named cards are shuffled from the seed; each seat is dealt four and the
other four stay in a deck nobody ever sees. Seats alternate playing one card of
their hand face up, two cards each; the higher total of card values wins. So two
cards of each hand and the whole deck are never shown: a message that holds one
of those names leaks a secret.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from pyramids.core import (
    TERMINAL,
    Game,
    GameEntry,
    RandomSource,
    Rng,
    State,
    register,
)

CARDS = (
    "amber", "basalt", "cobalt", "dune", "ember", "flint",
    "garnet", "harbor", "indigo", "jasper", "kelp", "lumen",
)
HAND = 4
PLAYS_EACH = 2
NAME = "toy-hidden"


class ToyGame(Game):
    name = NAME

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_distinct_actions(self) -> int:
        return len(CARDS)

    def new_initial_state(self, seed: int | str | None = None) -> ToyState:
        deck = list(range(len(CARDS)))
        Rng(seed).shuffle(deck)
        return ToyState(self, seed, [deck[:HAND], deck[HAND : 2 * HAND]], deck[2 * HAND :])

    def _state_from_dict(self, data: dict[str, Any]) -> ToyState:
        state = ToyState(self, data["seed"], data["hands"], data["deck"])
        state.played = [list(p) for p in data["played"]]
        state.moves = list(data["moves"])
        return state


class ToyState(State):
    def __init__(
        self, game: ToyGame, seed: int | str | None, hands: list[list[int]], deck: list[int]
    ) -> None:
        self.game = game
        self.seed = seed
        self.hands = [sorted(hand) for hand in hands]
        self.deck = list(deck)
        self.played: list[list[int]] = [[], []]
        self.moves: list[int] = []

    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else len(self.moves) % 2

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else sorted(self.hands[self.current_player])

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise self.illegal(action, "not a card in the hand of the seat to move")
        player = self.current_player
        self.hands[player].remove(action)
        self.played[player].append(action)
        self.moves.append(action)

    def action_to_string(self, action: int) -> str:
        return f"play {CARDS[action]}"

    def string_to_action(self, text: str) -> int:
        from pyramids.core import IllegalActionError

        word = text.strip().removeprefix("play ").strip()
        if word not in CARDS:
            raise IllegalActionError(f"{NAME}: unknown action {text!r}; say 'play <card>'")
        return CARDS.index(word)

    def is_terminal(self) -> bool:
        return len(self.moves) >= 2 * PLAYS_EACH

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        totals = [sum(card + 1 for card in played) for played in self.played]
        if totals[0] == totals[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if totals[0] > totals[1] else [-1.0, 1.0]

    def view(self, player: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "played": [[CARDS[c] for c in played] for played in self.played],
            "hand_sizes": [len(hand) for hand in self.hands],
            "current_player": self.current_player,
            "outcome": self.outcome(),
        }
        if player is not None:
            view["hand"] = [CARDS[c] for c in self.hands[player]]
        return view

    def clone(self) -> ToyState:
        other = ToyState(self.game, self.seed, self.hands, self.deck)
        other.played = [list(p) for p in self.played]
        other.moves = list(self.moves)
        return other

    def history(self) -> list[int]:
        return list(self.moves)

    def resample_hidden(self, player: int | None, rng: RandomSource) -> ToyState:
        other = self.clone()
        unseen = list(self.deck)
        for seat in range(2):
            if seat != player:
                unseen += self.hands[seat]
        for i in range(len(unseen) - 1, 0, -1):
            j = rng.randrange(i + 1)
            unseen[i], unseen[j] = unseen[j], unseen[i]
        for seat in range(2):
            if seat != player:
                size = len(self.hands[seat])
                other.hands[seat], unseen = sorted(unseen[:size]), unseen[size:]
        other.deck = unseen
        return other

    def _to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "hands": self.hands,
            "deck": self.deck,
            "played": self.played,
            "moves": self.moves,
        }

    def never_shown(self, player: int) -> set[str]:
        """Card names `player` has not seen by now: the deck and the others' unplayed cards."""
        hidden = set(self.deck)
        for seat in range(2):
            if seat != player:
                hidden |= set(self.hands[seat])
        return {CARDS[c] for c in hidden}


class WanderingAgent:
    """Plays a legal card drawn from its own generator and notes the process it thought
    in: a bot that remembers, so a copy of it that forgot its last move would play other
    cards. A module-level class, so that a server's bot process can unpickle it."""

    name = "wandering"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = Rng(seed)
        self.processes: list[int] = []

    def step(self, state: State) -> int:
        self.processes.append(os.getpid())
        action: int = self.rng.choice(state.legal_actions())
        return action


class LockedAgent(WanderingAgent):
    """The same, holding a lock: it cannot be pickled, so it must think in a thread."""

    name = "locked"

    def __init__(self, seed: int | None = 0) -> None:
        super().__init__(seed)
        self.lock = threading.Lock()


class QuickWanderingAgent(WanderingAgent):
    """The same, declared quick (no search, as greedy): a thread is enough for it."""

    name = "quick-wandering"
    quick = True


def toy_entry() -> GameEntry:
    return GameEntry(NAME, ToyGame, "A two-seat hidden-hand toy for the server tests.")


def register_toy() -> None:
    """For a server in a process of its own; in the test process, tests/web/conftest.py
    registers the toy game for the web tests alone."""
    register(toy_entry())
