"""The server's database: rooms, their seats and the list of accepted actions.

SQLAlchemy Core tables; the schema is made by the Alembic migrations packaged in
`pyramids.web.migrations`, run by `Storage.migrate()` at startup. A room is
stored as its game, options, secret seed, seats and actions; on restart it is
rebuilt by replaying the actions from the seed (`Room.restore`). Every method is
synchronous; the server calls them from one database thread.

SQLite (the default, one file) runs in WAL mode. With `synchronous=FULL` (the
default) a committed action survives a crash of the process or of the machine;
with `normal` it survives a crash or kill of the process, and commits skip the
disk flush (much faster where a flush is slow).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from pyramids.web.rooms import FINISHED, Room, RoomSettings, Seat

log = logging.getLogger("pyramids.web.storage")

metadata = sa.MetaData()

rooms_table = sa.Table(
    "rooms",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("seed", sa.Text, nullable=False),
    sa.Column("host_token_hash", sa.String(64), nullable=False),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("result", sa.Text, nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

seats_table = sa.Table(
    "seats",
    metadata,
    sa.Column(
        "room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("agent", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
)

actions_table = sa.Table(
    "actions",
    metadata,
    sa.Column(
        "room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("by_bot", sa.Boolean, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)


@dataclass(frozen=True)
class StoredAction:
    """One accepted action to commit; `result` is set when it ends the game."""

    room_id: str
    number: int
    seat: int
    action: str
    by_bot: bool
    result: dict[str, Any] | None = None


def _now() -> datetime:
    return datetime.now(UTC)


def normalize_url(url: str) -> str:
    """`postgresql://` means psycopg 3 here (the driver the web extra installs)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


SQLITE_SYNC_MODES = ("full", "normal")


def make_engine(url: str, sqlite_synchronous: str = "full") -> Engine:
    url = normalize_url(url)
    if sqlite_synchronous not in SQLITE_SYNC_MODES:
        raise ValueError(
            f"unknown SQLite synchronous mode {sqlite_synchronous!r}; "
            f"allowed: {', '.join(SQLITE_SYNC_MODES)}"
        )
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @sa.event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={sqlite_synchronous.upper()}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)


class Storage:
    def __init__(self, url: str, sqlite_synchronous: str = "full") -> None:
        self.url = normalize_url(url)
        self.engine = make_engine(self.url, sqlite_synchronous)

    def migrate(self) -> None:
        """`alembic upgrade head` with the migrations packaged in `pyramids.web.migrations`."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        location = resources.files("pyramids.web") / "migrations"
        config.set_main_option("script_location", str(location))
        config.set_main_option("sqlalchemy.url", self.url.replace("%", "%%"))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def dispose(self) -> None:
        self.engine.dispose()

    # -- writes ---------------------------------------------------------------

    def create_room(self, room: Room) -> None:
        now = _now()
        with self.engine.begin() as connection:
            connection.execute(
                rooms_table.insert().values(
                    id=room.id,
                    game=room.game_name,
                    options=json.dumps(room.options, sort_keys=True),
                    seed=json.dumps(room.seed),
                    host_token_hash=room.host_token_hash,
                    settings=json.dumps(room.settings.to_dict(), sort_keys=True),
                    status=room.status,
                    result=None,
                    created_at=now,
                    updated_at=now,
                )
            )
            connection.execute(
                seats_table.insert(), [self._seat_row(room.id, seat) for seat in room.seats]
            )

    @staticmethod
    def _seat_row(room_id: str, seat: Seat) -> dict[str, Any]:
        return {
            "room_id": room_id,
            "seat": seat.index,
            "kind": seat.kind,
            "name": seat.name,
            "agent": seat.agent,
            "token_hash": seat.token_hash,
        }

    def save_seat(self, room_id: str, seat: Seat) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                seats_table.update()
                .where(seats_table.c.room_id == room_id, seats_table.c.seat == seat.index)
                .values(kind=seat.kind, name=seat.name, agent=seat.agent,
                        token_hash=seat.token_hash)
            )

    def save_status(self, room_id: str, status: str, result: dict[str, Any] | None) -> None:
        with self.engine.begin() as connection:
            self._set_status(connection, room_id, status, result)

    @staticmethod
    def _set_status(
        connection: Connection, room_id: str, status: str, result: dict[str, Any] | None
    ) -> None:
        connection.execute(
            rooms_table.update()
            .where(rooms_table.c.id == room_id)
            .values(
                status=status,
                result=None if result is None else json.dumps(result),
                updated_at=_now(),
            )
        )

    def append_actions(self, batch: Iterable[StoredAction]) -> None:
        """Commit actions (of any rooms) in one transaction: all or none."""
        with self.engine.begin() as connection:
            self._insert_actions(connection, list(batch))

    def _insert_actions(self, connection: Connection, batch: list[StoredAction]) -> None:
        now = _now()
        connection.execute(
            actions_table.insert(),
            [
                {
                    "room_id": item.room_id,
                    "number": item.number,
                    "seat": item.seat,
                    "action": item.action,
                    "by_bot": item.by_bot,
                    "created_at": now,
                }
                for item in batch
            ],
        )
        for item in batch:
            if item.result is not None:
                self._set_status(connection, item.room_id, FINISHED, item.result)

    # -- reads ----------------------------------------------------------------

    def room_ids(self, statuses: Iterable[str]) -> list[str]:
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(rooms_table.c.id)
                .where(rooms_table.c.status.in_(list(statuses)))
                .order_by(rooms_table.c.created_at)
            )
            return [row.id for row in rows]

    def finished_summaries(self, limit: int) -> list[dict[str, Any]]:
        """`Room.summary()` of the latest finished rooms, newest first, without replaying."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(rooms_table)
                .where(rooms_table.c.status == FINISHED)
                .order_by(rooms_table.c.updated_at.desc())
                .limit(limit)
            ).all()
            ids = [row.id for row in rows]
            seat_rows = connection.execute(
                sa.select(seats_table)
                .where(seats_table.c.room_id.in_(ids))
                .order_by(seats_table.c.seat)
            ).all()
            counts: dict[str, int] = dict(
                connection.execute(
                    sa.select(actions_table.c.room_id, sa.func.count())
                    .where(actions_table.c.room_id.in_(ids))
                    .group_by(actions_table.c.room_id)
                ).all()
            )
        seats: dict[str, list[Seat]] = {room_id: [] for room_id in ids}
        for s in seat_rows:
            seats[s.room_id].append(Seat(s.seat, s.kind, s.name, s.agent, s.token_hash))
        summaries = []
        for row in rows:
            settings = RoomSettings.from_dict(json.loads(row.settings))
            summaries.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "options": json.loads(row.options),
                    "status": row.status,
                    "seats": [seat.public() for seat in seats[row.id]],
                    "open_seats": [],
                    "move_number": counts.get(row.id, 0),
                    **settings.to_dict(),
                    "result": None if row.result is None else json.loads(row.result),
                }
            )
        return summaries

    def load_room(self, room_id: str) -> Room | None:
        """The room replayed from its seed and actions, or None if there is no such room."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(rooms_table).where(rooms_table.c.id == room_id)
            ).first()
            if row is None:
                return None
            seat_rows = connection.execute(
                sa.select(seats_table)
                .where(seats_table.c.room_id == room_id)
                .order_by(seats_table.c.seat)
            ).all()
            action_rows = connection.execute(
                sa.select(actions_table)
                .where(actions_table.c.room_id == room_id)
                .order_by(actions_table.c.number)
            ).all()
        seats = [
            Seat(index=s.seat, kind=s.kind, name=s.name, agent=s.agent, token_hash=s.token_hash)
            for s in seat_rows
        ]
        return Room.restore(
            room_id=row.id,
            game_name=row.game,
            options=json.loads(row.options),
            seed=json.loads(row.seed),
            host_token_hash=row.host_token_hash,
            settings=RoomSettings.from_dict(json.loads(row.settings)),
            seats=seats,
            status=row.status,
            actions=[(a.seat, a.action, bool(a.by_bot)) for a in action_rows],
        )
