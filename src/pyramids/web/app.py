"""The multiplayer server: a FastAPI app made by `create_app(db_url)`.

HTTP JSON API under `/api` for rooms and seats, one WebSocket a room at
`/ws/rooms/{room_id}`; the protocol is documented in docs/server.md. Every error
is `{"error": {"code": ..., "message": ...}}` with a message saying what was
wrong and what is allowed.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from pyramids.agents import agent_names
from pyramids.core import OptionError, PyramidsError, UnknownGameError, manifests
from pyramids.web.hub import Hub
from pyramids.web.rooms import FINISHED, PLAYING, WAITING, RoomError, RoomSettings
from pyramids.web.storage import Storage
from pyramids.web.ws import MAX_MESSAGE_BYTES, room_socket

log = logging.getLogger("pyramids.web")

DEFAULT_DB_URL = "sqlite:///pyramids.db"
MAX_BODY_BYTES = 16_384
ROOM_STATUSES = ("open", WAITING, PLAYING, FINISHED)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# -- requests -----------------------------------------------------------------


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateRoom(Strict):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int | str | None = None
    bot_takeover_seconds: float | None = Field(default=None, ge=0, le=86_400)
    takeover_agent: str = Field(default="random", max_length=64)
    bot_delay_seconds: float = Field(default=0.0, ge=0, le=10)


class TakeSeat(Strict):
    name: str = Field(max_length=200)
    seat: int | None = None


class GiveSeat(Strict):
    token: str = Field(max_length=200)
    seat: int
    agent: str = Field(default="random", max_length=64)


class Start(Strict):
    token: str = Field(max_length=200)


# -- errors ---------------------------------------------------------------------


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _describe_validation(error: RequestValidationError) -> str:
    parts = []
    for problem in error.errors():
        location = ".".join(str(part) for part in problem.get("loc", ()) if part != "body")
        if problem.get("type") == "json_invalid":
            parts.append("the body is not valid JSON")
        elif problem.get("type") == "extra_forbidden":
            parts.append(f"unknown field {location!r}")
        else:
            parts.append(f"{location or 'body'}: {problem.get('msg')}")
    return "bad request: " + "; ".join(parts)


class BodyLimit:
    """Refuse request bodies over `limit` bytes before anything reads them."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._refuse(scope, receive, send)
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return
            body.extend(message.get("body", b""))
            if len(body) > self.limit:
                await self._refuse(scope, receive, send)
                return
            more = message.get("more_body", False)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(
            413, "too_large", f"request body too large; the limit is {self.limit} bytes"
        )
        await response(scope, receive, send)


# -- the app ------------------------------------------------------------------------


def game_catalogue() -> list[dict[str, Any]]:
    """Every game as the lobby shows it, from the manifests (in their `order`)."""
    games = []
    for manifest in manifests():
        game = manifest.factory()
        games.append(
            {
                "name": manifest.name,
                "title": manifest.display_title,
                "summary": manifest.summary,
                "num_players": game.num_players,
                "players_option": manifest.players_option,
                # The page imports this module to draw the game; without one it
                # shows the view and a button per legal move.
                "renderer": f"/games/{manifest.name}/renderer.js"
                if manifest.web_renderer
                else None,
                "options": [
                    {
                        "name": spec.name,
                        "default": spec.default,
                        "kind": spec.kind.__name__,
                        "doc": spec.doc,
                        "allowed": spec.allowed(),
                        "choices": list(spec.choices) if spec.choices is not None else None,
                    }
                    for spec in game.option_specs
                ],
            }
        )
    return games


def refuse_file_options(options: dict[str, Any]) -> None:
    """Refuse option values that name files: a client must not make the server read paths."""
    for name, value in options.items():
        if isinstance(value, str) and (
            "/" in value or "\\" in value or value.endswith((".pyr", ".layout"))
        ):
            raise RoomError(
                "bad_option",
                f"option {name}={value!r} names a file; this server accepts only built-in "
                "names (start it with --allow-file-options to play layout files)",
            )


def create_app(
    db_url: str | None = None,
    sqlite_synchronous: str = "full",
    allow_file_options: bool = False,
) -> FastAPI:
    """The server, storing rooms at `db_url` (SQLite file or PostgreSQL URL).

    `allow_file_options` lets clients name files on the server as option values
    (a Mahjongg layout file); off by default, since clients are not trusted.
    """
    storage = Storage(db_url or DEFAULT_DB_URL, sqlite_synchronous)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(storage)
        await hub.start()
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(title="pyramids server", lifespan=lifespan)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    @app.exception_handler(RoomError)
    async def room_error(_request: Request, error: RoomError) -> JSONResponse:
        return error_response(error.status, error.code, error.message)

    @app.exception_handler(UnknownGameError)
    async def unknown_game(_request: Request, error: UnknownGameError) -> JSONResponse:
        return error_response(400, "unknown_game", str(error))

    @app.exception_handler(OptionError)
    async def bad_option(_request: Request, error: OptionError) -> JSONResponse:
        return error_response(400, "bad_option", str(error))

    @app.exception_handler(PyramidsError)
    async def pyramids_error(_request: Request, error: PyramidsError) -> JSONResponse:
        return error_response(400, "bad_request", str(error))

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, error: RequestValidationError) -> JSONResponse:
        return error_response(400, "bad_request", _describe_validation(error))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        return error_response(error.status_code, code, str(error.detail))

    @app.exception_handler(Exception)
    async def server_error(_request: Request, _error: Exception) -> JSONResponse:
        log.exception("unhandled error")
        return error_response(500, "server_error", "the server failed; nothing was changed")

    @app.get("/api/games")
    async def list_games() -> dict[str, Any]:
        return {"games": game_catalogue(), "agents": agent_names()}

    @app.post("/api/rooms", status_code=201)
    async def create_room(body: CreateRoom, request: Request) -> dict[str, Any]:
        if not allow_file_options:
            refuse_file_options(body.options)
        settings = RoomSettings(
            bot_takeover_seconds=body.bot_takeover_seconds,
            takeover_agent=body.takeover_agent,
            bot_delay_seconds=body.bot_delay_seconds,
        )
        live, host_token = await hub_of(request).create_room(
            body.game, body.options, body.seed, settings
        )
        return {"room": live.room.summary(), "host_token": host_token}

    @app.get("/api/rooms")
    async def list_rooms(request: Request, status: str = "open") -> dict[str, Any]:
        hub = hub_of(request)
        if status not in ROOM_STATUSES:
            raise RoomError(
                "bad_status", f"unknown status {status!r}; allowed: {', '.join(ROOM_STATUSES)}"
            )
        if status == "open":
            return {"rooms": hub.open_rooms()}
        return {"rooms": await hub.rooms_with_status(status)}

    @app.get("/api/rooms/{room_id}")
    async def get_room(room_id: str, request: Request) -> dict[str, Any]:
        live = await hub_of(request).get(room_id)
        return {"room": live.room.summary()}

    @app.post("/api/rooms/{room_id}/seats", status_code=201)
    async def take_seat(room_id: str, body: TakeSeat, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        live = await hub.get(room_id)
        seat, token = await hub.take_seat(live, body.name, body.seat)
        return {"room": live.room.summary(), "seat": seat.index, "token": token}

    @app.post("/api/rooms/{room_id}/agents")
    async def give_seat(room_id: str, body: GiveSeat, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        live = await hub.get(room_id)
        await hub.give_to_agent(live, body.token, body.seat, body.agent)
        return {"room": live.room.summary()}

    @app.post("/api/rooms/{room_id}/start")
    async def start(room_id: str, body: Start, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        live = await hub.get(room_id)
        await hub.start_room(live, body.token)
        return {"room": live.room.summary()}

    @app.get("/api/rooms/{room_id}/record")
    async def record(room_id: str, request: Request) -> JSONResponse:
        live = await hub_of(request).get(room_id)
        return JSONResponse(json.loads(live.room.record().to_json()))

    @app.websocket("/ws/rooms/{room_id}")
    async def websocket(websocket: WebSocket, room_id: str) -> None:
        await room_socket(websocket, hub_of(websocket), room_id)

    return app


def app_from_env() -> FastAPI:
    """For `uvicorn --factory pyramids.web.app:app_from_env`: the DB URL from PYRAMIDS_DB_URL."""
    return create_app(os.environ.get("PYRAMIDS_DB_URL") or DEFAULT_DB_URL)


__all__ = ["DEFAULT_DB_URL", "MAX_BODY_BYTES", "MAX_MESSAGE_BYTES", "create_app", "app_from_env"]
