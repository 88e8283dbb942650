"""Temple of Inscriptions views as plain text (the `text_renderer` companion)."""

from __future__ import annotations

from typing import Any


def _counts(counts: dict[str, int]) -> str:
    return " ".join(f"{kind}x{count}" for kind, count in counts.items()) or "-"


def render_temple(view: dict[str, Any]) -> str:
    built = view["built"]
    lines = [
        f"Round {view['round']}, phase {view['phase']}, start player seat {view['start_player']}; "
        f"levels built {built}/9; pile {view['pile_size']} card(s)",
        "Temple: " + " ".join(
            f"[L{level}]" if level <= built else f" L{level} " for level in range(1, 10)
        ),
    ]
    construction = view.get("construction")
    if construction:
        sets = "; ".join(
            f"seat {entry['player'] + 1} set {entry['cards']} card(s) + "
            f"{entry['jewel_pairs']} jewel pair(s)"
            for entry in construction.get("sets", [])
        )
        lines.append(
            f"Construction of L{construction['level']} by seat {construction['summoner']}: "
            f"{construction['units']}/5 units, {construction['missing']} missing"
            + (f" ({sets})" if sets else "")
        )
    for seat in range(view["players"]):
        you = " (you)" if seat == view.get("viewer") else ""
        lines.append(
            f"  seat {seat + 1}{you}: treasure {view['treasure'][seat]}, "
            f"{view['hand_sizes'][seat]} card(s), known in hand: {_counts(view['known'][seat])}"
        )
    zone = " ".join(f"{slot}:{kind or '-'}" for slot, kind in enumerate(view["swap_zone"], 1))
    lines.append(f"Swap zone: {zone}")
    lines.append(f"Discard pile: {_counts(view['discard'])}")
    if view.get("viewer") is not None:
        lines.append(f"Your hand: {_counts(view.get('hand') or {})}")
    if view.get("scores") is not None:
        lines.append(f"Final scores: {view['scores']}; winner(s): {view.get('winners')}")
    return "\n".join(lines)
