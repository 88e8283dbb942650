import json
from pathlib import Path

import pytest

import pyramids
from pyramids.core import GameRecord, RecordError, UnknownGameError, game_names


def test_unknown_game_lists_the_registered_ones() -> None:
    with pytest.raises(UnknownGameError) as info:
        pyramids.load("chess")
    message = str(info.value)
    assert "unknown game 'chess'" in message
    for name in game_names():
        assert name in message


def test_every_registered_game_has_a_summary_and_rules_page() -> None:
    for name in game_names():
        entry = pyramids.core.game_entry(name)
        assert entry.summary
        assert entry.rules_page is not None and len(entry.rules_page()) > 200


@pytest.mark.parametrize("name", game_names())
def test_record_file_round_trip_and_replay(tmp_path: Path, name: str) -> None:
    game = pyramids.load(name)
    state = game.new_initial_state(seed=11)
    for _ in range(6):
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[-1])
    record = GameRecord.from_state(state, players=["a"] * game.num_players)
    path = tmp_path / "game.json"
    record.save_file(path)
    loaded = GameRecord.load_file(path)
    assert loaded == record
    assert loaded.final_state().to_json() == state.to_json()


def test_malformed_records_are_rejected_with_the_reason(tmp_path: Path) -> None:
    good = {"format": "pyramids-record", "version": 1, "game": "pacal", "options": {},
            "seed": 1, "players": [], "actions": [], "result": None}
    cases = {
        "not json": "the JSON breaks off or is malformed at line 1, column 1",
        '{"format": "pyramids-record",\n "game": "pac': "malformed at line 2, column 10",
        json.dumps({**good, "players": ["a", "b", "c"]}): (
            r"pacal has 2 seats, but the record names 3 players"),
        json.dumps({**good, "format": "x"}): "format",
        json.dumps({**good, "version": 9}): "unsupported record version 9",
        # The value as the file writes it, and a missing one said so (not Python's None).
        json.dumps({**good, "version": "1"}): 'unsupported record version "1"; supported: 1',
        json.dumps({k: v for k, v in good.items() if k != "version"}): (
            "game record: 'version' is missing; supported: 1"),
        json.dumps({**good, "actions": [1, 2]}): "'actions' must be a list of action strings",
        json.dumps({**good, "seed": 1.5}): "'seed' must be",
        json.dumps({k: v for k, v in good.items() if k != "seed"}): "'seed' is missing",
        json.dumps({**good, "game": "chess"}): "unknown game 'chess'",
        json.dumps({**good, "actions": ["fly"]}): r"move 1 \('fly'\)",
        json.dumps({**good, "options": {"nope": 1}}): "unknown option nope",
    }
    for text, reason in cases.items():
        with pytest.raises(RecordError, match=reason):
            GameRecord.from_json(text).replay()
    with pytest.raises(RecordError, match="cannot read game record"):
        GameRecord.load_file(tmp_path / "missing.json")
    binary = tmp_path / "photo.json"
    binary.write_bytes(b"\xff\xd8\xff\xe0 not text")
    with pytest.raises(RecordError, match=f"{binary} is not a game record: .* not text"):
        GameRecord.load_file(binary)
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(RecordError, match=f"{broken}: not a game record"):
        GameRecord.load_file(broken)


def test_a_finished_games_record_with_another_seed_is_refused_not_replayed_as_unfinished(
) -> None:
    """A tampered seed deals another game, whose moves stop (or fail) early: the record
    says the game ended, so a replay that does not end is an error, not 'stops early'."""
    game = pyramids.load("pacal-solo")
    state = game.new_initial_state(seed=8)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    record = GameRecord.from_state(state, players=["human"])
    assert record.replay()[-1].is_terminal()
    for seed, says in ((-5, "its 4 moves stop before the end; its seed or moves do not "
                            "belong together"),
                       (11, "stop before the end"),
                       (9, r"move 3 \('place F2'\): .* the game is over")):
        tampered = GameRecord(record.game, record.options, seed, record.actions,
                              record.players, record.result)
        with pytest.raises(RecordError, match=says):
            tampered.replay()
    # A changed result is named in words, not as the engine's returns.
    changed = GameRecord(record.game, record.options, record.seed, record.actions,
                         record.players, {"returns": [1.0]})
    with pytest.raises(RecordError, match="the result it records is not the one its moves "
                                          "give") as refused:
        changed.replay()
    assert "1.0" not in str(refused.value)
    # Without a result (a game saved half-way) a record may stop anywhere.
    half = GameRecord(record.game, record.options, 11, record.actions[:2], record.players)
    assert not half.replay()[-1].is_terminal()
