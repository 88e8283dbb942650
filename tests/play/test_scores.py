"""The local score file: bests by variant, survives reopening, refuses a corrupt file."""

from __future__ import annotations

from pathlib import Path

import pytest

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


def test_a_corrupt_file_gives_a_clear_error_and_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "scores.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    store = ScoreStore(path)
    with pytest.raises(ScoreStoreError, match="cannot be used.*move it away"):
        store.add(entry(1))
    with pytest.raises(ScoreStoreError):
        store.entries("mahjongg")
    assert path.read_bytes().startswith(b"this is not a database")


def test_the_default_file_is_in_the_user_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = default_scores_path()
    assert path.name == "scores.sqlite3"
    assert tmp_path in path.parents
