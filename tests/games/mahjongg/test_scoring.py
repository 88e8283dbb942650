"""Scoring: the pure rules, and a short game worked by hand on the mini layout."""

from __future__ import annotations

import pytest

from pyramids.games.mahjongg import scoring
from pyramids.games.mahjongg.scoring import ScoreRules, Standing

from .conftest import CAPSTONE, MINI_FACES, VAULT, face, mini_game

RULES = ScoreRules()


def test_pair_points_times_elevation_of_the_higher_tile() -> None:
    assert scoring.pair_base(100, 0, 0, doubled=False) == 100
    assert scoring.pair_base(250, 3, 1, doubled=False) == 250 * 4
    assert scoring.pair_base(500, 0, 1, doubled=True) == 2 * 500 * 2


@pytest.mark.parametrize(
    ("streak", "bonus"), [(0, 0), (1, 0), (2, 20), (3, 40), (11, 200), (12, 200), (40, 200)]
)
def test_streak_bonus_is_capped(streak: int, bonus: int) -> None:
    assert scoring.streak_bonus(streak, RULES) == bonus


def test_score_pair_adds_capstones_without_doubling_them() -> None:
    gained = scoring.score_pair(
        300, 0, 2, doubled=True, streak=3, capstones_removed=2, rules=RULES
    )
    assert (gained.base, gained.streak, gained.capstones) == (1800, 40, 2000)
    assert gained.total == 3840


def test_tie_breaks_in_order() -> None:
    # Score first.
    assert scoring.winners([Standing(900, 1, 1, 1), Standing(1000, 0, 0, 0)]) == [1]
    # Equal scores: the capstone remover.
    assert scoring.winners([Standing(900, 0, 3, 3), Standing(900, 1, 0, 0)]) == [1]
    # Then more vaults.
    assert scoring.winners([Standing(900, 1, 2, 0), Standing(900, 1, 1, 5)]) == [0]
    # Then more deity pairs.
    assert scoring.winners([Standing(900, 1, 1, 2), Standing(900, 1, 1, 3)]) == [1]
    # Equal on everything: shared.
    assert scoring.winners([Standing(5, 0, 0, 0), Standing(5, 0, 0, 0), Standing(1, 0, 0, 0)]) == [
        0,
        1,
    ]


def test_worked_game_with_capstone_doubling_and_vault() -> None:
    """The mini layout, played by hand (see conftest for the board):

    1. match 0 9: two Golden Pharaohs, the higher on layer 1 (elevation 2):
       500 x 2 = 1000; capstone +1000; streak 1 adds 0.          -> 2000
    2. match 1 6: Scarab 1s on the base, doubled: 100 x 1 x 2 = 200; streak 2
       adds 20; removing 6 exposes vault 5: +750 and a token.     -> 970
    3. match 2 5: Ra with Horus (pantheon), doubled 250 x 2 = 500; streak +40. -> 540
    4. match 3 4: two seasons, the third doubled pair: 600; streak +60. -> 660
    5. match 7 8: Glyph 5s, no longer doubled: 100; streak +80.  -> 180
    Total 4350, then 3 unused tokens x 200 = 600: 4950.
    """
    state = mini_game().state_with_faces(MINI_FACES, seed=1)
    expected = [
        ("match 0 9", 2000, 2),
        ("match 1 6", 970, 3),
        ("match 2 5", 540, 3),
        ("match 3 4", 660, 3),
        ("match 7 8", 180, 3),
    ]
    total = 0
    for move, points, tokens in expected:
        state.apply_string(move)
        total += points
        assert state.last_move is not None and state.last_move["points"] == points, move
        assert state.tokens == [tokens]
        if not state.is_terminal():
            assert state.scores == [total]
    # The last pair ends the game, which adds the token bonus.
    assert total == 4350
    assert state.is_terminal()
    view = state.view(0)
    assert view["scores"] == [4950]
    assert view["result"]["token_bonus"] == [600]
    assert view["result"]["reason"] == "cleared"
    assert view["capstones"] == [{"id": CAPSTONE, "removed_by": 0, "on_board": False}]
    assert view["vaults"] == [{"id": VAULT, "state": "unlocked", "by": 0}]
    assert view["bank"] == 20 - 2 - 1
    assert state.returns() == [1.0]


def test_vault_removed_before_it_is_exposed_is_forfeited() -> None:
    faces = list(MINI_FACES)
    # Make vault 5 match tile 0 so that it can go while 6 still touches it.
    faces[5], faces[2] = faces[0], faces[5]
    faces[9] = face("Horus")
    state = mini_game().state_with_faces(faces, seed=1)
    state.apply_string("match 0 5")
    assert state.view(0)["vaults"] == [{"id": VAULT, "state": "forfeited", "by": None}]
    assert state.scores == [500]
    assert state.tokens == [2]


def test_options_change_the_numbers() -> None:
    game = mini_game(capstone_bonus=10, capstone_double_pairs=1, vault_bonus=5,
                     vault_tokens=2, streak_step=1, streak_cap=1)
    state = game.state_with_faces(MINI_FACES, seed=1)
    state.apply_string("match 0 9")  # 1000 + 10
    state.apply_string("match 1 6")  # doubled 200, streak +1, vault 5
    state.apply_string("match 2 5")  # no longer doubled: 250, streak capped +1
    assert state.scores == [1010 + 206 + 251]
    assert state.tokens == [4]
