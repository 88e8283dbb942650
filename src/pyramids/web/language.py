"""The language a client reads: `?lang=`, then the cookie its language switch sets,
then its `Accept-Language` header. Pages, error replies and the room socket
all ask here, so a client reads one language everywhere."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from pyramids.core.errors import N_, Words
from pyramids.play.i18n import LANGUAGES, UnknownLanguageError, check_language, negotiate

LANG_COOKIE = "pyramids_lang"


def client_language(connection: HTTPConnection) -> str:
    """The language for this request or socket (English when nothing says otherwise)."""
    for candidate in (connection.query_params.get("lang"), connection.cookies.get(LANG_COOKIE)):
        if candidate:
            try:
                return check_language(candidate)
            except UnknownLanguageError:
                continue
    return negotiate(connection.headers.get("accept-language"))


def unknown_language(lang: str) -> Words:
    """The refusal of a language with no catalogue, in the language the client reads."""
    return Words(N_("no messages in language '{language}'; allowed: {allowed}"),
                 language=lang[:40], allowed=", ".join(LANGUAGES))
