"""The scarab favors: Ra Sight, Anubis Shift, Sandstorm Reshuffle."""

from __future__ import annotations

import pytest

from pyramids.core import IllegalActionError
from pyramids.games.mahjongg.favors import free_mask, valid_pairs
from pyramids.games.mahjongg.solver import solve

from .conftest import MINI_FACES, STACKS_FACES, mini_game, stacks_game


def test_ra_sight_shows_every_valid_pair_to_its_buyer() -> None:
    state = mini_game(players=2).state_with_faces(MINI_FACES, seed=1)
    state.apply_string("match 7 8")  # player 0; now player 1's turn
    state.apply_string("sight")
    assert state.tokens == [2, 1]
    assert state.bank == 20 - 4 + 1
    assert state.view(1)["sight_pairs"] == [[0, 9]]
    assert "sight_pairs" not in state.view(0)
    assert "sight_pairs" not in state.view(None)
    assert state.streaks == [1, 0]
    with pytest.raises(IllegalActionError, match="already showing"):
        state.apply_string("sight")
    state.apply_string("match 0 9")
    assert "sight_pairs" not in state.view(1)  # it lasts the turn


def test_ra_sight_needs_a_token() -> None:
    state = mini_game(start_tokens=0).state_with_faces(MINI_FACES, seed=1)
    assert "sight" not in state.legal_action_strings()
    with pytest.raises(IllegalActionError, match="Ra Sight costs 1 token; you have 0"):
        state.apply_string("sight")


def test_anubis_shift_makes_one_tile_free_for_the_turn() -> None:
    state = mini_game().state_with_faces(MINI_FACES, seed=1)
    # Tile 3 (Harvest) is blocked by 2 and 4; 4 (Oasis) is free.
    assert "match 3 4" not in state.legal_action_strings()
    state.apply_string("shift 3")
    assert state.tokens == [1] and state.bank == 19
    view = state.view(0)
    assert view["shifted"] == 3
    assert [t for t in view["tiles"] if t["id"] == 3][0]["free"] is True
    assert "match 3 4" in state.legal_action_strings()
    assert not any(s.startswith("shift") for s in state.legal_action_strings())
    with pytest.raises(IllegalActionError, match="already shifted"):
        state.apply_string("shift 1")
    state.apply_string("match 7 8")  # the turn ends without using it
    assert state.view(0)["shifted"] is None
    assert "match 3 4" not in state.legal_action_strings()


def test_anubis_shift_lifts_a_covered_tile_and_turns_it_up() -> None:
    state = mini_game(face_down=frozenset({1, 2})).state_with_faces(MINI_FACES, seed=1)
    assert state.view(0)["tiles"][1]["face"] is None
    state.apply_string("shift 1")
    tile = state.view(0)["tiles"][1]
    assert (tile["id"], tile["face"], tile["free"]) == (1, "Scarab 1", True)
    state.apply_string("match 1 6")  # 1 was under the capstone
    assert not state.present >> 1 & 1
    # The other hidden tile stays hidden.
    assert [t for t in state.view(0)["tiles"] if t["id"] == 2][0]["face"] is None


def test_reshuffle_only_when_no_pair_and_with_three_tokens() -> None:
    state = stacks_game(start_tokens=3).state_with_faces(STACKS_FACES, seed=1)
    with pytest.raises(IllegalActionError, match="only when no valid pair"):
        state.apply_string("reshuffle")
    state.apply_string("match 2 3")
    assert state.valid_pairs() == []
    poor = stacks_game(start_tokens=2).state_with_faces(STACKS_FACES, seed=1)
    poor.apply_string("match 2 3")
    with pytest.raises(IllegalActionError, match="Sandstorm Reshuffle costs 3 tokens; you have 2"):
        poor.apply_string("reshuffle")
    state.apply_string("reshuffle")
    assert state.tokens == [0] and state.bank == 20
    # deal=solvable: the new arrangement of the four remaining tiles clears.
    assert solve(state.game.geometry, state.faces, state.present).solvable is True
    assert sorted(state.faces[t] for t in (0, 1, 4, 5)) == sorted(
        STACKS_FACES[t] for t in (0, 1, 4, 5)
    )
    assert state.streaks == [0]
    assert not state.is_terminal()
    assert state.valid_pairs() != []


def test_random_reshuffle_keeps_the_faces_in_place_of_the_removed() -> None:
    game = stacks_game(start_tokens=3, deal="random")
    for seed in range(10):
        state = game.state_with_faces(STACKS_FACES, seed=seed)
        state.apply_string("match 2 3")
        state.apply_string("reshuffle")
        assert state.faces[2] == STACKS_FACES[2] and state.faces[3] == STACKS_FACES[3]
        assert sorted(state.faces) == sorted(STACKS_FACES)


def test_valid_pairs_helper() -> None:
    game = mini_game()
    state = game.state_with_faces(MINI_FACES, seed=1)
    free = free_mask(game.geometry, game.geometry.all_mask)
    assert valid_pairs(free, state.tile_class) == [(0, 9), (7, 8)]


def test_reshuffle_with_pairs_and_too_few_tokens_gives_both_reasons_by_every_route() -> None:
    # Stacks: Glyph 9 (2, 3) is a free pair, and the player holds 1 token of the 3 a
    # reshuffle costs. Both reasons hold: matching alone would still leave it short,
    # and earning tokens alone would still leave a pair. The move's refusal and the
    # list of unavailable favors (the buttons) say the same, both reasons.
    state = stacks_game(start_tokens=1).state_with_faces(STACKS_FACES, seed=1)
    assert state.valid_pairs()
    both = ("a Sandstorm Reshuffle is allowed only when no valid pair exists, "
            "and it costs 3 tokens; you have 1")
    assert str(state.unavailable()["reshuffle"]) == both
    with pytest.raises(IllegalActionError) as refused:
        state.apply_string("reshuffle")
    assert both in str(refused.value)
    # Enough tokens: only the pair rule; no pair: only the price.
    rich = stacks_game(start_tokens=3).state_with_faces(STACKS_FACES, seed=1)
    assert str(rich.unavailable()["reshuffle"]) == (
        "a Sandstorm Reshuffle is allowed only when no valid pair exists")
    state.apply_string("match 2 3")
    assert state.valid_pairs() == []
    assert str(state.unavailable()["reshuffle"]) == (
        "Sandstorm Reshuffle costs 3 tokens; you have 1")
