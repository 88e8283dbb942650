"""`check_game` catches the mistakes a game's designer makes, in words that say what is
wrong and where (docs/adding-a-game.md, "Check it").

Each game here is the toy-draw game (hidden hands, a hidden deck, a reshuffle before
each draw: tests/toy_games.py) with one mistake a designer might make in their own
plugin. The check must raise `ConformanceError` (never a stray `TypeError` or
`IllegalActionError` from deep inside it), name the deal where one is to blame, and
say which part of the contract broke.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pyramids.core.api import ZERO_SUM
from pyramids.testing import ConformanceError, check_game
from tests.toy_games import DrawGame, DrawState


def refused(game: DrawGame) -> str:
    with pytest.raises(ConformanceError) as caught:
        check_game(game, games=20, checked=10)
    return str(caught.value)


class LeakyState(DrawState):
    def view(self, player: int | None) -> dict[str, Any]:
        return {**super().view(player), "hands": list(self.hands)}  # every seat's card

    def clone(self) -> LeakyState:
        copy = super().clone()
        copy.__class__ = LeakyState
        return copy


class LeakyDraw(DrawGame):
    name = "toy-leaky-draw"

    def new_initial_state(self, seed: int | str | None = None) -> DrawState:
        state = super().new_initial_state(seed)
        state.__class__ = LeakyState
        return state

    def _state_from_dict(self, data: dict[str, Any]) -> DrawState:
        state = super()._state_from_dict(data)
        state.__class__ = LeakyState
        return state


def test_a_view_that_shows_another_seats_hidden_card_is_called_a_leak_and_named() -> None:
    message = refused(LeakyDraw(players=2))
    assert "deal 0" in message
    assert "resample_hidden(0) changed what seat 1 sees" in message
    assert "view(0)['hands'][1]" in message  # the field that leaks
    assert "a leak of another seat's cards" in message


class CopyingLeakyState(LeakyState):
    """The leak, and a `resample_hidden` that only copies: it never redraws, so the
    check through it sees nothing wrong."""

    def resample_hidden(self, player: int | None, rng: Any) -> CopyingLeakyState:
        copy = self.clone()
        copy.__class__ = CopyingLeakyState
        return copy

    def clone(self) -> CopyingLeakyState:
        copy = super().clone()
        copy.__class__ = CopyingLeakyState
        return copy


class CopyingLeakyDraw(DrawGame):
    name = "toy-copying-leaky-draw"

    def new_initial_state(self, seed: int | str | None = None) -> DrawState:
        state = super().new_initial_state(seed)
        state.__class__ = CopyingLeakyState
        return state

    def _state_from_dict(self, data: dict[str, Any]) -> DrawState:
        state = super()._state_from_dict(data)
        state.__class__ = CopyingLeakyState
        return state


@pytest.mark.parametrize("players", [2, 3])
def test_a_leak_is_found_even_when_resample_hidden_only_copies(players: int) -> None:
    """A second way to find a leak, which does not trust the game's resampling: seat
    2's entry of the save (`hands`) is replaced by another deal's, and every other
    view that moves with seat 2's own `hand` carries its hidden card."""
    message = refused(CopyingLeakyDraw(players=players))
    assert "deal 0" in message
    assert "resample_hidden" not in message.split(":")[1]  # not the resample check's words
    assert "shows what only seat " in message
    # The field of the view that leaks, and the seat's own field it follows.
    assert "seat 2 (view(1)) shows what only seat 1 sees: view(1)['hands'][0] follows " \
        "view(0)['hand']" in message
    assert "only seat 1's entry of the save's ['hands'] was changed" in message


class UnseededDraw(DrawGame):
    """Shuffles with the random module: the same seed deals another game each time."""

    name = "toy-unseeded-draw"

    def new_initial_state(self, seed: int | str | None = None) -> DrawState:
        state = super().new_initial_state(random.randrange(1 << 30))
        state.seed = seed
        return state


def test_a_deal_that_does_not_come_from_the_seed_is_named() -> None:
    message = refused(UnseededDraw(players=2))
    assert "new_initial_state(0) dealt two different games" in message
    assert "every random choice must come from the seed" in message


class FixedDealDraw(DrawGame):
    """Deals the same cards whatever the seed (a designer's Rng(0) left in)."""

    name = "toy-fixed-draw"

    def new_initial_state(self, seed: int | str | None = None) -> DrawState:
        state = super().new_initial_state(0)
        state.seed = seed
        return state


def test_a_deal_that_ignores_its_seed_is_caught() -> None:
    message = refused(FixedDealDraw(players=2))
    assert "the same deal for 20 different seeds" in message
    assert "drawn from the seed" in message


def test_a_game_without_chance_may_deal_the_same_for_every_seed() -> None:
    """Nim has nothing hidden and nothing drawn: one start for every seed is right."""
    from tests.toy_games import NimGame

    assert check_game(NimGame(), games=5, checked=5).variants[0].games == 5


PEEK = 2


class PeekState(DrawState):
    """Lists a third move, "peek", that apply_action then refuses."""

    def legal_actions(self) -> list[int]:
        legal = super().legal_actions()
        return [*legal, PEEK] if legal else legal

    def apply_action(self, action: int) -> None:
        if action == PEEK:
            raise self.illegal(action, "peeking is not allowed")
        super().apply_action(action)

    def action_to_string(self, action: int) -> str:
        return "peek" if action == PEEK else super().action_to_string(action)

    def string_to_action(self, text: str) -> int:
        return PEEK if text == "peek" else super().string_to_action(text)

    def clone(self) -> PeekState:
        copy = super().clone()
        copy.__class__ = PeekState
        return copy


class PeekDraw(DrawGame):
    name = "toy-peek-draw"

    @property
    def num_distinct_actions(self) -> int:
        return 3

    def new_initial_state(self, seed: int | str | None = None) -> DrawState:
        state = super().new_initial_state(seed)
        state.__class__ = PeekState
        return state

    def _state_from_dict(self, data: dict[str, Any]) -> DrawState:
        state = super()._state_from_dict(data)
        state.__class__ = PeekState
        return state


def test_a_listed_move_that_the_game_refuses_is_named_with_its_error() -> None:
    message = refused(PeekDraw(players=2))
    assert "deal 0" in message
    assert "legal_actions() lists action 2 'peek', but apply_action failed on it" in message
    assert "peeking is not allowed" in message


class ZeroSumDraw(DrawGame):
    """Says zero-sum, but a table of three gives +1, -1, -1."""

    name = "toy-zero-sum-draw"

    def returns_kind(self) -> str:
        return ZERO_SUM


def test_returns_that_do_not_sum_as_declared_are_named() -> None:
    check_game(ZeroSumDraw(players=2), games=10, checked=10)  # +1 and -1, or a draw
    message = refused(ZeroSumDraw(players=3))
    assert "do not sum to 0, but returns_kind() says zero-sum" in message


class SetSaveState(DrawState):
    def _to_dict(self) -> dict[str, Any]:
        return {**super()._to_dict(), "deck": set(self.deck)}


class SetSaveDraw(DrawGame):
    name = "toy-set-save-draw"

    def new_initial_state(self, seed: int | str | None = None) -> DrawState:
        state = super().new_initial_state(seed)
        state.__class__ = SetSaveState
        return state


def test_a_save_that_is_not_json_is_named() -> None:
    message = refused(SetSaveDraw(players=2))
    assert "_to_dict() must return JSON-able data" in message
    assert "set is not JSON serializable" in message


class ForgetfulState(DrawState):
    """Forgets how many turns were played; loading starts the count again."""

    def _to_dict(self) -> dict[str, Any]:
        saved = super()._to_dict()
        del saved["turn"]
        return saved

    def clone(self) -> ForgetfulState:
        copy = super().clone()
        copy.__class__ = ForgetfulState
        return copy


class ForgetfulDraw(DrawGame):
    name = "toy-forgetful-draw"

    def new_initial_state(self, seed: int | str | None = None) -> DrawState:
        state = super().new_initial_state(seed)
        state.__class__ = ForgetfulState
        return state

    def _state_from_dict(self, data: dict[str, Any]) -> DrawState:
        state = DrawState(self, data["seed"], data["hands"], data["deck"], 0, data["rng"],
                          data["history"])
        state.__class__ = ForgetfulState
        return state


def test_a_turn_the_save_forgets_is_named() -> None:
    message = refused(ForgetfulDraw(players=2))
    assert "deal 0" in message
    assert ("the restored state has another player to move (seat 2 before saving, "
            "seat 1 after loading)") in message
    assert "_to_dict or _state_from_dict forgets part of the state" in message


class ShortDeckState(DrawState):
    """Saves the deck without its last card (an off-by-one in the save)."""

    def _to_dict(self) -> dict[str, Any]:
        return {**super()._to_dict(), "deck": self.deck[:-1]}


class ShortDeckDraw(DrawGame):
    name = "toy-short-deck-draw"

    def new_initial_state(self, seed: int | str | None = None) -> DrawState:
        state = super().new_initial_state(seed)
        state.__class__ = ShortDeckState
        return state

    def _state_from_dict(self, data: dict[str, Any]) -> DrawState:
        state = super()._state_from_dict(data)
        state.__class__ = ShortDeckState
        return state


def test_a_save_that_does_not_round_trip_names_the_field() -> None:
    message = refused(ShortDeckDraw(players=2))
    assert "deal 0" in message
    assert "to_json did not round-trip (['state']['deck']: [" in message
    assert "_state_from_dict must rebuild exactly what _to_dict saved" in message


def test_a_field_the_save_forgets_is_named_by_what_a_player_sees() -> None:
    """Alone at the table the player to move stays seat 1, but the view shows the
    turn count, which the save lost."""
    message = refused(ForgetfulDraw(players=1))
    assert "deal 0" in message
    assert ("a spectator (view(None)) sees something else after saving and loading "
            "(view['turn']: 1 against 0, before and after)") in message
    assert "_to_dict or _state_from_dict forgets part of the state" in message


class UnloadableDraw(DrawGame):
    """Reads a field under another name than the save writes."""

    name = "toy-unloadable-draw"

    def _state_from_dict(self, data: dict[str, Any]) -> DrawState:
        return DrawState(self, data["seed"], data["hand"], data["deck"], data["turn"],
                         data["rng"], data["history"])


def test_a_save_that_does_not_load_is_named() -> None:
    message = refused(UnloadableDraw(players=2))
    assert "the state's own save does not load" in message
    assert "KeyError('hand')" in message


def test_the_leak_check_does_not_accuse_a_right_game() -> None:
    """The toy-draw game itself hides each card from the other seats and passes."""
    report = check_game(DrawGame(players=3), games=30, checked=10)
    assert report.variants[0].games == 30
