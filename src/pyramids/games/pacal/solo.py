"""Solo Pacal (this project's rules; the sources give none).

Shuffle the 50 cards; 10 face-down base cards are out of play, the other 40 form
the draw pile. Each turn the top card is drawn and must be placed on a legal
field (`place Fn`); a drawn card with no legal field loses the game. When all ten
fields are occupied the game is won, and the score is the number of cards drawn
(10 is perfect, fewer is better). A field takes two cards, so a game ends
within 20 draws. The first card is drawn when the game starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyramids.core.api import TERMINAL, RandomSource, State
from pyramids.core.errors import N_, Words
from pyramids.core.rng import Rng
from pyramids.core.saving import (
    RNG,
    SEED,
    Computed,
    Field,
    Int,
    Kept,
    ListOf,
    Malformed,
    OneOf,
    SavedState,
    Schema,
)
from pyramids.core.views import Outcome, make_outcome
from pyramids.games.pacal import pyramid as pyr
from pyramids.games.pacal.actions import (
    SOLO_NUM_ACTIONS,
    solo_action_to_string,
    solo_string_to_action,
)
from pyramids.games.pacal.deck import DECK, shuffled_deck
from pyramids.games.pacal.validate import CARD

if TYPE_CHECKING:
    from pyramids.games.pacal.game import PacalSoloGame

BASE_CARDS = 10
PLAYING, WON, LOST = "playing", "won", "lost"
MAX_DRAWS = 40
PYRAMID_HALF = ListOf(Int(0, pyr.HIGHEST_CARD), length=pyr.FIELD_COUNT)


def _load_pyramid(state: PacalSoloState, raw: Any) -> None:
    if not isinstance(raw, list):
        raise Malformed(f"{raw!r} is not a list of ten fields")
    try:
        state._visible, state._covered = pyr.pyramid_from_lists(raw)
    except TypeError as error:
        raise Malformed(str(error)) from None


class PacalSoloState(SavedState, State):
    """A position of solo Pacal: one pyramid, the drawn card, the hidden pile."""

    __slots__ = (
        "game", "seed", "_rng", "_direction", "_bases", "_pile", "_draws", "_card",
        "_visible", "_covered", "_result", "_history",
    )

    saved = Schema(
        "pacal-solo state",
        Kept("game"),
        Kept("_direction"),
        Field("seed", "seed", SEED),
        Field("rng", "_rng", RNG),
        Field("bases", "_bases", ListOf(CARD)),
        Field("pile", "_pile", ListOf(CARD)),  # the top card last
        Field("draws", "_draws", Int(1, MAX_DRAWS)),
        Field("result", "_result", OneOf((PLAYING, WON, LOST))),
        # A won game has no drawn card left (0).
        Field("card", "_card", Int(lambda state: 0 if state._result == WON else 1,
                                   pyr.HIGHEST_CARD)),
        Computed("pyramid", lambda state: pyr.fields_as_lists(state._visible, state._covered),
                 _load_pyramid),
        Kept("_visible", PYRAMID_HALF),
        Kept("_covered", PYRAMID_HALF),
        Field("history", "_history", ListOf(Int(0, SOLO_NUM_ACTIONS - 1))),
    )

    def __init__(self, game: PacalSoloGame, seed: int | str | None = None) -> None:
        self._attach(game)
        self.seed = seed
        self._rng = Rng(seed)
        deck = shuffled_deck(self._rng)
        self._bases = deck[:BASE_CARDS]
        # The pile's top is its last element, so a draw is a pop.
        self._pile = deck[BASE_CARDS:][::-1]
        self._visible, self._covered = pyr.new_pyramid()
        self._draws = 0
        self._card = 0
        self._result = PLAYING
        self._history: list[int] = []
        self._draw()

    def _attach(self, game: PacalSoloGame) -> None:
        """The game and its options: what a saved state takes from its game."""
        self.game = game
        self._direction: str = game.options["direction"]

    def _draw(self) -> None:
        self._card = self._pile.pop()
        self._draws += 1
        if not pyr.can_place(self._visible, self._covered, self._card):
            self._result = LOST

    @property
    def current_player(self) -> int:
        return 0 if self._result == PLAYING else TERMINAL

    def is_terminal(self) -> bool:
        return self._result != PLAYING

    def returns(self) -> list[float]:
        if self._result == WON:
            return [1.0]
        return [-1.0] if self._result == LOST else [0.0]

    @property
    def draws(self) -> int:
        return self._draws

    def legal_actions(self) -> list[int]:
        if self._result != PLAYING:
            return []
        return pyr.legal_fields(self._visible, self._covered, self._card)

    def apply_action(self, action: int) -> None:
        if self._result != PLAYING:
            over = (Words(N_("the game is over: you won")) if self._result == WON
                    else Words(N_("the game is over: you lost")))
            raise self.illegal(action, over)
        if not 0 <= action < SOLO_NUM_ACTIONS:
            raise self.illegal(action, Words(
                N_("place the drawn card with 'place F1'..'place F10'")))
        if not pyr.fits(self._visible, self._covered, action, self._card):
            why = pyr.why_not(self._visible, self._covered, action, self._card)
            raise self.illegal(action, why or "")
        pyr.place(self._visible, self._covered, action, self._card)
        self._history.append(int(action))
        if all(self._visible):
            self._card = 0
            self._result = WON
        else:
            self._draw()

    def action_to_string(self, action: int) -> str:
        return solo_action_to_string(action)

    def string_to_action(self, text: str) -> int:
        return solo_string_to_action(text)

    def history(self) -> list[int]:
        return list(self._history)

    def view(self, player: int | None) -> dict[str, Any]:
        if player not in (None, 0):
            raise ValueError(f"pacal-solo: no player {player!r}; the player is 0 (None: spectator)")
        playing = self._result == PLAYING
        return {
            "game": "pacal-solo",
            "viewer": player,
            "phase": "place" if playing else "over",
            "current_player": self.current_player,
            "direction": self._direction,
            "layout": pyr.layout(self._direction),
            "pyramid": pyr.fields_as_lists(self._visible, self._covered),
            "card": self._card or None,
            "legal_fields": [i + 1 for i in self.legal_actions()],
            "draws": self._draws,
            "pile_size": len(self._pile),
            "result": self._result,
            "won": self._result == WON,
            "score": self._draws if self._result == WON else None,
            "spread": pyr.spread(self._visible),
            "outcome": self.outcome(),
        }

    def outcome(self) -> Outcome | None:
        """Won or lost; the score is the number of cards drawn (fewer is better)."""
        if self._result not in (WON, LOST):
            return None
        return make_outcome(
            winners=[0] if self._result == WON else [],
            scores=[self._draws],
            reason="pyramid-complete" if self._result == WON else "card-cannot-be-placed",
            figures={"draws": self._draws, "spread": pyr.spread(self._visible)},
        )

    def resample_hidden(self, player: int | None, rng: RandomSource) -> PacalSoloState:
        """A copy with the unseen cards (pile and bases) reshuffled among themselves."""
        other = self.clone()
        pool = other._pile + other._bases
        rng.shuffle(pool)
        other._pile = pool[: len(self._pile)]
        other._bases = pool[len(self._pile) :]
        other._rng = Rng(rng.randrange(1 << 64))
        return other

    @classmethod
    def from_dict(cls, game: PacalSoloGame, data: dict[str, Any]) -> PacalSoloState:
        """The state `_to_dict` saved; raises RecordError/ValueError when malformed."""
        state = cls.__new__(cls)
        state._attach(game)
        cls.saved.load(state, data)
        state.check_consistent()
        return state

    def check_consistent(self) -> None:
        """Raise ValueError unless the cards add up to a game a real deal could reach."""
        placed = [c for c in self._visible + self._covered if c]
        cards = self._bases + self._pile + placed + ([self._card] if self._card else [])
        if sorted(cards) != list(DECK):
            raise ValueError("the cards are not exactly 1..50 once each")
        if len(self._bases) != BASE_CARDS or self._draws != len(placed) + (self._card > 0):
            raise ValueError("the draw count does not match the cards drawn")

    @classmethod
    def from_position(
        cls,
        game: PacalSoloGame,
        pyramid: list[list[int]],
        card: int,
        pile: list[int] | None = None,
        seed: int | str | None = 0,
    ) -> PacalSoloState:
        """A position built by hand: `pyramid` as ten card lists, the drawn `card`, and
        the rest of the `pile` top first (default: the unused cards ascending). The
        draw count is the cards placed plus the drawn one; the bases are what is left."""
        state = cls(game, seed)
        state._visible, state._covered = pyr.pyramid_from_lists(pyramid)
        placed = {c for c in state._visible + state._covered if c}
        if len(placed) != sum(len(f) for f in pyramid) or card in placed:
            raise ValueError("a card appears twice in the pyramid and the drawn card")
        unused = [c for c in DECK if c not in placed and c != card]
        if pile is None:
            pile = unused[: len(unused) - BASE_CARDS]
        state._bases = [c for c in unused if c not in pile]
        state._pile = list(reversed(pile))
        state._card = card
        state._draws = len(placed) + 1
        state._result = PLAYING
        state._history = []
        if not pyr.can_place(state._visible, state._covered, card):
            state._result = LOST
        return state
