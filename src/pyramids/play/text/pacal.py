"""Pacal and Pacal solo views as plain text (the `text_renderer` companions)."""

from __future__ import annotations

from typing import Any

from pyramids.play.i18n import _, ngettext


def pacal_field_label(number: int, cards: list[int]) -> str:
    """`F3 27` open, `F3 27/12` closed (27 covers 12), `F3 ..` empty."""
    if not cards:
        return f"F{number} .."
    if len(cards) == 1:
        return f"F{number} {cards[0]}"
    return f"F{number} {cards[1]}/{cards[0]}"


def pacal_pyramid_lines(
    fields: list[list[int]], layout: list[list[int]], legal: list[int] | None = None
) -> list[str]:
    """The pyramid as rows of 1, 2, 3 and 4 fields; legal fields marked with `*`."""
    cell = 11
    rows: dict[int, list[tuple[int, str]]] = {}
    for index, (row, column) in enumerate(layout):
        label = pacal_field_label(index + 1, fields[index])
        if legal and index + 1 in legal:
            label += "*"
        rows.setdefault(row, []).append((column, f"[{label:^{cell - 2}}]"))
    deepest = max(rows) if rows else 0
    lines = []
    for row in sorted(rows):
        cells = [text for _column, text in sorted(rows[row])]
        lines.append(" " * ((deepest - row) * (cell // 2 + 1)) + " ".join(cells))
    return lines


def _phase(name: str) -> str:
    words = {
        "offer": _("offer"), "pick": _("pick"), "place": _("place"),
        "last_card": _("last card"), "over": _("game over"), "playing": _("playing"),
        "won": _("won"), "lost": _("lost"),
    }
    return words.get(name, name)


def render_pacal(view: dict[str, Any]) -> str:
    layout = view["layout"]
    viewer = view["viewer"]
    legal = view.get("legal_fields") or []
    wins = view["round_wins"]
    lines = [
        _("Round {round} (first to {target} round wins): seat 1 has {wins1}, seat 2 has "
          "{wins2}; phase: {phase}", round=view["round"], target=view["rounds_to_win"],
          wins1=wins[0], wins2=wins[1], phase=_phase(view["phase"])),
    ]
    if view.get("revealed_apex_bases") and view["round"] == 1:
        bases = view["revealed_apex_bases"]
        lines.append(_("Revealed apex cards (the higher starts): seat 1: {first}, seat 2: "
                       "{second}", first=bases[0], second=bases[1]))
    order = [0, 1] if viewer is None else [1 - viewer, viewer]
    for seat in order:
        if seat == viewer:
            title = _("Seat {number} (you)", number=seat + 1)
        elif viewer is not None:
            title = _("Seat {number} (opponent)", number=seat + 1)
        else:
            title = _("Seat {number}", number=seat + 1)
        lines.append(title + ": " + _("spread {spread}, {cards} in hand",
                                      spread=view["spreads"][seat],
                                      cards=ngettext("{count} card", "{count} cards",
                                                     view["hand_sizes"][seat])))
        marks = legal if seat == viewer else None
        lines.extend(pacal_pyramid_lines(view["pyramids"][seat], layout, marks))
        # The offer while it waits to be picked (the view keeps it through the placing).
        if seat != order[-1] and view.get("offer") and view.get("phase") == "pick":
            lines.append(_("Offer: {first} and {second}", first=view["offer"][0],
                           second=view["offer"][1]))
    if viewer is not None:
        lines.append(_("Your hand: {cards}",
                       cards=" ".join(str(card) for card in view.get("hand", []))))
        if view.get("card_to_place") is not None:
            fields = ", ".join(f"F{number}" for number in legal) or _("none")
            lines.append(_("Card to place: {card} (legal fields: {fields})",
                           card=view["card_to_place"], fields=fields))
    last = view.get("last_round")
    if last and isinstance(last, dict) and last.get("winner") is not None:
        lines.append(_("Last round won by seat {number}", number=last["winner"] + 1))
    return "\n".join(lines)


def render_pacal_solo(view: dict[str, Any]) -> str:
    legal = view.get("legal_fields") or []
    lines = [_("Draws: {draws}, pile: {pile}, spread {spread}", draws=view["draws"],
               pile=ngettext("{count} card", "{count} cards", view["pile_size"]),
               spread=view["spread"])]
    lines.extend(pacal_pyramid_lines(view["pyramid"], view["layout"], legal))
    if view.get("card") is not None:
        fields = ", ".join(f"F{number}" for number in legal) or _("none")
        lines.append(_("Card to place: {card} (legal fields: {fields})", card=view["card"],
                       fields=fields))
    if view.get("result") not in (None, "playing"):
        lines.append(_("Result: {result}", result=_phase(view["result"])))
    return "\n".join(lines)
