"""Views as plain text, for the line-prompt player and `pyramids replay`.

A game may have its own drawing in `TEXT_RENDERERS`; every other game gets the
view's fields as an indented outline, which is readable for any JSON-able view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

TextRenderer = Callable[[dict[str, Any]], str]
TEXT_RENDERERS: dict[str, TextRenderer] = {}


def render_view(game: str, view: dict[str, Any]) -> str:
    renderer = TEXT_RENDERERS.get(game) or TEXT_RENDERERS.get(game.split("-")[0])
    if renderer is not None:
        try:
            return renderer(view)
        except (KeyError, TypeError, ValueError, IndexError):
            # A view shape the drawing does not know yet still gets shown.
            pass
    return outline(view)


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


# ----- Pacal -----


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


TEXT_RENDERERS["pacal"] = render_pacal
TEXT_RENDERERS["pacal-solo"] = render_pacal_solo


# ----- Temple of Inscriptions -----


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
            f"seat {entry['player']} set {entry['cards']} card(s) + "
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
            f"  seat {seat}{you}: treasure {view['treasure'][seat]}, "
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


# ----- Mahjongg Pyramids -----


def mahjongg_grid_lines(tiles: list[dict[str, Any]]) -> list[str]:
    """The board from above: each tile 6 characters by 2 lines, higher layers painted last.

    Line one: the face (`##` face down), `*` when free, the layer digit; line two
    the tile id. A half step is 3 characters across or 1 line down.
    """
    if not tiles:
        return ["(no tiles left)"]
    width = (max(tile["x"] for tile in tiles) + 2) * 3 + 1
    height = max(tile["y"] for tile in tiles) + 2
    grid = [[" "] * width for _ in range(height)]
    for tile in sorted(tiles, key=lambda t: (t["z"], t["y"], t["x"])):
        face = str(tile.get("short") or "##")[:3] if tile.get("face") is not None else "##"
        free = "*" if tile.get("free") or tile.get("shifted") else " "
        top = f"{face:<3}{free}{tile['z']}|"
        bottom = f"{tile['id']:<5}|"
        left = tile["x"] * 3
        for dy, row in enumerate((top, bottom)):
            y = tile["y"] + dy
            for dx, char in enumerate(row):
                if y < height and left + dx < width:
                    grid[y][left + dx] = char
    return ["".join(row).rstrip() for row in grid]


def render_mahjongg(view: dict[str, Any]) -> str:
    lines = [
        f"{view['mode']} on {view['layout']}: tiles {view['tiles_left']}/{view['tiles_total']}, "
        f"bank {view['bank']} token(s), passes {view['passes']}",
    ]
    tokens = view["tokens"]
    for seat in range(view["players"]):
        seat_tokens = tokens if isinstance(tokens, int) else tokens[seat]
        lines.append(
            f"  seat {seat}: score {view['scores'][seat]}, tokens {seat_tokens}, "
            f"streak {view['streaks'][seat]}, doubled pairs left {view['doubling'][seat]}"
        )
    if "time_left" in view:
        lines.append(f"  time left {view['time_left']} s")
    lines.append("Each tile: face, * if free, layer; its id below. ## is face down.")
    lines.extend(mahjongg_grid_lines(view.get("tiles", [])))
    if view.get("hint"):
        lines.append(f"Hint: match {view['hint'][0]} {view['hint'][1]}")
    if view.get("sight_pairs"):
        lines.append("Ra Sight: " + ", ".join(f"{a}-{b}" for a, b in view["sight_pairs"]))
    if view.get("result"):
        result = view["result"]
        lines.append(f"Result: {result.get('reason')}, scores {result.get('scores')}")
    return "\n".join(lines)


TEXT_RENDERERS["temple"] = render_temple
TEXT_RENDERERS["mahjongg"] = render_mahjongg
