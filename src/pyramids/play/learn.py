"""The learn pages: each game explained for players, in English and Korean.

A page is Markdown with the sections About, Components, Rules, Strategy, FAQ
and Our decisions; a game's manifest gives it (`learn_page(lang)`). Where a
game has no page in a language the English one is shown, with a line under
its title saying so (`ENGLISH_ONLY`), and where it has none at all, its rules
page (English too). `pyramids rules GAME`, F1 in the terminal app and
`/learn/<game>` in the browser show the same text; `pyramids rules` says the
line on stderr instead, so that a page piped to a file stays as written.
"""

from __future__ import annotations

from pyramids.core import game_manifest
from pyramids.core.errors import N_
from pyramids.play.i18n import DEFAULT, _, current_language
from pyramids.play.rules import rules_text

SECTIONS = ("About", "Components", "Rules", "Strategy", "FAQ", "Our decisions")

#: Said to a reader whose language the game's page is not written in.
ENGLISH_ONLY = N_("This page is not in your language yet; here it is in English.")


def learn_page_in(game: str, lang: str | None = None) -> tuple[str, str]:
    """The learn page of `game` for a reader of `lang` (the process language if None),
    and the language it is written in: `lang`, or English where the game has no page
    in `lang`."""
    manifest = game_manifest(game)
    code = lang or current_language()
    if manifest.learn_page is not None:
        for candidate in (code, DEFAULT):
            page = manifest.learn_page(candidate)
            if page:
                return page, candidate
    if manifest.rules_page is not None:
        return rules_text(game), DEFAULT  # the rules as implemented are English
    return ("# " + _(manifest.display_title, lang=code) + "\n\n"
            + _("This game has no rules page.", lang=code)), code


def learn_text(game: str, lang: str | None = None) -> str:
    """The learn page of `game` in `lang` (the process language if None); a page in
    English for a reader of another language says so under its title."""
    code = lang or current_language()
    page, written_in = learn_page_in(game, code)
    if written_in == code:
        return page
    note = "*" + _(ENGLISH_ONLY, lang=code) + "*"
    title, _newline, rest = page.partition("\n")
    if not title.startswith("# "):
        return f"{note}\n\n{page}"
    body = rest.lstrip("\n")
    return f"{title}\n\n{note}\n\n{body}"
