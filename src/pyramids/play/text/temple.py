"""Temple of Inscriptions views as plain text (the `text_renderer` companion)."""

from __future__ import annotations

from typing import Any

from pyramids.play.i18n import _, format_number, ngettext


def _counts(counts: dict[str, int]) -> str:
    return " ".join(f"{kind}x{count}" for kind, count in counts.items()) or "-"


def _phase(name: str) -> str:
    words = {"swap": _("swap"), "summon": _("summon"), "set": _("set cards"),
             "over": _("game over")}
    return words.get(name, name)


def _seats(seats: list[int]) -> str:
    return ", ".join(_("seat {number}", number=seat + 1) for seat in seats)


def render_temple(view: dict[str, Any]) -> str:
    built = view["built"]
    lines = [
        _("Round {round}, phase: {phase}, start player: seat {start}; levels built {built}/9; "
          "pile {pile}", round=view["round"], phase=_phase(view["phase"]),
          start=view["start_player"] + 1, built=built,
          pile=ngettext("{count} card", "{count} cards", view["pile_size"])),
        _("Temple:") + " " + " ".join(
            f"[L{level}]" if level <= built else f" L{level} " for level in range(1, 10)
        ),
    ]
    construction = view.get("construction")
    if construction:
        sets = "; ".join(
            _("seat {number} set {cards} and {pairs}", number=entry["player"] + 1,
              cards=ngettext("{count} card", "{count} cards", entry["cards"]),
              pairs=ngettext("{count} jewel pair", "{count} jewel pairs", entry["jewel_pairs"]))
            for entry in construction.get("sets", [])
        )
        lines.append(
            _("Construction of L{level}, summoned by seat {number}: {units}/5 units, "
              "{missing} missing", level=construction["level"],
              number=construction["summoner"] + 1, units=construction["units"],
              missing=construction["missing"])
            + (f" ({sets})" if sets else "")
        )
    for seat in range(view["players"]):
        label = (_("seat {number} (you)", number=seat + 1) if seat == view.get("viewer")
                 else _("seat {number}", number=seat + 1))
        lines.append("  " + label + ": " + _(
            "treasure {treasure}, {cards}, known in hand: {known}",
            treasure=format_number(view["treasure"][seat]),
            cards=ngettext("{count} card", "{count} cards", view["hand_sizes"][seat]),
            known=_counts(view["known"][seat])))
    zone = " ".join(f"{slot}:{kind or '-'}" for slot, kind in enumerate(view["swap_zone"], 1))
    lines.append(_("Swap zone: {zone}", zone=zone))
    lines.append(_("Discard pile: {cards}", cards=_counts(view["discard"])))
    if view.get("viewer") is not None:
        lines.append(_("Your hand: {cards}", cards=_counts(view.get("hand") or {})))
        if view["phase"] == "set" and construction:
            # What the move list's `set C J` means (L = a level's cards, J = jewels).
            lines.append(_("To set: 'set C J' lays C cards of level {level} and J pairs of "
                           "jewel cards (each pair is one unit); 'set 0 0' sets "
                           "nothing.", level=construction["level"]))
    if view.get("scores") is not None:
        scores = ", ".join(_("seat {number}: {points}", number=seat + 1,
                             points=format_number(points))
                           for seat, points in enumerate(view["scores"]))
        lines.append(_("Final scores: {scores}; won by {winners}", scores=scores,
                       winners=_seats(view.get("winners") or [])))
    return "\n".join(lines)
