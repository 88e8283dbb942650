"""The summary tables of `simulate`, `arena` and `balance` as CSV, for a spreadsheet.

Each table is one CSV file: one header row of English identifiers (the column
names are for formulas and scripts, not translated), then one row per agent or
seat, written by Python's `csv` module. A figure is the one the terminal table
or report prints, as a plain number: a rate is its percentage without the `%`
sign (`52.3`, in a column named `..._pct`), seats count from 1, and a figure the
table leaves out (`-`) is an empty cell.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pyramids.core import PyramidsError
from pyramids.core.errors import N_, Words
from pyramids.core.files import os_reason, probe_writable_folder, write_text_atomically
from pyramids.sim.stats import wilson_interval

Row = Sequence[object]


def percent_figure(rate: float) -> str:
    """A rate as the reports print it, without the `%` sign: 0.5234 -> '52.3'."""
    return f"{100 * rate:.1f}"


def csv_text(header: Sequence[str], rows: Iterable[Row]) -> str:
    """The table as CSV text: the header row, then the rows (None is an empty cell)."""
    buffer = io.StringIO()
    # "\n": the file is written in text mode, which gives each platform its own line end.
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(["" if cell is None else cell for cell in row] for row in rows)
    return buffer.getvalue()


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Row]) -> None:
    """Write the table to `path` whole or not at all; an unwritable path is a user's error."""
    try:
        write_text_atomically(path, csv_text(header, rows))
    except OSError as error:
        raise PyramidsError(N_("cannot write {path}: {problem}"), path=repr(str(path)),
                            problem=os_reason(error)) from None


def seats_csv_path(path: Path) -> Path:
    """Where the arena's table by seat goes beside its table by agent at `path`:
    `results.csv` -> `results-seats.csv`."""
    return path.with_name(f"{path.stem}-seats{path.suffix}")


def check_csv_targets(paths: Iterable[Path], force: bool) -> None:
    """Before any game is played: refuse a file that is there already (unless `force`),
    a folder, and a place that cannot be written (a folder that is not there, or is
    read-only), rather than lose the figures of a long run at its end. It changes
    nothing."""
    for path in paths:
        if path.is_dir():
            # --force could not replace a folder: the write at the end would fail.
            raise PyramidsError(N_("cannot write {path}: {problem}"), path=repr(str(path)),
                                problem=Words(N_("it is a folder, not a file")))
        if path.exists() and not force:
            raise PyramidsError(N_("{path} exists; give --force to replace it"), path=str(path))
        folder = path.parent if str(path.parent) else Path(".")
        try:
            probe_writable_folder(folder)
        except OSError as error:
            raise PyramidsError(N_("cannot write {path}: {problem}"), path=repr(str(path)),
                                problem=os_reason(error)) from None


ARENA_AGENT_COLUMNS = ("agent", "seats_played", "wins", "draws", "losses", "win_rate_pct",
                       "ci95_low_pct", "ci95_high_pct", "elo", "ms_per_move")


def arena_agent_rows(summary: dict[str, Any]) -> list[list[str | None]]:
    """The arena's table by agent, best win rate first, as the terminal prints it
    (None where it prints `-`: no finite Elo, no move timed)."""
    speeds = summary.get("seconds_per_move", {})
    rows: list[list[str | None]] = []
    for label, row in sorted(summary["agents"].items(), key=lambda kv: -kv[1]["win_rate"]):
        lo, hi = row["ci95"]
        elo = row["elo"]
        rows.append([
            label, str(row["games"]), str(row["wins"]), str(row["draws"]), str(row["losses"]),
            percent_figure(row["win_rate"]), percent_figure(lo), percent_figure(hi),
            None if elo is None or not math.isfinite(elo) else f"{elo:.0f}",
            f"{1000 * speeds[label]:.2f}" if label in speeds else None,
        ])
    return rows


ARENA_SEAT_COLUMNS = ("seat", "games", "wins", "draws", "losses", "win_rate_pct",
                      "ci95_low_pct", "ci95_high_pct")


def arena_seat_rows(summary: dict[str, Any]) -> list[list[str]]:
    """The arena's win rates by seat, all agents together, seats counted from 1."""
    return [[str(s["seat"] + 1), str(s["games"]), str(s["wins"]), str(s["draws"]),
             str(s["losses"]), percent_figure(s["win_rate"]), percent_figure(s["ci95"][0]),
             percent_figure(s["ci95"][1])]
            for s in summary["seats"]]


SIMULATE_COLUMNS = ("seat", "agent", "games", "wins", "win_rate_pct", "ci95_low_pct",
                    "ci95_high_pct", "draws", "games_every_seat_lost", "mean_actions")


def simulate_table(report: dict[str, Any]) -> tuple[list[str], list[list[str | None]]]:
    """`pyramids simulate`'s figures, one row a seat: its wins with their rate and 95%
    Wilson interval, and the figures of the whole series (draws, the games every seat
    lost, mean actions) repeated on each row; alone, `mean_draws_won` is added (empty
    when no game was won)."""
    header = list(SIMULATE_COLUMNS)
    solo = "mean_draws_won" in report
    if solo:
        header.append("mean_draws_won")
    games = report["games"]
    rows: list[list[str | None]] = []
    for seat, (agent, wins) in enumerate(zip(report["agents"], report["wins"], strict=True)):
        lo, hi = wilson_interval(wins, games)
        row: list[str | None] = [
            str(seat + 1), agent, str(games), str(wins),
            percent_figure(wins / games if games else 0.0), percent_figure(lo),
            percent_figure(hi), str(report["draws"]), str(report["games_every_seat_lost"]),
            f"{report['mean_actions']:.1f}",
        ]
        if solo:
            mean_draws = report["mean_draws_won"]
            row.append(None if mean_draws is None else f"{mean_draws:.2f}")
        rows.append(row)
    return header, rows
