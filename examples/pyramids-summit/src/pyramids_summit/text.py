"""Summit as plain text, for `pyramids play --plain`, the terminal app, `replay`, and
the browser (which shows this drawing when a game has no renderer of its own).

The words go through pyramids' catalogue, which reads the game's own Korean
(locale/ko.po, named in the manifest): `pyramids --lang ko play summit --plain`.
"""

from __future__ import annotations

from typing import Any

from pyramids.play.i18n import _, ngettext


def render(view: dict[str, Any]) -> str:
    lines = [ngettext("Stone: {stone}; the deck holds {count} card",
                      "Stone: {stone}; the deck holds {count} cards",
                      view["deck_size"], stone=view["stone"])]
    for seat, step in enumerate(view["steps"]):
        lines.append(ngettext("Seat {number}: step {step} of {height}, {count} card in hand",
                              "Seat {number}: step {step} of {height}, {count} cards in hand",
                              view["hand_sizes"][seat], number=seat + 1, step=step,
                              height=view["height"]))
    if "hand" in view:
        cards = " ".join(map(str, view["hand"])) or _("(none)")
        lines.append(_("Your hand: {cards}", cards=cards))
    return "\n".join(lines)
