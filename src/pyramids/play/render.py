"""Views as plain text, for the line-prompt player, `pyramids replay` and the terminal app.

A game draws itself with the `text_renderer` its manifest names; a game without
one (a plugin's first draft) is said to have no drawing, in words: its view's
fields are the game's internal keys ("to move: 0", a seat counted from 0), which
a player does not read. The interfaces list its moves in words below it.
`outline` is the view's fields as an indented outline, for those who debug a game.
"""

from __future__ import annotations

import shutil
from typing import Any

from pyramids.core import companion_of, find_manifest
from pyramids.play.i18n import _, speaking


def terminal_width() -> int:
    """Columns of the terminal the text is for (its `COLUMNS`, else 80)."""
    return shutil.get_terminal_size((80, 24)).columns


def render_view(game: str, view: dict[str, Any], lang: str | None = None) -> str:
    """The view as the game draws it, in `lang` (None: the run's language)."""
    renderer = companion_of(game, "text_renderer")
    with speaking(lang):
        if renderer is None:
            return no_drawing(game)
        try:
            text: str = renderer(view)
            return text
        except (KeyError, TypeError, ValueError, IndexError):
            # A view shape the drawing does not know yet still gets shown.
            return outline(view)


def no_drawing(game: str) -> str:
    """What a game without a drawing of its own shows where its board would be."""
    manifest = find_manifest(game)
    title = _(manifest.display_title) if manifest is not None else game
    return _("{game} has no drawing of its board here; follow the game by its moves.",
             game=title)


def outline(value: Any, indent: int = 0) -> str:
    return "\n".join(_outline_lines(value, indent))


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _scalar(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _outline_lines(value: Any, indent: int) -> list[str]:
    pad = "  " * indent
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            label = str(key).replace("_", " ")
            if _is_scalar(item):
                lines.append(f"{pad}{label}: {_scalar(item)}")
            elif isinstance(item, list) and all(_is_scalar(x) for x in item):
                lines.append(f"{pad}{label}: [{' '.join(_scalar(x) for x in item)}]")
            elif not item:
                lines.append(f"{pad}{label}: -")
            else:
                lines.append(f"{pad}{label}:")
                lines.extend(_outline_lines(item, indent + 1))
        return lines
    if isinstance(value, list):
        lines = []
        for number, item in enumerate(value):
            if _is_scalar(item) or (isinstance(item, list) and all(_is_scalar(x) for x in item)):
                text = (
                    _scalar(item)
                    if _is_scalar(item)
                    else "[" + " ".join(_scalar(x) for x in item) + "]"
                )
                lines.append(f"{pad}{number}: {text}")
            else:
                lines.append(f"{pad}{number}:")
                lines.extend(_outline_lines(item, indent + 1))
        return lines
    return [pad + _scalar(value)]
