"""Several server processes on one PostgreSQL database (`pyramids serve --cluster`).

Every process keeps its own live rooms in memory; the database is the one truth
they share. The rules that keep them in step:

- **Moves are serialised per room.** A process commits action N+1 of a room only
  in a transaction that holds the room's transaction-scoped advisory lock
  (`pg_advisory_xact_lock(MOVE_LOCK, hashtext(room))`) and finds N actions stored;
  otherwise it raises `Behind`, and the hub catches up on the actions another
  process committed and checks the move again (usually it is then `stale`). The
  actions table's (room_id, number) primary key is the last line of defence.
- **Fan-out after commit.** The same transaction sends `NOTIFY pyramids_rooms`
  with the room, a reason and the sending process; PostgreSQL delivers it only
  when the transaction commits, so no process hears of a move that could still
  be lost. Every process LISTENs on its own connection (psycopg's async
  connection, on the event loop, never blocking it) and brings its copy of the
  room up to date from the database: the notice says *what* changed, never the
  change itself, so nothing hidden travels in it.
- **Bots move once.** Only the process holding a room's bot lease (a
  session-level advisory lock, `BOT_LOCK`, on the process's lease connection)
  computes and submits a bot move. A process that dies loses its database
  session, and with it the lease, so another process takes over.
- **Other room events** (seats, start, abort, expiry, turn-clock time-outs, chat)
  are written by one process and announced with their reason; the others reload
  what changed.
- **A ban** by the operator is written by the process that was asked, then
  announced (`ban`, with the account's id and no room): every process closes the
  seat sockets of that account it holds, at once, as the one asked did. A notice
  lost while a listener reconnected is made up for by the resync: each process
  then asks the database whether the accounts playing seats on it are banned.
- **Migrations take turns.** Processes starting together all run
  `Storage.migrate()`; it holds a transaction-scoped advisory lock
  (`storage.MIGRATION_LOCK`, one bigint key, apart from the two-key locks here)
  until its upgrade commits, so the next finds nothing left to do.
- **Presence** (which seats have a socket somewhere) is not stored: each process
  tells the others the seats connected to it, when they change and as a
  heartbeat; an entry not refreshed in `PRESENCE_TTL_SECONDS` lapses. So a person
  connected to another process is neither shown away nor taken over by a bot.
- **Bot rooms watched** (`ServerLimits.bot_rooms_watched_per_client`) are told the
  same way (`watching`): by address (a digest, `address_key`, never the address
  itself), the rooms only bots play that it watches on the sending process. A
  process counts those with its own, so the limit holds for the whole cluster, not
  once per process. Two joins on two processes in the same instant may both pass
  (each has not yet heard of the other): one room over the limit at most, for a
  moment, per process.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from pyramids.web.storage import Storage, StoredAction, actions_table

log = logging.getLogger("pyramids.web.cluster")

T = TypeVar("T")

CHANNEL = "pyramids_rooms"
# The first key of the two-key advisory locks: what is locked; the second is the room.
MOVE_LOCK = 1
BOT_LOCK = 2
# What a notice may say changed; a receiving process reloads that part of the room.
REASONS = ("move", "room", "clock", "chat", "chat_settings", "presence", "ban", "watching")
# A `presence` notice lists, by room, the seats with a socket on the sending process;
# it is sent when they change and every PRESENCE_SECONDS, and trusted for
# PRESENCE_TTL_SECONDS (so a dead process's sockets stop counting).
PRESENCE_SECONDS = 5.0
PRESENCE_TTL_SECONDS = 3 * PRESENCE_SECONDS
# PostgreSQL refuses NOTIFY payloads of 8000 bytes or more: presence is sent in parts.
PAYLOAD_LIMIT = 7000
# Told to the hub (with no room) when the listener reconnected: notices may be lost.
RESYNC = "resync"
RECONNECT_SECONDS = 1.0


# A stored action: (number, seat, action string, by_bot).
StoredRow = tuple[int, int, str, bool]


class Behind(Exception):
    """Another process committed actions of the room this process has not applied:
    `missing`, read under the room's lock."""

    def __init__(self, missing: list[StoredRow]) -> None:
        super().__init__(f"{len(missing)} actions of the room were committed elsewhere")
        self.missing = missing


@dataclass(frozen=True)
class Notice:
    """A room changed on some process: `reason` says which part to reload. A
    `presence` notice carries the seats connected to its origin, by room; a `ban`
    notice the account the operator banned (and no room)."""

    room_id: str
    reason: str
    origin: str
    presence: dict[str, tuple[int, ...]] | None = None
    account: int | None = None
    # `watching`: by address key, the rooms only bots play watched on the origin.
    watching: dict[str, tuple[str, ...]] | None = None


def address_key(address: str) -> str:
    """What a `watching` notice names an address by: a digest, not the address."""
    return hashlib.sha256(address.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def notice_payload(room_id: str, reason: str, origin: str,
                   presence: dict[str, list[int]] | None = None,
                   account: int | None = None,
                   watching: dict[str, list[str]] | None = None) -> str:
    if reason not in REASONS:
        raise ValueError(f"unknown notice reason {reason!r}; allowed: {', '.join(REASONS)}")
    data: dict[str, object] = {"room": room_id, "reason": reason, "origin": origin}
    if presence is not None:
        data["presence"] = presence
    if account is not None:
        data["account"] = account
    if watching is not None:
        data["watching"] = watching
    return json.dumps(data, separators=(",", ":"))


_Listed = TypeVar("_Listed", list[int], list[str])


def presence_payloads(origin: str, presence: dict[str, list[int]]) -> list[str]:
    """`presence` notices for these rooms, each under PostgreSQL's payload limit."""
    return _split_notices(presence, lambda part: notice_payload(
        "", "presence", origin, presence=part))


def watching_payloads(origin: str, watching: dict[str, list[str]]) -> list[str]:
    """`watching` notices for these addresses, each under PostgreSQL's payload limit
    (an address's rooms are never split)."""
    return _split_notices(watching, lambda part: notice_payload(
        "", "watching", origin, watching=part))


def _split_notices(entries: Mapping[str, _Listed],
                   notice: Callable[[dict[str, _Listed]], str]) -> list[str]:
    """As few `notice`s of `entries` as fit under PostgreSQL's payload limit: an entry
    is never split, and no entries still make one notice (it says "none here now")."""
    payloads: list[str] = []
    part: dict[str, _Listed] = {}
    for key, listed in entries.items():
        part[key] = listed
        if len(notice(part)) > PAYLOAD_LIMIT:
            del part[key]
            if part:
                payloads.append(notice(part))
            part = {key: listed}
    if part or not payloads:
        payloads.append(notice(part))
    return payloads


def _rooms(value: object) -> tuple[str, ...] | None:
    if not isinstance(value, list) or len(value) > 1000 or not all(
        isinstance(room, str) and 0 < len(room) <= 64 for room in value
    ):
        return None
    return tuple(value)


def _seats(value: object) -> tuple[int, ...] | None:
    if not isinstance(value, list) or not all(
        isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < 64
        for seat in value
    ):
        return None
    return tuple(value)


def parse_notice(payload: str) -> Notice | None:
    """The notice in a NOTIFY payload, or None for anything that is not one of ours."""
    try:
        data = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    room, reason, origin = data.get("room"), data.get("reason"), data.get("origin")
    if not (isinstance(room, str) and isinstance(origin, str) and reason in REASONS):
        return None
    if reason == "ban":
        account = data.get("account")
        if not isinstance(account, int) or isinstance(account, bool) or account < 1:
            return None
        return Notice(room, reason, origin, account=account)
    if reason == "watching":
        listed = data.get("watching")
        if not isinstance(listed, dict):
            return None
        watching = {key: _rooms(value) for key, value in listed.items()}
        if any(rooms is None or len(key) > 64 for key, rooms in watching.items()):
            return None
        return Notice(room, reason, origin, watching={
            key: rooms for key, rooms in watching.items() if rooms is not None})
    if reason != "presence":
        return Notice(room, reason, origin)
    listed = data.get("presence")
    if not isinstance(listed, dict):
        return None
    presence = {key: _seats(value) for key, value in listed.items()}
    if any(seats is None for seats in presence.values()):
        return None
    return Notice(room, reason, origin,
                  {key: seats for key, seats in presence.items() if seats is not None})


def psycopg_conninfo(url: str) -> str:
    """The libpq address of an SQLAlchemy PostgreSQL URL (without the `+psycopg`)."""
    parsed = sa.engine.make_url(url)
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


def is_postgres(url: str) -> bool:
    return sa.engine.make_url(url).get_backend_name() == "postgresql"


class Cluster:
    """This process's link to the others: commits under the room lock, notices, leases.

    `on_notice` is called on the event loop for each notice another process sent
    (and with `Notice("", RESYNC, "")` after the listener reconnected)."""

    def __init__(self, storage: Storage, on_notice: Callable[[Notice], None],
                 threads: int = 4) -> None:
        if not is_postgres(storage.url):
            raise ValueError(
                "several server processes share a PostgreSQL database; "
                f"{storage.engine.url.get_backend_name()} is one process's database. "
                "Give a postgresql:// URL, or run one process without cluster mode"
            )
        self.storage = storage
        self.origin = secrets.token_hex(8)
        self.on_notice = on_notice
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="pyramids-cluster")
        self._lease_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pyramids-lease")
        self._lease_connection: Connection | None = None
        self._lease_guard = threading.Lock()
        self._listener: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()

    # -- lifecycle ----------------------------------------------------------------

    async def start(self) -> None:
        self._listener = asyncio.create_task(self._listen(), name="pyramids-listener")
        await asyncio.wait_for(self.listening.wait(), 30)

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        await asyncio.get_running_loop().run_in_executor(self._lease_pool, self._close_lease)
        self._pool.shutdown(wait=True)
        self._lease_pool.shutdown(wait=True)

    # -- moves --------------------------------------------------------------------

    async def commit(self, action: StoredAction) -> None:
        """Commit a room's next action and announce it; `Behind` if another process
        committed first (nothing is written then)."""
        await asyncio.get_running_loop().run_in_executor(self._pool, self._commit, action)

    def _commit(self, action: StoredAction) -> None:
        with self.storage.engine.begin() as connection:
            connection.execute(sa.select(sa.func.pg_advisory_xact_lock(
                MOVE_LOCK, sa.func.hashtext(action.room_id))))
            stored = connection.execute(
                sa.select(sa.func.count()).select_from(actions_table)
                .where(actions_table.c.room_id == action.room_id)
            ).scalar_one()
            if stored + 1 != action.number:
                raise Behind(self.storage.select_actions_after(
                    connection, action.room_id, action.number - 1))
            self.storage._insert_actions(connection, [action])
            self._notify(connection, action.room_id, "move")

    def notify(self, room_id: str, reason: str) -> None:
        """(On the database thread, after the write it announces.) Tell the others."""
        with self.storage.engine.begin() as connection:
            self._notify(connection, room_id, reason)

    def notify_ban(self, account_id: int) -> None:
        """(Off the database thread, after the ban is stored.) Tell the others to close
        the banned account's seat sockets."""
        with self.storage.engine.begin() as connection:
            connection.execute(sa.select(sa.func.pg_notify(
                CHANNEL, notice_payload("", "ban", self.origin, account=account_id))))

    def notify_watching(self, watching: dict[str, list[str]]) -> None:
        """(Off the database thread.) By address key, the bot rooms watched here ([]: none
        any more)."""
        with self.storage.engine.begin() as connection:
            for payload in watching_payloads(self.origin, watching):
                connection.execute(sa.select(sa.func.pg_notify(CHANNEL, payload)))

    def notify_presence(self, presence: dict[str, list[int]]) -> None:
        """(On the database thread.) The seats connected here, by room."""
        with self.storage.engine.begin() as connection:
            for payload in presence_payloads(self.origin, presence):
                connection.execute(sa.select(sa.func.pg_notify(CHANNEL, payload)))

    def _notify(self, connection: Connection, room_id: str, reason: str) -> None:
        connection.execute(sa.select(sa.func.pg_notify(
            CHANNEL, notice_payload(room_id, reason, self.origin))))

    # -- bot leases -----------------------------------------------------------------

    async def read(self, function: Callable[..., T], *args: Any) -> T:
        """A read (or a notice) on one of this link's threads, not queued behind the
        writes of the database thread."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, function, *args)

    async def take_bot_lease(self, room_id: str, known: int) -> list[StoredRow] | None:
        """The room's bot lease, and the actions after the first `known` (in one hop);
        None when another process holds the lease."""
        return await asyncio.get_running_loop().run_in_executor(
            self._lease_pool, self._lease_and_read, room_id, known)

    def _lease_and_read(self, room_id: str, known: int) -> list[StoredRow] | None:
        if not self._lease("pg_try_advisory_lock", room_id):
            return None
        with self._lease_guard:
            try:
                assert self._lease_connection is not None
                return self.storage.select_actions_after(self._lease_connection, room_id, known)
            except Exception:
                self._lease("pg_advisory_unlock", room_id)
                raise

    async def release_bot_lease(self, room_id: str) -> None:
        await asyncio.get_running_loop().run_in_executor(
            self._lease_pool, self._lease, "pg_advisory_unlock", room_id)

    def _lease(self, function: str, room_id: str) -> bool:
        """Run a session advisory-lock function on the lease connection. A lost
        connection has lost its leases too: it is dropped, and the answer is no."""
        with self._lease_guard:
            try:
                if self._lease_connection is None:
                    self._lease_connection = self.storage.engine.connect()
                    self._lease_connection.execution_options(isolation_level="AUTOCOMMIT")
                call = getattr(sa.func, function)(BOT_LOCK, sa.func.hashtext(room_id))
                return bool(self._lease_connection.execute(sa.select(call)).scalar_one())
            except sa.exc.SQLAlchemyError:
                log.exception("bot lease of room %s: the lease connection failed", room_id)
                self._close_lease_locked()
                return False

    def _close_lease(self) -> None:
        with self._lease_guard:
            self._close_lease_locked()

    def _close_lease_locked(self) -> None:
        if self._lease_connection is not None:
            with contextlib.suppress(Exception):
                self._lease_connection.invalidate()
                self._lease_connection.close()
            self._lease_connection = None

    # -- listening --------------------------------------------------------------------

    async def _listen(self) -> None:
        import psycopg

        conninfo = psycopg_conninfo(self.storage.url)
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    conninfo, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if not first:
                        # Notices sent while the connection was down are lost: reload.
                        self.on_notice(Notice("", RESYNC, ""))
                    first = False
                    async for message in connection.notifies():
                        notice = parse_notice(message.payload)
                        if notice is not None and notice.origin != self.origin:
                            self.on_notice(notice)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("listening for other processes failed (%s); reconnecting", error)
            await asyncio.sleep(RECONNECT_SECONDS)


__all__ = ["BOT_LOCK", "CHANNEL", "MOVE_LOCK", "PRESENCE_SECONDS", "PRESENCE_TTL_SECONDS",
           "REASONS", "RESYNC", "Behind", "Cluster", "Notice", "address_key", "is_postgres",
           "notice_payload", "parse_notice", "presence_payloads", "psycopg_conninfo",
           "watching_payloads"]
