"""The rows behind the best-score and daily tables, and the server's drawn secrets.

Tables made by migration `0003_best_scores`. Every method is synchronous and is
called from the server's database thread (`Hub.run_db`), like `Storage`'s.

A table ranks each player name once, by that name's best game: cleared games
first, then the higher score, then the quicker time, then the earlier finish.
Only finished games of the kind asked for count: `ranked` (a deal the server
drew) for a board's table, `daily` (each account's first daily game of the day)
for the day's table; `practice`, `retry` (an account's later daily games) and
`guest` (a daily game played by name, without an account, before that was refused) are kept but rank
nowhere.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from pyramids.web.storage import metadata

RANKED = "ranked"
DAILY = "daily"
PRACTICE = "practice"
RETRY = "retry"
GUEST = "guest"
KINDS = (RANKED, DAILY, PRACTICE, RETRY, GUEST)
TABLE_SIZE = 20

solitaire_table = sa.Table(
    "solitaire_games",
    metadata,
    sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("board", sa.String(64), nullable=False),
    sa.Column("variant", sa.String(400), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("day", sa.Date, nullable=True),
    sa.Column("player", sa.String(64), nullable=False),
    sa.Column("player_key", sa.String(64), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("won", sa.Boolean, nullable=True),
    sa.Column("score", sa.Float, nullable=True),
    sa.Column("seconds", sa.Float, nullable=True),
    sa.Column("moves", sa.Integer, nullable=True),
)
# One `daily` row per account, game and day (migration 0009_one_daily): the database,
# shared by a cluster's processes, decides which of an account's starts ranks.
sa.Index("ux_solitaire_one_daily", solitaire_table.c.game, solitaire_table.c.day,
         solitaire_table.c.player_key, unique=True,
         sqlite_where=solitaire_table.c.kind == DAILY,
         postgresql_where=solitaire_table.c.kind == DAILY)

secrets_table = sa.Table(
    "server_secrets",
    metadata,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("value", sa.String(128), nullable=False),
)


def player_key(name: str) -> str:
    """Names that differ only in case or surrounding spaces are one player."""
    return " ".join(name.split()).casefold()[:64]


@dataclass(frozen=True)
class SolitaireGame:
    room_id: str
    game: str
    board: str
    variant: str
    kind: str
    day: date | None
    player: str
    started_at: datetime
    finished_at: datetime | None = None
    won: bool | None = None
    score: float | None = None
    seconds: float | None = None
    moves: int | None = None

    def public(self) -> dict[str, Any]:
        """What anyone may read about the game (no seed: that is the room's to reveal)."""
        return {
            "room": self.room_id,
            "game": self.game,
            "board": self.board,
            "variant": self.variant,
            "kind": self.kind,
            "day": None if self.day is None else self.day.isoformat(),
            "player": self.player,
            "finished": self.finished_at is not None,
            "won": self.won,
            "score": self.score,
            "seconds": self.seconds,
            "moves": self.moves,
        }


def rank_key(row: Any) -> tuple[int, float, float, datetime]:
    return (0 if row.won else 1, -float(row.score or 0), float(row.seconds or 0),
            row.finished_at)


class SolitaireRecords:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, entry: SolitaireGame) -> str:
        """Store a new game; the kind it was stored as. A `daily` game is stored as
        `retry` when its account already has the day's `daily` one: the unique index
        `ux_solitaire_one_daily` decides, so two starts racing on two processes of a
        cluster (or on one) rank once."""
        try:
            self._insert(entry, entry.kind)
        except sa.exc.IntegrityError:
            if entry.kind != DAILY:
                raise
            self._insert(entry, RETRY)
            return RETRY
        return entry.kind

    def _insert(self, entry: SolitaireGame, kind: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(solitaire_table.insert().values(
                room_id=entry.room_id, game=entry.game, board=entry.board,
                variant=entry.variant, kind=kind, day=entry.day,
                player=entry.player[:64], player_key=player_key(entry.player),
                started_at=entry.started_at,
            ))

    def get(self, room_id: str) -> SolitaireGame | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(solitaire_table).where(solitaire_table.c.room_id == room_id)
            ).first()
        if row is None:
            return None
        return SolitaireGame(
            row.room_id, row.game, row.board, row.variant, row.kind, row.day, row.player,
            row.started_at, row.finished_at, row.won, row.score, row.seconds, row.moves,
        )

    def finish(self, room_id: str, finished_at: datetime, won: bool, score: float,
               moves: int) -> bool:
        """Record a game's result once (the first finish counts); whether it was new."""
        with self.engine.begin() as connection:
            row = connection.execute(
                sa.select(solitaire_table.c.started_at).where(
                    solitaire_table.c.room_id == room_id,
                    solitaire_table.c.finished_at.is_(None),
                )
            ).first()
            if row is None:
                return False
            started = row.started_at
            if started.tzinfo is None and finished_at.tzinfo is not None:
                started = started.replace(tzinfo=finished_at.tzinfo)
            seconds = max(0.0, round((finished_at - started).total_seconds(), 1))
            connection.execute(
                solitaire_table.update().where(solitaire_table.c.room_id == room_id).values(
                    finished_at=finished_at, won=won, score=score, seconds=seconds,
                    moves=moves,
                )
            )
        return True

    def table(self, game: str, kind: str, board: str | None = None, variant: str | None = None,
              day: date | None = None, limit: int = TABLE_SIZE) -> list[dict[str, Any]]:
        """Each player's best finished game of this kind, best first, numbered from 1."""
        query = sa.select(solitaire_table).where(
            solitaire_table.c.game == game, solitaire_table.c.kind == kind,
            solitaire_table.c.finished_at.is_not(None),
        )
        if board is not None:
            query = query.where(solitaire_table.c.board == board)
        if variant is not None:
            query = query.where(solitaire_table.c.variant == variant)
        if day is not None:
            query = query.where(solitaire_table.c.day == day)
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        best: dict[str, Any] = {}
        for row in sorted(rows, key=rank_key):
            best.setdefault(row.player_key, row)
        ranked = sorted(best.values(), key=rank_key)[:limit]
        return [
            {
                "rank": number,
                "player": row.player,
                "won": bool(row.won),
                "score": row.score,
                "seconds": row.seconds,
                "moves": row.moves,
                "board": row.board,
                "finished_at": row.finished_at.isoformat(),
            }
            for number, row in enumerate(ranked, start=1)
        ]

    def secret(self, name: str) -> bytes:
        """The secret `name`, drawn (32 random bytes) and stored the first time. Two
        processes of a cluster may draw it at once: the one stored first is the secret,
        and the other process reads it (its insert was refused, not a server error)."""
        value = self._stored_secret(name)
        if value is None:
            drawn = secrets.token_hex(32)
            try:
                with self.engine.begin() as connection:
                    connection.execute(secrets_table.insert().values(name=name, value=drawn))
                value = drawn
            except sa.exc.IntegrityError:
                value = self._stored_secret(name)
                if value is None:
                    raise
        return bytes.fromhex(value)

    def _stored_secret(self, name: str) -> str | None:
        with self.engine.connect() as connection:
            value: str | None = connection.execute(
                sa.select(secrets_table.c.value).where(secrets_table.c.name == name)
            ).scalar()
        return value
