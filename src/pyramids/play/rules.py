"""A game's rules page as text, for `pyramids rules`, `rules` at the prompt and F1."""

from __future__ import annotations

from pyramids.core import game_manifest
from pyramids.play.i18n import _


def rules_text(game: str) -> str:
    """The rules page in Markdown (a short note when the game has none)."""
    manifest = game_manifest(game)
    if manifest.rules_page is None:
        return f"# {_(manifest.display_title)}\n\n" + _("This game has no rules page.")
    return manifest.rules_page()
