"""The CSV tables of simulate, arena and balance."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from pyramids.core import PyramidsError
from pyramids.sim.tables import (
    check_csv_targets,
    csv_text,
    percent_figure,
    seats_csv_path,
    simulate_table,
    write_csv,
)


def test_csv_text_quotes_what_a_spreadsheet_would_split() -> None:
    text = csv_text(["agent", "note"], [["mcts:iterations=200", 'a, "b"'], ["greedy", None]])
    assert text == 'agent,note\nmcts:iterations=200,"a, ""b"""\ngreedy,\n'
    assert list(csv.reader(io.StringIO(text)))[1] == ["mcts:iterations=200", 'a, "b"']


def test_a_rate_is_its_percentage_without_the_sign() -> None:
    assert percent_figure(0.5234) == "52.3"
    assert percent_figure(1.0) == "100.0"
    assert percent_figure(0.0) == "0.0"


def test_the_arenas_table_by_seat_goes_beside_its_table_by_agent() -> None:
    assert seats_csv_path(Path("runs/pacal.csv")) == Path("runs/pacal-seats.csv")
    assert seats_csv_path(Path("table")) == Path("table-seats")


def test_a_csv_target_is_refused_before_the_games(tmp_path: Path) -> None:
    kept = tmp_path / "kept.csv"
    kept.write_text("figures")
    with pytest.raises(PyramidsError, match="exists; give --force"):
        check_csv_targets([tmp_path / "new.csv", kept], force=False)
    check_csv_targets([kept], force=True)
    with pytest.raises(PyramidsError, match="cannot write"):
        check_csv_targets([tmp_path / "no" / "such.csv"], force=True)


def test_write_csv_writes_the_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("old")
    write_csv(path, ["a", "b"], [[1, 2]])
    assert path.read_text() == "a,b\n1,2\n"
    assert [p.name for p in tmp_path.iterdir()] == ["t.csv"]  # no temporary file left
    with pytest.raises(PyramidsError, match="cannot write"):
        write_csv(tmp_path / "no" / "t.csv", ["a"], [])


def test_simulates_table_repeats_the_series_figures_on_each_seat() -> None:
    report = {"agents": ["greedy", "random"], "games": 10, "wins": [7, 2], "draws": 1,
              "games_every_seat_lost": 0, "mean_actions": 41.25}
    header, rows = simulate_table(report)
    assert "mean_draws_won" not in header
    assert rows == [["1", "greedy", "10", "7", "70.0", "39.7", "89.2", "1", "0", "41.2"],
                    ["2", "random", "10", "2", "20.0", "5.7", "51.0", "1", "0", "41.2"]]
    solo = {"agents": ["greedy"], "games": 4, "wins": [0], "draws": 0,
            "games_every_seat_lost": 4, "mean_actions": 30.0, "mean_draws_won": None}
    header, rows = simulate_table(solo)
    assert header[-1] == "mean_draws_won" and rows[0][-1] is None
