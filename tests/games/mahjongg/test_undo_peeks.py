"""Undo restores the exact earlier state, tokens and score included (rules page),
except that the tokens of a favor it takes back stay spent when the moves taken back
showed something of a face-down tile (`undo_keeps_peeks_paid`, [ours]): a shift (or a
reveal) and its undo must not show face-down tiles for free, and where nothing hidden
was shown keeping the tokens spent would protect nothing.

The mini board (conftest): capstone 9 lies on tiles 1 and 2; with
`face_down={1, 2}` those two start face down. Tile 3 is covered at neither side free,
face up: shifting it shows nothing hidden."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pyramids.core import GameRecord
from pyramids.games.mahjongg.state import MahjonggState
from pyramids.play.movelog import describe_for, describer

from .conftest import MINI_FACES, mini_game

HIDDEN = frozenset({1, 2})
RECORDS = json.loads((Path(__file__).parent / "data" / "records_no_refund.json").read_text())


def play(moves: list[str], face_down: frozenset[int] = HIDDEN, **options: Any) -> MahjonggState:
    state = mini_game(face_down=face_down, **options).state_with_faces(MINI_FACES, seed=1)
    for move in moves:
        state.apply_string(move)
    return state


def core(state: MahjonggState) -> dict[str, Any]:
    saved = json.loads(state.to_json())["state"]["core"]
    saved.pop("last_move")
    return saved


def log_line(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return [line.text() for line in describe_for(describer("mahjongg"), "undo", 0, 0,
                                                 before, after)]


@pytest.mark.parametrize("favor", ["sight", "shift 3", "shift 1"])
def test_without_face_down_tiles_a_favor_and_its_undo_restore_the_exact_state(
        favor: str) -> None:
    # No face-down tile anywhere (as on Pharaoh's Tomb or the Turtle): the undo gives
    # back the exact state before the favor, tokens, bank and score included.
    state = play(["match 7 8"], face_down=frozenset())
    before = core(state)
    assert state.tokens == [2]
    state.apply_string(favor)
    assert state.tokens == [1]
    state.apply_string("undo")
    after = core(state)
    assert after.pop("streaks") == [0] and before.pop("streaks") == [1]  # undo ends it
    assert after == before
    assert state.last_move == {"player": 0, "action": "undo"}


def test_a_shift_that_turns_a_face_down_tile_up_keeps_its_token_and_the_face() -> None:
    state = play([])
    before = state.view(0)
    state.apply_string("shift 1")
    state.apply_string("undo")
    after = state.view(0)
    assert after["tokens"] == [before["tokens"][0] - 1]
    assert after["bank"] == before["bank"] + 1
    tile = next(t for t in after["tiles"] if t["id"] == 1)
    assert tile["face"] == "Scarab 1" and not tile.get("shifted")
    assert state.face_down == 1 << 2
    assert after["last_move"] == {"player": 0, "action": "undo", "tokens_kept_spent": 1,
                                  "face_down_shown": True}
    assert ("You took back the last move; the 1 token paid for a favor stays spent, since "
            "the moves taken back showed a face-down tile.") in log_line(before, after)


@pytest.mark.parametrize("favor", ["sight", "shift 3"])
def test_a_favor_that_shows_nothing_hidden_is_refunded_beside_face_down_tiles(
        favor: str) -> None:
    state = play([])
    before = core(state)
    state.apply_string(favor)
    state.apply_string("undo")
    assert core(state) == before  # tiles 1 and 2 still face down, the token back
    assert state.face_down == 0b110
    assert state.last_move == {"player": 0, "action": "undo"}


@pytest.mark.parametrize(("moves", "tokens", "face_down"), [
    # Match, favor that shows nothing, undo, undo: back to the start exactly.
    (["match 7 8", "sight", "undo", "undo"], 2, 0b110),
    (["match 7 8", "shift 3", "undo", "undo"], 2, 0b110),
    # Match, shift that shows tile 1, undo, undo: the shift stays paid.
    (["match 7 8", "shift 1", "undo", "undo"], 1, 0b100),
    # The capstone's pair settles tiles 1 and 2 face up. Taken back after a sight, it
    # showed them since the sight's snapshot: the sight stays paid.
    (["sight", "match 0 9", "undo", "undo"], 1, 0),
    # Played before the sight, the faces were shown already: the sight comes back,
    # also when the match is taken back after it.
    (["match 0 9", "sight", "undo"], 2, 0),
    (["match 0 9", "sight", "undo", "undo"], 2, 0),
    # Shift that shows, sight, undo, undo: the sight comes back, the shift does not.
    (["shift 1", "sight", "undo"], 1, 0b100),
    (["shift 1", "sight", "undo", "undo"], 1, 0b100),
    # A shifted face-up tile matched: shows nothing hidden (3 and 4 cover nothing).
    (["shift 3", "match 3 4", "undo", "undo"], 2, 0b110),
])
def test_mixed_sequences_keep_only_what_a_peek_paid(moves: list[str], tokens: int,
                                                   face_down: int) -> None:
    state = play(moves)
    assert state.tokens == [tokens], moves
    assert state.tokens[0] + state.bank == 20
    assert state.face_down == face_down


def test_an_undo_never_takes_back_a_refund_or_a_kept_token_later() -> None:
    # The token count after each undo: a later undo further back neither charges
    # a refunded favor again nor gives back one kept spent.
    state = play(["match 0 9", "sight"])
    state.apply_string("undo")
    assert state.tokens == [2]
    state.apply_string("undo")
    assert state.tokens == [2] and not state._undo
    state = play(["match 7 8", "shift 1", "undo"])
    assert state.tokens == [1]
    state.apply_string("undo")
    assert state.tokens == [1] and not state._undo


def test_with_the_option_off_every_undo_restores_the_tokens() -> None:
    state = play(["match 7 8", "shift 1", "undo", "undo"], undo_keeps_peeks_paid=False)
    assert state.tokens == [2] and state.bank == 18
    assert state.face_down == 0b100  # a face once shown stays shown all the same
    assert state.last_move == {"player": 0, "action": "undo"}


@pytest.mark.parametrize("peeks", [True, False])
def test_without_refunds_no_undo_gives_a_token_back(peeks: bool) -> None:
    for moves in (["sight", "undo"], ["shift 3", "undo"], ["match 7 8", "sight", "undo", "undo"]):
        state = play(moves, face_down=frozenset(), undo_refunds_favors=False,
                     undo_keeps_peeks_paid=peeks)
        assert state.tokens == [1], moves
        assert state.last_move == {"player": 0, "action": "undo", "tokens_kept_spent": 1}


def test_an_undo_past_the_vault_that_paid_a_peek_is_refused_and_says_why() -> None:
    # Shift 1 (a peek) with the only token; pair 1 6 opens the vault, whose token
    # pays a reveal of tile 2 (another peek). Undoing the reveal keeps its token
    # spent; undoing the pair too would take back the vault's token: refused.
    moves = ["shift 1", "match 1 6", "reveal 2", "undo"]
    state = play(moves, start_tokens=1)
    assert state.tokens == [0] and state.face_down == 0
    assert "undo" not in state.legal_action_strings()
    reason = str(state.unavailable()["undo"])
    assert reason == ("an undo would take back the token a favor was paid with (a vault's, "
                      "won since), and the moves it takes back showed a face-down tile, so "
                      "the favor's tokens stay spent")
    # Without the peek rule the same undo restores the tokens exactly.
    state = play([*moves, "undo"], start_tokens=1, undo_keeps_peeks_paid=False)
    assert state.tokens == [0] and state.view(0)["vaults"][0]["state"] == "locked"
    state.apply_string("undo")
    assert state.tokens == [1] and state.bank == 19


def test_the_undo_stack_saves_what_undos_kept_spent() -> None:
    state = play(["match 7 8", "shift 1", "undo"])
    assert state._undo_kept == [1]
    loaded = state.game.state_from_json(state.to_json())
    assert isinstance(loaded, MahjonggState)
    assert loaded._undo_kept == [1]
    for twin in (state, loaded, state.clone()):
        twin.apply_string("undo")
        assert twin.tokens == [1]


def test_games_saved_without_refunds_replay_exactly() -> None:
    # Played and saved under the default of their day, `undo_refunds_favors=false`,
    # before `undo_keeps_peeks_paid` existed (undos kept favor tokens spent in each):
    # they replay with it off, to the very state saved then.
    for record in RECORDS["records"]:
        assert record["options"]["undo_refunds_favors"] is False
        assert "undo_keeps_peeks_paid" not in record["options"]
        replayed = GameRecord(record["game"], record["options"], record["seed"],
                              record["actions"]).final_state()
        assert replayed.game.options["undo_keeps_peeks_paid"] is False
        now = json.loads(replayed.to_json())
        del now["options"]["undo_keeps_peeks_paid"], now["state"]["undo_kept"]
        assert now == json.loads(record["final"])
        # A save of that day loads and saves again to the same state.
        loaded = replayed.game.state_from_json(record["final"])
        assert json.loads(loaded.to_json()) == json.loads(replayed.to_json())
