"""Nim as plain text, for `pyramids play --plain`, the terminal app, `replay`, and
the browser where a game has no renderer of its own.

The words go through pyramids' catalogue, which reads Nim's own Korean
(locale/ko.po, named in the manifest): `pyramids --lang ko play toy-nim --plain`.
"""

from __future__ import annotations

from typing import Any

from pyramids.play.i18n import _, ngettext


def render(view: dict[str, Any]) -> str:
    stones: int = view["stones"]
    pile = "o" * stones or _("(empty)")
    return ngettext("Pile: {pile} ({count} stone)", "Pile: {pile} ({count} stones)",
                    stones, pile=pile)
