"""The live rooms of a running server: locks, connections, storage and broadcasts.

Each room has an asyncio lock; an action is checked, committed to the database,
applied and broadcast while the room's lock is held, so every client sees the
moves in order and nothing is broadcast that a restart could lose. Database work
runs on one thread (SQLite allows one writer) and actions from all rooms are
committed together in batches (`ActionWriter`), so many rooms share a commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pyramids.agents import Agent, agent_names
from pyramids.core import PyramidsError
from pyramids.web.rooms import (
    AGENT,
    FINISHED,
    PERSON,
    PLAYING,
    WAITING,
    Room,
    RoomError,
    RoomSettings,
    Seat,
    hash_token,
    new_room_id,
    new_seed,
    new_token,
)
from pyramids.web.storage import Storage, StoredAction

log = logging.getLogger("pyramids.web")

T = TypeVar("T")

ROOM_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
OUTBOX_LIMIT = 256
WRITE_BATCH = 500
FINISHED_LISTED = 100


@dataclass(frozen=True)
class Close:
    """Queued after the last message for a client: close its socket with this code."""

    code: int
    reason: str


class Connection:
    """One WebSocket client: a seat (or None for a spectator) and its outgoing queue.

    Messages go through the queue to one writer task, so sends never interleave.
    A client that falls `OUTBOX_LIMIT` messages behind is dropped.
    """

    def __init__(
        self,
        send_text: Callable[[str], Awaitable[None]],
        close: Callable[[int, str], Awaitable[None]],
    ) -> None:
        self.seat: int | None = None
        self.joined = False
        self.outbox: asyncio.Queue[str | Close] = asyncio.Queue()
        self._send_text = send_text
        self._close = close
        self.closing = False

    @property
    def dropped(self) -> bool:
        return self.closing

    def offer(self, text: str) -> None:
        if self.closing:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.close(1008, "too slow: messages were not read")
            return
        self.outbox.put_nowait(text)

    def error(self, code: str, message: str) -> None:
        self.offer(json.dumps({"type": "error", "code": code, "message": message}))

    def close(self, code: int, reason: str) -> None:
        if not self.closing:
            self.closing = True
            self.outbox.put_nowait(Close(code, reason))

    async def pump(self) -> None:
        """Send queued messages in order until a `Close`, or until the socket fails."""
        while True:
            item = await self.outbox.get()
            if isinstance(item, Close):
                with contextlib.suppress(Exception):
                    await self._close(item.code, item.reason)
                return
            await self._send_text(item)


@dataclass
class LiveRoom:
    room: Room
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    connections: set[Connection] = field(default_factory=set)
    away_since: dict[int, float] = field(default_factory=dict)
    agents: dict[int, Agent] = field(default_factory=dict)
    driver: asyncio.Task[None] | None = None

    def connected(self) -> dict[int, bool]:
        seats = {conn.seat for conn in self.connections if conn.seat is not None}
        return {seat.index: seat.index in seats for seat in self.room.seats}

    def mark_away(self, now: float) -> None:
        """Start the away clock of every person seat with no connection."""
        connected = self.connected()
        for seat in self.room.seats:
            if seat.kind == PERSON and not connected[seat.index]:
                self.away_since.setdefault(seat.index, now)
            else:
                self.away_since.pop(seat.index, None)


class ActionWriter:
    """Commits accepted actions in batches: each caller waits until its action is durable."""

    def __init__(self, storage: Storage, run_db: Callable[..., Any]) -> None:
        self.storage = storage
        self.run_db = run_db
        self.queue: asyncio.Queue[tuple[StoredAction, asyncio.Future[None]]] = asyncio.Queue()

    async def write(self, action: StoredAction) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((action, done))
        await done

    async def run(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty() and len(batch) < WRITE_BATCH:
                batch.append(self.queue.get_nowait())
            try:
                await self.run_db(self.storage.append_actions, [item for item, _ in batch])
            except Exception as error:  # one bad action must not fail the others
                if len(batch) == 1:
                    self._settle(batch[0][1], error)
                    continue
                for item, done in batch:
                    try:
                        await self.run_db(self.storage.append_actions, [item])
                    except Exception as single:
                        self._settle(done, single)
                    else:
                        self._settle(done, None)
                continue
            for _, done in batch:
                self._settle(done, None)

    @staticmethod
    def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
        if done.done():
            return
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)


class Hub:
    def __init__(self, storage: Storage, bot_threads: int = 4) -> None:
        self.storage = storage
        self.rooms: dict[str, LiveRoom] = {}
        self.broken: dict[str, str] = {}
        self._db_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pyramids-db")
        self.bot_pool = ThreadPoolExecutor(
            max_workers=bot_threads, thread_name_prefix="pyramids-bot"
        )
        self._load_lock = asyncio.Lock()
        self.writer = ActionWriter(storage, self.run_db)
        self._writer_task: asyncio.Task[None] | None = None
        self._known_agents = agent_names()

    # -- lifecycle --------------------------------------------------------------

    async def run_db(self, function: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._db_pool, function, *args)

    async def start(self) -> None:
        await self.run_db(self.storage.migrate)
        self._writer_task = asyncio.create_task(self.writer.run(), name="pyramids-writer")
        for room_id in await self.run_db(self.storage.room_ids, (WAITING, PLAYING)):
            with contextlib.suppress(RoomError):
                await self.get(room_id)
        log.info("server ready: %d rooms restored", len(self.rooms))

    async def stop(self) -> None:
        tasks = [live.driver for live in self.rooms.values() if live.driver is not None]
        if self._writer_task is not None:
            tasks.append(self._writer_task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        self._db_pool.shutdown(wait=True)
        self.storage.dispose()

    # -- finding rooms ---------------------------------------------------------

    async def get(self, room_id: str) -> LiveRoom:
        """The live room, rebuilt from the database on first use."""
        live = self.rooms.get(room_id)
        if live is not None:
            return live
        if not isinstance(room_id, str) or not ROOM_ID.match(room_id):
            raise RoomError("unknown_room", f"no room {room_id!r}", 404)
        if room_id in self.broken:
            raise RoomError("broken_room", self.broken[room_id], 500)
        async with self._load_lock:
            live = self.rooms.get(room_id)
            if live is not None:
                return live
            try:
                room = await self.run_db(self.storage.load_room, room_id)
            except (RoomError, PyramidsError, ValueError, KeyError, TypeError, IndexError) as error:
                # A room that no longer replays (a tampered row, an engine whose rules
                # changed) is refused on its own; the server and other rooms go on.
                message = f"room {room_id} could not be restored: {error}"
                log.error(message)
                self.broken[room_id] = message
                raise RoomError("broken_room", message, 500) from None
            if room is None:
                raise RoomError("unknown_room", f"no room {room_id!r}", 404)
            live = LiveRoom(room)
            if room.status == FINISHED:
                return live  # nothing will change: not worth keeping in memory
            live.mark_away(time.monotonic())
            self.rooms[room_id] = live
            self._ensure_driver(live)
            return live

    def open_rooms(self) -> list[dict[str, Any]]:
        return [
            live.room.summary()
            for live in self.rooms.values()
            if live.room.status == WAITING and any(s.kind == "open" for s in live.room.seats)
        ]

    async def rooms_with_status(self, status: str) -> list[dict[str, Any]]:
        if status == FINISHED:
            return await self.run_db(self.storage.finished_summaries, FINISHED_LISTED)
        return [live.room.summary() for live in self.rooms.values() if live.room.status == status]

    # -- room set-up -------------------------------------------------------------

    async def create_room(
        self,
        game: str,
        options: dict[str, Any],
        seed: int | str | None,
        settings: RoomSettings,
    ) -> tuple[LiveRoom, str]:
        if settings.takeover_agent not in self._known_agents:
            raise RoomError(
                "unknown_agent",
                f"unknown takeover agent {settings.takeover_agent!r}; allowed agents: "
                f"{', '.join(self._known_agents)}",
            )
        host_token = new_token()
        room = Room.create(
            new_room_id(),
            game,
            options,
            new_seed() if seed is None else seed,
            hash_token(host_token),
            settings,
        )
        await self.run_db(self.storage.create_room, room)
        live = LiveRoom(room)
        self.rooms[room.id] = live
        self._ensure_driver(live)
        log.info("room %s created: %s %s", room.id, game, room.options)
        return live, host_token

    async def take_seat(self, live: LiveRoom, name: Any, seat: int | None) -> tuple[Seat, str]:
        async with live.lock:
            before = _copy_seat(live.room, seat)
            chosen, token = live.room.take_seat(name, seat)
            try:
                await self.run_db(self.storage.save_seat, live.room.id, chosen)
            except Exception:
                live.room.seats[chosen.index] = before or Seat(chosen.index)
                raise
            live.mark_away(time.monotonic())
            self._changed(live)
            return chosen, token

    async def give_to_agent(self, live: LiveRoom, token: str | None, seat: int, agent: str) -> Seat:
        async with live.lock:
            live.room.check_manager(token)
            before = _copy_seat(live.room, seat)
            chosen = live.room.give_to_agent(seat, agent, self._known_agents)
            try:
                await self.run_db(self.storage.save_seat, live.room.id, chosen)
            except Exception:
                live.room.seats[chosen.index] = before or Seat(chosen.index)
                raise
            self._changed(live)
            return chosen

    async def start_room(self, live: LiveRoom, token: str | None) -> None:
        async with live.lock:
            room = live.room
            room.check_manager(token)
            room.start()
            try:
                await self.run_db(self.storage.save_status, room.id, room.status, room.result())
            except Exception:
                room.status = WAITING
                raise
            live.away_since.clear()
            live.mark_away(time.monotonic())
            log.info("room %s started", room.id)
            self._changed(live)

    # -- moves --------------------------------------------------------------------

    async def submit(
        self,
        live: LiveRoom,
        seat: int | None,
        text: Any,
        by_bot: bool = False,
        move_number: Any = None,
    ) -> None:
        """Check, commit, apply and broadcast one action; a refusal raises `RoomError`."""
        async with live.lock:
            room = live.room
            if move_number is not None and move_number != len(room.actions):
                if isinstance(move_number, bool) or not isinstance(move_number, int):
                    raise RoomError("bad_message", "'move_number' is an integer")
                raise RoomError(
                    "stale",
                    f"your move was for move number {move_number}, but the game is at "
                    f"move number {len(room.actions)}",
                )
            action = room.check_action(seat, text)
            assert seat is not None  # check_action refuses spectators
            canonical = room.state.action_to_string(action)
            await self.writer.write(
                StoredAction(room.id, len(room.actions) + 1, seat, canonical, by_bot)
            )
            room.apply(seat, action, by_bot)
            if room.status == FINISHED:
                log.info("room %s finished: %s", room.id, room.result())
                try:
                    await self.run_db(self.storage.save_status, room.id, FINISHED, room.result())
                except Exception:
                    # The last action is committed, so a restart still finds the game over.
                    log.exception("room %s: could not mark the room finished", room.id)
            self._changed(live)
            self._forget_if_done(live)

    # -- connections ----------------------------------------------------------------

    async def join(self, live: LiveRoom, conn: Connection, token: str | None) -> None:
        async with live.lock:
            seat = None
            if token is not None:
                seat = live.room.seat_of(token)
                if seat is None:
                    raise RoomError("bad_token", "that token holds no seat in this room", 403)
            conn.seat = seat
            conn.joined = True
            live.connections.add(conn)
            live.mark_away(time.monotonic())
            # Everyone sees the seat come back; the newcomer gets its current view.
            self._changed(live)

    def leave(self, live: LiveRoom, conn: Connection) -> None:
        if conn in live.connections:
            live.connections.discard(conn)
            live.mark_away(time.monotonic())
            self._changed(live)
        self._forget_if_done(live)

    def _forget_if_done(self, live: LiveRoom) -> None:
        """Drop a finished room nobody watches from memory; the database still has it."""
        finished = live.room.status == FINISHED and not live.connections
        if finished and self.rooms.get(live.room.id) is live:
            del self.rooms[live.room.id]

    def _changed(self, live: LiveRoom) -> None:
        """Broadcast the new state (each client its own view) and wake the room's bots."""
        live.changed.set()
        room = live.room
        connected = live.connected()
        messages: dict[int | None, str] = {}
        for conn in list(live.connections):
            if conn.seat not in messages:
                messages[conn.seat] = json.dumps(
                    room.message_for(conn.seat, connected), separators=(",", ":")
                )
            conn.offer(messages[conn.seat])
            if conn.dropped:
                live.connections.discard(conn)

    def _ensure_driver(self, live: LiveRoom) -> None:
        from pyramids.web.bots import drive

        if live.room.status == FINISHED:
            return
        if live.driver is None or live.driver.done():
            live.driver = asyncio.create_task(drive(self, live), name=f"room-{live.room.id}")


def _copy_seat(room: Room, seat: int | None) -> Seat | None:
    if seat is None or isinstance(seat, bool) or not isinstance(seat, int):
        return None
    if 0 <= seat < len(room.seats):
        entry = room.seats[seat]
        return Seat(entry.index, entry.kind, entry.name, entry.agent, entry.token_hash)
    return None


__all__ = ["AGENT", "Connection", "Hub", "LiveRoom"]
