"""The Tile Reveal favor and structural shifts (rules page, "Scarab tokens and
favors" and "Capstones, vaults, face-down tiles")."""

from __future__ import annotations

import random

import pytest

import pyramids
from pyramids.core import IllegalActionError
from pyramids.games.mahjongg.game import MahjonggGame
from pyramids.games.mahjongg.layout import Layout
from pyramids.games.mahjongg.settling import settle_zone
from pyramids.games.mahjongg.state import MahjonggState

from .conftest import MINI_FACES, face, mini_game

# Ten tiles, ids in reading order:
#   layer 0: 0 A(x=0) 1 B(2) 2 C(4) 3 D(6) 4 E(10) 5 F(12)
#   layer 1: 6 G on A, 7 H on C, 8 L on F
#   layer 2: 9 K, the capstone, at x=1 (it lies on G)
# A and C are face down (G and H lie on them); K's settling reaches them.
KEYSTONE_POSITIONS = (
    (0, 0, 0), (2, 0, 0), (4, 0, 0), (6, 0, 0), (10, 0, 0), (12, 0, 0),
    (0, 0, 1), (4, 0, 1), (12, 0, 1),
    (1, 0, 2),
)
KEYSTONE_FACES = [
    face("Scarab 1"), face("Scarab 2"), face("Scarab 1"), face("Scarab 2"), face("Glyph 5"),
    face("Glyph 5"), face("Ra"), face("Ra"), face("Golden Pharaoh"), face("Golden Pharaoh"),
]


def keystone_game(**options: object) -> MahjonggGame:
    layout = Layout("keystone", KEYSTONE_POSITIONS, capstones=frozenset({9}),
                    face_down=frozenset({0, 2}))
    return MahjonggGame(layout_object=layout, layout="keystone", **options)


def face_of(state: MahjonggState, tile: int, seat: int | None = 0) -> str | None:
    (entry,) = [t for t in state.view(seat)["tiles"] if t["id"] == tile]
    return entry["face"]


# -- the Tile Reveal ---------------------------------------------------------------


def test_a_reveal_turns_up_exactly_the_chosen_tile_for_one_token() -> None:
    state = mini_game(face_down=frozenset({1, 2}), players=2).state_with_faces(MINI_FACES, 1)
    assert (face_of(state, 1), face_of(state, 2)) == (None, None)
    assert "reveal 1" in state.legal_action_strings()
    state.apply_string("reveal 1")
    assert state.tokens == [1, 2] and state.bank == 20 - 4 + 1
    # Everyone sees it: faces on the board are public.
    for seat in (0, 1, None):
        assert face_of(state, 1, seat) == "Scarab 1"
        assert face_of(state, 2, seat) is None
    tile = [t for t in state.view(0)["tiles"] if t["id"] == 1][0]
    assert tile["free"] is False  # a reveal frees nothing: the capstone still lies on it
    assert state.view(0)["last_move"] == {"player": 0, "action": "reveal 1"}
    assert state.current_player == 0  # a favor does not end the turn
    assert "reveal 1" not in state.legal_action_strings()
    state.apply_string("reveal 2")  # a second one, a second token
    assert state.tokens == [0, 2] and face_of(state, 2) == "Ra"


def test_a_reveal_ends_the_flawless_streak() -> None:
    state = mini_game(face_down=frozenset({1, 2})).state_with_faces(MINI_FACES, 1)
    state.apply_string("match 7 8")
    assert state.streaks == [1]
    state.apply_string("reveal 1")
    assert state.streaks == [0]


@pytest.mark.parametrize(
    ("setup", "move", "message"),
    [
        ({"start_tokens": 0}, "reveal 1", "Tile Reveal costs 1 token; you have 0"),
        ({"reveal_cost": 3}, "reveal 1", "Tile Reveal costs 3 tokens; you have 2"),
        ({}, "reveal 3", "Harvest is already face up; Tile Reveal turns up a face-down tile"),
        ({}, "reveal 10", "'10' is not the number of a tile; tiles are numbered 0..9"),
        ({"reveal_favor": False}, "reveal 1", "'reveal 1'"),
    ],
)
def test_a_refused_reveal_says_why_and_changes_nothing(
    setup: dict[str, object], move: str, message: str
) -> None:
    state = mini_game(face_down=frozenset({1, 2}), **setup).state_with_faces(MINI_FACES, 1)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=message):
        state.apply_string(move)
    assert state.to_json() == before


def test_a_reveal_of_a_removed_tile_is_refused() -> None:
    state = mini_game(face_down=frozenset({1, 2})).state_with_faces(MINI_FACES, 1)
    state.apply_string("match 0 9")  # the capstone goes: 1 and 2 are uncovered, face up
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="Golden Pharaoh is no longer on the board"):
        state.apply_string("reveal 9")
    with pytest.raises(IllegalActionError, match="Scarab 1 is already face up"):
        state.apply_string("reveal 1")
    assert state.to_json() == before


def test_undoing_a_reveal_keeps_the_face_up_and_the_token_spent() -> None:
    state = mini_game(face_down=frozenset({1, 2})).state_with_faces(MINI_FACES, 1)
    state.apply_string("reveal 2")
    state.apply_string("undo")
    assert face_of(state, 2) == "Ra"
    assert state.tokens == [1]


def test_random_play_reveals_exactly_the_chosen_tiles() -> None:
    game = pyramids.load("mahjongg", layout="great-zenith", start_tokens=6)
    rng = random.Random(7)
    reveals = 0
    for seed in range(3):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            legal = state.legal_action_strings()
            choices = [a for a in legal if a.startswith(("reveal", "match"))] or legal
            move = rng.choice(choices)
            hidden = state.face_down & state.present
            state.apply_string(move)
            if move.startswith("reveal"):
                reveals += 1
                tile = int(move.split()[1])
                assert hidden >> tile & 1 and not state.face_down >> tile & 1
                # Exactly that tile turned up.
                assert hidden & ~state.face_down == 1 << tile
    assert reveals > 0


# -- structural shifts ---------------------------------------------------------------


def test_removing_the_keystone_settles_the_face_down_tiles_beneath_it() -> None:
    state = keystone_game().state_with_faces(KEYSTONE_FACES, 1)
    assert (face_of(state, 0), face_of(state, 2)) == (None, None)
    state.apply_string("match 8 9")  # the capstone K with L
    move = state.view(0)["last_move"]
    assert move["settled"] == [0, 2]
    assert (face_of(state, 0), face_of(state, 2)) == ("Scarab 1", "Scarab 1")
    # Nothing moved: G and H still lie on them, so neither is free.
    free = {t["id"] for t in state.view(0)["tiles"] if t["free"]}
    assert not free & {0, 2}
    assert {6, 7} <= {t["id"] for t in state.view(0)["tiles"]}


def test_the_reach_of_a_settling_is_an_option() -> None:
    state = keystone_game(settle_reach=0).state_with_faces(KEYSTONE_FACES, 1)
    state.apply_string("match 8 9")
    assert state.view(0)["last_move"]["settled"] == [0]  # C lies 3 half-cells away
    assert face_of(state, 2) is None


def test_without_structural_shifts_the_faces_stay_down() -> None:
    state = keystone_game(structural_shifts=False).state_with_faces(KEYSTONE_FACES, 1)
    state.apply_string("match 8 9")
    assert "settled" not in state.view(0)["last_move"]
    assert (face_of(state, 0), face_of(state, 2)) == (None, None)


def test_a_settling_of_nothing_face_down_reports_nothing() -> None:
    state = keystone_game().state_with_faces(KEYSTONE_FACES, 1)
    state.apply_string("reveal 0")
    state.apply_string("reveal 2")
    state.apply_string("match 8 9")
    assert "settled" not in state.view(0)["last_move"]


def test_the_great_zeniths_capstone_reaches_every_face_down_tile() -> None:
    game = pyramids.load("mahjongg", layout="great-zenith")
    assert isinstance(game, MahjonggGame)
    state = game.new_initial_state(1)
    (capstone,) = game.capstone_ids
    zone = settle_zone(game.geometry, capstone, 1)
    assert zone & state.face_down == state.face_down
    assert state.face_down.bit_count() == 17


def test_settlings_change_what_players_know_and_nothing_else() -> None:
    """The solver's exactness rests on this: the same moves on the same deal, with and
    without structural shifts, give the same board, free tiles, pairs and scores."""
    with_shifts = pyramids.load("mahjongg", layout="great-zenith", reveal_favor=False)
    without = pyramids.load("mahjongg", layout="great-zenith", reveal_favor=False,
                            structural_shifts=False)
    rng = random.Random(3)
    settled_games = 0
    for seed in range(4):
        a, b = with_shifts.new_initial_state(seed), without.new_initial_state(seed)
        assert isinstance(a, MahjonggState) and isinstance(b, MahjonggState)
        assert a.faces == b.faces
        while not a.is_terminal():
            assert a.free_mask() == b.free_mask()
            assert a.valid_pairs() == b.valid_pairs()
            assert a.face_down & ~b.face_down == 0  # shifts only ever show more
            matches = [x for x in a.legal_action_strings() if x.startswith("match")]
            move = rng.choice(matches) if matches else "pass"
            a.apply_string(move)
            b.apply_string(move)
            assert (a.present, a.scores, a.tokens) == (b.present, b.scores, b.tokens)
            settled_games += bool(a.last_move and a.last_move.get("settled"))
        assert b.is_terminal() and a.end_reason == b.end_reason
    assert settled_games > 0


@pytest.mark.parametrize(
    "options",
    [
        {"layout": "great-zenith", "start_tokens": 8},
        {"layout": "great-zenith", "mode": "time-attack", "clock": "turns", "turn_seconds": 7},
        {"layout": "great-zenith", "mode": "time-attack", "time_limit_seconds": 120,
         "settle_reach": 0},
    ],
)
def test_states_with_reveals_settlings_and_the_track_save_load_and_replay(
    options: dict[str, object]
) -> None:
    from pyramids.core import GameRecord

    from .test_saving import random_states

    game = pyramids.load("mahjongg", **options)
    assert isinstance(game, MahjonggGame)
    last = None
    for state in random_states(game, 2, 11):
        text = state.to_json()
        restored = game.state_from_json(text)
        assert restored.to_json() == text
        assert restored.legal_actions() == state.legal_actions()
        assert state.clone().to_json() == text
        assert restored.view(0) == state.view(0)
        if state.is_terminal():
            last = state
            replayed = GameRecord.from_json(GameRecord.from_state(state).to_json()).final_state()
            assert replayed.to_json() == text
    assert last is not None
