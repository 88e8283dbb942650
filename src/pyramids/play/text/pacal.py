"""Pacal and Pacal solo views as plain text (the `text_renderer` companions)."""

from __future__ import annotations

from typing import Any


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
        cells = [text for _, text in sorted(rows[row])]
        lines.append(" " * ((deepest - row) * (cell // 2 + 1)) + " ".join(cells))
    return lines


def render_pacal(view: dict[str, Any]) -> str:
    layout = view["layout"]
    viewer = view["viewer"]
    legal = view.get("legal_fields") or []
    wins = view["round_wins"]
    lines = [
        f"Round {view['round']} (first to {view['rounds_to_win']} round wins): "
        f"round wins seat 0: {wins[0]}, seat 1: {wins[1]}; phase: {view['phase']}",
    ]
    if view.get("revealed_apex_bases") and view["round"] == 1:
        bases = view["revealed_apex_bases"]
        lines.append(f"Revealed apex bases: seat 0: {bases[0]}, seat 1: {bases[1]}")
    order = [0, 1] if viewer is None else [1 - viewer, viewer]
    for seat in order:
        who = "you" if seat == viewer else ("opponent" if viewer is not None else "")
        title = f"Seat {seat}" + (f" ({who})" if who else "")
        lines.append(
            f"{title}: spread {view['spreads'][seat]}, {view['hand_sizes'][seat]} card(s) in hand"
        )
        marks = legal if seat == viewer else None
        lines.extend(pacal_pyramid_lines(view["pyramids"][seat], layout, marks))
        if seat != order[-1] and view.get("offer"):
            lines.append(f"Offer: {' and '.join(str(card) for card in view['offer'])}")
    if viewer is not None:
        lines.append("Your hand: " + " ".join(str(card) for card in view.get("hand", [])))
        if view.get("card_to_place") is not None:
            fields = ", ".join(f"F{number}" for number in legal) or "none"
            lines.append(f"Card to place: {view['card_to_place']} (legal fields: {fields})")
    last = view.get("last_round")
    if last and isinstance(last, dict) and last.get("winner") is not None:
        lines.append(f"Last round won by seat {last['winner']}")
    return "\n".join(lines)


def render_pacal_solo(view: dict[str, Any]) -> str:
    legal = view.get("legal_fields") or []
    lines = [f"Draws: {view['draws']}, pile: {view['pile_size']} card(s), spread {view['spread']}"]
    lines.extend(pacal_pyramid_lines(view["pyramid"], view["layout"], legal))
    if view.get("card") is not None:
        fields = ", ".join(f"F{number}" for number in legal) or "none"
        lines.append(f"Card to place: {view['card']} (legal fields: {fields})")
    if view.get("result") not in (None, "playing"):
        lines.append(f"Result: {view['result']}")
    return "\n".join(lines)
