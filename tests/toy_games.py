"""Two tiny games that implement the full game API, for testing agents and the arena
without depending on any real engine.

- `toy-nim`: two players take 1 to 3 stones from a pile; who takes the last wins.
  Perfect information, no chance.
- `toy-draw`: 1 to 4 players each hold a hidden card from a shuffled deck of
  1..9; in two laps each player keeps or swaps their card for the top of the deck.
  The highest card wins (ties share the win, a draw). Alone, a card of 6 or more
  wins. Hidden hands, a hidden deck, chance inside the state.

`toy-nim` is the example plugin package `examples/pyramids-nim` (the template of
docs/adding-a-game.md), imported from the checkout when it is not installed.
They are not registered: tests pass `load_toy` to the arena as its game loader.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, ClassVar

from pyramids.core import TERMINAL, Game, IllegalActionError, Option, RandomSource, Rng, State

EXAMPLE_PLUGIN = Path(__file__).resolve().parents[1] / "examples" / "pyramids-nim"
try:
    from pyramids_nim import NimGame, NimState
except ModuleNotFoundError:
    sys.path.insert(0, str(EXAMPLE_PLUGIN / "src"))
    from pyramids_nim import NimGame, NimState


KEEP, SWAP = 0, 1
LAPS = 2


class DrawGame(Game):
    name: ClassVar[str] = "toy-draw"
    option_specs = (Option("players", 2, int, "number of players", minimum=1, maximum=4),)

    @property
    def num_players(self) -> int:
        return int(self.options["players"])

    @property
    def num_distinct_actions(self) -> int:
        return 2

    def new_initial_state(self, seed: int | str | None = None) -> DrawState:
        rng = Rng(seed)
        deck = list(range(1, 10))
        rng.shuffle(deck)
        hands = [deck.pop() for _ in range(self.num_players)]
        return DrawState(self, seed, hands, deck, 0, rng.state, [])

    def _state_from_dict(self, data: dict[str, Any]) -> DrawState:
        return DrawState(self, data["seed"], data["hands"], data["deck"], data["turn"],
                         data["rng"], data["history"])


class DrawState(State):
    def __init__(self, game: DrawGame, seed: int | str | None, hands: list[int],
                 deck: list[int], turn: int, rng_state: int, history: list[int]) -> None:
        self.game = game
        self.seed = seed
        self.hands = list(hands)
        self.deck = list(deck)
        self.turn = turn
        self.rng = Rng()
        self.rng.state = rng_state
        self._history = list(history)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.turn % self.players

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [KEEP, SWAP]

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise self.illegal(action, "allowed: keep (0) or swap (1)")
        if action == SWAP:
            # The deck is reshuffled before each draw: chance inside the state.
            self.rng.shuffle(self.deck)
            player = self.current_player
            self.deck.append(self.hands[player])
            self.hands[player] = self.deck.pop(0)
        self.turn += 1
        self._history.append(action)

    def action_to_string(self, action: int) -> str:
        return {KEEP: "keep", SWAP: "swap"}[action]

    def string_to_action(self, text: str) -> int:
        try:
            return {"keep": KEEP, "swap": SWAP}[text]
        except KeyError:
            raise IllegalActionError(f"unknown action {text!r}") from None

    def is_terminal(self) -> bool:
        return self.turn >= LAPS * self.players

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.players
        if self.players == 1:
            return [1.0 if self.hands[0] >= 6 else -1.0]
        best = max(self.hands)
        winners = [p for p, card in enumerate(self.hands) if card == best]
        if len(winners) > 1:
            return [0.0] * self.players
        return [1.0 if p in winners else -1.0 for p in range(self.players)]

    def view(self, player: int | None) -> dict[str, Any]:
        done = self.is_terminal()
        return {
            "hand": self.hands[player] if player is not None else None,
            "hands": list(self.hands) if done else None,
            "deck_size": len(self.deck),
            "turn": self.turn,
            "outcome": self.outcome(),
        }

    def clone(self) -> DrawState:
        return DrawState(self.game, self.seed, self.hands, self.deck, self.turn,  # type: ignore[arg-type]
                         self.rng.state, self._history)

    def history(self) -> list[int]:
        return list(self._history)

    def resample_hidden(self, player: int | None, rng: RandomSource) -> DrawState:
        copy = self.clone()
        if self.is_terminal():
            return copy
        unseen = [c for p, c in enumerate(self.hands) if p != player] + list(self.deck)
        for i in range(len(unseen) - 1, 0, -1):
            j = rng.randrange(i + 1)
            unseen[i], unseen[j] = unseen[j], unseen[i]
        for p in range(self.players):
            if p != player:
                copy.hands[p] = unseen.pop()
        copy.deck = unseen
        copy.rng.state = rng.randrange(1 << 62)
        return copy

    def _to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "hands": self.hands, "deck": self.deck, "turn": self.turn,
                "rng": self.rng.state, "history": self._history}


TOY_GAMES: dict[str, type[Game]] = {"toy-nim": NimGame, "toy-draw": DrawGame}


def load_toy(name: str, **options: Any) -> Game:
    """A toy game by name, the same signature as `pyramids.core.load`."""
    return TOY_GAMES[name](**options)

__all__ = ["DrawGame", "DrawState", "NimGame", "NimState", "load_toy"]
