"""The WebSocket of a room: join as a seat (with its token) or as a spectator, then play.

Protocol (see docs/server.md): the client's first message is
`{"type": "join", "token": "...", "lang": "ko"}` (no token: a spectator; `lang`:
the language of its move log, English by default). The server answers
with a `state` message and sends one after every change; a seat sends
`{"type": "action", "action": "<action string>"}` on its turn, and anyone may send
`{"type": "chat", "text": "..."}` (pyramids.web.chat). Every refusal is
an `error` message to that client only; the connection stays open, except after
a bad token or an unknown room, which close it.

Limits (`ServerLimits`): a browser's socket must come from the server's own page
(its `Origin` the server's address) or an allowed origin; one address holds at most
`sockets_per_client` sockets; messages past `messages_per_second` (after a burst)
get `rate_limited` and change nothing, and a client that keeps sending past it is
closed (4429); JSON nested deeper than `max_json_depth` is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketDisconnect

from pyramids.core.errors import N_, Words
from pyramids.play.i18n import words_text
from pyramids.web.accounts import SESSION_COOKIE
from pyramids.web.chat import send_chat
from pyramids.web.hub import Connection, Hub, LiveRoom
from pyramids.web.language import client_language as socket_language
from pyramids.web.limits import TokenBucket, json_too_deep
from pyramids.web.movelog import client_language
from pyramids.web.rooms import RoomError, shown_value
from pyramids.web.storage import STORAGE_TROUBLE_LOG, storage_trouble

log = logging.getLogger("pyramids.web.ws")

MAX_MESSAGE_BYTES = 4096
MESSAGE_TYPES = ("join", "action", "ping", "chat")

JOIN_TIMEOUT_SECONDS = 30.0

CLOSE_BAD_TOKEN = 4403
CLOSE_UNKNOWN_ROOM = 4404
CLOSE_JOIN_TIMEOUT = 4408
CLOSE_BAD_ORIGIN = 4401
CLOSE_TOO_MANY = 4429
# Refused messages in a row (past the rate) after which the socket is closed.
RATE_STRIKES = 50
DEFAULT_JSON_DEPTH = 16


def _parse(text: str, max_depth: int = DEFAULT_JSON_DEPTH) -> dict[str, Any]:
    """The client's message as an object with a known `type`, or a RoomError saying why not."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise RoomError("too_large", _too_large(size))
    if json_too_deep(text, max_depth):
        raise RoomError("bad_json", Words(N_("JSON nested too deeply; at most {most} levels"),
                                          most=max_depth))
    try:
        message = json.loads(text)
    except json.JSONDecodeError as error:
        # Where the text went wrong, in words (the parser's own are English only).
        raise RoomError("bad_json", Words(N_("not valid JSON: it breaks off or is malformed "
                                             "at line {line}, column {column}"),
                                          line=error.lineno, column=error.colno)) from None
    if not isinstance(message, dict):
        raise RoomError("bad_message", Words(N_("a message is a JSON object with a 'type'")))
    kind = message.get("type")
    if kind is None:
        raise RoomError("bad_message", Words(N_("a message needs a 'type'; allowed: {allowed}"),
                                             allowed=", ".join(MESSAGE_TYPES)))
    if kind not in MESSAGE_TYPES:
        raise RoomError(
            "unknown_type",
            Words(N_("unknown message type '{kind}'; allowed: {allowed}"),
                  kind=shown_value(kind), allowed=", ".join(MESSAGE_TYPES)),
        )
    return message


def _too_large(size: int) -> Words:
    return Words(N_("message too large: {size} bytes; the limit is {limit}"),
                 size=size, limit=MAX_MESSAGE_BYTES)


def origin_allowed(websocket: WebSocket, allowed: tuple[str, ...]) -> bool:
    """No Origin (not a browser), the server's own address, or one allowed."""
    origin = websocket.headers.get("origin")
    if origin is None or "*" in allowed or origin in allowed:
        return True
    host = websocket.headers.get("host")
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()


def client_address(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client is not None else ""


async def room_socket(websocket: WebSocket, hub: Hub, room_id: str) -> None:
    limits = hub.limits
    if not origin_allowed(websocket, limits.allowed_origins):
        # Closed before accepting: the browser sees the handshake refused (HTTP 403).
        log.info("socket refused: origin %r", websocket.headers.get("origin"))
        await websocket.close(CLOSE_BAD_ORIGIN, "origin not allowed")
        return
    address = client_address(websocket)
    held = hub.sockets_by_client.get(address, 0)
    await websocket.accept()
    if held >= limits.sockets_per_client:
        reason = words_text(Words(N_("too many connections from your address; the limit is "
                                     "{limit}"), limit=limits.sockets_per_client),
                            socket_language(websocket))
        with contextlib.suppress(Exception):
            await websocket.send_text(json.dumps(
                {"type": "error", "code": "too_many_connections", "message": reason}
            ))
            await websocket.close(CLOSE_TOO_MANY, "too_many_connections")
        return
    hub.sockets_by_client[address] = held + 1
    try:
        await _serve(websocket, hub, room_id, address)
    finally:
        left = hub.sockets_by_client.get(address, 1) - 1
        if left > 0:
            hub.sockets_by_client[address] = left
        else:
            hub.sockets_by_client.pop(address, None)


async def _serve(websocket: WebSocket, hub: Hub, room_id: str, address: str) -> None:
    limits = hub.limits
    bucket = TokenBucket(limits.messages_per_second, limits.message_burst)
    strikes = 0

    async def close(code: int, reason: str) -> None:
        await websocket.close(code, reason)

    conn = Connection(websocket.send_text, close)
    conn.address = address
    # Until its join message names one: the language of the page (cookie, Accept-Language).
    conn.lang = socket_language(websocket)
    chats: set[asyncio.Task[None]] = set()
    pump = asyncio.create_task(conn.pump())
    live: LiveRoom | None = None
    join_by = time.monotonic() + JOIN_TIMEOUT_SECONDS
    try:
        while not pump.done():
            received = asyncio.create_task(websocket.receive())
            done, _ = await asyncio.wait(
                {received, pump},
                timeout=None if conn.joined else max(0.0, join_by - time.monotonic()),
                return_when=asyncio.FIRST_COMPLETED,
            )
            if received not in done:
                received.cancel()
                if not done:  # no join in time
                    await _refuse(conn, pump, RoomError("join_timeout", Words(
                        N_("no join message within {seconds} seconds"),
                        seconds=f"{JOIN_TIMEOUT_SECONDS:g}")), CLOSE_JOIN_TIMEOUT)
                break
            frame = received.result()
            if frame["type"] == "websocket.disconnect":
                break
            wait = bucket.take()
            if wait > 0:
                strikes += 1
                if strikes >= RATE_STRIKES:
                    await _refuse(conn, pump, RoomError(
                        "rate_limited", Words(N_("too many messages; closing"))), CLOSE_TOO_MANY)
                    break
                conn.error("rate_limited", Words(
                    N_("too many messages: at most {rate} a second; this one was ignored, send "
                       "again in {seconds} s"),
                    rate=f"{limits.messages_per_second:g}", seconds=f"{wait:.1f}"))
                continue
            strikes = 0
            text = frame.get("text")
            if text is None:
                size = len(frame.get("bytes") or b"")
                if size > MAX_MESSAGE_BYTES:
                    conn.error("too_large", _too_large(size))
                else:
                    conn.error("bad_message",
                               Words(N_("send text frames holding JSON, not binary")))
                continue
            with _answering(conn, room_id, "a message"):
                message = _parse(text, limits.max_json_depth)
                if message["type"] == "ping":
                    conn.offer(json.dumps({"type": "pong"}))
                elif message["type"] == "join":
                    if conn.joined:
                        raise RoomError("already_joined",
                                        Words(N_("this connection has already joined")))
                    token = message.get("token")
                    conn.lang = client_language(message.get("lang"))
                    if token is not None and not isinstance(token, str):
                        raise RoomError("bad_token", Words(N_("'token' is a string")))
                    try:
                        live = await hub.get(room_id, address)
                        conn.account_id = await hub.session_account_id(
                            websocket.cookies.get(SESSION_COOKIE))
                        await hub.join(live, conn, token)
                    except RoomError as error:
                        # A bad token or an unknown room ends the connection, after saying why.
                        live = None
                        close_code = {404: CLOSE_UNKNOWN_ROOM, 403: CLOSE_BAD_TOKEN,
                                      429: CLOSE_TOO_MANY}
                        await _refuse(conn, pump, error, close_code.get(error.status, 1011))
                        return
                else:
                    if live is None or not conn.joined:
                        raise RoomError("not_joined", Words(N_("send a join message first")))
                    if message["type"] == "chat":
                        _chat_soon(hub, live, conn, message.get("text"), chats)
                        continue
                    await hub.submit(
                        live, conn.seat, message.get("action"),
                        move_number=message.get("move_number"),
                    )
    except WebSocketDisconnect:
        pass
    finally:
        if live is not None:
            with contextlib.suppress(Exception):
                await hub.leave(live, conn)
        if not pump.done():
            pump.cancel()
        with contextlib.suppress(BaseException):
            await pump


@contextlib.contextmanager
def _answering(conn: Connection, room_id: str, what: str) -> Iterator[None]:
    """Handle one client message: a refusal goes back to the client in the language it
    joined with (an engine's words translate); any other failure is logged and the
    client told that nothing changed."""
    try:
        yield
    except RoomError as error:
        conn.error(error.code, error)
    except Exception as error:
        trouble = storage_trouble(error)
        if trouble is not None:
            log.error(STORAGE_TROUBLE_LOG, trouble)
            conn.error("storage_unavailable", Words(N_(
                "the server cannot save anything right now; nothing was changed, try again "
                "in a minute")))
            return
        log.exception("room %s: error handling %s", room_id, what)
        conn.error("server_error", Words(N_("the server could not handle that message; "
                                            "nothing changed, try again")))


def _chat_soon(hub: Hub, live: LiveRoom, conn: Connection, text: Any,
               chats: set[asyncio.Task[None]]) -> None:
    """Store and send a chat message in its own task, so that its commit does not hold
    up the writer's next message (often its move). A connection's messages keep their
    order (they queue for the room's chat lock in turn); a refusal goes to the writer."""

    async def chat() -> None:
        with _answering(conn, live.room.id, "a chat message"):
            await send_chat(hub, live, conn, text)

    task = asyncio.create_task(chat())
    chats.add(task)
    task.add_done_callback(chats.discard)


async def _refuse(conn: Connection, pump: asyncio.Task[None], error: RoomError, code: int) -> None:
    """Send the error, then close with `code` once it is out (or after five seconds)."""
    conn.error(error.code, error)
    conn.close(code, error.code)
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await asyncio.wait_for(asyncio.shield(pump), 5)
