"""Best scores and times of one-player games, kept on this computer (SQLite).

One row per finished game: the game, its variant (for Mahjongg the layout and
mode), won or not, the score in the game's own unit, the seconds it took, the
seed and the date. Every write is one transaction, so a crash never leaves half
a row. A file that is not a score database (or a damaged one) is never
overwritten: it is kept aside as `scores.sqlite3.corrupt-N` and a new file is
started, and `ScoreStore.set_aside` names the kept file so that the interface can
say so. Other failures (a locked or unwritable file) raise `ScoreStoreError` with
a message that says which file and what to do.

The default file is `scores.sqlite3` in the user data folder (`platformdirs`,
imported only when that default is asked for, so the core install does not need
it).
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pyramids.core import PyramidsError
from pyramids.core.errors import N_
from pyramids.core.files import os_reason

APP_NAME = "pyramids"
FILE_NAME = "scores.sqlite3"
SCHEMA = """
CREATE TABLE IF NOT EXISTS scores (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    won INTEGER NOT NULL,
    score REAL NOT NULL,
    seconds REAL NOT NULL,
    seed TEXT NOT NULL,
    played_on TEXT NOT NULL
)
"""


class ScoreStoreError(PyramidsError):
    """The score file cannot be read or written; the message says why and where."""


def default_scores_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False)) / FILE_NAME


@dataclass(frozen=True)
class ScoreEntry:
    game: str
    variant: str
    won: bool
    score: float
    seconds: float
    seed: str
    played_on: str


@dataclass(frozen=True)
class Standing:
    """Where a game ranks among those of its variant, and the bests to beat."""

    rank: int
    of: int
    best: ScoreEntry
    fastest_win: ScoreEntry | None


#: What SQLite says of a file that is not, or no longer, a database.
CORRUPT_SIGNS = ("file is not a database", "malformed", "not a database")


def is_corrupt(error: sqlite3.DatabaseError) -> bool:
    return any(sign in str(error).lower() for sign in CORRUPT_SIGNS)


def aside_path(path: Path) -> Path:
    """The first free `NAME.corrupt-N` beside `path`."""
    number = 1
    while True:
        candidate = path.with_name(f"{path.name}.corrupt-{number}")
        if not candidate.exists():
            return candidate
        number += 1


class ScoreStore:
    """The score database at `path` (created on the first write)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        #: Where an unreadable score file was kept (None: nothing was set aside).
        self.set_aside: Path | None = None

    @contextmanager
    def _connect(self, write: bool) -> Iterator[sqlite3.Connection]:
        self._check_readable()
        with self._open(write) as connection:
            yield connection

    def _check_readable(self) -> None:
        """Keep an unreadable file aside (renamed, never deleted) and start afresh."""
        if not self.path.is_file():
            return
        try:
            probe = sqlite3.connect(self.path, timeout=5)
            try:
                verdict = probe.execute("PRAGMA quick_check").fetchone()
                if verdict is None or verdict[0] != "ok":
                    raise sqlite3.DatabaseError(f"database disk image is malformed: {verdict}")
            finally:
                probe.close()
        except sqlite3.DatabaseError as error:
            if not is_corrupt(error):
                raise ScoreStoreError(
                    N_("the score file {path} cannot be used ({problem}); it was left as it "
                       "is: try again later, or move it away to start a new one"),
                    path=self.path, problem=error,
                ) from error
            target = aside_path(self.path)
            try:
                self.path.rename(target)
            except OSError as move_error:
                raise ScoreStoreError(
                    N_("the score file {path} cannot be read ({problem}) nor moved aside "
                       "({reason}); it was left as it is: move it away to start a new one"),
                    path=self.path, problem=error, reason=os_reason(move_error),
                ) from error
            self.set_aside = target

    @contextmanager
    def _open(self, write: bool) -> Iterator[sqlite3.Connection]:
        if not write and not self.path.exists():
            connection = sqlite3.connect(":memory:")
        else:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                connection = sqlite3.connect(self.path, timeout=5)
            except (OSError, sqlite3.Error) as error:
                raise ScoreStoreError(
                    N_("cannot open the score file {path}: {problem}"),
                    path=self.path, problem=error,
                ) from error
        try:
            with connection:  # one transaction: committed whole or rolled back
                connection.execute(SCHEMA)
                yield connection
        except sqlite3.DatabaseError as error:
            raise ScoreStoreError(
                N_("the score file {path} cannot be used ({problem}); it was left as it is: "
                   "move it away to start a new one"),
                path=self.path, problem=error,
            ) from error
        finally:
            connection.close()

    def add(self, entry: ScoreEntry) -> None:
        with self._connect(write=True) as db:
            db.execute(
                "INSERT INTO scores (game, variant, won, score, seconds, seed, played_on)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (entry.game, entry.variant, int(entry.won), float(entry.score),
                 float(entry.seconds), entry.seed, entry.played_on),
            )

    def entries(self, game: str, variant: str | None = None) -> list[ScoreEntry]:
        query = "SELECT game, variant, won, score, seconds, seed, played_on FROM scores"
        query += " WHERE game = ?" + (" AND variant = ?" if variant is not None else "")
        arguments: tuple[str, ...] = (game,) if variant is None else (game, variant)
        with self._connect(write=False) as db:
            rows = db.execute(query + " ORDER BY id", arguments).fetchall()
        return [
            ScoreEntry(row[0], row[1], bool(row[2]), row[3], row[4], row[5], row[6])
            for row in rows
        ]

    def best(
        self, game: str, variant: str, lower_is_better: bool = False, limit: int = 5
    ) -> list[ScoreEntry]:
        """The best games of a variant: wins first, then by score, then the quicker."""
        return sorted(
            self.entries(game, variant), key=lambda e: rank_key(e, lower_is_better)
        )[:limit]

    def fastest_win(self, game: str, variant: str) -> ScoreEntry | None:
        wins = [entry for entry in self.entries(game, variant) if entry.won]
        return min(wins, key=lambda entry: entry.seconds) if wins else None

    def variants(self, game: str) -> list[str]:
        return sorted({entry.variant for entry in self.entries(game)})

    def standing(
        self, entry: ScoreEntry, lower_is_better: bool = False
    ) -> Standing:
        """Where `entry` (already added) ranks in its variant."""
        ranked = sorted(
            self.entries(entry.game, entry.variant), key=lambda e: rank_key(e, lower_is_better)
        )
        rank = next(
            (number for number, other in enumerate(ranked, start=1) if other == entry),
            len(ranked),
        )
        return Standing(rank, len(ranked), ranked[0], self.fastest_win(entry.game, entry.variant))


def rank_key(entry: ScoreEntry, lower_is_better: bool) -> tuple[int, float, float]:
    score = entry.score if lower_is_better else -entry.score
    return (0 if entry.won else 1, score, entry.seconds)


def today() -> str:
    return dt.datetime.now().strftime("%Y-%m-%d %H:%M")


def clock_text(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
