"""Saving Temple states: old saves still load, round trips, clones, malformed snapshots."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import pyramids
from pyramids.core import GameRecord, RecordError
from pyramids.games.temple.game import TempleGame
from pyramids.games.temple.state import ENDINGS, PHASES, TempleState

# `to_json()` strings and game records written by the code before `core.saving`:
# 2-5 players, every start rule, small decks, every phase mid-game, finished games
# of every ending. `legacy`: saves without the keys added later (`ended_by`, then
# `quiet_rounds` and `stirred`), with what that code saved again after loading them.
BEFORE = json.loads((Path(__file__).parent / "data" / "saves_before_schema.json").read_text())

OPTION_SETS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3, "start_rule": "rotate"},
    {"players": 4, "start_rule": "lot", "swap_size": 0},
    {"players": 5, "start_rule": "poorest", "cards_per_level": 3, "jewels": 4},
    {"players": 2, "cards_per_level": 1, "jewels": 8, "swap_size": 2, "start_hand": 2},
    {"players": 3, "cards_per_level": 2, "jewels": 6, "max_rounds": 8},
]


def load(text: str) -> TempleState:
    game = pyramids.load("temple", **json.loads(text)["options"])
    state = game.state_from_json(text)
    assert isinstance(state, TempleState)
    return state


def random_states(game: TempleGame, games: int, seed: int) -> Iterator[TempleState]:
    rng = random.Random(seed)
    for number in range(games):
        state = game.new_initial_state(seed * 1_000 + number)
        yield state
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            yield state


def test_saves_written_before_the_schema_load_and_save_byte_for_byte() -> None:
    seen: set[Any] = set()
    for text in BEFORE["states"]:
        state = load(text)
        assert state.to_json() == text
        assert state.clone().to_json() == text
        assert load(state.clone().to_json()).legal_actions() == state.legal_actions()
        data = json.loads(text)
        seen |= {data["options"]["players"], data["options"]["start_rule"],
                 data["state"]["phase"], data["state"]["ended_by"]}
    assert seen >= {2, 3, 4, 5, "rotate", "lot", "poorest", "leader_last", *PHASES, *ENDINGS}


def test_saves_from_before_the_newer_keys_load_as_they_did() -> None:
    phases = set()
    for entry in BEFORE["legacy"]:
        saved = json.loads(entry["saved"])["state"]
        assert "ended_by" not in saved
        phases.add(saved["phase"])
        assert load(entry["saved"]).to_json() == entry["loaded"]
    assert phases == set(PHASES)


def test_recorded_games_replay_to_the_states_saved_before_the_schema() -> None:
    assert len(BEFORE["records"]) >= 5
    for record in BEFORE["records"]:
        replayed = GameRecord(
            record["game"], record["options"], record["seed"], record["actions"]
        ).final_state()
        assert replayed.is_terminal()
        assert replayed.to_json() == record["final"]
        assert replayed.returns() == record["result"]["returns"]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_every_state_of_random_games_round_trips_and_clones(options: dict[str, Any]) -> None:
    game = pyramids.load("temple", **options)
    assert isinstance(game, TempleGame)
    rng = random.Random(3)
    for state in random_states(game, 12, 1):
        text = state.to_json()
        restored = game.state_from_json(text)
        assert restored.to_json() == text
        assert restored.legal_actions() == state.legal_actions()
        assert restored.view(None) == state.view(None)
        twin = state.clone()
        assert twin.to_json() == text
        assert twin.legal_actions() == state.legal_actions()
        if not twin.is_terminal():
            # A clone moves on alone: the original keeps its cards, treasure and generator.
            legal = state.legal_actions()
            while not twin.is_terminal() and twin.round == state.round:
                twin.apply_action(rng.choice(twin.legal_actions()))
            assert state.to_json() == text
            assert state.legal_actions() == legal


def test_a_loaded_state_and_a_clone_play_on_exactly_as_the_original() -> None:
    game = pyramids.load("temple", players=4, cards_per_level=3, jewels=6)
    for text in [s.to_json() for s in random_states(game, 2, 9)][::7]:
        original, loaded = load(text), load(text)
        twin = original.clone()
        rng = random.Random(text)
        while not original.is_terminal():
            action = rng.choice(original.legal_actions())
            for state in (original, loaded, twin):
                state.apply_action(action)
        assert loaded.to_json() == twin.to_json() == original.to_json()


def test_resampled_states_save_load_and_leave_the_original_alone() -> None:
    game = pyramids.load("temple", players=3)
    rng = random.Random(4)
    for state in list(random_states(game, 1, 5))[::5]:
        text = state.to_json()
        for player in (None, 0, 2):
            sample = state.resample_hidden(player, rng)
            assert state.to_json() == text
            assert load(sample.to_json()).to_json() == sample.to_json()


def summon_position() -> dict[str, Any]:
    """A saved 'set' phase of a three-player game (a construction under way)."""
    for text in BEFORE["states"]:
        data = json.loads(text)
        if data["state"]["phase"] == "set" and data["options"]["players"] == 3:
            assert isinstance(data, dict)
            return data
    raise AssertionError("no saved three-player 'set' phase")


def swap_key(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(state: dict[str, Any]) -> None:
        state[key] = value
    return change


def set_item(key: str, index: int, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(state: dict[str, Any]) -> None:
        state[key][index] = value
    return change


def drop(key: str) -> Callable[[dict[str, Any]], None]:
    def change(state: dict[str, Any]) -> None:
        del state[key]
    return change


MALFORMED = [
    ("seed", swap_key("seed", 1.5)),
    ("rng", swap_key("rng", -1)),
    ("rng", swap_key("rng", True)),
    ("rng", swap_key("rng", 1 << 64)),
    ("pile[0]", set_item("pile", 0, "L10")),
    ("pile", swap_key("pile", "L1 L2")),
    ("discard", swap_key("discard", {"L1": -1})),
    ("removed", swap_key("removed", {"Q": 1})),
    ("built", swap_key("built", 10)),
    ("built", drop("built")),
    ("zone", swap_key("zone", [None])),
    ("zone[1]", set_item("zone", 1, 3)),
    ("hands", swap_key("hands", [{}, {}])),
    ("hands[1]", set_item("hands", 1, {"L1": "two"})),
    ("known[2]", set_item("known", 2, [1])),
    ("treasure[0]", set_item("treasure", 0, -1)),
    ("treasure", swap_key("treasure", [1, 2, 3, 4])),
    ("round", swap_key("round", 0)),
    ("round", swap_key("round", 201)),
    ("start_player", swap_key("start_player", 3)),
    ("phase", swap_key("phase", "lunch")),
    ("quiet_rounds", swap_key("quiet_rounds", 7)),
    ("stirred", swap_key("stirred", "yes")),
    ("ended_by", swap_key("ended_by", "boredom")),
    ("current", swap_key("current", 3)),
    ("acted", swap_key("acted", -1)),
    ("construction", swap_key("construction", {"summoner": 7, "paid": True, "sets": []})),
    ("construction", swap_key("construction", {"summoner": 0})),
    ("actions[1]", set_item("actions", 1, 10_000)),
]


@pytest.mark.parametrize(("field", "change"), MALFORMED,
                         ids=[f"{field}-{n}" for n, (field, _) in enumerate(MALFORMED)])
def test_a_malformed_field_is_refused_naming_it(
    field: str, change: Callable[[dict[str, Any]], None]
) -> None:
    data = summon_position()
    game = pyramids.load("temple", **data["options"])
    assert game.state_from_json(json.dumps(data)).to_json()  # intact, it loads
    change(data["state"])
    with pytest.raises(RecordError, match=r"saved temple state") as refused:
        game.state_from_json(json.dumps(data))
    assert field in str(refused.value)


INCONSISTENT = [
    ("add up", lambda state: state["pile"].pop()),
    ("known", lambda state: state["known"][0].update({"J": 99})),
    ("ended_by", swap_key("ended_by", "max_rounds")),
    ("construction", swap_key("construction", None)),
    ("next to set", swap_key("current", 0 if summon_position()["state"]["current"] else 1)),
]


@pytest.mark.parametrize(("why", "change"), INCONSISTENT, ids=[w for w, _ in INCONSISTENT])
def test_a_position_no_game_reaches_is_refused_saying_why(
    why: str, change: Callable[[dict[str, Any]], None]
) -> None:
    data = summon_position()
    game = pyramids.load("temple", **data["options"])
    change(data["state"])
    with pytest.raises(RecordError, match=r"saved temple state") as refused:
        game.state_from_json(json.dumps(data))
    assert why in str(refused.value)
