"""Saving Pacal states: old saves still load, round trips, clones, malformed snapshots."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import pyramids
from pyramids.core import GameRecord, IllegalActionError, RecordError
from pyramids.games.pacal import PacalGame, PacalSoloGame

# `to_json()` strings and game records written by the code before `core.saving`.
BEFORE = json.loads((Path(__file__).parent / "data" / "saves_before_schema.json").read_text())


def with_options_added_since(text: str) -> str:
    """A state saved before options were added, as it saves now: with those options at
    their legacy values, every other byte the same."""
    from pyramids.core.options import with_legacy

    data = json.loads(text)
    specs = pyramids.load(data["game"], **data["options"]).option_specs
    data["options"] = with_legacy(specs, data["options"])
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


@pytest.mark.parametrize("name", ["pacal", "pacal-solo"])
def test_saves_written_before_the_schema_load_and_save_byte_for_byte(name: str) -> None:
    """Byte for byte, but for the options added since, which a save from before takes
    at their legacy values (Pacal's start_rule: the loser started)."""
    phases = set()
    for text in BEFORE[name]:
        game = pyramids.load(name, **json.loads(text)["options"])
        state = game.state_from_json(text)
        expected = with_options_added_since(text)
        assert state.to_json() == expected
        assert state.clone().to_json() == expected
        phases.add(state.view(None)["phase"])
    expected = {"offer", "pick", "place", "last_card", "over"} if name == "pacal" else {
        "place", "over"}
    assert phases == expected


def test_recorded_games_replay_to_the_states_saved_before_the_split() -> None:
    for record in BEFORE["records"]:
        replayed = GameRecord(
            record["game"], record["options"], record["seed"], record["actions"]
        ).final_state()
        assert replayed.to_json() == with_options_added_since(record["final"])


def random_states(game: Any, games: int, seed: int) -> Any:
    rng = random.Random(seed)
    for number in range(games):
        state = game.new_initial_state(seed * 10_000 + number)
        yield state
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            yield state


@pytest.mark.parametrize(
    ("game", "games"),
    [(PacalGame(), 400), (PacalGame(rounds_to_win=1, max_rounds=2), 600), (PacalSoloGame(), 3000)],
)
def test_every_state_of_random_games_round_trips_and_clones(game: Any, games: int) -> None:
    rng = random.Random(5)
    for state in random_states(game, games, 1):
        text = state.to_json()
        assert game.state_from_json(text).to_json() == text
        twin = state.clone()
        assert twin.to_json() == text
        if not twin.is_terminal():
            # A clone moves on alone: the original keeps every card where it was.
            twin.apply_action(rng.choice(twin.legal_actions()))
            assert state.to_json() == text


@pytest.mark.parametrize("game", [PacalGame(), PacalSoloGame()])
def test_illegal_actions_in_every_phase_change_nothing(game: Any) -> None:
    rng = random.Random(3)
    phases = set()
    for state in random_states(game, 60, 2):
        legal = set(state.legal_actions())
        wrong = [a for a in rng.sample(range(game.num_distinct_actions), 8) if a not in legal]
        text = state.to_json()
        for action in [*wrong, -1, game.num_distinct_actions]:
            with pytest.raises(IllegalActionError):
                state.apply_action(action)
            assert state.to_json() == text
        phases.add(state.view(None)["phase"])
    assert "over" in phases and len(phases) >= 2


def mid_match_text() -> str:
    for text in BEFORE["pacal"]:
        if json.loads(text)["state"]["phase"] == "pick":
            return text
    raise AssertionError("no saved pick phase")


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("hands", 1, 0), 51, r"hands\[1\]\[0\]: 51 is not an integer in 1..50"),
        (("hands",), [[1]], "hands: 1 entries where 2 are needed"),
        (("phase",), "dancing", "phase: 'dancing' is not one of 'offer', 'pick'"),
        (("current",), -1, r"current: -1 is not an integer in 0..1"),
        (("round",), 16, r"round: 16 is not an integer in 1..15"),
        (("round_wins", 0), 4, r"round_wins\[0\]: 4 is not an integer in 0..3"),
        (("rng",), "7", "rng: '7' is not a generator state"),
        (("seed",), [7], r"seed: \[7\] is not an integer, a string or null"),
        (("declined", 1), "no", r"declined\[1\]: 'no' is not true or false"),
        (("offer",), [3], "offer: 1 entries where 2 are needed"),
        (("pyramids", 0, 0), [1, 2, 3], r"pyramids\[0\]: F1 holds 3 cards; at most 2 fit"),
        (("pyramids",), [], r"pyramids: \[\] is not one list of ten fields per player"),
        (("last_round",), 3, "last_round: 3 is not an object"),
        (("winner",), 2, r"winner: 2 is not an integer in 0..1"),
        (("history", 0), 1286, r"history\[0\]: 1286 is not an integer in 0..1285"),
    ],
)
def test_malformed_match_snapshots_are_refused_naming_the_field(
    path: tuple[Any, ...], value: Any, message: str
) -> None:
    text = mid_match_text()
    data = json.loads(text)
    node = data["state"]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(RecordError, match="saved pacal state: " + message):
        PacalGame().state_from_json(json.dumps(data))


def test_a_match_snapshot_whose_cards_do_not_add_up_is_refused() -> None:
    data = json.loads(mid_match_text())
    hands = data["state"]["hands"]
    hands[0][0] = hands[1][0]  # one card twice, another gone
    with pytest.raises(RecordError, match="not exactly 1..50 once each"):
        PacalGame().state_from_json(json.dumps(data))
    del data["state"]["pending"]
    with pytest.raises(RecordError, match="'pending' is missing"):
        PacalGame().state_from_json(json.dumps(data))


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("draws", 0, "draws: 0 is not an integer in 1..40"),
        ("result", "drawn", "result: 'drawn' is not one of 'playing', 'won', 'lost'"),
        ("card", 0, "card: 0 is not an integer in 1..50"),
        ("pile", [1, None], r"pile\[1\]: None is not an integer in 1..50"),
        ("pyramid", {"F1": []}, "pyramid: {'F1': \\[\\]} is not a list of ten fields"),
        ("history", [10], r"history\[0\]: 10 is not an integer in 0..9"),
    ],
)
def test_malformed_solo_snapshots_are_refused_naming_the_field(
    key: str, value: Any, message: str
) -> None:
    text = next(t for t in BEFORE["pacal-solo"] if json.loads(t)["state"]["result"] == "playing")
    data = json.loads(text)
    data["state"][key] = value
    with pytest.raises(RecordError, match="saved pacal-solo state: " + message):
        PacalSoloGame().state_from_json(json.dumps(data))


def test_a_solo_snapshot_with_a_wrong_draw_count_is_refused() -> None:
    text = next(t for t in BEFORE["pacal-solo"] if json.loads(t)["state"]["result"] == "playing")
    data = json.loads(text)
    data["state"]["draws"] += 1
    with pytest.raises(RecordError, match="draw count does not match"):
        PacalSoloGame().state_from_json(json.dumps(data))
