"""The learn pages in the browser (`/learn/<game>`) and the message catalogue as JSON.

A learn page is the game's Markdown learn page (the same text `pyramids rules`
prints) turned into HTML on the server, with a language switch. The language is
the `lang` query parameter (remembered in a cookie), else the cookie, else the
browser's `Accept-Language`. `/api/i18n/<lang>` gives the pages the catalogue.
"""

from __future__ import annotations

import html
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt

from pyramids.core import GameManifest, UnknownGameError, game_manifest, manifests
from pyramids.core.errors import N_, Words
from pyramids.play.i18n import (
    LANGUAGE_NAMES,
    UnknownLanguageError,
    _,
    catalogue_json,
)
from pyramids.play.learn import learn_text
from pyramids.play.tutorial import tutorial_for
from pyramids.web.language import client_language, remember_language, unknown_language
from pyramids.web.rooms import RoomError

# Markdown from the game packages, never from clients; raw HTML in it stays text.
_markdown = MarkdownIt("commonmark", {"html": False}).enable("table")


def page_language(request: Request) -> str:
    """The language of a page: ?lang=, then the cookie, then Accept-Language."""
    return client_language(request)


def _switch(path: str, lang: str) -> str:
    links = []
    for code, name in LANGUAGE_NAMES.items():
        if code == lang:
            links.append(f'<strong aria-current="true">{html.escape(name)}</strong>')
        else:
            links.append(f'<a href="{path}?lang={code}" hreflang="{code}" lang="{code}">'
                         f"{html.escape(name)}</a>")
    label = html.escape(_("Language", lang=lang))
    return f'<nav class="languages" aria-label="{label}">' + " · ".join(links) + "</nav>"


def _page(title: str, body: str, lang: str, path: str) -> str:
    lobby = html.escape(_("Back to the lobby", lang=lang))
    return f"""<!doctype html>
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{html.escape(title)}</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/style.css">
</head>
<body class="learn">
  <header class="top">
    <h1><a href="/" title="{lobby}">Pyramids</a></h1>
    {_switch(path, lang)}
  </header>
  <main class="learn-page">
{body}
  </main>
</body>
</html>
"""


def missing_page(message: str, lang: str, path: str) -> str:
    """The page a browser gets for an address with nothing behind it (an unknown game or
    page): what was wrong, in words, and the way back, instead of the API's JSON."""
    title = _("Page not found", lang=lang)
    lobby = html.escape(_("Back to the lobby", lang=lang))
    learn = html.escape(_("Learn the games", lang=lang))
    body = (f"<h2>{html.escape(title)}</h2>\n<p>{html.escape(message)}</p>\n"
            f'<p><a class="button primary" href="/">{lobby}</a> '
            f'<a class="button" href="/learn?lang={lang}">{learn}</a></p>')
    return _page(title, body, lang, path)


def _tutorial_link(game: str, lang: str, named: bool = False) -> str:
    """A link to the game's tutorial page (`/tutorial/<game>`), or nothing without one.
    `named`: the link says its game ("Try the Pacal tutorial"), for a page that links
    several tutorials (a screen reader's list of links reads each name alone)."""
    if tutorial_for(game) is None:
        return ""
    if named:
        title = _(game_manifest(game).display_title, lang=lang)
        label = html.escape(_("Try the {game} tutorial", lang=lang, game=title))
    else:
        label = html.escape(_("Try the tutorial", lang=lang))
    return f'<a class="tutorial-link" href="/tutorial/{html.escape(game)}">{label}</a>'


def rules_html(text: str) -> str:
    """A learn page's Markdown as HTML, each heading one level down (its `#` title an
    h2): the page's one h1 is the header's, as on every other page, so a screen
    reader's list of headings has the site, then the page, then its sections."""
    tokens = _markdown.parse(text)
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(int(token.tag[1]) + 1, 6)}"
    rendered: str = _markdown.renderer.render(tokens, _markdown.options, {})
    return rendered


def learn_index_html(lang: str) -> str:
    items = "\n".join(
        f'<li><a href="/learn/{html.escape(m.name)}?lang={lang}">'
        f"<strong>{html.escape(_(m.display_title, lang=lang))}</strong></a> "
        f"{_tutorial_link(m.name, lang, named=True)}</li>"
        for m in manifests()
    )
    heading = html.escape(_("Learn the games", lang=lang))
    body = f"<h2>{heading}</h2>\n<ul class=\"learn-games\">\n{items}\n</ul>"
    return _page(_("Learn the games", lang=lang), body, lang, "/learn")


def _package(manifest: GameManifest) -> str:
    return manifest.factory.__module__.rpartition(".")[0]


def _related_links(game: str, lang: str) -> list[str]:
    """Links to the learn pages of the other games of the same box (Pacal and Pacal
    solo), each named by its game: a player who opened one finds the other's rules."""
    manifest = game_manifest(game)
    return [
        f'<a class="related-link" href="/learn/{quote(other.name)}?lang={lang}">'
        + html.escape(_("How to play: {game}", lang=lang,
                        game=_(other.display_title, lang=lang))) + "</a>"
        for other in manifests()
        if other.name != game and other.learn_page is not None
        and _package(other) == _package(manifest)
    ]


def learn_html(game: str, lang: str) -> str:
    manifest = game_manifest(game)
    body = rules_html(learn_text(game, lang))
    # Read the rules, then play: the lobby opens with this game chosen (a bot in the
    # other seats unless the player chooses otherwise).
    play = html.escape(_("Play a real game", lang=lang))
    links = " ".join(filter(None, (
        _tutorial_link(game, lang),
        f'<a class="play-link" href="/?game={quote(game)}">{play}</a>',
        *_related_links(game, lang))))
    # Under the page's title (the rules' first heading), so that it is read first.
    title_end = body.find("</h2>")
    cut = title_end + len("</h2>\n") if title_end >= 0 else 0
    body = f'{body[:cut]}<p class="tutorial-links">{links}</p>\n{body[cut:]}'
    # The tab says what the page is for: a room and a tutorial of the game are open too.
    title = _("How to play: {game}", lang=lang, game=_(manifest.display_title, lang=lang))
    return _page(title, body, lang, f"/learn/{game}")


def mount_learn(app: FastAPI) -> None:
    @app.get("/learn", include_in_schema=False)
    async def learn_index(request: Request) -> HTMLResponse:
        lang = page_language(request)
        return remember_language(HTMLResponse(learn_index_html(lang)), request)

    @app.get("/learn/{game}", include_in_schema=False)
    async def learn_game(game: str, request: Request) -> HTMLResponse:
        lang = page_language(request)
        try:
            page = learn_html(game, lang)
        except UnknownGameError:
            # A page for a person: the name as typed, in words, not the API's list of keys.
            raise RoomError("unknown_game", Words(N_("There is no game “{name}” here."),
                                                  name=game[:64]), 404) from None
        return remember_language(HTMLResponse(page), request)

    @app.get("/api/i18n/{lang}", include_in_schema=False)
    async def catalogue(lang: str) -> dict[str, Any]:
        try:
            return catalogue_json(lang)
        except UnknownLanguageError:
            raise RoomError("unknown_language", unknown_language(lang), 404) from None


__all__ = ["missing_page", "mount_learn", "page_language"]
