"""`GameRecord.save_file` writes a record whole or not at all (`write_text_atomically`)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

import pyramids
from pyramids.core import GameRecord


@pytest.fixture
def umask() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def record(seed: int = 4, moves: int = 3) -> GameRecord:
    state = pyramids.load("pacal").new_initial_state(seed)
    for _ in range(moves):
        state.apply_action(state.legal_actions()[-1])
    return GameRecord.from_state(state, players=["human", "greedy"])


@pytest.mark.usefixtures("umask")
def test_a_record_is_written_whole_with_an_ordinary_files_mode(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    record().save_file(target)
    assert GameRecord.load_file(target) == record()
    assert target.read_text().endswith("}\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary left


def test_a_file_beside_the_record_named_like_a_temporary_one_is_left_alone(
        tmp_path: Path) -> None:
    """The temporary file has a name of its own: a person's `game.json.tmp` is not
    written over (nor renamed into the record)."""
    mine = tmp_path / "game.json.tmp"
    mine.write_text("my notes")
    record().save_file(tmp_path / "game.json")
    assert mine.read_text() == "my notes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "game.json.tmp"]


def test_a_save_that_fails_leaves_the_old_record_whole_and_nothing_beside_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "game.json"
    record(moves=1).save_file(target)
    before = target.read_bytes()

    def no_room(source: object, destination: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_room)
    with pytest.raises(OSError, match="No space left on device"):
        record(moves=3).save_file(target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_the_record_reaches_the_disk_before_it_replaces_the_old_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Renamed before its bytes are on the disk, a power cut could leave an empty record
    where a whole one was: the content is synced first."""
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(handle: int) -> None:
        events.append("fsync")
        real_fsync(handle)

    def replace(source: str, destination: str) -> None:
        events.append("replace")
        real_replace(source, destination)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    record().save_file(tmp_path / "game.json")
    assert events[:2] == ["fsync", "replace"]
