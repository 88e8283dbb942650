"""Chat in a room: players and spectators write, the host may mute the spectators.

Rules the server keeps (a client is never trusted):
- a message is text of 1 to `MAX_CHAT_LENGTH` characters, printable, its runs
  of spaces and line breaks made one space; anything else is refused with
  `chat_empty`, `chat_too_long` or `bad_chat`;
- each connection writes at most `CHAT_BURST` messages at once, then one every
  `1 / CHAT_RATE` seconds (`chat_rate_limited`, with the wait); on top of that the
  players of a room together, and its spectators together, have a budget of their
  own (`ROOM_CHAT_SHARE` times a connection's), so that spectators, however many,
  never use up the players' chat; a room takes at most `MAX_ROOM_CHAT` messages in
  all (`chat_full`), the last `PLAYERS_CHAT_RESERVE` of them players' only;
- a spectator writes only while the host has not muted spectators (`chat_muted`);
- the author is the seat's name, or None for a spectator; the server stamps the
  time. Messages are stored with the room (table `chat_messages`, migration
  `0004_chat`; the messages of all rooms written meanwhile share one commit)
  before they are sent, so they survive a restart, and a client that joins gets
  the latest `HISTORY` of them.

The text is sent as it was written: pages show it as text, never as markup.

Protocol: a joined client sends `{"type": "chat", "text": "..."}`; everyone in
the room gets `{"type": "chat", "message": {number, seat, name, text, at}}`. On
joining, a client gets `{"type": "chat_history", "messages": [...],
"spectators_muted": bool}`, and `{"type": "chat_settings", "spectators_muted":
bool}` when the host changes it (`POST /api/rooms/{id}/chat/mute`). `GET
/api/rooms/{id}/chat` gives the same history over HTTP.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Engine

from pyramids.core.errors import N_, Words
from pyramids.web import jsontext
from pyramids.web.limits import TokenBucket
from pyramids.web.rooms import PERSON, RoomError

if TYPE_CHECKING:
    from pyramids.web.hub import Connection, Hub, LiveRoom

MAX_CHAT_LENGTH = 300
CHAT_RATE = 0.5  # messages a second, after the burst
CHAT_BURST = 4
MAX_ROOM_CHAT = 2000
# The last messages a room's chat takes, which only its players may write.
PLAYERS_CHAT_RESERVE = 500
# A room's players together, and its spectators together: this many connections' rate.
ROOM_CHAT_SHARE = 4
HISTORY = 200
# Tries to number a message when other server processes take the number first.
NUMBERING_ATTEMPTS = 3

chat_metadata = sa.MetaData()

chat_messages_table = sa.Table(
    "chat_messages",
    chat_metadata,
    sa.Column("room_id", sa.String(32), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

chat_settings_table = sa.Table(
    "chat_settings",
    chat_metadata,
    sa.Column("room_id", sa.String(32), primary_key=True),
    sa.Column("spectators_muted", sa.Boolean, nullable=False),
)


@dataclass(frozen=True)
class ChatMessage:
    number: int
    seat: int | None
    name: str | None
    text: str
    at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "seat": self.seat, "name": self.name,
                "text": self.text, "at": self.at.isoformat()}


def room_chat_bucket() -> TokenBucket:
    return TokenBucket(ROOM_CHAT_SHARE * CHAT_RATE, ROOM_CHAT_SHARE * CHAT_BURST)


@dataclass
class ChatRoom:
    """A room's chat in memory: its messages (the latest `HISTORY`) and settings."""

    messages: list[ChatMessage]
    count: int
    spectators_muted: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # The room's own flood limits, whatever the number of connections: the players'
    # and the spectators' apart, so that spectators never silence the players.
    bucket: TokenBucket = field(default_factory=lambda: room_chat_bucket())
    spectators_bucket: TokenBucket = field(default_factory=lambda: room_chat_bucket())

    def history(self) -> dict[str, Any]:
        return {"messages": [message.to_json() for message in self.messages[-HISTORY:]],
                "spectators_muted": self.spectators_muted}


class ChatStore:
    """The chat tables (made by migration `0004_chat`). Synchronous: the database thread."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def load(self, room_id: str) -> tuple[list[ChatMessage], int, bool]:
        """The latest `HISTORY` messages (oldest first), how many there are, and the mute."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(chat_messages_table)
                .where(chat_messages_table.c.room_id == room_id)
                .order_by(chat_messages_table.c.number.desc())
                .limit(HISTORY)
            ).all()
            count = connection.execute(
                sa.select(sa.func.count()).select_from(chat_messages_table)
                .where(chat_messages_table.c.room_id == room_id)
            ).scalar_one()
            muted = connection.execute(
                sa.select(chat_settings_table.c.spectators_muted)
                .where(chat_settings_table.c.room_id == room_id)
            ).scalar()
        messages = [
            ChatMessage(row.number, row.seat, row.name, row.text,
                        row.created_at if row.created_at.tzinfo else
                        row.created_at.replace(tzinfo=UTC))
            for row in reversed(rows)
        ]
        return messages, int(count), bool(muted)

    def append(self, room_id: str, message: ChatMessage) -> None:
        self.append_many([(room_id, message)])

    def append_many(self, batch: list[tuple[str, ChatMessage]]) -> None:
        """Messages of any rooms in one transaction: all or none."""
        with self.engine.begin() as connection:
            connection.execute(chat_messages_table.insert(), [
                {"room_id": room_id, "number": message.number, "seat": message.seat,
                 "name": message.name, "text": message.text, "created_at": message.at}
                for room_id, message in batch
            ])

    def set_muted(self, room_id: str, muted: bool) -> None:
        with self.engine.begin() as connection:
            changed = connection.execute(
                chat_settings_table.update()
                .where(chat_settings_table.c.room_id == room_id)
                .values(spectators_muted=muted)
            ).rowcount
            if not changed:
                connection.execute(chat_settings_table.insert().values(
                    room_id=room_id, spectators_muted=muted))


def clean_chat_text(text: Any) -> str:
    """The message as it is kept, or a RoomError saying what is allowed."""
    if not isinstance(text, str):
        raise RoomError("bad_chat", Words(N_("a chat message is text: send {example}"),
                                          example='{"type": "chat", "text": "..."}'))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise RoomError("bad_chat", Words(N_("a chat message is valid Unicode text"))) from None
    clean = " ".join(text.split())
    if not clean:
        raise RoomError("chat_empty", Words(N_("a chat message needs at least one character "
                                               "that is not a space")))
    if len(clean) > MAX_CHAT_LENGTH:
        raise RoomError("chat_too_long", Words(N_("a chat message has at most {most} "
                                                  "characters; this one has {length}"),
                                               most=MAX_CHAT_LENGTH, length=len(clean)))
    if not clean.isprintable():
        raise RoomError("bad_chat", Words(N_("a chat message is printable text (no control "
                                             "characters)")))
    return clean


def _store(hub: Hub) -> ChatStore:
    return ChatStore(hub.storage.engine)


async def chat_of(hub: Hub, live: LiveRoom) -> ChatRoom:
    """The room's chat, read from the database the first time."""
    if live.chat is None:
        messages, count, muted = await hub.run_db(_store(hub).load, live.room.id)
        if live.chat is None:
            live.chat = ChatRoom(messages, count, muted)
    return live.chat


def _broadcast(live: LiveRoom, message: dict[str, Any]) -> None:
    text = jsontext.dumps(message)
    for conn in list(live.connections):
        conn.offer(text)
        if conn.dropped:
            live.connections.discard(conn)


async def chat_joined(hub: Hub, live: LiveRoom, conn: Connection) -> None:
    """Send a client that joined the room's latest chat messages."""
    chat = await chat_of(hub, live)
    conn.offer(json.dumps({"type": "chat_history", **chat.history()},
                          separators=(",", ":")))


async def send_chat(hub: Hub, live: LiveRoom, conn: Connection, text: Any) -> None:
    """Check, store and send one chat message; a refusal raises `RoomError` (to its writer)."""
    chat = await chat_of(hub, live)
    seat = conn.seat
    if seat is None and chat.spectators_muted:
        raise RoomError("chat_muted", Words(N_("the host has muted spectators in this room: "
                                               "only the players may write")))
    writers = {conn.account_id, live.room.seats[seat].account_id if seat is not None else None}
    for account in writers - {None}:
        if (await hub.account_sanctions(account))[0]:
            raise RoomError("chat_muted", Words(N_(
                "the server's operator has muted your chat: you can still play, and read what "
                "others write")))
    clean = clean_chat_text(text)
    if conn.chat_bucket is None:
        conn.chat_bucket = TokenBucket(CHAT_RATE, CHAT_BURST)
    wait = conn.chat_bucket.take()
    if wait > 0:
        raise RoomError("chat_rate_limited", Words(N_(
            "too many chat messages: at most {burst} at once, then one every {every} seconds; "
            "wait {seconds} s"), burst=CHAT_BURST, every=f"{1 / CHAT_RATE:g}",
            seconds=f"{wait:.1f}"), retry_after=wait)
    wait = (chat.bucket if seat is not None else chat.spectators_bucket).take()
    if wait > 0:
        # This message was never sent: the writer's own budget keeps its token.
        conn.chat_bucket.tokens = min(conn.chat_bucket.burst, conn.chat_bucket.tokens + 1)
        raise RoomError("chat_rate_limited", Words(
            N_("the players of this room write too many chat messages together: at most "
               "{burst} at once, then one every {every} seconds; wait {seconds} s")
            if seat is not None else
            N_("the spectators of this room write too many chat messages together: at "
               "most {burst} at once, then one every {every} seconds; the players' chat has "
               "its own limit; wait {seconds} s"),
            burst=ROOM_CHAT_SHARE * CHAT_BURST, every=f"{1 / (ROOM_CHAT_SHARE * CHAT_RATE):g}",
            seconds=f"{wait:.1f}"), retry_after=wait)
    stored = None
    for _ in range(NUMBERING_ATTEMPTS):
        stored = await _store_message(hub, live, chat, seat, clean)
        if stored is not None:
            break
        # Another server process gave a message of this room the same number
        # (cluster mode): read the chat as stored, and number this one after it.
        await reload_chat(hub, live, "chat")
    if stored is None:
        raise RoomError("chat_busy", Words(N_("the chat is busy; send your message again")),
                        retry_after=1.0)
    await hub.announce(live.room.id, "chat")
    _broadcast(live, {"type": "chat", "message": stored.to_json()})


async def _store_message(hub: Hub, live: LiveRoom, chat: ChatRoom, seat: int | None,
                         text: str) -> ChatMessage | None:
    """The message, numbered after the room's last and stored; None when that number
    was taken meanwhile by another server process."""
    async with chat.lock:
        if chat.count >= MAX_ROOM_CHAT:
            raise RoomError("chat_full", Words(N_("this room's chat is full ({most} messages); "
                                                  "nothing more can be written here"),
                                               most=MAX_ROOM_CHAT))
        if seat is None and chat.count >= MAX_ROOM_CHAT - PLAYERS_CHAT_RESERVE:
            raise RoomError("chat_full", Words(N_(
                "this room's chat holds {count} messages: spectators may write no more, the "
                "last {reserve} of its {most} are kept for the players"),
                count=chat.count, reserve=PLAYERS_CHAT_RESERVE, most=MAX_ROOM_CHAT))
        entry = live.room.seats[seat] if seat is not None else None
        name = entry.display_name() if entry is not None and entry.kind == PERSON else None
        message = ChatMessage(chat.count + 1, seat, name, text, datetime.now(UTC))
        try:
            # Committed with the other rooms' messages of the moment (one transaction).
            await hub.write_batched("chat", _store(hub).append_many, (live.room.id, message))
        except sa.exc.IntegrityError:
            return None
        chat.count += 1
        chat.messages.append(message)
        del chat.messages[:-HISTORY]
    return message


async def reload_chat(hub: Hub, live: LiveRoom, reason: str) -> None:
    """Another server process stored a chat message (`chat`) or the mute
    (`chat_settings`): read the chat again and send what is new to this one's clients."""
    chat = live.chat
    if chat is None:
        return  # not read here yet: it is read whole when first needed
    messages, count, muted = await hub.run_db(_store(hub).load, live.room.id)
    async with chat.lock:
        known = chat.count
        fresh = [message for message in messages if message.number > known]
        chat.messages, chat.count = messages, max(count, known)
        changed_mute = chat.spectators_muted != muted
        chat.spectators_muted = muted
    for message in fresh:
        _broadcast(live, {"type": "chat", "message": message.to_json()})
    if reason == "chat_settings" and changed_mute:
        _broadcast(live, {"type": "chat_settings", "spectators_muted": muted})


class MuteSpectators(BaseModel):
    # strict: "0" is not a seat number, "yes" not true (nothing a client sends is coerced)
    model_config = ConfigDict(extra="forbid", strict=True)

    token: str = Field(max_length=200)
    muted: bool


def mount_chat(app: FastAPI) -> None:
    """The chat's HTTP endpoints: read a room's chat, and the host's mute."""
    from pyramids.web.app import ERRORS, client_of  # the app module calls this: it is loaded

    def hub_of(request: Request) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    @app.get("/api/rooms/{room_id}/chat", responses=ERRORS)
    async def read_chat(room_id: str, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        live = await hub.get(room_id, client_of(request.scope))
        return (await chat_of(hub, live)).history()

    @app.post("/api/rooms/{room_id}/chat/mute", responses=ERRORS)
    async def mute_spectators(room_id: str, body: MuteSpectators,
                              request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        live = await hub.get(room_id, client_of(request.scope))
        live.room.check_host(body.token)
        chat = await chat_of(hub, live)
        async with chat.lock:
            await hub.run_db(_store(hub).set_muted, room_id, body.muted)
            chat.spectators_muted = body.muted
        await hub.announce(room_id, "chat_settings")
        _broadcast(live, {"type": "chat_settings", "spectators_muted": body.muted})
        return {"spectators_muted": body.muted}


__all__ = ["CHAT_BURST", "CHAT_RATE", "HISTORY", "MAX_CHAT_LENGTH", "MAX_ROOM_CHAT",
           "PLAYERS_CHAT_RESERVE", "ROOM_CHAT_SHARE",
           "ChatMessage", "ChatRoom", "ChatStore", "chat_joined", "chat_of",
           "clean_chat_text", "mount_chat", "reload_chat", "send_chat"]
