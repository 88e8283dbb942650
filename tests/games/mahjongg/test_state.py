"""The state: legal actions, bad input, saving, undo, hints, face-down tiles."""

from __future__ import annotations

import json

import pytest

from pyramids.core import IllegalActionError, Rng
from pyramids.games.mahjongg.game import MahjonggGame
from pyramids.games.mahjongg.layout import Layout
from pyramids.games.mahjongg.solver import solve

from .conftest import (
    MINI_FACES,
    STACKS_FACES,
    TRAP_FACES,
    face,
    mini_game,
    stacks_game,
    trap_game,
)


def test_opening_legal_actions_on_the_mini_layout() -> None:
    state = mini_game().state_with_faces(MINI_FACES, seed=1)
    # Free: 0, 4, 5, 6, 7, 8, 9. Pairs among them: Pharaohs 0-9, Glyphs 7-8
    # (5 is Horus and 6 Scarab 1, whose partners are covered or blocked).
    # Shift: the tiles not free (1, 2 under the capstone, 3 between 2 and 4).
    assert state.legal_action_strings() == [
        "match 0 9", "match 7 8", "shift 1", "shift 2", "shift 3", "pass", "sight", "hint",
    ]
    assert state.current_player == 0


def test_action_strings_round_trip_and_normalise() -> None:
    state = mini_game().state_with_faces(MINI_FACES, seed=1)
    for action in range(state.game.num_distinct_actions):
        assert state.string_to_action(state.action_to_string(action)) == action
    assert state.string_to_action("match 9 0") == state.string_to_action("match 0 9")
    assert state.string_to_action("  MATCH 0   9 ") == state.string_to_action("match 0 9")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("match 1 1", "names the same tile twice"),
        ("match 1 10", "tiles are numbered 0..9"),
        ("match -1 2", "tiles are numbered 0..9"),
        ("shift x", "'x' is not the number of a tile"),
        ("clock 5", "unknown move"),  # no clock outside time attack
        ("dance", "allowed: 'match A B'"),
        ("", "unknown move"),
    ],
)
def test_malformed_action_strings_say_what_is_allowed(text: str, message: str) -> None:
    state = mini_game().state_with_faces(MINI_FACES, seed=1)
    with pytest.raises(IllegalActionError, match=message):
        state.string_to_action(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("match 1 2", "Scarab 1 is not free"),
        ("match 0 3", "Harvest is not free"),
        ("match 0 7", "Golden Pharaoh and Glyph 5 do not match"),
        ("shift 0", "already free"),
        ("reshuffle", "only when no valid pair exists"),
        ("undo", "nothing to undo"),
        ("finish", "every remaining tile to be free"),
    ],
)
def test_illegal_actions_explain_and_change_nothing(text: str, message: str) -> None:
    state = mini_game().state_with_faces(MINI_FACES, seed=1)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=message):
        state.apply_string(text)
    assert state.to_json() == before


def test_removed_tiles_and_out_of_range_numbers() -> None:
    state = mini_game().state_with_faces(MINI_FACES, seed=1)
    state.apply_string("match 7 8")
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="is no longer on the board"):
        state.apply_string("match 7 8")
    for number in (-1, state.game.num_distinct_actions, 10**9):
        with pytest.raises(IllegalActionError, match="not an action of mahjongg"):
            state.apply_action(number)
    assert state.to_json() == before


def test_no_moves_after_the_end() -> None:
    state = mini_game().state_with_faces(MINI_FACES, seed=1)
    state.apply_string("pass")  # one player: a pass is a full round of passes
    assert state.is_terminal() and state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_string("match 0 9")


def test_json_round_trip_mid_game_keeps_everything() -> None:
    state = mini_game().state_with_faces(MINI_FACES, seed=3)
    for move in ("match 0 9", "sight", "shift 3"):
        state.apply_string(move)
    text = state.to_json()
    restored = state.game.state_from_json(text)
    assert restored.to_json() == text
    assert restored.legal_actions() == state.legal_actions()
    assert restored.view(0) == state.view(0)
    restored.apply_string("undo")
    state.apply_string("undo")
    assert restored.to_json() == state.to_json()


def test_seeded_deals_replay() -> None:
    game = stacks_game(deal="random")
    first = game.new_initial_state(7)
    assert first.to_json() == game.new_initial_state(7).to_json()
    deals = {tuple(game.new_initial_state(seed).faces) for seed in range(30)}
    assert len(deals) > 1


def test_undo_restores_the_exact_state_and_ends_the_streak() -> None:
    # The mini board has no face-down tile: nothing a favor shows is hidden, so an
    # undo restores the exact earlier state, tokens and score included (rules page).
    state = mini_game().state_with_faces(MINI_FACES, seed=1)
    state.apply_string("match 0 9")
    state.apply_string("match 1 6")  # unlocks the vault: +750 and a token
    saved = state.to_json()
    assert state.streaks == [2]
    state.apply_string("sight")
    state.apply_string("match 2 5")
    assert state.tokens == [2]
    state.apply_string("undo")  # takes back match 2 5
    state.apply_string("undo")  # takes back the sight
    restored = json.loads(state.to_json())["state"]["core"]
    expected = json.loads(saved)["state"]["core"]
    assert restored.pop("streaks") == [0]
    assert expected.pop("streaks") == [2]
    assert restored.pop("last_move") == {"player": 0, "action": "undo"}
    expected.pop("last_move")
    assert restored == expected  # tokens, bank, board, score, vaults, doubling...
    assert state.tokens == [3] and state.scores == [2000 + 970]
    # Undo again, back past the vault: its token goes, the sight's comes back.
    state.apply_string("undo")
    assert state.view(0)["vaults"][0]["state"] == "locked"
    assert state.tokens == [2] and state.bank == 18
    # The history keeps the undos, so that a record replays exactly.
    assert [state.action_to_string(a) for a in state.history()[-3:]] == ["undo"] * 3


def test_undo_history_replays_from_the_seed() -> None:
    game = stacks_game(deal="random", start_tokens=3)
    state = game.new_initial_state(11)
    rng = Rng(5)
    while not state.is_terminal():
        legal = state.legal_action_strings()
        choice = "undo" if "undo" in legal and rng.randrange(3) == 0 else rng.choice(legal)
        state.apply_string(choice)
    replay = game.new_initial_state(11)
    for text in state.history_strings():
        replay.apply_string(text)
    assert replay.to_json() == state.to_json()


def test_no_undo_or_hint_with_two_players() -> None:
    state = mini_game(players=2).state_with_faces(MINI_FACES, seed=1)
    state.apply_string("match 7 8")
    assert "undo" not in state.legal_action_strings()
    assert "hint" not in state.legal_action_strings()
    with pytest.raises(IllegalActionError, match="only in the one-player modes"):
        state.apply_string("undo")
    with pytest.raises(IllegalActionError, match="only in the one-player modes"):
        state.apply_string("hint")


def test_hint_avoids_the_losing_pair_and_ends_the_streak() -> None:
    state = trap_game().state_with_faces(TRAP_FACES, seed=1)
    assert state.valid_pairs()[0] == (0, 1)  # the losing pair comes first
    state.apply_string("hint")
    hint = state.view(0)["hint"]
    assert hint != [0, 1] and tuple(hint) in state.valid_pairs()
    after = state.present & ~((1 << hint[0]) | (1 << hint[1]))
    assert solve(state.game.geometry, state.faces, after).solvable is True
    assert state.streaks == [0]
    assert "hint" not in state.legal_action_strings()  # one showing at a time
    assert "hint" not in state.view(None)  # only the player who asked sees it
    state.apply_string(f"match {hint[0]} {hint[1]}")
    assert "hint" not in state.view(0)


def test_hint_and_warning_count_the_tile_anubis_shift_lifted() -> None:
    # A free pair of Glyph 9s (0, 1) and two crossed towers: 4 (Scarab 2) on 2
    # (Scarab 1), 5 (Scarab 1) on 3 (Scarab 2). Matching the free pair first loses
    # (4 and 5 do not match, each one's partner under the other).
    #
    #   layer 0:  0 1 . 2 . 3      (x = 0, 2, 6, 10)
    #   layer 1:        4   5      (on 2 and 3)
    layout = Layout("towers", ((0, 0, 0), (2, 0, 0), (6, 0, 0), (10, 0, 0), (6, 0, 1),
                               (10, 0, 1)))
    faces = [face("Glyph 9"), face("Glyph 9"), face("Scarab 1"), face("Scarab 2"),
             face("Scarab 2"), face("Scarab 1")]
    state = MahjonggGame(layout_object=layout, layout="towers").state_with_faces(faces, 1)
    assert state.view(0)["unsolvable"] is True  # matching alone loses
    state.apply_string("shift 2")  # 2 counts as free: 2-5 is a pair now
    assert state.valid_pairs() == [(0, 1), (2, 5)]
    # 2-5 uncovers 3 for 4, and the board clears; 0-1, the first pair, loses.
    assert state.view(0)["unsolvable"] is False
    state.apply_string("hint")
    assert state.view(0)["hint"] == [2, 5]


def test_unsolvable_warning() -> None:
    crossed = stacks_game(start_tokens=0).state_with_faces(STACKS_FACES, seed=1)
    assert crossed.view(0)["unsolvable"] is True
    fine = trap_game().state_with_faces(TRAP_FACES, seed=1)
    assert fine.view(0)["unsolvable"] is False
    fine.apply_string("match 0 1")
    assert fine.view(0)["unsolvable"] is True
    quiet = trap_game(warn_unsolvable=False).state_with_faces(TRAP_FACES, seed=1)
    assert "unsolvable" not in quiet.view(0)
    two = mini_game(players=2).state_with_faces(MINI_FACES, seed=1)
    assert "unsolvable" not in two.view(0)


def test_face_down_tiles_are_hidden_until_uncovered() -> None:
    game = mini_game(face_down=frozenset({1, 2, 7}))
    state = game.state_with_faces(MINI_FACES, seed=1)
    view = state.view(0)
    faces = {tile["id"]: tile["face"] for tile in view["tiles"]}
    assert faces[1] is None and faces[2] is None
    assert faces[7] == "Glyph 5"  # nothing lies on 7, so it starts face up
    hidden_names = {"Scarab 1", "Ra"}
    text = json.dumps(view)
    assert all(
        (tile["face"] not in hidden_names) for tile in view["tiles"] if tile["id"] in (1, 2)
    )
    assert "unsolvable" not in text or view["unsolvable"] is False
    # Resampling exchanges the hidden faces only and shows nothing new.
    seen = set()
    for seed in range(20):
        sampled = state.resample_hidden(0, Rng(seed))
        assert sampled.view(0) == view
        assert sampled.legal_actions() == state.legal_actions()
        seen.add((sampled.faces[1], sampled.faces[2]))
        assert [sampled.faces[t] for t in (0, 3, 4, 5, 6, 7, 8, 9)] == [
            MINI_FACES[t] for t in (0, 3, 4, 5, 6, 7, 8, 9)
        ]
    assert seen == {(MINI_FACES[1], MINI_FACES[2]), (MINI_FACES[2], MINI_FACES[1])}
    # Removing the capstone uncovers 1 and 2: they turn face up.
    state.apply_string("match 0 9")
    faces = {tile["id"]: tile["face"] for tile in state.view(None)["tiles"]}
    assert faces[1] == "Scarab 1" and faces[2] == "Ra"
    assert state.face_down == 0


def test_clone_is_independent() -> None:
    state = mini_game().state_with_faces(MINI_FACES, seed=1)
    copy = state.clone()
    copy.apply_string("match 0 9")
    assert state.present == state.game.geometry.all_mask
    assert copy.to_json() != state.to_json()
    assert state.clone().to_json() == state.to_json()


def test_resampling_reaches_the_undo_snapshots() -> None:
    game = mini_game(face_down=frozenset({1, 2}))
    state = game.state_with_faces(MINI_FACES, seed=1)
    state.apply_string("match 7 8")  # a snapshot with 1 and 2 still face down
    for seed in range(10):
        sampled = state.resample_hidden(0, Rng(seed))
        swapped = (sampled.faces[1], sampled.faces[2])
        sampled.apply_string("undo")
        assert (sampled.faces[1], sampled.faces[2]) == swapped
        restored = state.clone()
        restored.apply_string("undo")
        assert sampled.view(0) == restored.view(0)


def test_tampered_saved_state_is_rejected() -> None:
    from pyramids.core import RecordError

    state = mini_game().state_with_faces(MINI_FACES, seed=1)
    data = json.loads(state.to_json())
    for key, value in [("vault_status", ["open"]), ("faces", [0] * 3), ("player", 4),
                       ("shift", 99), ("scores", [1, 2])]:
        broken = json.loads(json.dumps(data))
        broken["state"]["core"][key] = value
        with pytest.raises(RecordError):
            state.game.state_from_json(json.dumps(broken))


def test_undo_after_a_shift_turns_no_face_back_down_and_shows_nothing_new() -> None:
    game = mini_game(face_down=frozenset({1, 2}))
    state = game.state_with_faces(MINI_FACES, seed=1)
    hidden = {tile["id"] for tile in state.view(0)["tiles"] if tile["face"] is None}
    assert hidden == {1, 2}
    state.apply_string("shift 1")  # paid: tile 1 turns face up
    shown_by_shift = {t["id"] for t in state.view(0)["tiles"] if t["face"] is not None}
    state.apply_string("undo")
    after = state.view(0)
    # Tile 1 stays face up (it was seen), tile 2 is still hidden: the undo itself
    # reveals nothing that was hidden before the undone move.
    assert {t["id"] for t in after["tiles"] if t["face"] is None} == {2}
    assert {t["id"] for t in after["tiles"] if t["face"] is not None} == shown_by_shift
    # Shifts and undos never show a tile no shift lifted (a shift of tile 1, face up
    # already, shows nothing new, so its undo gives the token back: a few rounds).
    for _ in range(5):
        if "shift 1" not in state.legal_action_strings():
            break
        state.apply_string("shift 1")
        state.apply_string("undo")
    assert {t["id"] for t in state.view(0)["tiles"] if t["face"] is None} == {2}
    # And the history still replays exactly.
    replay = game.state_with_faces(MINI_FACES, seed=1)
    for text in state.history_strings():
        replay.apply_string(text)
    assert replay.to_json() == state.to_json()


def test_undo_gives_back_no_token_a_favor_cost() -> None:
    # Peeking with shift-then-undo costs the shift every time: the tokens run out.
    game = mini_game(face_down=frozenset({1, 2}))
    state = game.state_with_faces(MINI_FACES, seed=1)
    start = state.view(0)
    cost = game.options["shift_cost"]
    state.apply_string("shift 1")
    state.apply_string("undo")
    after = state.view(0)
    assert after["tokens"] == [start["tokens"][0] - cost]
    assert after["bank"] == start["bank"] + cost
    peeks = 1
    while "shift 2" in state.legal_action_strings():
        state.apply_string("shift 2")
        state.apply_string("undo")
        peeks += 1
    assert peeks == start["tokens"][0] // cost
    assert "shift 2" not in state.legal_action_strings()


def test_undoing_a_pair_restores_the_tokens_it_earned() -> None:
    game = mini_game()
    state = game.state_with_faces(MINI_FACES, seed=1)
    before = state.view(0)
    match = next(text for text in state.legal_action_strings() if text.startswith("match"))
    state.apply_string(match)
    state.apply_string("undo")
    after = state.view(0)
    assert after["tokens"] == before["tokens"] and after["bank"] == before["bank"]
    assert after["scores"] == before["scores"]


def test_the_last_pair_names_its_faces_for_whoever_reads_later() -> None:
    """A page that joins after a pair was taken never saw those tiles: the view names
    their faces, as they showed when taken (both free, so face up), to every reader."""
    import random

    from pyramids.core import load

    for layout in ("giza-step-ramp", "great-zenith"):  # the second has face-down tiles
        state = load("mahjongg", layout=layout, players=2).new_initial_state(3)
        rng = random.Random(3)
        checked = 0
        while not state.is_terminal() and checked < 20:
            shown = {tile["id"]: tile["face"] for tile in state.view(None)["tiles"]}
            pairs = [a for a in state.legal_actions()
                     if state.action_to_string(a).startswith("match ")]
            action = rng.choice(pairs or state.legal_actions())
            text = state.action_to_string(action)
            state.apply_action(action)
            if not text.startswith("match "):
                continue
            a, b = (int(tile) for tile in text.split()[1:])
            assert shown[a] is not None and shown[b] is not None
            for reader in (0, 1, None):
                last = state.view(reader)["last_move"]
                assert last["action"] == text and last["faces"] == [shown[a], shown[b]]
            checked += 1
        assert checked == 20
