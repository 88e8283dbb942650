"""Registration, the rules page, and invariants over random games on real blueprints."""

from __future__ import annotations

import json
import random
import re

import pytest

from pyramids.core import GameRecord, game_entry, load
from pyramids.games.mahjongg.favors import free_mask
from pyramids.games.mahjongg.game import OPTIONS
from pyramids.games.mahjongg.state import MahjonggState


def test_registered_with_a_rules_page_that_lists_every_option() -> None:
    entry = game_entry("mahjongg")
    assert entry.rules_page is not None
    page = entry.rules_page()
    for option in OPTIONS:
        assert f"| `{option.name}` | `" in page, option.name
        default = option.default
        shown = ("true" if default else "false") if isinstance(default, bool) else str(default)
        assert re.search(rf"\| `{option.name}` \| `{re.escape(shown)}` \|", page), option.name
    for action in ("match A B", "shift A", "pass", "sight", "reshuffle", "undo", "hint",
                   "finish", "clock S"):
        assert f"`{action}`" in page


def _tokens_in_play(state: MahjonggState) -> int:
    return sum(state.tokens) + state.bank


@pytest.mark.parametrize(
    "options",
    [
        {"layout": "giza-step-ramp", "solver_nodes": 200},
        {"layout": "great-zenith", "mode": "time-attack", "time_limit_seconds": 30},
        {"layout": "giza-step-ramp", "mode": "coop", "players": 2},
        {"layout": "giza-step-ramp", "players": 3, "deal": "random"},
    ],
)
def test_random_games_keep_the_invariants(options: dict[str, object]) -> None:
    game = load("mahjongg", **options)
    rng = random.Random(4)
    for seed in range(8):
        state = game.new_initial_state(seed)
        assert isinstance(state, MahjonggState)
        total_tokens = _tokens_in_play(state)
        # A capstone's structural shift can turn every hidden face up at once.
        hidden_seen = any(tile["face"] is None for tile in state.view(0)["tiles"])
        while not state.is_terminal():
            # Prefer pairs, so that games reach deep positions.
            legal = state.legal_action_strings()
            matches = [a for a in legal if a.startswith("match")]
            choice = rng.choice(matches) if matches and rng.random() < 0.8 else rng.choice(legal)
            score_before = list(state.scores)
            state.apply_string(choice)
            assert _tokens_in_play(state) == total_tokens
            assert bin(state.present).count("1") % 2 == 0
            # The free tiles kept up to date on removals equal a fresh computation.
            assert state.naturally_free() == free_mask(game.geometry, state.present)
            if choice.startswith("match") and not state.is_terminal():
                assert sum(state.scores) > sum(score_before)
            view = state.view(state.current_player if not state.is_terminal() else 0)
            for tile in view["tiles"]:
                down = bool(state.face_down >> tile["id"] & 1)
                hidden_seen |= down
                assert (tile["face"] is None) == down
                assert not (down and tile["free"])
            json.dumps(view)
        if options.get("layout") == "great-zenith":
            assert hidden_seen
        record = GameRecord.from_state(state)
        assert GameRecord.from_json(record.to_json()).final_state().to_json() == state.to_json()


def test_great_zenith_hides_faces_in_every_view() -> None:
    game = load("mahjongg", layout="great-zenith")
    state = game.new_initial_state(1)
    hidden = [t for t in range(game.layout.size) if state.face_down >> t & 1]
    assert hidden
    for player in (None, 0):
        tiles = {t["id"]: t for t in state.view(player)["tiles"]}
        assert all(tiles[t]["face"] is None and tiles[t]["face_index"] is None for t in hidden)


def test_games_on_different_boards_are_not_equal() -> None:
    from pyramids.games.mahjongg.game import MahjonggGame
    from pyramids.games.mahjongg.layout import Layout
    from tests.games.mahjongg.conftest import STACKS_POSITIONS, TRAP_POSITIONS

    # Same name, same options, other tiles: not the same game.
    stacks = MahjonggGame(layout_object=Layout("puzzle", STACKS_POSITIONS), layout="puzzle")
    trap = MahjonggGame(layout_object=Layout("puzzle", TRAP_POSITIONS), layout="puzzle")
    assert stacks != trap
    # The same board under the same options is the same game, whatever the object.
    again = MahjonggGame(layout_object=Layout("puzzle", STACKS_POSITIONS), layout="puzzle")
    assert stacks == again and hash(stacks) == hash(again)
    assert load("mahjongg", layout="giza-step-ramp") == load("mahjongg", layout="giza-step-ramp")
    assert load("mahjongg", layout="giza-step-ramp") != load("mahjongg", layout="great-zenith")
