"""Nim, as a game plugin for pyramids: the worked example of docs/adding-a-game.md.

Rules: a pile of stones (option `stones`, 7 by default); two players take 1 to 3
stones in turn; whoever takes the last stone wins. Perfect information, no
chance. Actions: 0, 1, 2 mean "take 1", "take 2", "take 3".

The package declares one entry point in the group `pyramids.games`
(`toy-nim = "pyramids_nim:MANIFEST"`); pyramids reads it and lists the game
everywhere, with the companions the manifest names.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any, ClassVar, Literal, TypedDict

from pyramids.core import (
    TERMINAL,
    Game,
    GameManifest,
    IllegalActionError,
    Option,
    RandomSource,
    State,
    packaged_rules_pages,
)
from pyramids.core.errors import N_, PluralWords
from pyramids.core.views import Outcome

MAX_TAKE = 3


class NimView(TypedDict):
    """What every seat sees (there is nothing hidden)."""

    game: Literal["toy-nim"]
    stones: int
    to_move: int
    outcome: Outcome | None


class NimGame(Game):
    name: ClassVar[str] = "toy-nim"
    option_specs = (Option("stones", 7, int, "stones in the pile", minimum=1, maximum=50),)

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_distinct_actions(self) -> int:
        return MAX_TAKE

    def new_initial_state(self, seed: int | str | None = None) -> NimState:
        return NimState(self, seed, self.options["stones"], 0, [])

    def _state_from_dict(self, data: dict[str, Any]) -> NimState:
        stones, player, history = data["stones"], data["player"], data["history"]
        if not isinstance(stones, int) or not 0 <= stones <= self.options["stones"]:
            raise ValueError(f"stones: {stones!r} is not 0..{self.options['stones']}")
        if player not in (0, 1):
            raise ValueError(f"player: {player!r} is not 0 or 1")
        if not isinstance(history, list) or any(a not in range(MAX_TAKE) for a in history):
            raise ValueError("history: not a list of actions 0..2")
        return NimState(self, data["seed"], stones, player, history)


class NimState(State):
    def __init__(self, game: NimGame, seed: int | str | None, stones: int, player: int,
                 history: list[int]) -> None:
        self.game = game
        self.seed = seed
        self.stones = stones
        self.player = player
        self._history = list(history)

    @property
    def current_player(self) -> int:
        return TERMINAL if self.stones == 0 else self.player

    def legal_actions(self) -> list[int]:
        return list(range(min(MAX_TAKE, self.stones)))

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            # Player words, never an f-string: the interfaces translate the message id
            # and fill in `count` (docs/adding-a-game.md, "Errors players read").
            most = min(MAX_TAKE, self.stones)
            raise self.illegal(action, PluralWords("you may take only {count} stone",
                                                   "you may take 1 to {count} stones", most))
        self.stones -= action + 1
        self._history.append(action)
        if self.stones:
            self.player = 1 - self.player

    def action_to_string(self, action: int) -> str:
        return f"take {action + 1}"

    def string_to_action(self, text: str) -> int:
        for action in range(MAX_TAKE):
            if text == self.action_to_string(action):
                return action
        raise IllegalActionError(N_("unknown move '{text}'; the moves are 'take N' (1..3)"),
                                 text=text)

    def is_terminal(self) -> bool:
        return self.stones == 0

    def returns(self) -> list[float]:
        if self.stones:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.player == 0 else [-1.0, 1.0]

    def view(self, player: int | None) -> dict[str, Any]:
        return {"game": "toy-nim", "stones": self.stones, "to_move": self.current_player,
                "outcome": self.outcome()}

    def clone(self) -> NimState:
        assert isinstance(self.game, NimGame)
        return NimState(self.game, self.seed, self.stones, self.player, self._history)

    def history(self) -> list[int]:
        return list(self._history)

    def resample_hidden(self, player: int | None, rng: RandomSource) -> NimState:
        return self.clone()  # nothing is hidden

    def _to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "stones": self.stones, "player": self.player,
                "history": list(self._history)}


def rules_page() -> str:
    return files(__name__).joinpath("rules.md").read_text(encoding="utf-8")


MANIFEST = GameManifest(
    name="toy-nim",
    title="Nim",
    summary="Take 1 to 3 stones in turn; whoever takes the last stone wins",
    factory=NimGame,
    variants=({}, {"stones": 1}, {"stones": 21}),
    rules_page=rules_page,
    # The page players read: rules.md in English, rules.ko.md in Korean.
    learn_page=packaged_rules_pages(__name__),
    view_type=NimView,
    greedy_policy="pyramids_nim.greedy",
    text_renderer="pyramids_nim.text:render",
    web_renderer="pyramids_nim:nim.js",
    catalogue="pyramids_nim:locale",
)
