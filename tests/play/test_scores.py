"""The local score file: bests by variant, survives reopening, keeps a corrupt file aside."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyramids.play.i18n import words_text
from pyramids.play.scores import ScoreEntry, ScoreStore, ScoreStoreError, default_scores_path


def entry(score: float, won: bool = True, seconds: float = 60.0, variant: str = "Turtle") -> (
    ScoreEntry
):
    return ScoreEntry("mahjongg", variant, won, score, seconds, "7", "2025-01-01 10:00")


def test_bests_survive_reopening_and_rank_wins_first(tmp_path: Path) -> None:
    path = tmp_path / "data" / "scores.sqlite3"
    store = ScoreStore(path)
    assert store.entries("mahjongg") == []
    store.add(entry(9000, won=False))
    store.add(entry(5000, seconds=300))
    store.add(entry(7000, seconds=200))
    store.add(entry(99999, variant="Giza Step Ramp"))
    reopened = ScoreStore(path)
    best = reopened.best("mahjongg", "Turtle")
    assert [e.score for e in best] == [7000, 5000, 9000]
    assert reopened.fastest_win("mahjongg", "Turtle").seconds == 200
    assert reopened.variants("mahjongg") == ["Giza Step Ramp", "Turtle"]
    standing = reopened.standing(entry(5000, seconds=300))
    assert (standing.rank, standing.of) == (2, 3)


def test_lower_is_better_for_games_that_count_draws(tmp_path: Path) -> None:
    store = ScoreStore(tmp_path / "s.sqlite3")
    for draws in (30, 12, 20):
        store.add(ScoreEntry("pacal-solo", "", True, draws, 10, "1", "today"))
    assert [e.score for e in store.best("pacal-solo", "", lower_is_better=True)] == [12, 20, 30]


def test_a_corrupt_file_is_kept_aside_and_a_new_one_started(tmp_path: Path) -> None:
    path = tmp_path / "scores.sqlite3"
    damaged = b"this is not a database" * 100
    path.write_bytes(damaged)
    (tmp_path / "scores.sqlite3.corrupt-1").write_bytes(b"kept from before")
    store = ScoreStore(path)
    store.add(entry(1))
    kept = tmp_path / "scores.sqlite3.corrupt-2"
    assert store.set_aside == kept and kept.read_bytes() == damaged
    assert (tmp_path / "scores.sqlite3.corrupt-1").read_bytes() == b"kept from before"
    assert [e.score for e in ScoreStore(path).entries("mahjongg")] == [1]


def test_a_damaged_database_is_kept_aside_too(tmp_path: Path) -> None:
    path = tmp_path / "scores.sqlite3"
    store = ScoreStore(path)
    for score in range(200):
        store.add(entry(score))
    data = bytearray(path.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # a page of rows overwritten
    path.write_bytes(bytes(data))
    fresh = ScoreStore(path)
    assert fresh.entries("mahjongg") == []
    assert fresh.set_aside is not None and fresh.set_aside.read_bytes() == bytes(data)


def test_a_file_that_cannot_be_read_for_other_reasons_is_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / "scores.sqlite3"
    folder.mkdir()  # a folder where the file should be
    with pytest.raises(ScoreStoreError, match="scores.sqlite3") as refused:
        ScoreStore(folder).add(entry(1))
    assert folder.is_dir()
    # The player reads why in their language, with the file's place in it.
    korean = words_text(refused.value, lang="ko")
    assert "점수 파일" in korean and "scores.sqlite3" in korean


def test_the_default_file_is_in_the_user_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = default_scores_path()
    assert path.name == "scores.sqlite3"
    assert tmp_path in path.parents
