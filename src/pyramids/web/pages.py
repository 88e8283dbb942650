"""The browser pages: the lobby at `/`, a room's page at `/play/{room_id}`, files at `/static`.

Plain HTML, CSS and JavaScript modules from `pyramids/web/static/` (no build step).
The pages talk to the server only through its public protocol (docs/server.md):
the JSON API under `/api` and the room WebSocket. `mount_pages(app)` adds them to
an app made by `pyramids.web.app.create_app`.
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from pyramids.core import UnknownGameError, game_manifest
from pyramids.core.errors import N_, Words
from pyramids.play.i18n import gettext
from pyramids.web.language import client_language, remember_language
from pyramids.web.learn import mount_learn
from pyramids.web.rooms import FINISHED, RoomError, check_manager_token, token_matches
from pyramids.web.tutorial import mount_tutorials

STATIC_DIR = Path(__file__).with_name("static")
NO_CACHE = {"Cache-Control": "no-cache"}


class RematchNotice(BaseModel):
    # strict: "0" is not a seat number, "yes" not true (nothing a client sends is coerced)
    model_config = ConfigDict(extra="forbid", strict=True)

    token: str = Field(max_length=200)
    room: str = Field(max_length=64)
    # The new room's host token: only the one who made the rematch may name it, so a
    # player cannot send the others to a room of someone else's (or to this one).
    room_token: str = Field(max_length=200)


class RematchQuestion(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    token: str = Field(max_length=200)


def static_page(name: str, request: Request) -> Response:
    """A page of `static/` in the reader's language; its address's `?lang=` (ko, en) is
    remembered as the language switch remembers a choice (its scripts read the address
    too)."""
    page = translated_page(name, client_language(request))
    return remember_language(HTMLResponse(page, headers=NO_CACHE), request)


# A start tag and the text after it, up to the next tag.
_TAG_AND_TEXT = re.compile(r"<(?P<tag>[a-zA-Z][\w-]*)(?P<attrs>[^<>]*)>(?P<text>[^<]*)")
_ATTRIBUTE = re.compile(r'(?P<name>[\w-]+)="(?P<value>[^"]*)"')
# The attributes the page's scripts translate (`translatePage` in common.js).
_TRANSLATED_ATTRIBUTES = {"data-i18n-title": "title", "data-i18n-placeholder": "placeholder",
                          "data-i18n-aria-label": "aria-label"}


@cache
def translated_page(name: str, lang: str) -> str:
    """A page with its marked words already in `lang`, as its scripts would put them
    (`translatePage`): a reader of Korean never sees the English shell while the
    scripts load, nor at all without scripts."""
    page = (STATIC_DIR / name).read_text(encoding="utf-8")
    if lang == "en":
        return page

    def words(marked: str) -> str:
        return html.escape(gettext(html.unescape(marked), lang), quote=True)

    def translate(match: re.Match[str]) -> str:
        attrs, text = match["attrs"], match["text"]
        found = {attr["name"]: attr["value"] for attr in _ATTRIBUTE.finditer(attrs)}
        if match["tag"] == "html":
            attrs = attrs.replace('lang="en"', f'lang="{lang}"')
        for marker, attribute in _TRANSLATED_ATTRIBUTES.items():
            if marker in found and attribute in found:
                attrs = attrs.replace(f'{attribute}="{found[attribute]}"',
                                      f'{attribute}="{words(found[marker])}"', 1)
        if "data-i18n" in found and text.strip():
            text = words(found["data-i18n"])
        return f"<{match['tag']}{attrs}>{text}"

    return _TAG_AND_TEXT.sub(translate, page)


def mount_pages(app: FastAPI) -> FastAPI:
    """Serve the lobby and game pages on `app` (once; a second call changes nothing)."""
    from pyramids.web.app import client_of  # loaded: `app` was made by create_app

    if getattr(app.state, "pages_mounted", False):
        return app
    app.state.pages_mounted = True

    @app.get("/", include_in_schema=False)
    async def lobby(request: Request) -> Response:
        return static_page("lobby.html", request)

    @app.get("/lobby", include_in_schema=False)
    async def lobby_alias(request: Request) -> RedirectResponse:
        # A link to "the lobby" by name (/lobby?lang=ko) opens the lobby, its query kept.
        query = request.url.query
        return RedirectResponse("/" + (f"?{query}" if query else ""))

    @app.get("/account", include_in_schema=False)
    async def account_page(request: Request) -> Response:
        return static_page("account.html", request)

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page(request: Request) -> Response:
        return static_page("leaderboard.html", request)

    @app.get("/play/{room_id}", include_in_schema=False)
    async def room_page(room_id: str, request: Request) -> Response:
        # The page reads the room id from its own address; an unknown room is
        # reported by the page, from the API's answer.
        return static_page("room.html", request)

    @app.get("/games/{name}/renderer.js", include_in_schema=False)
    async def game_renderer(name: str) -> Response:
        # The drawing of a game comes from its manifest, so a plugin game ships its
        # own; names that are not registered games answer 404 like any unknown file.
        try:
            source = game_manifest(name).web_renderer_source()
        except UnknownGameError:
            source = None
        if source is None:
            return Response(status_code=404)
        return Response(source, media_type="text/javascript", headers=NO_CACHE)

    @app.get("/play", include_in_schema=False)
    async def no_room() -> RedirectResponse:
        return RedirectResponse("/")

    # Where the rematch of a finished room is, so that every player of it finds the
    # new room. In the database (`rooms.rematch`): every server process of a cluster
    # answers the same, and a restart loses none.

    @app.post("/api/pages/rematch/{room_id}", include_in_schema=False)
    async def announce_rematch(
        room_id: str, body: RematchNotice, request: Request
    ) -> dict[str, Any]:
        hub = request.app.state.hub
        holders = await hub.holders(room_id)
        check_manager_token(body.token, holders.host_token_hash, holders.seat_token_hashes)
        # The row may lag where marking it finished failed; the replayed room does not.
        if holders.status != FINISHED and (
                await hub.get(room_id, client_of(request.scope))).room.status != FINISHED:
            raise RoomError("not_finished", Words(N_("room {room} is not finished; no rematch "
                                                     "yet"), room=room_id), 409)
        if body.room == room_id:
            raise RoomError("bad_rematch", Words(N_("a room cannot be its own rematch")), 400)
        rematch = await hub.holders(body.room)
        if not token_matches(body.room_token, rematch.host_token_hash):
            raise RoomError("not_host", Words(N_("only the host of room {room} may name it as "
                                                 "the rematch"), room=body.room), 403)
        return {"room": await hub.run_db(hub.storage.set_rematch, room_id, body.room)}

    @app.post("/api/pages/rematch/{room_id}/find", include_in_schema=False)
    async def find_rematch(
        room_id: str, body: RematchQuestion, request: Request
    ) -> dict[str, Any]:
        # Only the finished room's own players (or its host) learn where the rematch
        # is: it may be unlisted, and whoever knows its id may take a seat there.
        holders = await request.app.state.hub.holders(room_id)
        check_manager_token(body.token, holders.host_token_hash, holders.seat_token_hashes)
        return {"room": holders.rematch}

    mount_learn(app)
    mount_tutorials(app, static_page)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app


__all__ = ["STATIC_DIR", "mount_pages", "static_page"]
