"""The multiplayer server: a FastAPI app made by `create_app(db_url)`.

HTTP JSON API under `/api` for rooms and seats, one WebSocket a room at
`/ws/rooms/{room_id}`; the protocol is documented in docs/server.md. Every error
is `{"error": {"code": ..., "message": ...}}` with a message saying what was
wrong and what is allowed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from datetime import date
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

from pyramids.agents import agent_names, agents_for
from pyramids.agents.levels import LEVELS, level_description
from pyramids.core import (
    OptionError,
    PyramidsError,
    UnknownGameError,
    game_manifest,
    load,
    manifests,
    resolve_options,
)
from pyramids.core.errors import N_, OptionRef, PluralWords, Words
from pyramids.core.options import Option, allowed_options
from pyramids.play.i18n import _, negotiate, words_text
from pyramids.play.option_words import choice_title, doc_with_titles, option_title
from pyramids.web.accounts import check_guest_name, mount_accounts, seat_account
from pyramids.web.chat import mount_chat
from pyramids.web.clocks import Clock, ranked_clock_bounds
from pyramids.web.cluster import is_postgres
from pyramids.web.collector import settle_collector
from pyramids.web.hub import Hub
from pyramids.web.language import client_language
from pyramids.web.limits import (
    SERVER_OPTION_MAXIMUM,
    Buckets,
    ServerLimits,
    game_option_maximum,
    json_too_deep,
    retry_after,
    server_option_maximum,
)
from pyramids.web.names import name_look
from pyramids.web.replay import mount_replay
from pyramids.web.rooms import (
    ABORTED,
    EXPIRED,
    FINISHED,
    PLAYING,
    WAITING,
    RoomError,
    RoomSettings,
    new_seed,
    shown_value,
)
from pyramids.web.solitaire import attach_solitaire, mount_solitaire
from pyramids.web.storage import (
    NEWER_SCHEMA,
    STORAGE_RETRY_SECONDS,
    STORAGE_TROUBLE_LOG,
    Storage,
    newer_schema,
    shown_url,
    storage_trouble,
)
from pyramids.web.ws import MAX_MESSAGE_BYTES, room_socket

log = logging.getLogger("pyramids.web")

DEFAULT_DB_URL = "sqlite:///pyramids.db"
MAX_BODY_BYTES = 16_384
ROOM_STATUSES = ("open", WAITING, PLAYING, FINISHED, ABORTED, EXPIRED)
# The page's scripts, styles and sockets come from this server only; no framing.
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
     b"img-src 'self' data:; connect-src 'self' ws: wss:; object-src 'none'; "
     b"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# -- requests -----------------------------------------------------------------


class Strict(BaseModel):
    # strict: "0" is not a seat number, "yes" not true (nothing a client sends is coerced)
    model_config = ConfigDict(extra="forbid", strict=True)


class CreateRoom(Strict):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    # Only for one-player rooms, which are then unranked practice rooms.
    seed: StrictInt | StrictStr | None = None
    bot_takeover_seconds: float | None = Field(default=None, ge=0, le=86_400)
    takeover_agent: str = Field(default="random", max_length=64)
    bot_delay_seconds: float = Field(default=0.0, ge=0, le=10, allow_inf_nan=False)
    unlisted: bool = False
    # Results count for ratings: only accounts sit, the server always deals.
    ranked: bool = False
    # {"kind": "none" | "move" | "bank", "seconds", "increment", "on_timeout": "bot" |
    # "adjourn"}; checked by pyramids.web.clocks.TimeControl.
    time_control: dict[str, Any] | None = None


class RankedQuestion(Strict):
    options: dict[str, Any] = Field(default_factory=dict)


class TakeSeat(Strict):
    name: str = Field(max_length=200)
    seat: int | None = None


class ClaimSeat(Strict):
    # The seat (from 0) this account holds; None: the one seat it holds in the room.
    seat: int | None = None


class Mute(Strict):
    muted: bool = True


class Ban(Strict):
    banned: bool = True


class GiveSeat(Strict):
    token: str = Field(max_length=200)
    seat: int
    agent: str = Field(default="random", max_length=64)


class Start(Strict):
    token: str = Field(max_length=200)


class Kick(Strict):
    token: str = Field(max_length=200)
    seat: int


class ErrorBody(BaseModel):
    code: str
    message: str
    # Only where the message names game options: the same with them as keys.
    message_keys: str | None = None


class ErrorAnswer(BaseModel):
    error: ErrorBody


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorAnswer, "description": description}
    for status, description in (
        (400, "bad input: the message says what was wrong and what is allowed"),
        (403, "bad token"),
        (404, "unknown room"),
        (409, "not now"),
        (413, "body too large"),
        (429, "over a limit; see Retry-After"),
    )
}


# -- errors ---------------------------------------------------------------------


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None,
    message_keys: str | None = None,
) -> JSONResponse:
    """The error body; `message_keys` (where it differs from `message`) is the message
    with the options it names as keys (`turn_order=behind`), as a request gives them,
    for clients that send keys: `message` names them in words, for people."""
    error = {"code": code, "message": message}
    if message_keys is not None and message_keys != message:
        error["message_keys"] = message_keys
    return JSONResponse({"error": error}, status_code=status, headers=headers)


def refusal(request: Request, status: int, code: str, error: PyramidsError,
            headers: dict[str, str] | None = None) -> JSONResponse:
    """An engine's or the server's refusal in the client's language, with its keys."""
    lang = client_language(request)
    return error_response(status, code, words_text(error, lang), headers,
                          words_text(error, lang, keys=True))


# Addresses of the API and of files: a client there reads the JSON answer.
NOT_PAGES = ("/api/", "/ws/", "/static/", "/games/", "/openapi.json")


def missing_page_answer(request: Request, status: int, message: str) -> Response | None:
    """A browser asking for a page that does not exist gets a page that says so (in its
    language, with the way back); None for the API, files and other clients."""
    if (status != 404 or request.method != "GET" or request.url.path.startswith(NOT_PAGES)
            or "text/html" not in request.headers.get("accept", "")):
        return None
    from pyramids.web.learn import missing_page

    lang = client_language(request)
    return HTMLResponse(missing_page(message, lang, request.url.path), status_code=404)


def scope_language(scope: Scope) -> str:
    """The language of the client of an HTTP request, for answers made below the routes."""
    return client_language(HTTPConnection(scope))


# Starlette's own refusals (an unknown path, a wrong method), in the client's language.
HTTP_WORDS = {"Not Found": N_("Not Found"), "Method Not Allowed": N_("Method Not Allowed")}


# What pydantic's error types mean, in catalogue words: the type a field should have.
FIELD_KINDS = {
    "string_type": N_("text"), "str_type": N_("text"),
    "int_type": N_("a whole number"), "int_parsing": N_("a whole number"),
    "int_from_float": N_("a whole number"),
    "float_type": N_("a number"), "float_parsing": N_("a number"),
    "finite_number": N_("a finite number"),
    "bool_type": N_("true or false"), "bool_parsing": N_("true or false"),
    "dict_type": N_("a JSON object"), "model_type": N_("a JSON object"),
    "model_attributes_type": N_("a JSON object"),
    "list_type": N_("a list"),
}
# Bounds: pydantic's type, the catalogue's words and the context value they name.
FIELD_BOUNDS = {
    "less_than_equal": (N_("{field}: at most {limit}"), "le"),
    "less_than": (N_("{field}: less than {limit}"), "lt"),
    "greater_than_equal": (N_("{field}: at least {limit}"), "ge"),
    "greater_than": (N_("{field}: more than {limit}"), "gt"),
    "string_too_long": (N_("{field}: at most {limit} characters"), "max_length"),
    "string_too_short": (N_("{field}: at least {limit} characters"), "min_length"),
    "too_long": (N_("{field}: at most {limit} items"), "max_length"),
}
# The member tags pydantic adds to the location of a union's errors (`seed.int`).
UNION_MEMBERS = {"int", "str", "float", "bool", "none", "list", "dict"}


def _describe_validation(error: RequestValidationError, lang: str = "en") -> str:
    """What was wrong with a request's fields, in the reader's language. The field
    names are the API's; a problem pydantic names in a way this table does not know
    keeps pydantic's English wording."""
    parts: list[str] = []
    kinds: dict[str, list[str]] = {}  # a field's expected types (a union: several)
    slots: dict[str, int] = {}  # where in `parts` each such field is told
    for problem in error.errors():
        where = [str(part) for part in problem.get("loc", ()) if part != "body"]
        kind = str(problem.get("type"))
        if where and where[-1] in UNION_MEMBERS and kind in FIELD_KINDS:
            where = where[:-1]
        location = ".".join(where)
        field = location or _("the body", lang=lang)
        context = problem.get("ctx") or {}
        if kind == "json_invalid":
            parts.append(_("the body is not valid JSON", lang=lang))
        elif kind == "extra_forbidden":
            parts.append(_("unknown field '{field}'", lang=lang, field=location))
        elif kind == "missing":
            parts.append(_("{field}: required", lang=lang, field=field))
        elif kind in FIELD_KINDS:
            expected = kinds.setdefault(field, [])
            if not expected:
                slots[field] = len(parts)
                parts.append("")  # filled in below, once every kind is known
            word = _(FIELD_KINDS[kind], lang=lang)
            if word not in expected:
                expected.append(word)
        elif kind in FIELD_BOUNDS and FIELD_BOUNDS[kind][1] in context:
            message, key = FIELD_BOUNDS[kind]
            limit = context[key]
            shown = format(limit, "g") if isinstance(limit, float) else limit
            parts.append(_(message, lang=lang, field=field, limit=shown))
        else:
            parts.append(f"{field}: {problem.get('msg')}")
    for field, expected in kinds.items():
        parts[slots[field]] = _("{field}: should be {kinds}", lang=lang, field=field,
                         kinds=_(" or ", lang=lang).join(expected))
    return _("bad request: {problems}", lang=lang, problems="; ".join(parts))


class BodyLimit:
    """Refuse request bodies over `limit` bytes before anything reads them."""

    def __init__(self, app: ASGIApp, limit: int, max_depth: int = 16) -> None:
        self.app = app
        self.limit = limit
        self.max_depth = max_depth

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
        if json_too_deep(bytes(body), self.max_depth):
            response = error_response(
                400, "bad_request",
                _("the body's JSON is nested too deeply; at most {most} levels",
                  lang=scope_language(scope), most=self.max_depth),
            )
            await response(scope, receive, send)
            return
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
            413, "too_large", _("request body too large; the limit is {limit} bytes",
                                lang=scope_language(scope), limit=self.limit),
        )
        await response(scope, receive, send)


class SecurityHeaders:
    """Security headers on every HTTP answer (the pages and the API)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                present = {name.lower() for name, _ in headers}
                headers += [(n, v) for n, v in SECURITY_HEADERS if n not in present]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def client_of(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else ""


class RateLimit:
    """At most `rate` HTTP requests a second per client address (after a burst);
    past it: 429 with Retry-After, and the request is not handled. A socket's opening
    counts as a request (its handshake is refused the same way): opening one costs
    the server as much, and nothing else limits how often a client opens them."""

    def __init__(self, app: ASGIApp, rate: float, burst: int) -> None:
        self.app = app
        self.buckets = Buckets(rate, burst)
        self.rate = rate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            wait = self.buckets.take(client_of(scope))
            if wait > 0:
                rate = f"{self.rate:g}"
                response = error_response(
                    429, "rate_limited",
                    _("too many requests: at most {rate} a second from one address; try again "
                      "in {seconds} s", lang=scope_language(scope), rate=rate,
                      seconds=retry_after(wait)),
                    {"Retry-After": retry_after(wait)},
                )
                if scope["type"] == "http" or "websocket.http.response" in scope.get(
                        "extensions", {}):
                    await response(scope, receive, send)  # a socket's: its handshake's
                else:  # a server that cannot answer a handshake: refused (403)
                    await send({"type": "websocket.close", "code": 1008})
                return
        await self.app(scope, receive, send)


def check_room_options(game_name: str, options: dict[str, Any], allow_file_options: bool) -> None:
    """The options a client may give on this server: known names only, no file names
    (whatever their form), and the ranges this server narrows (`server_option_maximum`)."""
    specs = {spec.name: spec for spec in load(game_name).option_specs}
    unknown = sorted(set(options) - set(specs))
    if unknown:
        raise RoomError(
            "bad_option",
            PluralWords("{game}: unknown option {names}; allowed options: {allowed}",
                        "{game}: unknown options {names}; allowed options: {allowed}",
                        len(unknown), game=game_name, names=", ".join(unknown)[:400],
                        allowed=allowed_options(specs)),
        )
    if not allow_file_options:
        refuse_file_options(options)
    for name, value in options.items():
        most = server_option_maximum(game_name, name)
        if most is None:
            continue
        # Checked on the number the game will read: it takes "10000000" and 1e7 as
        # 10,000,000 too, so checking only JSON integers let a client pass the limit.
        typed = specs[name].coerce(game_name, value)
        if typed > most:
            raise RoomError(
                "bad_option",
                Words(N_("{option} is over this server's limit; allowed: at most {most}"),
                      option=OptionRef(name, typed), most=most),
            )


def served(game_name: str, spec: Option) -> Option:
    """An option of `game_name` as this server allows it: its range narrowed by
    `server_option_maximum`."""
    most = server_option_maximum(game_name, spec.name)
    if most is None or (spec.maximum is not None and spec.maximum <= most):
        return spec
    return dataclasses.replace(spec, maximum=most)


# -- the app ------------------------------------------------------------------------


def game_catalogue(lang: str = "en") -> list[dict[str, Any]]:
    """Every game as the lobby shows it, from the manifests (in their `order`), with
    titles, summaries and option descriptions in `lang` where the catalogue has them."""
    games = []
    for manifest in manifests():
        game = manifest.factory()
        games.append(
            {
                "name": manifest.name,
                "title": _(manifest.display_title, lang=lang),
                "summary": _(manifest.summary, lang=lang),
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
                        # What the page shows: the option's title and its choices'
                        # words (`name` and `choices` are what a request sends).
                        "title": _(option_title(spec.name), lang=lang),
                        "default": spec.default,
                        "kind": spec.kind.__name__,
                        "doc": doc_with_titles(spec, lang),
                        "allowed": words_text(served(manifest.name, spec).allowed_words(), lang),
                        "choices": list(spec.choices) if spec.choices is not None else None,
                        "choice_titles": None if spec.choices is None else [
                            _(choice_title(spec.name, choice), lang=lang)
                            for choice in spec.choices],
                    }
                    for spec in game.option_specs
                ],
                # The bots worth offering in this game (a request may still name any).
                "agents": agents_for(manifest.name),
                # What each bot level is like in this game (the lobby's hints).
                "levels": {level: _(level_description(level, manifest.name), lang=lang)
                           for level in LEVELS},
            }
        )
    return games


def names_a_file(value: str) -> bool:
    """Whether a text option could make the server open a file: a path, a file name
    that exists where the server runs, a hidden name, or a layout file's suffix."""
    return (
        "/" in value or "\\" in value or "\0" in value or value.startswith(".")
        or value.lower().endswith((".pyr", ".layout")) or os.path.lexists(value)
    )


def refuse_file_options(options: dict[str, Any]) -> None:
    """Refuse option values that name files: a client must not make the server read paths.

    The message never shows what such a file holds: the file is not opened."""
    for name, value in options.items():
        if isinstance(value, str) and names_a_file(value):
            raise RoomError(
                "bad_option",
                Words(N_("{option} names a file; this server accepts only built-in names "
                         "(see GET /api/games), not files"), option=OptionRef(name)),
            )


def create_app(
    db_url: str | None = None,
    sqlite_synchronous: str = "full",
    allow_file_options: bool = False,
    limits: ServerLimits | None = None,
    draw_seed: Callable[[], int | str] = new_seed,
    clock: Clock | None = None,
    today: Callable[[], date] | None = None,
    cluster: bool = False,
    bot_processes: int = 0,
    admin_token: str | None = None,
) -> FastAPI:
    """The server, storing rooms at `db_url` (SQLite file or PostgreSQL URL).

    `admin_token`: the operator's secret for `/api/admin/...` (closing a room); None:
    this server has no operator API.

    `cluster`: other server processes share the same PostgreSQL database
    (`pyramids.web.cluster`); refused for SQLite, which serves one process.

    `allow_file_options` lets clients name files on the server as option values
    (a Mahjongg layout file); off by default, since clients are not trusted.
    `limits`: what each client may do (`ServerLimits()` by default). `draw_seed`:
    the source of the server's secret seeds (a test may fix it; clients cannot).
    `clock`: the wall clock of the turn clocks (a test gives a `FakeClock`).
    `bot_processes`: worker processes for searching bots' moves (0: bot threads).
    `today`: the date of the daily deal (a test may fix it; by default the UTC date
    of the server's clock).
    """
    if cluster and not is_postgres(db_url or DEFAULT_DB_URL):
        raise ValueError(
            "cluster mode needs a PostgreSQL database that every process shares "
            "(postgresql://user:password@host/dbname); SQLite serves one process only"
        )
    storage = Storage(db_url or DEFAULT_DB_URL, sqlite_synchronous)
    limits = limits or ServerLimits()
    room_creations = Buckets(limits.rooms_created_per_minute / 60.0,
                             limits.rooms_created_per_minute)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(storage, limits=limits, draw_seed=draw_seed, clock=clock, cluster=cluster,
                  bot_processes=bot_processes)

        async def rate(room: Any) -> None:
            await accounts.rate_finished(hub, room)

        hub.finish_hooks.append(rate)

        async def rate_forfeit(room: Any, away: list[int]) -> None:
            await accounts.rate_forfeit(hub, room, away)

        hub.forfeit_hooks.append(rate_forfeit)
        await hub.start()
        app.state.hub = hub
        attach_solitaire(hub)
        settle_collector()  # a server that owns its process: see pyramids.web.collector
        name_look("")  # reads the look-alike table now, not on the event loop's first name
        try:
            yield
        finally:
            await hub.stop()
            accounts.close()

    # No /docs or /redoc: FastAPI's pages load their scripts from a CDN, which the
    # pages' own Content-Security-Policy forbids (and visitors' browsers should not
    # fetch). /openapi.json describes the API for any viewer.
    app = FastAPI(title="pyramids server", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.limits = limits
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, max_depth=limits.max_json_depth)
    app.add_middleware(RateLimit, rate=limits.http_per_second, burst=limits.http_burst)
    app.add_middleware(SecurityHeaders)
    accounts = mount_accounts(app, storage.engine)

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    @app.exception_handler(RoomError)
    async def room_error(request: Request, error: RoomError) -> Response:
        headers = None
        if error.status == 429:
            headers = {"Retry-After": retry_after(error.retry_after or 60)}
        message = words_text(error, client_language(request))
        page = missing_page_answer(request, error.status, message)
        return page or refusal(request, error.status, error.code, error, headers)

    @app.exception_handler(UnknownGameError)
    async def unknown_game(request: Request, error: UnknownGameError) -> JSONResponse:
        return refusal(request, 400, "unknown_game", error)

    @app.exception_handler(OptionError)
    async def bad_option(request: Request, error: OptionError) -> JSONResponse:
        return refusal(request, 400, "bad_option", error)

    @app.exception_handler(PyramidsError)
    async def pyramids_error(request: Request, error: PyramidsError) -> JSONResponse:
        return refusal(request, 400, "bad_request", error)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        lang = client_language(request)
        media = request.headers.get("content-type", "").split(";")[0].strip().lower()
        about_body = any(tuple(problem.get("loc", ()))[:1] == ("body",)
                         for problem in error.errors())
        if about_body and media != "application/json":
            # FastAPI reads a body of another type as no JSON at all; say so rather
            # than call the body's shape wrong.
            if media:
                message = _("the body should be JSON, sent with Content-Type: "
                            "application/json (this one came as {media})",
                            lang=lang, media=media[:100])
            else:
                message = _("the body should be JSON, sent with Content-Type: "
                            "application/json (this one came without a type)", lang=lang)
            return error_response(400, "bad_request", message)
        return error_response(400, "bad_request", _describe_validation(error, lang))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        detail = str(error.detail)
        if detail in HTTP_WORDS:
            detail = _(HTTP_WORDS[detail], lang=client_language(request))
        if error.status_code == 404:
            page = missing_page_answer(request, 404, _("There is nothing at {path}.",
                                                       lang=client_language(request),
                                                       path=request.url.path[:200]))
            if page is not None:
                return page
        # Starlette names the allowed methods of a 405 in its headers (Allow).
        headers = dict(error.headers or {})
        if error.status_code == 405 and headers.get("Allow"):
            detail = _("{method} is not allowed at {path}; it takes {allowed}",
                       lang=client_language(request), method=request.method,
                       path=request.url.path[:200], allowed=headers["Allow"])
        return error_response(error.status_code, code, detail, headers or None)

    # A specific class: handled inside the app (a clean answer, no traceback logged),
    # not by the last-resort handler below, which re-raises to the server.
    @app.exception_handler(sa.exc.OperationalError)
    async def storage_error(request: Request, error: Exception) -> JSONResponse:
        trouble = storage_trouble(error)
        if trouble is None:
            log.error("unhandled database error", exc_info=error)
            return error_response(500, "server_error", _(
                "the server failed; nothing was changed", lang=client_language(request)))
        log.error(STORAGE_TROUBLE_LOG, trouble)
        return error_response(503, "storage_unavailable", _(
            "the server cannot save anything right now; nothing was changed, try again "
            "in a minute", lang=client_language(request)),
            {"Retry-After": str(STORAGE_RETRY_SECONDS)})

    @app.exception_handler(Exception)
    async def server_error(request: Request, _error: Exception) -> JSONResponse:
        log.exception("unhandled error")
        return error_response(500, "server_error", _("the server failed; nothing was changed",
                                                     lang=client_language(request)))

    @app.get("/api/games")
    async def list_games(lang: str | None = None) -> dict[str, Any]:
        # Any text is accepted: a language without a catalogue gets English.
        language = negotiate(lang)
        return {"games": game_catalogue(language), "agents": agent_names(),
                "levels": {level: _(level_description(level), lang=language)
                           for level in LEVELS},
                # The longest turn clock a ranked room may have: the lobby offers no more.
                "ranked_clock": ranked_clock_bounds()}

    @app.post("/api/games/{name}/ranked-options", responses=ERRORS)
    async def ranked_options(name: str, body: RankedQuestion) -> dict[str, Any]:
        # The lobby asks when "ranked" is ticked, and chooses these for the player: the
        # game's own rule, the one behind the refusal `ranked_unfair_options`.
        manifest = game_manifest(name)
        if manifest.ranked_options is None:
            return {"options": {}}
        specs = manifest.factory().option_specs
        return {"options": manifest.ranked_options(resolve_options(name, specs, body.options))}

    @app.post("/api/rooms", status_code=201, responses=ERRORS)
    async def create_room(body: CreateRoom, request: Request) -> dict[str, Any]:
        wait = room_creations.take(client_of(request.scope))
        if wait > 0:
            raise RoomError(
                "rate_limited",
                Words(N_("too many new rooms: at most {most} a minute from one address; try "
                         "again in {seconds} s"), most=limits.rooms_created_per_minute,
                      seconds=retry_after(wait)),
                429, retry_after=wait,
            )
        check_room_options(body.game, body.options, allow_file_options)
        settings = RoomSettings(
            bot_takeover_seconds=body.bot_takeover_seconds,
            takeover_agent=body.takeover_agent,
            bot_delay_seconds=body.bot_delay_seconds,
            ranked=body.ranked,
            time_control=body.time_control,
        )
        live, host_token = await hub_of(request).create_room(
            body.game, body.options, body.seed, settings, client_of(request.scope),
            body.unlisted,
        )
        return {"room": live.room.summary(), "host_token": host_token}

    @app.get("/api/rooms", responses=ERRORS)
    async def list_rooms(request: Request, status: str = "open") -> dict[str, Any]:
        hub = hub_of(request)
        if status not in ROOM_STATUSES:
            raise RoomError(
                "bad_status", Words(N_("unknown status '{status}'; allowed: {allowed}"),
                                    status=status[:64], allowed=", ".join(ROOM_STATUSES))
            )
        if status == "open":
            return {"rooms": await hub.open_rooms()}
        return {"rooms": await hub.rooms_with_status(status)}

    @app.get("/api/rooms/{room_id}", responses=ERRORS)
    async def get_room(room_id: str, request: Request) -> dict[str, Any]:
        return {"room": await hub_of(request).summary(room_id)}

    @app.post("/api/rooms/{room_id}/seats", status_code=201, responses=ERRORS)
    async def take_seat(room_id: str, body: TakeSeat, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        live = await hub.get(room_id, client_of(request.scope))
        account = await seat_account(request)
        if account is None:
            await check_guest_name(request, body.name)
        seat, token = await hub.take_seat(live, body.name, body.seat, account)
        return {"room": live.room.summary(), "seat": seat.index, "token": token}

    @app.post("/api/rooms/{room_id}/seats/claim", responses={
        **ERRORS, 401: {"model": ErrorAnswer, "description": "not logged in"}})
    async def claim_seat(room_id: str, body: ClaimSeat, request: Request) -> dict[str, Any]:
        """Play here: the logged-in account plays the seat it holds on this device (a new
        seat token; the one its other device held stops working)."""
        hub = hub_of(request)
        live = await hub.get(room_id, client_of(request.scope))
        account = await seat_account(request)
        if account is None:
            raise RoomError("not_logged_in", Words(N_(
                "log in to the account that holds the seat to play it on this device")), 401)
        seat, token = await hub.claim_seat(live, body.seat, account)
        return {"room": live.room.summary(), "seat": seat.index, "token": token}

    @app.post("/api/rooms/{room_id}/leave", responses=ERRORS)
    async def leave_seat(room_id: str, body: Start, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        live = await hub.get(room_id, client_of(request.scope))
        await hub.free_seat(live, body.token, None, kick=False)
        return {"room": live.room.summary()}

    @app.post("/api/rooms/{room_id}/kick", responses=ERRORS)
    async def kick_seat(room_id: str, body: Kick, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        live = await hub.get(room_id, client_of(request.scope))
        await hub.free_seat(live, body.token, body.seat, kick=True)
        return {"room": live.room.summary()}

    @app.post("/api/rooms/{room_id}/abort", responses=ERRORS)
    async def abort_room(room_id: str, body: Start, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        live = await hub.get(room_id, client_of(request.scope))
        await hub.abort(live, body.token)
        return {"room": live.room.summary()}

    admin_hash = None if admin_token is None else hashlib.sha256(admin_token.encode()).digest()

    def check_operator(request: Request) -> None:
        if admin_hash is None:
            raise RoomError("no_operator", Words(N_(
                "this server has no operator token; start it with --admin-token-file to use "
                "/api/admin")), 404)
        given = request.headers.get("authorization", "")
        scheme, _space, token = given.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(
                hashlib.sha256(token.strip().encode("utf-8", "surrogatepass")).digest(),
                admin_hash):
            raise RoomError("bad_operator_token", Words(N_(
                "missing or wrong operator token: send the header 'Authorization: Bearer' "
                "and the token in the server's --admin-token-file")), 403)

    @app.post("/api/admin/rooms/{room_id}/close", responses=ERRORS)
    async def close_room(room_id: str, request: Request) -> dict[str, Any]:
        check_operator(request)
        hub = hub_of(request)
        live = await hub.get(room_id, client_of(request.scope))
        await hub.close_by_operator(live)
        return {"room": live.room.summary()}

    async def sanction(request: Request, name: str, muted: bool | None = None,
                       banned: bool | None = None) -> dict[str, Any]:
        check_operator(request)
        hub = hub_of(request)
        found = await hub.run_db(accounts.store.sanction, name, muted, banned)
        if found is None:
            raise RoomError("unknown_account", Words(N_(
                "no account is named '{name}'"), name=shown_value(name[:64])), 404)
        account_id, account_name, now_muted, now_banned = found
        if banned:
            ended = hub.end_banned(account_id)
            log.info("account %d banned by the server's operator (%d seat sockets closed)",
                     account_id, ended)
            await hub.announce_ban(account_id)  # the other processes of a cluster
        elif banned is False:
            log.info("account %d: ban lifted by the server's operator", account_id)
        if muted is not None:
            log.info("account %d: chat %s by the server's operator", account_id,
                     "muted" if muted else "unmuted")
        return {"account": {"name": account_name, "chat_muted": now_muted,
                            "banned": now_banned}}

    @app.post("/api/admin/accounts/{name}/mute", responses=ERRORS)
    async def mute_account(name: str, body: Mute, request: Request) -> dict[str, Any]:
        return await sanction(request, name, muted=body.muted)

    @app.post("/api/admin/accounts/{name}/ban", responses=ERRORS)
    async def ban_account(name: str, body: Ban, request: Request) -> dict[str, Any]:
        return await sanction(request, name, banned=body.banned)

    @app.post("/api/rooms/{room_id}/agents", responses=ERRORS)
    async def give_seat(room_id: str, body: GiveSeat, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        live = await hub.get(room_id, client_of(request.scope))
        await hub.give_to_agent(live, body.token, body.seat, body.agent)
        return {"room": live.room.summary()}

    @app.post("/api/rooms/{room_id}/start", responses=ERRORS)
    async def start(room_id: str, body: Start, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        live = await hub.get(room_id, client_of(request.scope))
        await hub.start_room(live, body.token)
        return {"room": live.room.summary()}

    @app.get("/api/rooms/{room_id}/record", responses=ERRORS)
    async def record(room_id: str, request: Request) -> dict[str, Any]:
        return await hub_of(request).record(room_id)

    @app.get("/api/limits")
    async def list_limits() -> dict[str, Any]:
        return {"limits": limits.describe(), "option_maximum": SERVER_OPTION_MAXIMUM,
                "game_option_maximum": {manifest.name: game_option_maximum(manifest.name)
                                        for manifest in manifests()
                                        if manifest.server_option_maximum}}

    @app.websocket("/ws/rooms/{room_id}")
    async def websocket(websocket: WebSocket, room_id: str) -> None:
        await room_socket(websocket, hub_of(websocket), room_id)

    mount_chat(app)
    mount_replay(app)
    mount_solitaire(
        app, lambda game, options: check_room_options(game, options, allow_file_options),
        room_creations, today,
    )
    _errors_are_400(app)
    return app


def _errors_are_400(app: FastAPI) -> None:
    """The schema says what is sent: bad input is 400 with the error body, never 422."""
    make_schema = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = make_schema()
            for path in schema.get("paths", {}).values():
                for operation in path.values():
                    responses = operation.get("responses", {})
                    responses.pop("422", None)
            components = schema.get("components", {}).get("schemas", {})
            components.pop("HTTPValidationError", None)
            components.pop("ValidationError", None)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def app_from_env() -> FastAPI:
    """For `uvicorn --factory pyramids.web.app:app_from_env`: the DB URL from PYRAMIDS_DB_URL.

    A database a newer version of pyramids upgraded is refused as `pyramids serve`
    refuses it: one log line in words, and exit status 2 (no traceback)."""
    url = os.environ.get("PYRAMIDS_DB_URL") or DEFAULT_DB_URL
    newer = newer_schema(url)
    if newer:
        # uvicorn's own log, where its other start-up errors go (else this package's).
        server_log = logging.getLogger("uvicorn.error")
        (server_log if server_log.hasHandlers() else log).error(
            "%s", _(NEWER_SCHEMA, db=shown_url(url), revisions=", ".join(newer)))
        raise SystemExit(2)
    return create_app(url)


__all__ = ["DEFAULT_DB_URL", "MAX_BODY_BYTES", "MAX_MESSAGE_BYTES", "create_app", "app_from_env"]
