"""The live rooms of a running server: locks, connections, storage and broadcasts.

Each room has an asyncio lock; an action is checked, committed to the database,
applied and broadcast while the room's lock is held, so every client sees the
moves in order and nothing is broadcast that a restart could lose. Database work
runs on one thread (SQLite allows one writer) and actions from all rooms are
committed together in batches (`ActionWriter`), so many rooms share a commit.

Engine work (dealing, checking and applying a move, building each seat's view,
which may run the Mahjongg solver) runs in a worker pool (`run_engine`), never
on the event loop: one room's slow view does not hold up the others. The moves
and views of a game whose manifest declares its engine quick (Pacal, Temple:
microseconds, no search) are made on the loop (`run_room_engine`): under the
GIL a worker thread does not run beside the loop anyway, and the two hand-offs
a move cost more CPU than the work.

Lifecycles: a waiting room untouched for `waiting_room_idle_seconds` expires (it
stays in the database as `expired` and is not loaded again); a playing room nobody
has been connected to for `adjourn_after_seconds` is put away from memory and comes
back as it was when opened again; rooms are loaded only when someone asks for them.
In a game with a clock (Mahjongg time attack) the server keeps the time: it adds
the elapsed seconds before each move and ends the game when the time is up.
A room with a turn clock (`pyramids.web.clocks`) is timed by the hub's `Clock`
(a fake one in tests): each move stores the clock in its own commit, a time-out
(`time_out`, called by the room's bot task) hands the turn to the bot or adjourns
the game, and the clock goes to every client in each state message. When a game
finishes, the `finish_hooks` run (the ratings of a ranked room).

Cluster mode (`cluster=True`, PostgreSQL only; `pyramids.web.cluster`): several
processes serve the same rooms. A move is committed under the room's advisory
lock only when this process has applied every stored action; otherwise the
commit returns the actions other processes committed (`Behind`), the hub applies
them (`_catch_up`) and checks the move again before trying once more. Each
change is announced after its commit; a process that hears of a change to a room
it holds reloads that part (`_sync`).
A move flows one way: socket, room check, storage, then the fan-out.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import multiprocessing.connection
import os
import re
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, TypeVar

from pyramids.agents import Agent, agent_names
from pyramids.core import PyramidsError, find_manifest
from pyramids.core.errors import N_, Words
from pyramids.play.i18n import words_text
from pyramids.play.movelog import MoveLog
from pyramids.play.moves import CLOCK_PREFIX
from pyramids.web import jsontext, movelog
from pyramids.web.accounts import BANNED, AccountStore, session_hash
from pyramids.web.chat import ChatRoom, chat_joined, reload_chat
from pyramids.web.clocks import (
    RANKED_STALL_TIMEOUTS,
    TIMEOUT_BOT,
    Clock,
    ClockError,
    SystemClock,
    TimeControl,
    TurnClock,
    ranked_clock_problem,
)
from pyramids.web.cluster import (
    PRESENCE_SECONDS,
    PRESENCE_TTL_SECONDS,
    RESYNC,
    Behind,
    Cluster,
    Notice,
    address_key,
)
from pyramids.web.limits import ServerLimits, TokenBucket, Turns
from pyramids.web.movelog import (
    current_view,
    log_work,
    logged_apply,
    prepare_logs,
    push_logs,
    with_log,
)
from pyramids.web.rooms import (
    ABORTED,
    AGENT,
    ENDED_AWAY,
    ENDED_MOVE_LIMIT,
    ENDED_OPERATOR,
    ENDED_TIMEOUTS,
    EXPIRED,
    FINISHED,
    OVER,
    PERSON,
    PLAYING,
    WAITING,
    Room,
    RoomError,
    RoomSettings,
    Seat,
    check_practice_seed,
    hash_token,
    new_room_id,
    new_salt,
    new_seed,
    new_token,
    sealed_error,
    status_words,
)
from pyramids.web.storage import RoomHolders, Storage, StoredAction

log = logging.getLogger("pyramids.web")

T = TypeVar("T")
Item = TypeVar("Item")

ROOM_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
OUTBOX_LIMIT = 256
WRITE_BATCH = 500
FINISHED_LISTED = 100
# What a refused ranked room without a fitting clock is shown as one that would do.
RANKED_CLOCK_EXAMPLE = '{"kind": "move", "seconds": 120, "on_timeout": "bot"}'
# Rooms that are over kept loaded after their last watcher left (`Hub._keep_over`).
KEPT_OVER_ROOMS = 16
LISTED = 100
# Loading a room replays its game (a one-player Mahjongg room of 10,000 moves, undone
# and played again: about 2 s of CPU), one room at a time on the whole server. One
# address's loads wait for each other, this many at most, so that an address opening
# many rooms that are not in memory holds one place in that line, not all of it.
LOADS_WAITING_PER_ADDRESS = 32
LOAD_RETRY_SECONDS = 2.0


# Told to the sockets of a seat its account now plays on another device (Play here).
SEAT_MOVED = Words(N_("you now play this seat on another device, so this page only watches; "
                      "choose Play here to play on this device again"))


def _no_room(room_id: Any) -> Words:
    return Words(N_("no room '{room}'"), room=str(room_id)[:64])


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
        # The client's network address (for `bot_rooms_watched_per_client`).
        self.address = ""
        self.outbox: asyncio.Queue[str | Close] = asyncio.Queue()
        self._send_text = send_text
        self._close = close
        self.closing = False
        # The language its log entries are worded in, how many it has had, and its
        # chat limit (pyramids.web.movelog, pyramids.web.chat).
        self.lang = "en"
        self.log_sent = 0
        # The next log message, made in the engine pool: (from entry, to entry, text).
        self.log_ready: tuple[int, int, str] | None = None
        self.chat_bucket: TokenBucket | None = None
        # The account logged in where this socket was opened (its session cookie), or
        # None: the operator's chat mute holds for it even while it only watches.
        self.account_id: int | None = None

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

    def error(self, code: str, message: str | Words | Exception) -> None:
        """Refuse something to this client: `message` (words, or an error carrying them)
        in the language it joined with."""
        text = words_text(message, self.lang)
        self.offer(json.dumps({"type": "error", "code": code, "message": text}))

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
    # Since when nobody is connected (monotonic), for adjourning.
    unwatched_since: float = field(default_factory=time.monotonic)
    # A game with a clock: the time limit, and the monotonic time its clock read 0.
    clock_limit: int | None = None
    clock_origin: float | None = None
    clock_elapsed: int = 0
    # The move log and the chat, made when first needed (web/movelog.py, web/chat.py).
    move_log: MoveLog | None = None
    chat: ChatRoom | None = None
    # The turn clock of a room with a time control (`pyramids.web.clocks`).
    turn_clock: TurnClock | None = None
    # Cluster mode: the seats connected to each other process, and when (monotonic)
    # it last said so (`pyramids.web.cluster`, presence).
    remote_seats: dict[str, tuple[frozenset[int], float]] = field(default_factory=dict)

    def needs_people(self) -> bool:
        """A room only bots play waits while nobody watches it."""
        return not self.connections and self.bots_only()

    def bots_only(self) -> bool:
        return not any(seat.kind == PERSON for seat in self.room.seats)

    def runs_for_watchers(self) -> bool:
        """Whether a watcher keeps this room's bots thinking: bots only, in play."""
        return self.room.status == PLAYING and self.bots_only()

    def connected(self) -> dict[int, bool]:
        seats = self.local_seats()
        if self.remote_seats:
            fresh = time.monotonic() - PRESENCE_TTL_SECONDS
            for elsewhere, heard in self.remote_seats.values():
                if heard >= fresh:
                    seats |= elsewhere
        return {seat.index: seat.index in seats for seat in self.room.seats}

    def local_seats(self) -> set[int]:
        """The seats with a socket on this process."""
        return {conn.seat for conn in self.connections if conn.seat is not None}

    def mark_away(self, now: float) -> None:
        """Start the away clock of every person seat with no connection."""
        connected = self.connected()
        for seat in self.room.seats:
            if seat.kind == PERSON and not connected[seat.index]:
                self.away_since.setdefault(seat.index, now)
            else:
                self.away_since.pop(seat.index, None)


class BatchWriter(Generic[Item]):
    """Commits items in batches with `commit(items)` on the database thread: each
    caller waits until its item is durable; many rooms share a commit."""

    def __init__(self, commit: Callable[[list[Item]], None],
                 run_db: Callable[..., Any]) -> None:
        self.commit = commit
        self.run_db = run_db
        self.queue: asyncio.Queue[tuple[Item, asyncio.Future[None]]] = asyncio.Queue()

    async def write(self, item: Item) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((item, done))
        await done

    async def run(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty() and len(batch) < WRITE_BATCH:
                batch.append(self.queue.get_nowait())
            try:
                await self.run_db(self.commit, [item for item, _ in batch])
            except Exception as error:  # one bad item must not fail the others
                if len(batch) == 1:
                    self._settle(batch[0][1], error)
                    continue
                for item, done in batch:
                    try:
                        await self.run_db(self.commit, [item])
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


def _bot_worker_setup() -> None:
    """(In a bot process.) Ctrl-C in the terminal reaches the whole process group: the
    server shuts its workers down itself, without a traceback from each. A server that
    is killed outright cannot, so the worker ends itself when its parent is gone
    instead of waiting for work for ever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True,
                         name="pyramids-parent-watch").start()


def _exit_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


class ActionWriter(BatchWriter[StoredAction]):
    """Commits accepted actions in batches: each caller waits until its action is durable."""

    def __init__(self, storage: Storage, run_db: Callable[..., Any]) -> None:
        super().__init__(storage.append_actions, run_db)
        self.storage = storage


class Hub:
    def __init__(
        self,
        storage: Storage,
        bot_threads: int = 4,
        limits: ServerLimits | None = None,
        draw_seed: Callable[[], int | str] = new_seed,
        engine_threads: int = 4,
        clock: Clock | None = None,
        cluster: bool = False,
        bot_processes: int = 0,
    ) -> None:
        """`draw_seed` is where the server's secret seeds come from (tests may fix it;
        clients never choose it, except the seed of a one-player practice room).
        `clock`: the wall clock of the turn clocks (a `FakeClock` in tests).
        `cluster`: other processes serve the same PostgreSQL database (see above).
        `bot_processes`: worker processes for the moves of bots that search (0: they
        think in the bot threads, beside the event loop; see `pyramids.web.bots`)."""
        self.clock: Clock = clock or SystemClock()
        self._loop: asyncio.AbstractEventLoop | None = None
        listeners = getattr(self.clock, "listeners", None)
        if isinstance(listeners, list):
            listeners.append(self._wake_rooms_soon)
        # Called (with the room's lock held) when a game finishes: ratings.
        self.finish_hooks: list[Callable[[Room], Awaitable[None]]] = []
        # Run when a ranked game ends in a forfeit (players away when the host ended it, or a
        # seat out of time turn after turn): the room, the seats that forfeit.
        self.forfeit_hooks: list[Callable[[Room, list[int]], Awaitable[None]]] = []
        self.storage = storage
        self.limits = limits or ServerLimits()
        self.draw_seed = draw_seed
        self.rooms: dict[str, LiveRoom] = {}
        # Cluster mode: by (process, address key), the rooms only bots play that the
        # address watches there, and when that was heard (`bot_rooms_watched_per_client`
        # counts them with this process's own; an entry lapses as presence does).
        self.remote_watching: dict[tuple[str, str], tuple[frozenset[str], float]] = {}
        # The latest finished rooms read or put away, oldest first (`_keep_over`).
        self.over_rooms: OrderedDict[str, LiveRoom] = OrderedDict()
        self.broken: dict[str, Words] = {}
        self._db_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pyramids-db")
        self.bot_pool = ThreadPoolExecutor(
            max_workers=bot_threads, thread_name_prefix="pyramids-bot"
        )
        self.engine_pool = ThreadPoolExecutor(
            max_workers=engine_threads, thread_name_prefix="pyramids-engine"
        )
        self.bot_processes = bot_processes
        self._bot_process_pool: ProcessPoolExecutor | None = None
        self._load_lock = asyncio.Lock()
        self._loads = Turns(LOADS_WAITING_PER_ADDRESS, lambda: RoomError(
            "rate_limited", Words(N_("your address is opening too many rooms at once; "
                                     "try again in a moment")), 429,
            retry_after=LOAD_RETRY_SECONDS))
        self.writer = ActionWriter(storage, self.run_db)
        self._writer_task: asyncio.Task[None] | None = None
        # Other batched writes (chat messages), by name, each with its task.
        self._batch_writers: dict[str, tuple[BatchWriter[Any], asyncio.Task[None]]] = {}
        self._sweeper_task: asyncio.Task[None] | None = None
        self._known_agents = agent_names()
        # Waiting rooms by the address that made them (for `rooms_per_client`).
        self._waiting_by_client: dict[str, set[str]] = {}
        self._client_of_room: dict[str, str] = {}
        # Open sockets by address (for `sockets_per_client`).
        self.sockets_by_client: dict[str, int] = {}
        self.cluster: Cluster | None = Cluster(storage, self._on_notice) if cluster else None
        # Read an account's ban before applying a move its seat sends (`submit`): in a
        # cluster the operator's ban is stored by one process and told to the others by
        # a notice, which a move may beat (or which a reconnecting listener loses), so
        # a banned player's socket here could still play. One process closes the
        # sockets of a ban itself, so it has no such race and reads nothing.
        self.check_bans_on_move = cluster
        self._syncs: set[asyncio.Task[None]] = set()
        self._presence_task: asyncio.Task[None] | None = None

    # -- lifecycle --------------------------------------------------------------

    async def run_db(self, function: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._db_pool, function, *args)

    async def write_batched(self, name: str, commit: Callable[[list[Item]], None],
                            item: Item) -> None:
        """Commit `item` with `commit`, in one batch with the other items written under
        `name` meanwhile (of any room); returns once it is durable."""
        found = self._batch_writers.get(name)
        if found is None:
            writer: BatchWriter[Any] = BatchWriter(commit, self.run_db)
            task = asyncio.create_task(writer.run(), name=f"pyramids-writer-{name}")
            self._batch_writers[name] = found = (writer, task)
        await found[0].write(item)

    def bot_process_pool(self) -> ProcessPoolExecutor | None:
        """The worker processes of searching bots (started on first use), or None when
        the hub has none. Spawned, not forked: this process runs threads."""
        if self.bot_processes <= 0:
            return None
        if self._bot_process_pool is None:
            self._bot_process_pool = ProcessPoolExecutor(
                max_workers=self.bot_processes, mp_context=multiprocessing.get_context("spawn"),
                initializer=_bot_worker_setup,
            )
        return self._bot_process_pool

    def replace_bot_process_pool(self, broken: ProcessPoolExecutor) -> None:
        """After a worker died (killed, out of memory): the next move starts a new pool."""
        if self._bot_process_pool is broken:
            self._bot_process_pool = None
            broken.shutdown(wait=False, cancel_futures=True)

    async def run_engine(self, function: Callable[..., T], *args: Any) -> T:
        """Engine work (deals, moves, views) off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(
            self.engine_pool, function, *args
        )

    @staticmethod
    def engine_inline(room: Room) -> bool:
        """Whether a room's moves and views are made on the event loop: only for a game
        whose manifest declares its engine quick (`GameManifest.quick_engine`)."""
        manifest = find_manifest(room.game_name)
        return manifest is not None and manifest.quick_engine

    async def run_room_engine(self, room: Room, function: Callable[..., T], *args: Any) -> T:
        """A room's engine work: at once for a quick game, where two thread hand-offs
        cost more than the move and the views (about 0.7 ms of server CPU a person
        action against a bot, in `benchmarks/server_load.py`); else in the pool."""
        if self.engine_inline(room):
            return function(*args)
        return await self.run_engine(function, *args)

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        await self.run_db(self.storage.migrate)
        if self.cluster is not None:
            await self.cluster.start()
            self._presence_task = asyncio.create_task(self._tell_presence(),
                                                      name="pyramids-presence")
        self._writer_task = asyncio.create_task(self.writer.run(), name="pyramids-writer")
        # Rooms are loaded when someone asks for them, not here: a server with many
        # stored rooms answers at once. Waiting rooms idle too long are archived first.
        expired = await self._expire_waiting()
        self._sweeper_task = asyncio.create_task(self._sweep(), name="pyramids-sweeper")
        log.info("server ready (%d idle waiting rooms archived)", len(expired))

    async def stop(self) -> None:
        tasks = [live.driver for live in self.rooms.values() if live.driver is not None]
        tasks.extend(self._syncs)
        tasks.extend(task for _writer, task in self._batch_writers.values())
        for extra in (self._writer_task, self._sweeper_task, self._presence_task):
            if extra is not None:
                tasks.append(extra)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.cluster is not None:
            await self.cluster.stop()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        self.engine_pool.shutdown(wait=False, cancel_futures=True)
        if self._bot_process_pool is not None:
            self._bot_process_pool.shutdown(wait=False, cancel_futures=True)
            self._bot_process_pool = None
        self._db_pool.shutdown(wait=True)
        self.storage.dispose()

    # -- expiry and adjourning ---------------------------------------------------

    def _sweep_interval(self) -> float:
        shortest = min(self.limits.waiting_room_idle_seconds, self.limits.adjourn_after_seconds)
        return max(0.05, min(30.0, shortest / 4))

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self._sweep_interval())
            try:
                await self._expire_waiting()
                self._adjourn_idle(time.monotonic())
            except Exception:
                log.exception("sweeping rooms failed; trying again later")

    async def _expire_waiting(self) -> list[str]:
        """Archive waiting rooms nobody touched or watched for the idle limit."""
        cutoff = datetime.now(UTC) - timedelta(seconds=self.limits.waiting_room_idle_seconds)
        watched = [
            room_id for room_id, live in self.rooms.items()
            if live.room.status == WAITING and live.connections
        ]
        expired = await self.run_db(self.storage.expire_waiting, cutoff, watched)
        for room_id in expired:
            self._no_longer_waiting(room_id)
            live = self.rooms.pop(room_id, None)
            if live is None:
                continue
            live.room.status = EXPIRED
            if live.driver is not None:
                live.driver.cancel()
            for conn in list(live.connections):
                conn.error("room_expired", self._expired_words())
                conn.close(1000, "room_expired")
        if expired:
            log.info("%d idle waiting rooms expired", len(expired))
        for room_id in expired:
            await self.announce(room_id, "room")
        return list(expired)

    def _adjourn_idle(self, now: float) -> None:
        """Put away playing rooms nobody has been connected to for the adjourn time."""
        limit = self.limits.adjourn_after_seconds
        for room_id, live in list(self.rooms.items()):
            if live.room.status != PLAYING or live.connections or live.lock.locked():
                continue
            if now - live.unwatched_since < limit:
                continue
            if live.driver is not None:
                live.driver.cancel()
            del self.rooms[room_id]
            log.info("room %s adjourned: nobody connected for %g s", room_id, limit)

    def _no_longer_waiting(self, room_id: str) -> None:
        client = self._client_of_room.pop(room_id, None)
        if client is not None:
            held = self._waiting_by_client.get(client)
            if held is not None:
                held.discard(room_id)
                if not held:
                    del self._waiting_by_client[client]

    async def _soonest_expiry(self, client: str) -> float:
        """Seconds until the first of `client`'s waiting rooms can expire, if nobody
        touches it (at least 1: the sweep may take a moment longer)."""
        oldest = await self.run_db(self.storage.oldest_change,
                                   sorted(self._waiting_by_client.get(client, ())))
        if oldest is None:
            return 1.0
        idle = (datetime.now(UTC) - oldest).total_seconds()
        return max(1.0, self.limits.waiting_room_idle_seconds - idle)

    def waiting_rooms_of(self, client: str) -> int:
        return len(self._waiting_by_client.get(client, ()))

    # -- finding rooms ---------------------------------------------------------

    def _expired_words(self) -> Words:
        return Words(N_("this room expired: nobody started it in {seconds} seconds"),
                     seconds=f"{self.limits.waiting_room_idle_seconds:g}")

    async def get(self, room_id: str, client: str | None = None) -> LiveRoom:
        """The live room, rebuilt from the database on first use. `client`: the address
        asking, whose loads wait for each other (`LOADS_WAITING_PER_ADDRESS`)."""
        live = self.rooms.get(room_id) or self.over_rooms.get(room_id)
        if live is not None:
            return live
        if not isinstance(room_id, str) or not ROOM_ID.match(room_id):
            raise RoomError("unknown_room", _no_room(room_id), 404)
        if room_id in self.broken:
            raise RoomError("broken_room", self.broken[room_id], 500)
        if client is None:
            return await self._load(room_id)
        async with self._loads.turn(client):
            return await self._load(room_id)

    async def _load(self, room_id: str) -> LiveRoom:
        async with self._load_lock:
            live = self.rooms.get(room_id) or self.over_rooms.get(room_id)
            if live is not None:
                return live
            try:
                data = await self.run_db(self.storage.load_room_data, room_id)
                room = None if data is None else await self.run_engine(
                    lambda: Room.restore(**data)
                )
            except (RoomError, PyramidsError, ValueError, KeyError, TypeError, IndexError) as error:
                # A room that no longer replays (a tampered row, an engine whose rules
                # changed) is refused on its own; the server and other rooms go on.
                message = Words(N_("room {room} could not be restored: {problem}"),
                                room=room_id, problem=error)
                log.error("%s", message)
                self.broken[room_id] = message
                raise RoomError("broken_room", message, 500) from None
            if room is None:
                raise RoomError("unknown_room", _no_room(room_id), 404)
            live = LiveRoom(room)
            if room.status in OVER:
                self._keep_over(live)
                return live
            live.mark_away(time.monotonic())
            if room.status == PLAYING:
                await self.run_engine(self._read_clock, live)
                self._start_clock(live, await self._seconds_untold(live))
                await self._restore_turn_clock(live)
            self.rooms[room_id] = live
            self._ensure_driver(live)
            if self.cluster is not None:  # a change announced while it was being loaded
                self._on_notice(Notice(room_id, "room", ""))
            return live

    async def summary(self, room_id: str) -> dict[str, Any]:
        """What anyone may know about a room; from the database when not in memory
        (no replay)."""
        live = self.rooms.get(room_id)
        if live is not None:
            return live.room.summary()
        found: dict[str, Any] = await self._stored(self.storage.summary, room_id)
        return found

    async def holders(self, room_id: str) -> RoomHolders:
        """Who holds the room (token hashes) and its rematch, from the database: every
        process sees the same, and a finished room is not replayed for it."""
        holders: RoomHolders = await self._stored(self.storage.holders, room_id)
        return holders

    async def _stored(self, read: Callable[[str], Any], room_id: str) -> Any:
        """`read(room_id)` from the database, off the event loop; RoomError 404 for an id
        no room could have or no room has."""
        if not isinstance(room_id, str) or not ROOM_ID.match(room_id):
            raise RoomError("unknown_room", _no_room(room_id), 404)
        found = await self.run_db(read, room_id)
        if found is None:
            raise RoomError("unknown_room", _no_room(room_id), 404)
        return found

    async def record(self, room_id: str) -> dict[str, Any]:
        """The game record (with the revealed seed and salt) of a finished or aborted
        room, read from the database without replaying."""
        live = self.rooms.get(room_id)
        if live is not None and live.room.status not in OVER:
            live.room.record()  # raises not_finished
        found: dict[str, Any] = await self._stored(self.storage.record, room_id)
        if "sealed_until" in found:
            raise sealed_error(found["sealed_until"])
        if "status" in found:
            raise RoomError(
                "not_finished",
                Words(N_("room {room} is {status}; its record is available when the game is "
                         "over"), room=room_id, status=status_words(str(found["status"]))),
                409,
            )
        return found

    async def open_rooms(self) -> list[dict[str, Any]]:
        """Listed waiting rooms with a free seat, newest first (from the database)."""
        return await self.run_db(self.storage.summaries, (WAITING,), LISTED, True, True)

    async def rooms_with_status(self, status: str) -> list[dict[str, Any]]:
        return await self.run_db(self.storage.summaries, (status,), LISTED, True)

    # -- room set-up -------------------------------------------------------------

    async def create_room(
        self,
        game: str,
        options: dict[str, Any],
        seed: int | str | None,
        settings: RoomSettings,
        client: str = "",
        unlisted: bool = False,
        server_seed: int | None = None,
        sealed_until: datetime | None = None,
        starts_at_once: bool = False,
    ) -> tuple[LiveRoom, str]:
        """A new room with a secret seed the server draws. A seed the client chose is
        allowed only for a one-player room, which is then an unranked practice room.
        `starts_at_once`: the caller seats and starts it now (solitaire), so it never
        waits and the limits of waiting rooms do not apply.
        `server_seed`: a seed the server derived itself (the daily deal), not practice;
        `sealed_until`: its seed and record stay secret until then (`Room.sealed_until`)."""
        if settings.takeover_agent not in self._known_agents:
            raise RoomError(
                "unknown_agent",
                Words(N_("unknown takeover agent '{name}'; allowed agents: {allowed}"),
                      name=settings.takeover_agent, allowed=", ".join(self._known_agents)),
            )
        try:
            control = TimeControl.from_dict(settings.time_control)
        except ClockError as error:
            raise RoomError("bad_time_control", error.words) from None
        settings.time_control = control.to_dict() if control.timed else None
        if settings.ranked and seed is not None:
            raise RoomError(
                "seed_not_allowed",
                Words(N_("a ranked room is always dealt by the server: a chosen seed (a "
                         "practice deal) can never be ranked. Leave 'seed' out, or make the "
                         "room unranked")),
            )
        practice = seed is not None
        chosen = check_practice_seed(seed) if practice else (
            self.draw_seed() if server_seed is None else server_seed)
        host_token = new_token()
        room = await self.run_engine(
            Room.create, new_room_id(), game, options, chosen, hash_token(host_token),
            settings, new_salt(), practice, unlisted, sealed_until,
        )
        manifest = find_manifest(game)
        unfair = settings.ranked and manifest is not None \
            and manifest.ranked_problem is not None and manifest.ranked_problem(room.options)
        if unfair:
            raise RoomError("ranked_unfair_options", unfair)
        if practice and len(room.seats) > 1:
            raise RoomError(
                "seed_not_allowed",
                Words(N_("a chosen seed is allowed only in one-player practice rooms; {game} "
                         "with these options has {seats} seats, and the deal must stay secret "
                         "from every player. Leave 'seed' out: the server draws one and shows "
                         "its commitment"), game=game, seats=len(room.seats)),
            )
        if settings.ranked and len(room.seats) < 2:
            raise RoomError(
                "ranked_needs_players",
                Words(N_("a ranked room needs at least two players; {game} with these options "
                         "has one seat. Make the room unranked"), game=game),
            )
        if settings.ranked and not (control.timed and control.on_timeout == TIMEOUT_BOT):
            # Without it a losing player who stays connected could stall for ever: the
            # game would never end nor count, and nobody is away for the host to end it.
            raise RoomError(
                "ranked_needs_clock",
                Words(N_("a ranked game counts for ratings, so a player who stops moving must "
                         "not hold it up for ever: give it a turn clock whose time-out lets "
                         "the bot move, e.g. \"time_control\": {example}, or make the room "
                         "unranked"), example=RANKED_CLOCK_EXAMPLE),
            )
        too_long = ranked_clock_problem(control) if settings.ranked else None
        if too_long is not None:
            raise RoomError("ranked_clock_too_long", too_long)
        # A one-seat room is started by its player at once: it is counted apart, so that
        # rooms waiting for friends never stop a solo game.
        holder = client if len(room.seats) > 1 else f"{client} solo"
        if not starts_at_once:
            # Checked once the request is known to be good: a bad one hears its own fault.
            limits = self.limits
            if self.waiting_rooms_of(holder) >= limits.rooms_per_client:
                soonest = await self._soonest_expiry(holder)
                raise RoomError(
                    "too_many_rooms",
                    Words(N_("you already have {rooms} rooms waiting to start, the most one "
                             "address may hold; start or abort one, or wait until one expires "
                             "({seconds} s after its last change)"),
                          rooms=limits.rooms_per_client,
                          seconds=f"{limits.waiting_room_idle_seconds:g}"),
                    429, retry_after=soonest,
                )
            if await self.run_db(self.storage.count_status, WAITING) >= limits.waiting_rooms:
                raise RoomError(
                    "server_full",
                    Words(N_("the server holds {rooms} rooms waiting to start, its limit; join an "
                             "open room or try again later"), rooms=limits.waiting_rooms),
                    429,
                )
        await self.run_db(self.storage.create_room, room)
        live = LiveRoom(room)
        self.rooms[room.id] = live
        if not starts_at_once:
            self._client_of_room[room.id] = holder
            self._waiting_by_client.setdefault(holder, set()).add(room.id)
        self._ensure_driver(live)
        log.info("room %s created: %s %s%s", room.id, game, room.options,
                 " (practice)" if practice else "")
        return live, host_token

    async def take_seat(
        self, live: LiveRoom, name: Any, seat: int | None,
        account: tuple[int, str] | None = None,
    ) -> tuple[Seat, str]:
        """Seat a person; `account` (id, name) when they are logged in."""
        async with live.lock:
            before = _copy_seat(live.room, seat)
            chosen, token = live.room.take_seat(name, seat, account)
            try:
                saved = await self.run_db(self.storage.save_seat, live.room.id, chosen,
                                          self.cluster is not None)
            except Exception:
                live.room.seats[chosen.index] = before or Seat(chosen.index)
                raise
            if not saved:  # another process seated someone there a moment ago
                live.room.seats[chosen.index] = before or Seat(chosen.index)
                await self._reload_room(live)
                await self._broadcast(live)
                raise RoomError("seat_taken", Words(N_("someone took that seat a moment ago; "
                                                       "choose another")), 409)
            await self.announce(live.room.id, "room")
            live.mark_away(time.monotonic())
            await self._broadcast(live)
            return chosen, token

    async def claim_seat(self, live: LiveRoom, seat: Any,
                         account: tuple[int, str]) -> tuple[Seat, str]:
        """The logged-in `account` (id, name) plays the seat it holds on this device: a
        new seat token for it; the old token holds nothing any more, and the sockets
        that joined with it are told so in words and watch from then on."""
        async with live.lock:
            room = live.room
            chosen, token, old_hash = room.claim_seat(seat, account[0])
            try:
                moved = await self.run_db(self.storage.move_seat_token, room.id, chosen.index,
                                          account[0], old_hash, chosen.token_hash)
            except Exception:
                chosen.token_hash = old_hash
                raise
            if not moved:  # another process changed the seat a moment ago
                chosen.token_hash = old_hash
                await self._reload_room(live)
                await self._broadcast(live)
                raise RoomError("seat_changed", Words(N_(
                    "seat {seat} changed a moment ago; look at the room again and retry"),
                    seat=chosen.index + 1), 409)
            await self.announce(room.id, "room")
            for conn in list(live.connections):
                if conn.seat == chosen.index:
                    conn.error("seat_moved", SEAT_MOVED)
                    conn.seat = None
            log.info("room %s: seat %d moved to another device of its account",
                     room.id, chosen.index + 1)
            live.mark_away(time.monotonic())
            await self._broadcast(live)
            return chosen, token

    async def give_to_agent(self, live: LiveRoom, token: str | None, seat: int, agent: str) -> Seat:
        async with live.lock:
            live.room.check_host(token)
            before = _copy_seat(live.room, seat)
            chosen = live.room.give_to_agent(seat, agent, self._known_agents)
            try:
                await self.run_db(self.storage.save_seat, live.room.id, chosen)
            except Exception:
                live.room.seats[chosen.index] = before or Seat(chosen.index)
                raise
            await self.announce(live.room.id, "room")
            await self._broadcast(live)
            return chosen

    async def free_seat(self, live: LiveRoom, token: str | None, seat: Any, kick: bool) -> Seat:
        """A seated person leaves (`kick` False, their seat token) or the host opens a
        seat (`kick` True): only before the start. The kicked seat's sockets are told."""
        async with live.lock:
            room = live.room
            index = seat if kick else room.seat_of(token)
            before = _copy_seat(room, index)
            freed = room.kick(token, seat) if kick else room.leave(token)
            try:
                await self.run_db(self.storage.save_seat, room.id, freed)
            except Exception:
                room.seats[freed.index] = before or Seat(freed.index)
                raise
            await self.announce(room.id, "room")
            for conn in list(live.connections):
                if conn.seat == freed.index:
                    conn.error("seat_freed", Words(
                        N_("you no longer hold this seat: the host opened it; you watch as a "
                           "spectator") if kick else
                        N_("you no longer hold this seat: you left it; you watch as a "
                           "spectator")))
                    conn.seat = None
            live.mark_away(time.monotonic())
            await self._broadcast(live)
            return freed

    async def abort(self, live: LiveRoom, token: str | None) -> None:
        """The host ends the room, waiting or playing: over, with no result; the seed
        and salt are revealed like at the end of a game."""
        async with live.lock:
            room = live.room
            before = room.status
            forfeits: list[int] = []
            if room.status == PLAYING and room.settings.ranked:
                room.check_host(token)
                forfeits = self._check_ranked_end(live)
            room.abort(token)
            if forfeits:
                # Said with the end, to every player, the replay and the history alike.
                room.ended = {"reason": ENDED_AWAY, "seats": forfeits}
            await self._store_abort(
                live, before, " by its host" + (
                    f", seats {', '.join(str(seat + 1) for seat in forfeits)} away"
                    if forfeits else ""), forfeits=forfeits)

    async def close_by_operator(self, live: LiveRoom) -> None:
        """The server's operator ends the room (an abusive table, a stuck game): over,
        with no result, whoever plays; nobody is rated and the seed is revealed as at
        the end of any game."""
        async with live.lock:
            room = live.room
            if room.status in OVER:
                raise RoomError("game_over", Words(N_("room {room} is already over ({status})"),
                                                   room=room.id,
                                                   status=status_words(room.status)), 409)
            before = room.status
            room.status = ABORTED
            # Said to every player, the replay and the history: not the host's doing.
            room.ended = {"reason": ENDED_OPERATOR}
            await self._store_abort(live, before, " by the server's operator")

    async def _end_at_move_limit(self, live: LiveRoom) -> None:
        """With the room's lock held: a game that reached `max_moves_per_room` is over,
        aborted (no result; the seed is revealed, a daily deal's when the day is over).
        Every move is memory, a stored row and replay time: no room grows without end."""
        live.room.status = ABORTED
        live.room.ended = {"reason": ENDED_MOVE_LIMIT, "moves": self.limits.max_moves_per_room}
        await self._store_abort(live, PLAYING,
                                f": it reached {self.limits.max_moves_per_room} moves")

    async def _forfeit_on_time(self, live: LiveRoom, seat: int, timeouts: int,
                               now: float) -> None:
        """With the room's lock held: a ranked room's `seat` let its clock run out on
        `timeouts` turns in a row (`RANKED_STALL_TIMEOUTS`), so it forfeits: the game is
        over (aborted, with `Room.ended` saying why) and rated as its loss to every
        other seat (`forfeit_hooks`), before anyone is told."""
        room = live.room
        clock = live.turn_clock
        if clock is not None:
            clock.end_turn(now)
            clock.start_turn(None, now)
            self._save_turn_clock(live)
        room.status = ABORTED
        room.ended = {"reason": ENDED_TIMEOUTS, "seat": seat, "timeouts": timeouts}
        await self._store_abort(live, PLAYING, f": seat {seat + 1} forfeits, out of time on "
                                f"{timeouts} turns in a row", forfeits=[seat])

    async def _store_abort(self, live: LiveRoom, before: str, why: str,
                           forfeits: list[int] | None = None) -> None:
        """With the room's lock held and the room just aborted (`why` ends the log line):
        store that (the status goes back to `before` when the store fails), free its
        waiting place, and tell the other processes and every client. `forfeits`: the
        seats that lose the game (`forfeit_hooks`, run before anyone is told, so the
        new ratings are there when the end is shown); `Room.ended` is stored with it."""
        room = live.room
        try:
            await self.run_db(self.storage.save_status, room.id, room.status,
                              None if room.ended is None else {"ended": room.ended})
        except Exception:
            room.status = before
            room.ended = None
            raise
        for hook in self.forfeit_hooks if forfeits else ():
            try:
                await hook(room, list(forfeits or ()))
            except Exception:
                log.exception("room %s: a forfeit hook failed", room.id)
        await self.announce(room.id, "room")
        self._no_longer_waiting(room.id)  # a game in play holds none: nothing to free
        log.info("room %s aborted%s", room.id, why)
        live.changed.set()
        await self._broadcast(live)
        self._forget_if_done(live)

    def _check_ranked_end(self, live: LiveRoom) -> list[int]:
        """A ranked game in play counts for ratings: its host may end it only once a
        player has been away for `ranked_end_away_seconds` (a player who left for good
        would hold it up for ever), not to escape a game going badly. Returns the seats
        away that long: they forfeit the game (`forfeit_hooks`), or a host who plays
        could walk away from a loss and end it."""
        now = time.monotonic()
        live.mark_away(now)
        wait = self.limits.ranked_end_away_seconds
        gone = sorted(seat for seat, since in live.away_since.items() if now - since >= wait)
        if gone:
            return gone
        raise RoomError(
            "ranked_in_play",
            Words(N_("a ranked game counts for ratings, so it can be ended only once a "
                     "player has been away for {minutes} minutes; until then, play it out"),
                  minutes=f"{self.limits.ranked_end_away_seconds / 60:g}"),
            409)

    async def start_room(self, live: LiveRoom, token: str | None) -> None:
        async with live.lock:
            room = live.room
            room.check_host(token)
            if live.bots_only():  # its watchers, who joined while a person had a seat
                for address in {conn.address for conn in live.connections}:
                    self._check_bot_rooms_watched(address, live)
            room.start()
            try:
                await self.run_db(self.storage.save_status, room.id, room.status, room.result())
            except Exception:
                room.status = WAITING
                raise
            self._no_longer_waiting(room.id)
            live.away_since.clear()
            live.mark_away(time.monotonic())
            await self.run_engine(self._read_clock, live)
            self._start_clock(live)
            await self._start_turn_clock(live)
            # After the turn clock's save, which is queued on the database thread.
            await self.announce(room.id, "room", behind_writes=True)
            log.info("room %s started", room.id)
            await self._broadcast(live)

    # -- the server's clock ---------------------------------------------------------

    @staticmethod
    def _read_clock(live: LiveRoom) -> None:
        """Whether the game has a clock (`clock S` actions) and where it stands.

        Runs in the engine pool (it lists the legal actions)."""
        clocks = [
            int(text[len(CLOCK_PREFIX):])
            for text in live.room.state.legal_action_strings()
            if text.startswith(CLOCK_PREFIX) and text[len(CLOCK_PREFIX):].isdigit()
        ]
        if clocks:
            live.clock_limit = max(clocks)
            live.clock_elapsed = min(clocks) - 1
        else:
            live.clock_limit = None

    @staticmethod
    def _start_clock(live: LiveRoom, untold: float = 0.0) -> None:
        """Run the game's clock from the time it last told (`untold`: the seconds gone
        since then, for a game loaded again)."""
        if live.clock_limit is not None and live.room.status == PLAYING:
            live.clock_origin = time.monotonic() - live.clock_elapsed - untold

    async def _seconds_untold(self, live: LiveRoom) -> float:
        """The seconds since a loaded game with a clock last told its time. They count:
        a player who closed the page until the game was put away from memory (or who
        reconnected through another process) would otherwise stop their clock."""
        if live.clock_limit is None:
            return 0.0
        told = await self.run_db(self.storage.last_told_at, live.room.id)
        if told is None:
            return 0.0
        return max(0.0, (datetime.now(UTC) - told).total_seconds())

    def clock_due(self, live: LiveRoom) -> float | None:
        """Seconds until the clock runs out, or None when the game has no clock."""
        if live.clock_limit is None or live.clock_origin is None:
            return None
        return live.clock_origin + live.clock_limit - time.monotonic()

    async def _advance_clock(self, live: LiveRoom) -> None:
        """With the room's lock held: the server's `clock S` for the seconds gone by."""
        if live.clock_limit is None or live.clock_origin is None:
            return
        room = live.room
        if room.status != PLAYING:
            return
        elapsed = min(live.clock_limit, int(time.monotonic() - live.clock_origin))
        if elapsed <= live.clock_elapsed:
            return
        seat = room.state.current_player
        text = f"{CLOCK_PREFIX}{elapsed}"
        action = await self.run_room_engine(room, room.check_action, seat, text)
        try:
            await self._store_action(StoredAction(room.id, len(room.actions) + 1, seat, text,
                                                  True))
        except Behind as behind:  # another process told the time first
            if await self._catch_up(live, behind.missing):
                await self._broadcast(live)
            return
        live.clock_elapsed = elapsed
        await self._apply_and_broadcast(live, seat, action, True)

    async def tick_clock(self, live: LiveRoom) -> None:
        """Apply the elapsed time now (the driver calls it when the time is up)."""
        async with live.lock:
            await self._advance_clock(live)


    # -- turn clocks ----------------------------------------------------------------

    def _wake_rooms_soon(self) -> None:
        """The clock moved (a test's fake clock): every room's driver looks again."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return

        def wake() -> None:
            for live in self.rooms.values():
                live.changed.set()

        loop.call_soon_threadsafe(wake)

    def _save_turn_clock(self, live: LiveRoom) -> None:
        """Store the turn clock as it stands (at the start, at a time-out), after whatever
        is queued on the database thread; not awaited. A move stores the clock in its
        own commit instead (`_clock_with_move`)."""
        clock = live.turn_clock
        if clock is None:
            return
        clock.move_number = len(live.room.actions)
        text = jsontext.dumps(clock.to_dict())
        saving = asyncio.ensure_future(self.run_db(self.storage.save_clock, live.room.id, text))
        saving.add_done_callback(_log_failure)

    @staticmethod
    def _clock_with_move(live: LiveRoom, mover: int, now: float, own: bool) -> str | None:
        """The turn clock to store with a move: as it stands before the move, with the
        mover, the time and whether the seat made it itself (`own`: not a bot for it),
        so that a restart (which knows the next seat from the replay) finishes the step
        the same way. One commit, no write of its own."""
        clock = live.turn_clock
        if clock is None:
            return None
        return jsontext.dumps({"clock": clock.to_dict(), "mover": mover, "moved_at": now,
                               "own": own})

    async def _start_turn_clock(self, live: LiveRoom) -> None:
        room = live.room
        control = TimeControl.from_dict(room.settings.time_control)
        if not control.timed or room.status != PLAYING:
            return
        clock = TurnClock.new(control, len(room.seats))
        clock.start_turn(room.state.current_player, self.clock.now())
        live.turn_clock = clock
        self._save_turn_clock(live)

    async def _restore_turn_clock(self, live: LiveRoom) -> None:
        """The stored clock of a playing room; its deadline stands (a restart gives no
        time back). A clock saved before the last move restarts the current turn."""
        room = live.room
        control = TimeControl.from_dict(room.settings.time_control)
        if not control.timed:
            return
        text = await self.run_db(self.storage.load_clock, room.id)
        player = room.state.current_player
        if text is None:
            clock = TurnClock.new(control, len(room.seats))
            clock.start_turn(player, self.clock.now())
        else:
            data = json.loads(text)
            clock = TurnClock.from_dict(data.get("clock", data))
            if "mover" in data and clock.move_number + 1 == len(room.actions):
                # Stored with the last move: make that move's step of the clock again.
                following = player if room.status == PLAYING else None
                clock.after_move(int(data["mover"]), following, float(data["moved_at"]),
                                 own=bool(data.get("own", False)))
                clock.move_number = len(room.actions)
            elif clock.move_number != len(room.actions):
                clock.start_turn(player, self.clock.now())
        clock.move_number = len(room.actions)
        live.turn_clock = clock

    def turn_due(self, live: LiveRoom) -> float | None:
        """Seconds until the running turn times out (<= 0: it has), or None."""
        clock = live.turn_clock
        deadline = None if clock is None else clock.deadline()
        if deadline is None or live.room.status != PLAYING:
            return None
        return deadline - self.clock.now()

    async def time_out(self, live: LiveRoom) -> None:
        """The seat to move ran out of time: its bot takes the turn, or the game is
        adjourned, as the room's time control says."""
        async with live.lock:
            clock = live.turn_clock
            now = self.clock.now()
            if clock is None or live.room.status != PLAYING or not clock.overdue(now):
                return
            clock.time_out(now)
            log.info("room %s: seat %s ran out of time (%s)", live.room.id, clock.seat,
                     clock.control.on_timeout)
            seat = clock.seat
            if (live.room.settings.ranked and seat is not None
                    and live.room.seats[seat].kind == PERSON
                    and clock.stalled[seat] >= RANKED_STALL_TIMEOUTS):
                await self._forfeit_on_time(live, seat, clock.stalled[seat], now)
                return
            self._save_turn_clock(live)
            await self.announce(live.room.id, "clock", behind_writes=True)
            await self._broadcast(live)

    # -- moves --------------------------------------------------------------------

    async def submit(
        self,
        live: LiveRoom,
        seat: int | None,
        text: Any,
        by_bot: bool = False,
        move_number: Any = None,
        checked: int | None = None,
    ) -> None:
        """Check, commit, apply and broadcast one action; a refusal raises `RoomError`.

        `checked`: the action `text` means, already checked legal for `seat` on a copy
        of the room's state at `move_number` (a bot's move, checked in the bot's
        thread): while the room is still at that move it is not checked again.

        `move_number` is the move number of the state the move answers: a move for
        any other state is refused as `stale`, so a double submit applies once."""
        if isinstance(move_number, bool) or not isinstance(move_number, int):
            raise RoomError(
                "bad_message",
                Words(N_("'move_number' is required: the integer move number of the state you "
                         "answer") if move_number is None else N_("'move_number' is an integer")),
            )
        if self.check_bans_on_move and not by_bot and seat is not None:
            await self._refuse_banned(live, seat)
        async with live.lock:
            room = live.room
            if room.status == PLAYING and len(room.actions) >= self.limits.max_moves_per_room:
                await self._end_at_move_limit(live)
                raise RoomError(
                    "too_many_moves",
                    Words(N_("this game has reached {most} moves, the most a game on this "
                             "server may hold, so it has ended without a result; "
                             "start a new game to play on"),
                          most=self.limits.max_moves_per_room),
                    409,
                )
            while True:
                if live.clock_limit is not None and isinstance(text, str) and (
                    text.strip().lower().startswith(CLOCK_PREFIX.strip())
                ):
                    raise RoomError("server_clock", Words(N_(
                        "the server keeps the time in this game; send your moves only")))
                if move_number != len(room.actions) and room.status not in OVER:
                    raise RoomError(
                        "stale",
                        Words(N_("your move was for move number {sent}, but the game is at move "
                                 "number {now}"), sent=move_number, now=len(room.actions)),
                    )
                if live.clock_limit is not None and room.status == PLAYING:
                    # A refused move changes nothing, not even the clock: it is checked
                    # before the server tells the game the time (then checked again, as
                    # the time may have ended the game).
                    await self.run_room_engine(room, self._check, room, seat, text)
                await self._advance_clock(live)  # the time is the server's, taken now
                if (checked is not None and room.status == PLAYING and isinstance(text, str)
                        and len(room.actions) == move_number
                        and room.state.current_player == seat):
                    action, canonical = checked, text  # the same state: the same answer
                else:
                    action, canonical = await self.run_room_engine(room, self._check, room,
                                                                   seat, text)
                assert seat is not None  # check_action refuses spectators
                now = self.clock.now()
                try:
                    await self._store_action(StoredAction(
                        room.id, len(room.actions) + 1, seat, canonical, by_bot,
                        clock=self._clock_with_move(live, seat, now, _own_move(room, seat, by_bot)),
                    ))
                except Behind as behind:
                    # Another process moved first: apply its moves, check this one again
                    # (the client answered the older state: usually `stale` now).
                    if await self._catch_up(live, behind.missing):
                        await self._broadcast(live)
                    continue
                break
            await self._apply_and_broadcast(live, seat, action, by_bot, now)

    async def _refuse_banned(self, live: LiveRoom, seat: int) -> None:
        """A move from `seat`, held by an account the database says is banned, is
        refused (`banned`, nothing changes) and the account's seat sockets here are
        closed, as the ban notice would have done: one indexed read, in the database
        pool like every other, and only for a person's own move of an account's seat."""
        account = live.room.seats[seat].account_id if 0 <= seat < len(live.room.seats) \
            else None
        if account is None or not (await self.account_sanctions(account))[1]:
            return
        closed = self.end_banned(account)
        log.info("room %s: a move from seat %d refused: account %d is banned (its notice not "
                 "heard here yet; %d seat sockets closed)", live.room.id, seat + 1, account,
                 closed)
        raise RoomError("banned", BANNED, 403)

    async def _store_action(self, action: StoredAction) -> None:
        """Commit one action: in a batch with other rooms' (one process), or under the
        room's lock across processes (cluster mode; `Behind` when another was first)."""
        if self.cluster is None:
            await self.writer.write(action)
        else:
            await self.cluster.commit(action)

    @staticmethod
    def _check(room: Room, seat: int | None, text: Any) -> tuple[int, str]:
        action = room.check_action(seat, text)
        return action, room.state.action_to_string(action)

    async def _apply_and_broadcast(
        self, live: LiveRoom, seat: int, action: int, by_bot: bool, now: float | None = None
    ) -> None:
        """Apply a committed action and build everyone's new view, in one engine call.

        `now`: the time of the move, when its turn clock was stored with it."""
        room = live.room
        clock_stored = now is not None
        now = self.clock.now() if now is None else now

        def apply() -> None:
            logged_apply(live, seat, action, by_bot)
            if live.turn_clock is not None:
                following = room.state.current_player if room.status == PLAYING else None
                live.turn_clock.after_move(seat, following, now,
                                           own=_own_move(room, seat, by_bot))

        messages = await self._run_messages(live, apply, now)
        if live.turn_clock is not None:
            live.turn_clock.move_number = len(room.actions)
            if not clock_stored:
                self._save_turn_clock(live)
        if room.status == FINISHED:
            log.info("room %s finished: %s", room.id, room.result())
            try:
                await self.run_db(self.storage.save_status, room.id, FINISHED, room.result())
            except Exception:
                # The last action is committed, so a restart still finds the game over.
                log.exception("room %s: could not mark the room finished", room.id)
            for hook in self.finish_hooks:
                try:
                    await hook(room)
                except Exception:
                    log.exception("room %s: a finished-game hook failed", room.id)
        self._deliver(live, messages)
        self._forget_if_done(live)

    # -- other processes (cluster mode) ---------------------------------------------

    async def announce(self, room_id: str, reason: str, behind_writes: bool = False) -> None:
        """Tell the other processes that a room changed, after the change is stored.
        `behind_writes`: the change is a write still queued on the database thread (a
        turn clock), so the notice is queued behind it; otherwise it goes at once, off
        that one thread."""
        if self.cluster is None:
            return
        try:
            if behind_writes:
                await self.run_db(self.cluster.notify, room_id, reason)
            else:
                await self.cluster.read(self.cluster.notify, room_id, reason)
        except Exception:  # stored all the same: the others see it when they next reload
            log.exception("room %s: could not announce a change (%s)", room_id, reason)

    async def _catch_up(
        self, live: LiveRoom, known: list[tuple[int, int, str, bool]] | None = None
    ) -> bool:
        """With the room's lock held: apply the actions other processes committed (`known`:
        already read, from some number on); whether there were any (the caller
        broadcasts)."""
        room = live.room
        have = len(room.actions)
        stored = [row for row in known or () if row[0] > have]
        if not stored or stored[0][0] != have + 1:
            assert self.cluster is not None
            stored = await self.cluster.read(self.storage.actions_after, room.id, have)
        if not stored:
            return False

        def apply_all() -> None:
            for _number, seat, text, by_bot in stored:
                logged_apply(live, seat, room.state.string_to_action(text), by_bot)

        await self.run_engine(apply_all)
        if live.clock_limit is not None:
            await self.run_engine(self._read_clock, live)
            self._start_clock(live)
        await self._restore_turn_clock(live)
        return True

    def _on_notice(self, notice: Notice) -> None:
        """(On the event loop.) Another process changed a room: reload it if it is here."""
        if notice.reason == "watching":
            heard = time.monotonic()
            for key, rooms in (notice.watching or {}).items():
                if rooms:
                    self.remote_watching[(notice.origin, key)] = (frozenset(rooms), heard)
                else:
                    self.remote_watching.pop((notice.origin, key), None)
            return
        if notice.reason == "ban":
            if notice.account is not None:
                ended = self.end_banned(notice.account)
                log.info("account %d banned by the server's operator on another process "
                         "(%d seat sockets closed here)", notice.account, ended)
            return
        if notice.reason == RESYNC:
            targets = [(live, "room") for live in self.rooms.values()]
            check = asyncio.create_task(self._end_banned_seated())
            self._syncs.add(check)
            check.add_done_callback(self._syncs.discard)
        elif notice.reason == "presence":
            targets = self._heard_presence(notice)
        else:
            live = self.rooms.get(notice.room_id)
            targets = [] if live is None else [(live, notice.reason)]
        for live, reason in targets:
            task = asyncio.create_task(self._sync(live, reason))
            self._syncs.add(task)
            task.add_done_callback(self._syncs.discard)

    async def _sync(self, live: LiveRoom, reason: str) -> None:
        try:
            if reason in ("chat", "chat_settings"):
                await reload_chat(self, live, reason)
                return
            async with live.lock:
                if self.rooms.get(live.room.id) is not live:
                    return  # put away meanwhile: it is reloaded whole when next opened
                if reason == "presence":
                    live.mark_away(time.monotonic())
                    changed = True
                elif reason == "move" and live.room.status != WAITING:
                    changed = await self._catch_up(live)
                elif reason == "clock":
                    await self._restore_turn_clock(live)
                    changed = True
                else:
                    await self._reload_room(live)
                    changed = True
                if changed:
                    await self._broadcast(live)
                self._forget_if_done(live)
        except Exception:
            log.exception("room %s: could not reload a change from another process (%s)",
                          live.room.id, reason)

    def _heard_presence(self, notice: Notice) -> list[tuple[LiveRoom, str]]:
        """Note the seats connected to another process; the rooms whose seats changed."""
        changed = []
        now = time.monotonic()
        for room_id, seats in (notice.presence or {}).items():
            live = self.rooms.get(room_id)
            if live is None:
                continue
            before = live.connected()
            if seats:
                live.remote_seats[notice.origin] = (frozenset(seats), now)
            else:
                live.remote_seats.pop(notice.origin, None)
            if live.connected() != before:
                changed.append((live, "presence"))
        return changed

    async def _announce_presence(self, live: LiveRoom) -> None:
        if self.cluster is None:
            return
        try:
            await self.cluster.read(self.cluster.notify_presence,
                              {live.room.id: sorted(live.local_seats())})
        except Exception:
            log.exception("room %s: could not tell the others who is connected", live.room.id)

    async def _tell_presence(self) -> None:
        """Every PRESENCE_SECONDS: tell the others the seats connected here, and forget
        what a silent process said (it may have died)."""
        assert self.cluster is not None
        while True:
            await asyncio.sleep(PRESENCE_SECONDS)
            try:
                here = {room_id: sorted(live.local_seats())
                        for room_id, live in self.rooms.items() if live.local_seats()}
                if here:
                    await self.cluster.read(self.cluster.notify_presence, here)
                watching = self._bot_rooms_watched_here()
                if watching:
                    await self.cluster.read(self.cluster.notify_watching, watching)
                lapsed = time.monotonic() - PRESENCE_TTL_SECONDS
                for heard_key, (_, heard) in list(self.remote_watching.items()):
                    if heard < lapsed:
                        del self.remote_watching[heard_key]
                for live in list(self.rooms.values()):
                    gone = [origin for origin, (_, heard) in live.remote_seats.items()
                            if heard < lapsed]
                    if gone:
                        for origin in gone:
                            del live.remote_seats[origin]
                        task = asyncio.create_task(self._sync(live, "presence"))
                        self._syncs.add(task)
                        task.add_done_callback(self._syncs.discard)
            except Exception:
                log.exception("telling the other processes who is connected failed")

    async def _reload_room(self, live: LiveRoom) -> None:
        """With the lock held: the seats, status and actions another process stored.

        A status that is over here stays (this process may have applied the last
        move before the other stored the room finished)."""
        room = live.room
        data = await self.run_db(self.storage.load_room_data, room.id)
        if data is None:
            return
        holders = [seat.token_hash for seat in room.seats]
        accounts = [seat.account_id for seat in room.seats]
        was = room.status
        room.seats = data["seats"]
        if room.status not in OVER:
            room.status = data["status"]
            if room.status == ABORTED:  # how it ended there (None: by its host)
                room.ended = data["ended"]
        await self._catch_up(live)
        if room.status != WAITING:
            self._no_longer_waiting(room.id)
        if was == WAITING and room.status == PLAYING:
            live.away_since.clear()
            await self.run_engine(self._read_clock, live)
            self._start_clock(live)
            await self._restore_turn_clock(live)
        for conn in list(live.connections):
            seat = conn.seat
            if seat is not None and room.seats[seat].token_hash != holders[seat]:
                now_held = room.seats[seat]
                if (now_held.kind == PERSON and now_held.account_id is not None
                        and now_held.account_id == accounts[seat]):
                    conn.error("seat_moved", SEAT_MOVED)  # Play here, on another process
                else:
                    conn.error("seat_freed", Words(N_("you no longer hold this seat; you watch "
                                                      "as a spectator")))
                conn.seat = None
        if room.status == EXPIRED:
            self.rooms.pop(room.id, None)
            if live.driver is not None:
                live.driver.cancel()
            for conn in list(live.connections):
                conn.error("room_expired", self._expired_words())
                conn.close(1000, "room_expired")
        live.mark_away(time.monotonic())

    @contextlib.asynccontextmanager
    async def bot_turn(self, live: LiveRoom) -> AsyncIterator[bool]:
        """Whether this process plays the room's bots now. One process: always. Cluster
        mode: only while it holds the room's bot lease, after catching up, so a bot
        move is computed and committed by one process only."""
        if self.cluster is None:
            yield True
            return
        room_id = live.room.id
        stored = await self.cluster.take_bot_lease(room_id, len(live.room.actions))
        if stored is None:
            yield False
            return
        try:
            if stored:
                async with live.lock:
                    if await self._catch_up(live, stored):
                        await self._broadcast(live)
            yield True
        finally:
            await self.cluster.release_bot_lease(room_id)

    # -- connections ----------------------------------------------------------------

    async def account_sanctions(self, account_id: int | None) -> tuple[bool, bool]:
        """(chat muted, banned) by the server's operator, for an account (or None)."""
        if account_id is None:
            return False, False
        found: tuple[bool, bool] = await self.run_db(
            AccountStore(self.storage.engine).sanctions, account_id)
        return found

    async def session_account_id(self, session: str | None) -> int | None:
        """The account of a live session cookie (a banned account's is none), or None."""
        if not session or len(session) > 200:
            return None
        found = await self.run_db(AccountStore(self.storage.engine).session_account,
                                  session_hash(session))
        return None if found is None else found[0]

    async def announce_ban(self, account_id: int) -> None:
        """(After the ban is stored.) Tell the other processes, which close the account's
        seat sockets they hold, as `end_banned` did here."""
        if self.cluster is None:
            return
        try:
            await self.cluster.read(self.cluster.notify_ban, account_id)
        except Exception:  # stored all the same: its sockets are refused when they rejoin
            log.exception("could not tell the other processes of the ban of account %d",
                          account_id)

    async def _end_banned_seated(self) -> None:
        """After notices may have been lost: close the seat sockets here of accounts the
        database says are banned (a ban announced meanwhile)."""
        try:
            seated = {live.room.seats[conn.seat].account_id
                      for live in self.rooms.values() for conn in live.connections
                      if conn.seat is not None}
            for account_id in sorted(a for a in seated if a is not None):
                if (await self.account_sanctions(account_id))[1]:
                    self.end_banned(account_id)
        except Exception:
            log.exception("could not check the seated accounts for bans after a resync")

    def end_banned(self, account_id: int) -> int:
        """The sockets playing a seat of a banned account are told why and closed (its
        seats stay in their games, away, as a player who left). How many."""
        ended = 0
        for live in list(self.rooms.values()):
            for conn in list(live.connections):
                if conn.seat is not None and (
                        live.room.seats[conn.seat].account_id == account_id):
                    conn.error("banned", BANNED)
                    conn.close(4403, "banned")
                    ended += 1
        return ended

    async def join(self, live: LiveRoom, conn: Connection, token: str | None) -> None:
        async with live.lock:
            seat = None
            if token is not None:
                seat = live.room.seat_of(token)
                if seat is None:
                    raise RoomError("bad_token",
                                    Words(N_("that token holds no seat in this room")), 403)
                if (await self.account_sanctions(live.room.seats[seat].account_id))[1]:
                    raise RoomError("banned", BANNED, 403)
            if live.runs_for_watchers() and not any(
                    other.address == conn.address for other in live.connections):
                self._check_bot_rooms_watched(conn.address, live)
            conn.seat = seat
            conn.joined = True
            live.connections.add(conn)
            live.mark_away(time.monotonic())
            await self._announce_presence(live)
            if live.runs_for_watchers():
                await self._announce_watching(conn.address)
            live.changed.set()  # a watcher wakes a room only bots play
            # Everyone sees the seat come back; the newcomer gets its current view.
            await self._broadcast(live)
            await chat_joined(self, live, conn)

    def _check_bot_rooms_watched(self, address: str, live: LiveRoom) -> None:
        """Refuse `address` one more room only bots play (besides `live`) past
        `bot_rooms_watched_per_client`: each keeps bots thinking while watched."""
        most = self.limits.bot_rooms_watched_per_client
        watched = self._bot_rooms_watched_by(address)
        if self.remote_watching:  # a cluster: the rooms it watches on the other processes
            key = address_key(address)
            fresh = time.monotonic() - PRESENCE_TTL_SECONDS
            for (_origin, watcher), (rooms, heard) in self.remote_watching.items():
                if watcher == key and heard >= fresh:
                    watched |= rooms
        watched.discard(live.room.id)
        if len(watched) >= most:
            raise RoomError("too_many_bot_rooms", Words(N_(
                "you already watch {most} games that only bots play, the most one address "
                "may watch at once (each keeps bots thinking while watched); close one to "
                "watch this one"), most=most), 429)

    def _bot_rooms_watched_by(self, address: str) -> set[str]:
        """The rooms only bots play, in play, that `address` watches on this process."""
        return {room_id for room_id, other in self.rooms.items() if other.runs_for_watchers()
                and any(conn.address == address for conn in other.connections)}

    def _bot_rooms_watched_here(self) -> dict[str, list[str]]:
        """By address key, the rooms only bots play watched on this process."""
        watching: dict[str, set[str]] = {}
        for room_id, live in self.rooms.items():
            if live.runs_for_watchers():
                for address in {conn.address for conn in live.connections}:
                    watching.setdefault(address_key(address), set()).add(room_id)
        return {key: sorted(rooms) for key, rooms in watching.items()}

    async def _announce_watching(self, address: str) -> None:
        """Cluster mode: tell the others the bot rooms `address` watches here now."""
        if self.cluster is None:
            return
        try:
            await self.cluster.read(self.cluster.notify_watching, {
                address_key(address): sorted(self._bot_rooms_watched_by(address))})
        except Exception:
            log.exception("could not tell the others which bot rooms an address watches")

    async def leave(self, live: LiveRoom, conn: Connection) -> None:
        async with live.lock:
            if conn in live.connections:
                live.connections.discard(conn)
                now = time.monotonic()
                live.mark_away(now)
                if not live.connections:
                    live.unwatched_since = now
                await self._announce_presence(live)
                if live.bots_only() and live.room.status != WAITING:  # (over now, perhaps)
                    await self._announce_watching(conn.address)
                await self._broadcast(live)
            self._forget_if_done(live)

    def _forget_if_done(self, live: LiveRoom) -> None:
        """Drop a finished room nobody watches from memory; the database still has it."""
        finished = live.room.status in OVER and not live.connections
        if finished and self.rooms.get(live.room.id) is live:
            del self.rooms[live.room.id]
            self._keep_over(live)

    def _keep_over(self, live: LiveRoom) -> None:
        """Keep a room that is over among the latest `KEPT_OVER_ROOMS`: it never changes,
        and each socket that joined it would otherwise have the game replayed for it
        (a long match: a few hundred ms), which a client opening sockets in a loop
        could ask for without end."""
        self.over_rooms[live.room.id] = live
        self.over_rooms.move_to_end(live.room.id)
        while len(self.over_rooms) > KEPT_OVER_ROOMS:
            self.over_rooms.popitem(last=False)

    async def _broadcast(self, live: LiveRoom) -> None:
        """Send the new state (each client its own view) and wake the room's bots.

        Called with the room's lock held; the views are built in the engine pool."""
        if not live.connections:
            live.changed.set()
            return
        self._deliver(live, await self._run_messages(live, None, self.clock.now()))

    async def _run_messages(self, live: LiveRoom, change: Callable[[], None] | None,
                            now: float) -> dict[int | None, str]:
        """`_messages` on the loop for a quick game, unless the move log has much to
        catch up (a late joiner of a long match, `movelog.INLINE_LOG_WORK`): that goes
        to the engine pool, as every update of a slower game does."""
        if log_work(live) > movelog.INLINE_LOG_WORK:
            return await self.run_engine(self._messages, live, change, now)
        return await self.run_room_engine(live.room, self._messages, live, change, now)

    @staticmethod
    def _messages(
        live: LiveRoom, change: Callable[[], None] | None, now: float
    ) -> dict[int | None, str]:
        """(In the engine pool) make `change`, then each audience's state message
        (with the turn clock as it stands at `now`)."""
        if change is not None:
            change()
        prepare_logs(live)
        room = live.room
        connected = live.connected()
        clock = None if live.turn_clock is None else live.turn_clock.public(now)
        messages = {}
        for seat in {conn.seat for conn in live.connections}:
            message = room.message_for(seat, connected, current_view(live, seat))
            if clock is not None:
                message["clock"] = clock
            messages[seat] = jsontext.dumps(message)
        if live.move_log is not None:
            live.move_log.forget_views()  # sent: let them die young (see forget_views)
        return messages

    def _deliver(self, live: LiveRoom, messages: dict[int | None, str]) -> None:
        live.changed.set()
        for conn in list(live.connections):
            text = messages.get(conn.seat)
            if text is None:  # joined while the views were built: its own comes next
                continue
            conn.offer(with_log(live, conn, text))
            if conn.dropped:
                live.connections.discard(conn)
        push_logs(live)

    def _ensure_driver(self, live: LiveRoom) -> None:
        from pyramids.web.bots import drive

        if live.room.status in OVER:
            return
        if live.driver is None or live.driver.done():
            live.driver = asyncio.create_task(drive(self, live), name=f"room-{live.room.id}")


def _log_failure(future: asyncio.Future[Any]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("could not store a turn clock: %s", future.exception())


def _own_move(room: Room, seat: int, by_bot: bool) -> bool:
    """Whether `seat` made its move itself: a person's own move, or a bot seat's (a
    person's seat played by a bot, at a time-out or while away, is not)."""
    return not by_bot or room.seats[seat].kind == AGENT


def _copy_seat(room: Room, seat: int | None) -> Seat | None:
    if seat is None or isinstance(seat, bool) or not isinstance(seat, int):
        return None
    if 0 <= seat < len(room.seats):
        entry = room.seats[seat]
        return Seat(entry.index, entry.kind, entry.name, entry.agent, entry.token_hash,
                    entry.account_id)
    return None


__all__ = ["AGENT", "ActionWriter", "BatchWriter", "Connection", "Hub", "LiveRoom"]
