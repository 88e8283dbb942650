"""The learn pages: each game explained for players, in English and Korean.

A page is Markdown with the sections About, Components, Rules, Strategy, FAQ
and Our decisions; a game's manifest gives it (`learn_page(lang)`). Where a
game has no page in a language the English one is shown, and where it has none
at all, its rules page. `pyramids rules GAME`, F1 in the terminal app and
`/learn/<game>` in the browser show the same text.
"""

from __future__ import annotations

from pyramids.core import game_manifest
from pyramids.play.i18n import DEFAULT, _, current_language
from pyramids.play.rules import rules_text

SECTIONS = ("About", "Components", "Rules", "Strategy", "FAQ", "Our decisions")


def learn_text(game: str, lang: str | None = None) -> str:
    """The learn page of `game` in `lang` (the process language if None)."""
    manifest = game_manifest(game)
    code = lang or current_language()
    if manifest.learn_page is not None:
        for candidate in (code, DEFAULT):
            page = manifest.learn_page(candidate)
            if page:
                return page
    if manifest.rules_page is not None:
        return rules_text(game)
    return ("# " + _(manifest.display_title, lang=code) + "\n\n"
            + _("This game has no rules page.", lang=code))
