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
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from pyramids.core.errors import N_
from pyramids.web.rooms import (
    ABORTED,
    AGENT,
    EXPIRED,
    FINISHED,
    OPEN,
    PERSON,
    WAITING,
    Room,
    RoomSettings,
    Seat,
    ended_public,
    fairness_info,
    is_sealed,
)

log = logging.getLogger("pyramids.web.storage")


def as_utc(moment: datetime) -> datetime:
    """A stored time as UTC (SQLite hands back times without their zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _sealed_until(row: Any) -> datetime | None:
    return None if row.sealed_until is None else as_utc(row.sealed_until)

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
    # Revision 0002: the commitment's salt, practice (chosen seed) and unlisted rooms.
    sa.Column("salt", sa.String(64), nullable=True),
    sa.Column("practice", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("unlisted", sa.Boolean, nullable=False, server_default=sa.false()),
    # Revision 0005: the turn clock's state (`TurnClock.to_dict()` as JSON), or null.
    sa.Column("clock", sa.Text, nullable=True),
    # Revision 0006: until when a daily deal's seed and record stay secret, or null.
    sa.Column("sealed_until", sa.DateTime(timezone=True), nullable=True),
    # Revision 0008: the room of this finished room's rematch, or null.
    sa.Column("rematch", sa.String(32), nullable=True),
)

sa.Index("ix_rooms_status_updated", rooms_table.c.status, rooms_table.c.updated_at)

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
    # Revision 0005: the account of a person who took the seat logged in.
    sa.Column("account_id", sa.Integer, nullable=True, index=True),
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
    # The room's turn clock to store with the action (JSON), committed together.
    clock: str | None = None


@dataclass(frozen=True)
class RoomHolders:
    """Who holds a stored room, by token hashes, and its rematch; read from its rows,
    so that a finished room is not replayed to check a token."""

    status: str
    host_token_hash: str
    seat_token_hashes: tuple[str, ...]
    rematch: str | None


def _now() -> datetime:
    return datetime.now(UTC)


def normalize_url(url: str) -> str:
    """`postgresql://` means psycopg 3 here (the driver the web extra installs)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


SQLITE_SYNC_MODES = ("full", "normal")
# The advisory lock (one bigint key) that serialises migrations on PostgreSQL. The
# cluster's locks take two int keys (`pyramids.web.cluster`): a different key space.
MIGRATION_LOCK = 0x7079_7261_6D69_6473  # "pyramids"


# What SQLite and PostgreSQL say when the database cannot take a write now: the
# operator's to fix (free disk space, make the file writable), not a bug.
STORAGE_TROUBLE = ("disk is full", "readonly database", "read-only", "disk i/o error",
                   "database is locked", "no space left", "could not extend file")


STORAGE_RETRY_SECONDS = 30
# One line for the operator, no traceback: what the database said and what to do.
STORAGE_TROUBLE_LOG = ("the database cannot be written (%s): free disk space or make the "
                       "database writable; games in play stay as they were, and what "
                       "players send meanwhile is refused and may be sent again")


def storage_trouble(error: BaseException) -> str | None:
    """The database's own words when `error` is a database that cannot be written (a
    full disk, a read-only file, a lock held too long); None for any other error."""
    if not isinstance(error, sa.exc.OperationalError):
        return None
    words = str(error.orig) if error.orig is not None else str(error)
    lowered = words.lower()
    return words.strip()[:200] if any(sign in lowered for sign in STORAGE_TROUBLE) else None


def _private_sqlite_file(url: str) -> None:
    """Create a SQLite database file readable by its owner only (0600): it holds the
    secret seeds of games in play. SQLite gives its -wal and -shm files the same mode."""
    path = sa.engine.make_url(url).database
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    if not os.path.exists(path):
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    os.chmod(path, 0o600)


def make_engine(url: str, sqlite_synchronous: str = "full") -> Engine:
    """The server's engine. `hide_parameters`: a failed statement's error (a full disk,
    a read-only file, a lock that timed out), which the server logs, names the SQL but
    never its values: they hold the secret seeds and salts of games in play."""
    url = normalize_url(url)
    if sqlite_synchronous not in SQLITE_SYNC_MODES:
        raise ValueError(
            f"unknown SQLite synchronous mode {sqlite_synchronous!r}; "
            f"allowed: {', '.join(SQLITE_SYNC_MODES)}"
        )
    if url.startswith("sqlite"):
        _private_sqlite_file(url)
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                                  hide_parameters=True)

        @sa.event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={sqlite_synchronous.upper()}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5,
                            hide_parameters=True)


def _migration_config(url: str) -> Any:
    from alembic.config import Config

    config = Config()
    location = resources.files("pyramids.web") / "migrations"
    config.set_main_option("script_location", str(location))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def _unknown_revisions(connection: Connection, config: Any) -> list[str]:
    """The schema revisions this database holds that these migrations do not know:
    a database upgraded by a newer server. Empty for a new or an older database."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    current = MigrationContext.configure(connection).get_current_heads()
    known = {script.revision for script in ScriptDirectory.from_config(config).walk_revisions()}
    return sorted(revision for revision in current if revision not in known)


class DatabaseTooNew(RuntimeError):
    """The database was upgraded by a newer server: this one must not touch it."""

    def __init__(self, revisions: Sequence[str]) -> None:
        self.revisions = list(revisions)
        super().__init__(
            "the database was upgraded by a newer version of pyramids (schema "
            f"{', '.join(self.revisions)}, which this version does not know); this version "
            "leaves it untouched: run the newer version, or restore a backup made before "
            "the upgrade")


# Why a server refuses to start on a database a newer version upgraded (`pyramids
# serve` and `app_from_env` alike).
NEWER_SCHEMA = N_("the database {db} was upgraded by a newer version of pyramids (schema "
                  "{revisions}, which this version does not know); it is left untouched: run "
                  "the newer version, or restore a backup made before the upgrade")


def shown_url(url: str) -> str:
    """A database URL to show an operator or write in a log: its password hidden."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: shown as given, since it opens nothing
        return url


def newer_schema(url: str) -> list[str]:
    """The unknown (newer) schema revisions of the database at `url`, read without
    creating or changing anything: [] for a missing SQLite file, a new or an older
    database. `pyramids serve` asks before it starts."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        path = sa.engine.make_url(url).database
        if not path or path == ":memory:" or not os.path.exists(path):
            return []
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return _unknown_revisions(connection, _migration_config(url))
    finally:
        engine.dispose()


class Storage:
    def __init__(self, url: str, sqlite_synchronous: str = "full") -> None:
        self.url = normalize_url(url)
        self.engine = make_engine(self.url, sqlite_synchronous)

    def migrate(self) -> None:
        """`alembic upgrade heads` with the migrations packaged in `pyramids.web.migrations`.

        `heads`, not `head`: features that add tables independently branch from the
        same revision, and every branch is applied.

        A database a newer server upgraded (a schema revision these migrations do
        not know) is refused with `DatabaseTooNew`, before anything is written.
        """
        from alembic import command

        config = _migration_config(self.url)
        with self.engine.begin() as connection:
            self._lock_for_migration(connection)
            newer = _unknown_revisions(connection, config)
            if newer:
                raise DatabaseTooNew(newer)
            config.attributes["connection"] = connection
            command.upgrade(config, "heads")

    @staticmethod
    def _lock_for_migration(connection: Connection) -> None:
        """Make concurrent migrations of one database take turns.

        Several processes may start at once on one database (`serve --cluster`, test
        servers); unserialised, two of them created `alembic_version` together and one
        failed half-way. The lock is held until the upgrade commits: the next process
        then reads the new `alembic_version` and has nothing left to do."""
        if connection.dialect.name == "postgresql":
            # Transaction-scoped: released by the commit, or by the rollback of a failure.
            connection.execute(sa.select(sa.func.pg_advisory_xact_lock(MIGRATION_LOCK)))
        elif connection.dialect.name == "sqlite":
            # pysqlite would run each DDL statement in its own transaction: BEGIN
            # IMMEDIATE takes the write lock first, and the upgrade is all or nothing.
            connection.exec_driver_sql("BEGIN IMMEDIATE")

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
                    salt=room.salt,
                    practice=room.practice,
                    unlisted=room.unlisted,
                    sealed_until=room.sealed_until,
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
            "account_id": seat.account_id,
        }

    def save_seat(self, room_id: str, seat: Seat, only_if_open: bool = False) -> bool:
        """Store a seat; `only_if_open`: only if it is still open in the database (several
        server processes: another may have just seated someone there). Whether it was."""
        with self.engine.begin() as connection:
            query = seats_table.update().where(
                seats_table.c.room_id == room_id, seats_table.c.seat == seat.index)
            if only_if_open:
                query = query.where(seats_table.c.kind == OPEN)
            changed = connection.execute(
                query.values(kind=seat.kind, name=seat.name, agent=seat.agent,
                             token_hash=seat.token_hash, account_id=seat.account_id)
            ).rowcount
            if only_if_open and not changed:
                return False
            connection.execute(
                rooms_table.update().where(rooms_table.c.id == room_id).values(updated_at=_now())
            )
        return True

    def move_seat_token(self, room_id: str, seat: int, account_id: int, old_hash: str | None,
                        new_hash: str) -> bool:
        """A seat its account plays on another device: its token hash becomes `new_hash`,
        only if the database still holds `old_hash` for that account there (another
        server process may have moved or freed it a moment ago). Whether it did."""
        with self.engine.begin() as connection:
            changed = connection.execute(
                seats_table.update().where(
                    seats_table.c.room_id == room_id, seats_table.c.seat == seat,
                    seats_table.c.kind == PERSON, seats_table.c.account_id == account_id,
                    seats_table.c.token_hash == old_hash,
                ).values(token_hash=new_hash)
            ).rowcount
            if changed:
                connection.execute(rooms_table.update().where(rooms_table.c.id == room_id)
                                   .values(updated_at=_now()))
        return bool(changed)

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
        # One statement for the batch's clocks, the latest of each room.
        clocks = {item.room_id: item.clock for item in batch if item.clock is not None}
        if clocks:
            connection.execute(
                rooms_table.update().where(rooms_table.c.id == sa.bindparam("room"))
                .values(clock=sa.bindparam("stored_clock")),
                [{"room": room, "stored_clock": clock} for room, clock in clocks.items()],
            )

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
        return self.summaries((FINISHED,), limit)

    def summaries(
        self, statuses: Iterable[str], limit: int, listed_only: bool = False,
        open_only: bool = False,
    ) -> list[dict[str, Any]]:
        """`Room.summary()` of the latest rooms with these statuses, newest first, from
        the stored rows (no replay). `open_only`: with a free seat; `listed_only`: not
        unlisted."""
        query = sa.select(rooms_table).where(rooms_table.c.status.in_(list(statuses)))
        if listed_only:
            query = query.where(rooms_table.c.unlisted == sa.false())
        if open_only:
            query = query.where(
                sa.exists().where(seats_table.c.room_id == rooms_table.c.id,
                                  seats_table.c.kind == OPEN)
            )
        with self.engine.connect() as connection:
            rows = connection.execute(
                query.order_by(rooms_table.c.updated_at.desc()).limit(limit)
            ).all()
            return self._summaries(connection, rows)

    def summary(self, room_id: str) -> dict[str, Any] | None:
        """One room's summary from its row (no replay), or None."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(rooms_table).where(rooms_table.c.id == room_id)
            ).all()
            found = self._summaries(connection, rows)
        return found[0] if found else None

    def _summaries(self, connection: Connection, rows: Sequence[Any]) -> list[dict[str, Any]]:
        ids = [row.id for row in rows]
        if not ids:
            return []
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
            seats[s.room_id].append(
                Seat(s.seat, s.kind, s.name, s.agent, s.token_hash, s.account_id)
            )
        summaries = []
        for row in rows:
            settings = RoomSettings.from_dict(json.loads(row.settings))
            result, ended = stored_result(row.result)
            summaries.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "options": json.loads(row.options),
                    "status": row.status,
                    "seats": [seat.public() for seat in seats[row.id]],
                    "open_seats": [
                        seat.index for seat in seats[row.id]
                        if seat.kind == OPEN and row.status == WAITING
                    ],
                    "move_number": counts.get(row.id, 0),
                    **settings.to_dict(),
                    "result": result,
                    "ended": ended_public(ended, [seat.display_name() for seat in seats[row.id]]),
                    "unlisted": bool(row.unlisted),
                    "fairness": fairness_info(
                        json.loads(row.seed), row.salt, bool(row.practice), row.status,
                        _sealed_until(row),
                    ),
                }
            )
        return summaries

    def record(self, room_id: str) -> dict[str, Any] | None:
        """The game record of a finished (or aborted) room from its rows, without
        replaying: `GameRecord.to_dict()` plus `fairness`. None: no such room."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(rooms_table).where(rooms_table.c.id == room_id)
            ).first()
            if row is None:
                return None
            if row.status not in (FINISHED, ABORTED):
                return {"status": row.status}
            sealed_until = _sealed_until(row)
            if is_sealed(sealed_until):
                return {"sealed_until": sealed_until}
            seat_rows = connection.execute(
                sa.select(seats_table)
                .where(seats_table.c.room_id == room_id)
                .order_by(seats_table.c.seat)
            ).all()
            actions = connection.execute(
                sa.select(actions_table.c.action)
                .where(actions_table.c.room_id == room_id)
                .order_by(actions_table.c.number)
            ).scalars().all()
        from pyramids.core import GameRecord

        result, ended = stored_result(row.result)
        record = GameRecord(
            game=row.game,
            options=json.loads(row.options),
            seed=json.loads(row.seed),
            actions=list(actions),
            players=[
                Seat(s.seat, s.kind, s.name, s.agent, s.token_hash).display_name()
                for s in seat_rows
            ],
            result=result,
        ).to_dict()
        # How an aborted game ended (a forfeit on time), with its words: the replay says it.
        record["ended"] = ended_public(ended, record["players"])
        record["fairness"] = fairness_info(
            json.loads(row.seed), row.salt, bool(row.practice), row.status, sealed_until
        )
        # Which seats bots held, by agent name: pages name them in the reader's language.
        record["agents"] = [s.agent if s.kind == AGENT else None for s in seat_rows]
        return record

    def save_clock(self, room_id: str, clock: str | None) -> None:
        """Store a room's turn clock (JSON), so that it survives a restart."""
        with self.engine.begin() as connection:
            connection.execute(
                rooms_table.update().where(rooms_table.c.id == room_id).values(clock=clock)
            )

    def set_rematch(self, room_id: str, rematch: str) -> str | None:
        """Name the room of a room's rematch unless one is named already (the first
        wins, whichever process stored it); the room now named, None: no such room."""
        with self.engine.begin() as connection:
            connection.execute(
                rooms_table.update()
                .where(rooms_table.c.id == room_id, rooms_table.c.rematch.is_(None))
                .values(rematch=rematch)
            )
            named: str | None = connection.execute(
                sa.select(rooms_table.c.rematch).where(rooms_table.c.id == room_id)
            ).scalar_one_or_none()
        return named

    def holders(self, room_id: str) -> RoomHolders | None:
        """The room's status, host and seat token hashes and rematch; None: no such room."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(rooms_table.c.status, rooms_table.c.host_token_hash,
                          rooms_table.c.rematch).where(rooms_table.c.id == room_id)
            ).first()
            if row is None:
                return None
            hashes = connection.execute(
                sa.select(seats_table.c.token_hash).where(
                    seats_table.c.room_id == room_id, seats_table.c.token_hash.is_not(None))
            ).scalars().all()
        return RoomHolders(row.status, row.host_token_hash, tuple(hashes), row.rematch)

    def actions_after(self, room_id: str, number: int) -> list[tuple[int, int, str, bool]]:
        """A room's stored actions after the first `number`, in order: (number, seat,
        action, by_bot). Another server process committed them (cluster mode)."""
        with self.engine.connect() as connection:
            return self.select_actions_after(connection, room_id, number)

    @staticmethod
    def select_actions_after(
        connection: Connection, room_id: str, number: int
    ) -> list[tuple[int, int, str, bool]]:
        rows = connection.execute(
            sa.select(actions_table.c.number, actions_table.c.seat, actions_table.c.action,
                      actions_table.c.by_bot)
            .where(actions_table.c.room_id == room_id, actions_table.c.number > number)
            .order_by(actions_table.c.number)
        ).all()
        return [(row.number, row.seat, row.action, bool(row.by_bot)) for row in rows]

    def load_clock(self, room_id: str) -> str | None:
        with self.engine.connect() as connection:
            found: str | None = connection.execute(
                sa.select(rooms_table.c.clock).where(rooms_table.c.id == room_id)
            ).scalar_one_or_none()
            return found

    def last_told_at(self, room_id: str) -> datetime | None:
        """When a playing game last told its time: the commit of its latest action (the
        server tells a timed game the time before each move), or, before any, its start
        (nothing changes a playing room's row until it ends)."""
        with self.engine.connect() as connection:
            moved = connection.execute(
                sa.select(sa.func.max(actions_table.c.created_at))
                .where(actions_table.c.room_id == room_id)
            ).scalar_one_or_none()
            if moved is None:
                moved = connection.execute(
                    sa.select(rooms_table.c.updated_at).where(rooms_table.c.id == room_id)
                ).scalar_one_or_none()
        return None if moved is None else as_utc(moved)

    def count_status(self, status: str) -> int:
        with self.engine.connect() as connection:
            return int(connection.execute(
                sa.select(sa.func.count()).select_from(rooms_table)
                .where(rooms_table.c.status == status)
            ).scalar_one())

    def expire_waiting(self, idle_since: datetime, keep: Iterable[str] = ()) -> list[str]:
        """Archive waiting rooms untouched since `idle_since` (status `expired`), except
        `keep` (rooms someone is connected to); their ids."""
        keep = list(keep)
        with self.engine.begin() as connection:
            query = sa.select(rooms_table.c.id).where(
                rooms_table.c.status == WAITING, rooms_table.c.updated_at < idle_since
            )
            if keep:
                query = query.where(rooms_table.c.id.not_in(keep))
            ids = list(connection.execute(query).scalars().all())
            if ids:
                connection.execute(
                    rooms_table.update().where(rooms_table.c.id.in_(ids))
                    .values(status=EXPIRED, updated_at=_now())
                )
            if keep:
                connection.execute(
                    rooms_table.update().where(rooms_table.c.id.in_(keep),
                                               rooms_table.c.status == WAITING)
                    .values(updated_at=_now())
                )
        return ids

    def oldest_change(self, room_ids: Iterable[str]) -> datetime | None:
        """When the least recently changed of `room_ids` last changed (None for none)."""
        ids = list(room_ids)
        if not ids:
            return None
        with self.engine.connect() as connection:
            oldest = connection.execute(
                sa.select(sa.func.min(rooms_table.c.updated_at))
                .where(rooms_table.c.id.in_(ids))
            ).scalar_one()
        return None if oldest is None else as_utc(oldest)

    def load_room(self, room_id: str) -> Room | None:
        """The room replayed from its seed and actions, or None if there is no such room."""
        data = self.load_room_data(room_id)
        return None if data is None else Room.restore(**data)

    def load_room_data(self, room_id: str) -> dict[str, Any] | None:
        """What `Room.restore` needs, read from the rows (the replay is left to the
        caller, so that it does not hold up the database thread)."""
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
            Seat(index=s.seat, kind=s.kind, name=s.name, agent=s.agent, token_hash=s.token_hash,
                 account_id=s.account_id)
            for s in seat_rows
        ]
        return dict(
            room_id=row.id,
            game_name=row.game,
            options=json.loads(row.options),
            seed=json.loads(row.seed),
            host_token_hash=row.host_token_hash,
            settings=RoomSettings.from_dict(json.loads(row.settings)),
            seats=seats,
            status=row.status,
            actions=[(a.seat, a.action, bool(a.by_bot)) for a in action_rows],
            salt=row.salt,
            practice=bool(row.practice),
            unlisted=bool(row.unlisted),
            sealed_until=_sealed_until(row),
            ended=stored_result(row.result)[1],
        )


def stored_result(text: str | None) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """A room row's result column as (the game's result, how an aborted game ended): a
    finished game stores its result (`{"returns": ...}`); an aborted one that ended
    in a forfeit on time stores `{"ended": ...}` (`Room.ended`)."""
    if text is None:
        return None, None
    data = json.loads(text)
    if isinstance(data, dict) and "ended" in data:
        ended = data["ended"]
        return None, ended if isinstance(ended, dict) else None
    return data, None
