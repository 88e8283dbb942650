"""The language a client reads: `?lang=`, then the cookie its language switch sets,
then its `Accept-Language` header. Pages, error replies and the room socket
all ask here, so a client reads one language everywhere."""

from __future__ import annotations

from typing import TypeVar

from starlette.requests import HTTPConnection
from starlette.responses import Response

from pyramids.core.errors import N_, Words
from pyramids.play.i18n import LANGUAGES, UnknownLanguageError, check_language, negotiate

LANG_COOKIE = "pyramids_lang"
Answer = TypeVar("Answer", bound=Response)
COOKIE_SECONDS = 365 * 24 * 3600


def client_language(connection: HTTPConnection) -> str:
    """The language for this request or socket (English when nothing says otherwise)."""
    for candidate in (connection.query_params.get("lang"), connection.cookies.get(LANG_COOKIE)):
        if candidate:
            try:
                return check_language(candidate)
            except UnknownLanguageError:
                continue
    return negotiate(connection.headers.get("accept-language"))


def asked_language(connection: HTTPConnection) -> str | None:
    """The language a page's address asks for (`?lang=ko`), when it has a catalogue."""
    asked = connection.query_params.get("lang")
    if not asked:
        return None
    try:
        return check_language(asked)
    except UnknownLanguageError:
        return None


def remember_language(response: Answer, connection: HTTPConnection) -> Answer:
    """A page opened with `?lang=` remembers it as the pages' language switch does (the
    cookie every page and the room socket read), so a shared link's language holds on
    the pages reached from it. An unknown `?lang=` changes nothing."""
    asked = asked_language(connection)
    if asked is not None:
        response.set_cookie(LANG_COOKIE, asked, max_age=COOKIE_SECONDS, samesite="lax")
    return response


def unknown_language(lang: str) -> Words:
    """The refusal of a language with no catalogue, in the language the client reads."""
    return Words(N_("no messages in language '{language}'; allowed: {allowed}"),
                 language=lang[:40], allowed=", ".join(LANGUAGES))
