"""What every game's State and Game do with what a program hands them: actions that are
not whole numbers or not actions at all, and seeds of NumPy's integer types."""

from __future__ import annotations

from typing import Any

import pytest

from pyramids.core import IllegalActionError, load

GAMES = ("pacal", "pacal-solo", "temple", "mahjongg")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("action", ["5", 5.0, None, True, [1]])
def test_what_is_not_a_whole_number_is_refused_in_words(game: str, action: Any) -> None:
    state = load(game).new_initial_state(seed=7)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="an action is a whole number"):
        state.apply_action(action)
    assert state.to_json() == before


@pytest.mark.parametrize("game", GAMES)
def test_a_number_outside_the_actions_says_which_are_actions(game: str) -> None:
    """Pacal said "you must offer two of your hand cards" for 99999."""
    state = load(game).new_initial_state(seed=7)
    last = state.game.num_distinct_actions - 1
    for action in (-1, last + 1, 99_999_999):
        with pytest.raises(IllegalActionError, match=f"actions are the numbers 0 to {last}"):
            state.apply_action(action)
    # A number that is an action but not legal now keeps the game's own reason.
    while all(a in state.legal_actions() for a in range(last + 1)):  # solo: all fit at first
        state.apply_action(state.legal_actions()[0])
    illegal = next(a for a in range(last + 1) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError) as refused:
        state.apply_action(illegal)
    assert "actions are the numbers" not in str(refused.value)


@pytest.mark.parametrize("game", GAMES)
def test_numpy_integers_are_actions_and_seeds(game: str) -> None:
    np = pytest.importorskip("numpy")
    state = load(game).new_initial_state(seed=np.int64(7))
    plain = load(game).new_initial_state(seed=7)
    assert type(state.seed) is int and state.to_json() == plain.to_json()
    action = plain.legal_actions()[0]
    state.apply_action(np.int32(action))
    plain.apply_action(action)
    assert state.to_json() == plain.to_json()
