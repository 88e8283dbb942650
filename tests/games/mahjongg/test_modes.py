"""Modes and the end of the game: clear, passes, lockout, time, co-op, ties, options."""

from __future__ import annotations

import pytest

from pyramids.core import IllegalActionError, OptionError, load
from pyramids.games.mahjongg.game import MahjonggGame
from pyramids.games.mahjongg.layout import Layout

from .conftest import MINI_FACES, STACKS_FACES, face, mini_game, stacks_game


def test_a_full_round_of_passes_ends_a_standard_game() -> None:
    state = mini_game(players=2).state_with_faces(MINI_FACES, seed=1)
    state.apply_string("pass")  # player 0
    state.apply_string("match 7 8")  # player 1: the round starts again
    state.apply_string("pass")  # player 0
    assert not state.is_terminal()
    assert state.current_player == 1
    state.apply_string("pass")  # player 1: both passed in a row
    assert state.is_terminal()
    result = state.view(None)["result"]
    assert result["reason"] == "all-passed"
    # Player 1 has the only pair: 100, plus 2 tokens x 200 each.
    assert state.scores == [400, 500]
    assert result["winners"] == [1]
    assert state.returns() == [-1.0, 1.0]


def test_one_player_pass_gives_up() -> None:
    state = mini_game().state_with_faces(MINI_FACES, seed=1)
    state.apply_string("match 7 8")
    state.apply_string("pass")
    assert state.is_terminal()
    assert state.view(0)["result"]["reason"] == "all-passed"
    assert state.returns() == [-1.0]


def test_lockout_ends_the_game() -> None:
    state = stacks_game(start_tokens=0).state_with_faces(STACKS_FACES, seed=1)
    state.apply_string("match 2 3")
    assert state.is_terminal()
    assert state.view(0)["result"]["reason"] == "lockout"
    assert state.returns() == [-1.0]


def test_no_lockout_while_someone_holds_a_token() -> None:
    game = stacks_game(players=2, start_tokens=1)
    state = game.state_with_faces(STACKS_FACES, seed=1)
    state.apply_string("shift 0")  # player 0 spends a token; 0 is Scarab 1
    state.apply_string("match 2 3")
    assert not state.is_terminal()  # player 1 still has a token
    assert state.valid_pairs() == []
    state.apply_string("shift 1")  # player 1 lifts 1 (Scarab 2) from under 5
    assert not state.is_terminal()
    state.apply_string("match 1 4")  # the two Scarab 2s
    state.apply_string("match 0 5")  # 4 is gone, so 0 is free: the Scarab 1s
    assert state.is_terminal()
    assert state.view(None)["result"]["reason"] == "cleared"


def test_lockout_at_the_deal() -> None:
    faces = list(STACKS_FACES)
    faces[2], faces[3] = face("Glyph 9"), face("Glyph 8")
    faces[0], faces[1] = face("Glyph 9"), face("Glyph 8")
    state = stacks_game(start_tokens=0).state_with_faces(faces, seed=1)
    assert state.is_terminal() and state.legal_actions() == []
    assert state.view(0)["result"]["reason"] == "lockout"


def test_tie_goes_to_the_capstone_remover() -> None:
    faces = list(MINI_FACES)
    faces[0] = faces[9] = face("Scarab 2")  # capstone pair: 100 x 2 = 200 (+50)
    faces[7], faces[8] = face("Ra"), face("Ra")  # base deity pair: 250
    game = mini_game(players=2, capstone_bonus=50)
    state = game.state_with_faces(faces, seed=1)
    state.apply_string("match 7 8")  # player 0: 250, a deity pair
    state.apply_string("match 0 9")  # player 1: 250 with the capstone
    state.apply_string("pass")
    state.apply_string("pass")
    assert state.scores == [650, 650]
    assert state.view(None)["result"]["winners"] == [1]
    assert state.returns() == [-1.0, 1.0]


def test_tie_then_deity_pairs() -> None:
    faces = list(MINI_FACES)
    faces[7], faces[8] = face("Ra"), face("Horus")  # 250, a deity pair
    faces[0] = faces[9] = face("Scarab 2")
    game = mini_game(players=2, capstone_bonus=0, capstone_double_pairs=0)
    state = game.state_with_faces(faces, seed=1)
    state.apply_string("match 7 8")  # player 0: 250, deity
    state.apply_string("shift 3")  # player 1: 3 (Harvest) with 4 (Oasis): 300
    state.apply_string("match 3 4")
    state.apply_string("pass")
    state.apply_string("pass")
    # Player 1 spent a token: 300 + 200 = 500; player 0: 250 + 400 = 650.
    assert state.scores == [650, 500]
    assert state.view(None)["result"]["winners"] == [0]


def test_complete_tie_is_a_draw() -> None:
    state = mini_game(players=2).state_with_faces(MINI_FACES, seed=1)
    state.apply_string("pass")
    state.apply_string("pass")
    assert state.view(None)["result"]["winners"] == [0, 1]
    assert state.returns() == [0.0, 0.0]


def test_turns_go_round_and_favors_do_not_end_a_turn() -> None:
    state = mini_game(players=3).state_with_faces(MINI_FACES, seed=1)
    assert state.current_player == 0
    state.apply_string("sight")
    assert state.current_player == 0
    state.apply_string("match 7 8")
    assert state.current_player == 1
    state.apply_string("pass")
    assert state.current_player == 2
    state.apply_string("match 0 9")
    assert state.current_player == 0
    assert state.view(None)["capstones"][0]["removed_by"] == 2
    assert state.doubling == [0, 0, 3]


def test_time_attack_clock() -> None:
    game = mini_game(mode="time-attack", time_limit_seconds=100, time_token_bonus_seconds=30)
    state = game.state_with_faces(MINI_FACES, seed=1)
    assert state.view(0)["time_left"] == 100
    assert "clock 1" in state.legal_action_strings()
    assert "clock 100" in state.legal_action_strings()
    state.apply_string("clock 40")
    state.apply_string("match 7 8")
    assert state.view(0)["time_left"] == 60
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="only grow: now 40, allowed 41..100"):
        state.apply_string("clock 40")
    with pytest.raises(IllegalActionError, match="whole seconds 0..100"):
        state.apply_string("clock 101")
    assert state.to_json() == before
    state.apply_string("sight")
    # Undo does not turn back the clock; it gives the favor's token back (the sight
    # showed no face-down tile: the mini board has none).
    state.apply_string("undo")
    assert state.elapsed == 40
    state.apply_string("clock 100")
    assert state.is_terminal()
    result = state.view(0)["result"]
    assert result["reason"] == "time-up"
    assert result["time_left"] == 0
    assert result["time_score"] == 0 + 2 * 30
    assert state.returns() == [-1.0]


def test_time_attack_cleared_in_time() -> None:
    game = mini_game(mode="time-attack", time_limit_seconds=100)
    state = game.state_with_faces(MINI_FACES, seed=1)
    for move in ("match 0 9", "clock 10", "match 1 6", "match 2 5", "clock 30",
                 "match 3 4", "match 7 8"):
        state.apply_string(move)
    result = state.view(0)["result"]
    assert result["reason"] == "cleared"
    assert result["time_score"] == 70 + 3 * 30
    assert state.returns() == [1.0]


def test_coop_shares_pool_and_score_and_wins_with_every_vault() -> None:
    state = mini_game(mode="coop", players=2).state_with_faces(MINI_FACES, seed=1)
    view = state.view(1)
    assert view["tokens"] == 4 and view["bank"] == 16
    state.apply_string("match 0 9")  # player 0
    state.apply_string("sight")  # player 1 spends from the pool
    state.apply_string("match 1 6")  # player 1 unlocks the vault; its token to the pool
    view = state.view(0)
    assert view["tokens"] == 4
    # The doubling and the streak are player 0's: player 1 scores 100 + 750.
    assert view["scores"] == [2000 + 850, 2000 + 850] == [view["team_score"]] * 2
    assert view["vaults"] == [{"id": 5, "state": "unlocked", "by": 1}]
    state.apply_string("pass")
    state.apply_string("pass")
    result = state.view(0)["result"]
    assert result["team_won"] is True and result["cleared"] is False
    assert state.returns() == [1.0, 1.0]


def test_coop_loses_when_a_vault_is_forfeited_or_still_locked() -> None:
    state = mini_game(mode="coop", players=2).state_with_faces(MINI_FACES, seed=1)
    state.apply_string("pass")
    state.apply_string("pass")
    assert state.view(0)["result"]["team_won"] is False
    assert state.returns() == [-1.0, -1.0]


def test_coop_lockout_before_the_vaults_loses() -> None:
    # Stacks with a vault on 2: matching 2 with 3 forfeits it, then lockout.
    from pyramids.games.mahjongg.game import MahjonggGame
    from pyramids.games.mahjongg.layout import Layout

    from .conftest import STACKS_POSITIONS

    layout = Layout("stacks-vault", STACKS_POSITIONS, vaults=frozenset({2}))
    game = MahjonggGame(layout_object=layout, layout="stacks-vault", mode="coop", players=2,
                        start_tokens=0)
    state = game.state_with_faces(STACKS_FACES, seed=1)
    state.apply_string("match 2 3")
    assert state.is_terminal()
    result = state.view(0)["result"]
    assert result["reason"] == "lockout" and result["team_won"] is False


def test_finish_clears_the_rest_when_every_tile_is_free() -> None:
    state = mini_game().state_with_faces(MINI_FACES, seed=1)
    state.apply_string("match 0 9")
    state.apply_string("match 1 6")
    assert "finish" not in state.legal_action_strings()  # 3 is still blocked
    state.apply_string("match 2 5")
    assert "finish" in state.legal_action_strings()  # 3, 4, 7, 8 are all free
    state.apply_string("finish")
    assert state.is_terminal()
    # The same points as matching 3 4 then 7 8 by hand (see test_scoring).
    assert state.scores == [4950]
    assert state.last_move is not None and state.last_move["pairs"] == [[3, 4], [7, 8]]


# Four free tiles: vault 0 with tile 3 touching its front; vault 1 alone (open at the
# deal); 2 far off. Faces: 0 and 2 Scarab 1, 1 and 3 Scarab 2, so both pairs of a
# finish hold a vault.
#
#   y=0:  0V . . . . 1V . . . . 2        (x = 0, 10, 20)
#   y=2:  3                              (x = 0: touches 0's front)
VAULT_FINISH = ((0, 0, 0), (10, 0, 0), (20, 0, 0), (0, 2, 0))


@pytest.mark.parametrize("mode", [{}, {"mode": "coop", "players": 2}])
def test_finish_opens_a_vault_its_neighbour_can_leave_first(mode: dict[str, object]) -> None:
    layout = Layout("vaults", VAULT_FINISH, vaults=frozenset({0, 1}))
    faces = [face("Scarab 1"), face("Scarab 2"), face("Scarab 1"), face("Scarab 2")]
    state = MahjonggGame(layout_object=layout, layout="vaults", **mode).state_with_faces(
        faces, seed=1)
    assert [v["state"] for v in state.view(None)["vaults"]] == ["locked", "unlocked"]
    state.apply_string("finish")
    # 1 and 3 first: taking 3 away opens vault 0 (+750 and a token), which a pair
    # holding 0 first would have lost.
    assert state.last_move is not None and state.last_move["pairs"] == [[1, 3], [0, 2]]
    view = state.view(None)
    assert [(v["state"], v["by"]) for v in view["vaults"]] == [("unlocked", 0), ("unlocked", None)]
    # 100 + 750, then 100 + 20 (streak 2); the tokens left, 200 each.
    tokens = 2 * (2 if mode else 1) + 1
    assert view["scores"][0] == 970 + 200 * tokens
    assert state.returns() == [1.0] * state.game.num_players  # cleared; co-op: every vault


def test_finish_gives_up_two_vaults_that_are_lost_anyway_to_open_a_third() -> None:
    # A column of three locked vaults, 0 (back), 2, 3 (front), each touching the next;
    # 1 far off. Faces: 0 and 1 Scarab 1, 2 and 3 Scarab 2. Every pair holds a locked
    # vault; 2 and 3 touch and go together, so both are lost whatever the order, but
    # taking them first leaves 0 open.
    #
    #   y=0:  0V . . . . 1
    #   y=2:  2V
    #   y=4:  3V
    layout = Layout("column", ((0, 0, 0), (10, 0, 0), (0, 2, 0), (0, 4, 0)),
                    vaults=frozenset({0, 2, 3}))
    faces = [face("Scarab 1"), face("Scarab 1"), face("Scarab 2"), face("Scarab 2")]
    state = MahjonggGame(layout_object=layout, layout="column").state_with_faces(faces, seed=1)
    state.apply_string("finish")
    assert state.last_move is not None and state.last_move["pairs"] == [[2, 3], [0, 1]]
    view = state.view(None)
    assert [(v["state"], v["by"]) for v in view["vaults"]] == [
        ("unlocked", 0), ("forfeited", None), ("forfeited", None)]
    # 100 + 750, then 100 + 20 (streak 2); 3 tokens left, 200 each.
    assert view["scores"] == [970 + 600]


def test_finish_in_games_saved_before_the_vault_order_keeps_the_old_order() -> None:
    layout = Layout("vaults", VAULT_FINISH, vaults=frozenset({0, 1}))
    faces = [face("Scarab 1"), face("Scarab 2"), face("Scarab 1"), face("Scarab 2")]
    game = MahjonggGame(layout_object=layout, layout="vaults", finish_saves_vaults=False)
    state = game.state_with_faces(faces, seed=1)
    state.apply_string("finish")
    assert state.last_move is not None and state.last_move["pairs"] == [[0, 2], [1, 3]]
    assert [v["state"] for v in state.view(None)["vaults"]] == ["forfeited", "unlocked"]


def test_finish_is_not_offered_in_a_competitive_game() -> None:
    state = mini_game(players=2).state_with_faces(MINI_FACES, seed=1)
    state.apply_string("match 0 9")
    state.apply_string("match 1 6")
    state.apply_string("match 2 5")
    with pytest.raises(IllegalActionError, match="one-player modes and co-op"):
        state.apply_string("finish")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mode": "time-attack", "players": 2}, "exactly 1 player"),
        ({"mode": "coop", "players": 1}, "2 to 4 players"),
        ({"players": 5}, "too large"),
        ({"mode": "solo"}, "one of standard, time-attack, coop"),
        ({"deal": "fair"}, "one of solvable, random"),
        ({"bank": 3, "players": 2}, "allowed: bank at least players × start_tokens = 4"),
        ({"layout": "atlantis"}, "unknown layout 'atlantis'"),
        ({"sight_cost": -1}, "too small"),
        ({"colour": "red"}, "unknown option colour"),
    ],
)
def test_bad_options_are_rejected(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        load("mahjongg", **options)


def test_auto_layout_follows_the_mode() -> None:
    assert load("mahjongg").layout.name == "pharaohs-tomb"
    assert load("mahjongg", mode="time-attack").layout.name == "great-zenith"
    assert load("mahjongg", mode="coop", players=2).layout.name == "twin-pyramids-of-dahshur"
    assert load("mahjongg", layout="turtle").layout.size == 144
