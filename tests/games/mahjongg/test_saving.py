"""Saving Mahjongg states: old saves still load, round trips, clones, malformed snapshots."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import pyramids
from pyramids.core import GameRecord, RecordError
from pyramids.core.rng import Rng
from pyramids.games.mahjongg import actions as act
from pyramids.games.mahjongg.game import MahjonggGame
from pyramids.games.mahjongg.state import MahjonggState

# `to_json()` strings and game records written by the code before `core.saving`
# (solo with undo, hints, sights, shifts and reshuffles, time attack, co-op,
# 2-4 players, finished games, great-zenith's face-down tiles).
BEFORE = json.loads((Path(__file__).parent / "data" / "saves_before_schema.json").read_text())

# Random play that uses every kind of action, not only passes (a solo pass ends the game).
WEIGHTS = {"match": 60, act.UNDO: 8, act.HINT: 8, act.SIGHT: 5, "shift": 5,
           act.RESHUFFLE: 50, act.FINISH: 30, act.PASS: 1, "clock": 10, "reveal": 5}


def choose(state: MahjonggState, rng: random.Random) -> int:
    space = state.game.actions
    by_kind: dict[str, list[int]] = {}
    for action in state.legal_actions():
        by_kind.setdefault(space.kind(action), []).append(action)
    kinds = list(by_kind)
    kind = rng.choices(kinds, [WEIGHTS[k] for k in kinds])[0]
    if kind == "clock":
        return by_kind[kind][min(len(by_kind[kind]) - 1, rng.randrange(8))]
    return rng.choice(by_kind[kind])


def random_states(game: MahjonggGame, games: int, seed: int) -> Iterator[MahjonggState]:
    rng = random.Random(seed)
    for number in range(games):
        state = game.new_initial_state(seed * 10_000 + number)
        yield state
        while not state.is_terminal():
            state.apply_action(choose(state, rng))
            yield state


def as_saved_then(text: str) -> str:
    """A save as the code of its day wrote it: without options added since (each has a
    `legacy` value, the rule those saves were played under)."""
    data = json.loads(text)
    added = {spec.name for spec in pyramids.load("mahjongg").option_specs if spec.has_legacy}
    data["options"] = {k: v for k, v in data["options"].items() if k not in added}
    # Fields added since (the Solar Barque's time of the last pair).
    state = data["state"]
    state.pop("undo_kept", None)  # the tokens undos kept spent (undo_keeps_peeks_paid)
    for snapshot in [state["core"], *state["undo"]]:
        snapshot.pop("last_pair_at", None)
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def load(text: str) -> MahjonggState:
    game = pyramids.load("mahjongg", **json.loads(text)["options"])
    state = game.state_from_json(text)
    assert isinstance(state, MahjonggState)
    return state


def test_saves_written_before_the_schema_load_and_save_byte_for_byte() -> None:
    seen: set[Any] = set()
    for text in BEFORE["states"]:
        state = load(text)
        assert as_saved_then(state.to_json()) == text
        assert as_saved_then(state.clone().to_json()) == text
        data = json.loads(text)
        core = data["state"]["core"]
        seen |= {data["options"]["mode"], len(core["pairs"]), core["end_reason"]}
        seen |= {"undo"} if data["state"]["undo"] else set()
        seen |= {"face-down"} if core["face_down"] else set()
        seen |= {"reshuffle"} if "reshuffle" in state.history_strings() else set()
    assert seen >= {"standard", "time-attack", "coop", 1, 2, 3, 4, None, "cleared",
                    "all-passed", "lockout", "time-up", "undo", "face-down", "reshuffle"}


def test_recorded_games_replay_to_the_states_saved_before_the_schema() -> None:
    for record in BEFORE["records"]:
        replayed = GameRecord(
            record["game"], record["options"], record["seed"], record["actions"]
        ).final_state()
        # Replayed under the rules of its day (undo gave back a favor's tokens).
        assert replayed.game.options["undo_refunds_favors"] is True
        assert as_saved_then(replayed.to_json()) == record["final"]


def test_undo_on_a_loaded_state_restores_what_the_original_restores() -> None:
    undone = 0
    for text in BEFORE["states"]:
        original = load(text)
        if act.UNDO not in {original.action_to_string(a) for a in original.legal_actions()}:
            continue
        loaded, twin = load(text), original.clone()
        for state in (original, loaded, twin):
            state.apply_string(act.UNDO)
        assert loaded.to_json() == original.to_json() == twin.to_json()
        assert loaded.legal_actions() == original.legal_actions()
        undone += 1
    assert undone >= 5


@pytest.mark.parametrize(
    ("options", "games"),
    [
        ({"layout": "giza-step-ramp"}, 15),
        ({"layout": "giza-step-ramp", "start_tokens": 6, "deal": "random"}, 15),
        ({"layout": "giza-step-ramp", "mode": "time-attack", "time_limit_seconds": 40}, 10),
        ({"layout": "giza-step-ramp", "mode": "coop", "players": 3}, 10),
        ({"layout": "giza-step-ramp", "players": 2}, 10),
        ({"layout": "giza-step-ramp", "players": 4, "pantheon_pairs": False}, 8),
        ({"layout": "great-zenith"}, 2),
    ],
)
def test_every_state_of_random_games_round_trips_and_clones(
    options: dict[str, Any], games: int
) -> None:
    game = pyramids.load("mahjongg", **options)
    assert isinstance(game, MahjonggGame)
    rng = random.Random(5)
    for state in random_states(game, games, 1):
        text = state.to_json()
        restored = game.state_from_json(text)
        assert restored.to_json() == text
        assert restored.legal_actions() == state.legal_actions()
        twin = state.clone()
        assert twin.to_json() == text
        assert twin.legal_actions() == state.legal_actions()
        if not twin.is_terminal():
            # A clone moves on alone: the original keeps its board, scores and caches.
            legal = state.legal_actions()
            twin.apply_action(choose(twin, rng))
            assert state.to_json() == text
            assert state.legal_actions() == legal


def test_resampled_states_save_load_and_leave_the_original_alone() -> None:
    # Without structural shifts the capstone's removal leaves the faces hidden.
    game = pyramids.load("mahjongg", layout="great-zenith", structural_shifts=False)
    assert isinstance(game, MahjonggGame)
    rng = random.Random(2)
    checked = 0
    for state in random_states(game, 1, 3):
        if state.is_terminal() or not state.face_down & state.present:
            continue
        text = state.to_json()
        world = state.resample_hidden(0, Rng(checked))
        assert state.to_json() == text
        assert sorted(world.faces) == sorted(state.faces)
        assert game.state_from_json(world.to_json()).to_json() == world.to_json()
        world.apply_action(choose(world, rng))
        assert state.to_json() == text
        checked += 1
        if checked == 10:
            break
    assert checked == 10


def solo_text_with_undo() -> str:
    for text in BEFORE["states"]:
        data = json.loads(text)
        options = data["options"]
        if options["layout"] == "giza-step-ramp" and options["players"] == 1 and len(
            data["state"]["undo"]
        ) >= 2:
            return text
    raise AssertionError("no saved solo state with two undo snapshots")


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("seed",), [7], r"seed: \[7\] is not an integer, a string or null"),
        (("core",), [], r"core: expected an object, got \[\]"),
        (("core", "faces", 3), 99, r"core\.faces\[3\]: 99 is not an integer in 0\.\.38"),
        (("core", "faces"), [1, 2], "core.faces: 2 entries where 72 are needed"),
        (("core", "present"), -1, "core.present: -1 is not an integer in 0.."),
        (("core", "face_down"), 1 << 72, "core.face_down: 4722366482869645213696 is not"),
        (("core", "player"), 1, r"core\.player: 1 is not an integer in 0\.\.0"),
        (("core", "bank"), -2, "core.bank: -2 is not an integer in 0.."),
        (("core", "capstone_by", 0), 2, r"core\.capstone_by\[0\]: 2 is not an integer in 0\.\.0"),
        (("core", "vault_status", 0), "open",
         r"core\.vault_status\[0\]: 'open' is not one of 'locked', 'unlocked', 'forfeited'"),
        (("core", "vault_by"), [None], "core.vault_by: 1 entries where 2 are needed"),
        (("core", "passes"), 2, r"core\.passes: 2 is not an integer in 0\.\.1"),
        (("core", "shift"), 72, r"core\.shift: 72 is not an integer in -1\.\.71"),
        (("core", "sight"), 1, "core.sight: 1 is not true or false"),
        (("core", "last_move"), "match", "core.last_move: 'match' is not an object"),
        (("core", "rng"), "7", "core.rng: '7' is not a generator state"),
        (("core", "over"), None, "core.over: None is not true or false"),
        (("core", "end_reason"), "bored", "core.end_reason: 'bored' is not one of 'cleared'"),
        (("core", "scores"), [1, 2], "core.scores: 2 entries where 1 are needed"),
        (("core", "tokens", 0), -1, r"core\.tokens\[0\]: -1 is not an integer in 0\.\."),
        (("core", "streaks", 0), True, r"core\.streaks\[0\]: True is not an integer"),
        (("elapsed",), 901, r"elapsed: 901 is not an integer in 0\.\.900"),
        (("history", 2), -1, r"history\[2\]: -1 is not an integer in 0\.\.\d+"),
        (("undo",), {}, "undo: {} is not a list"),
        (("undo", 0), [], r"undo\[0\]: expected an object, got \[\]"),
        (("undo", 1, "faces", 0), "x", r"undo\[1\]\.faces\[0\]: 'x' is not an integer"),
        (("undo", 1, "vault_status"), ["locked"], r"undo\[1\]\.vault_status: 1 entries"),
    ],
)
def test_malformed_snapshots_are_refused_naming_the_field(
    path: tuple[Any, ...], value: Any, message: str
) -> None:
    text = solo_text_with_undo()
    data = json.loads(text)
    node = data["state"]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    game = pyramids.load("mahjongg", **data["options"])
    with pytest.raises(RecordError, match="^saved mahjongg state: " + message):
        game.state_from_json(json.dumps(data))


@pytest.mark.parametrize("path", [("core", "hint"), ("undo", 0, "rng"), ("history",)])
def test_missing_keys_are_refused_naming_them(path: tuple[Any, ...]) -> None:
    data = json.loads(solo_text_with_undo())
    node = data["state"]
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path[:-1])
    expected = f"saved mahjongg state: {where[1:]}{': ' if where else ''}'{path[-1]}' is missing"
    with pytest.raises(RecordError) as refused:
        pyramids.load("mahjongg", **data["options"]).state_from_json(json.dumps(data))
    assert str(refused.value) == expected
