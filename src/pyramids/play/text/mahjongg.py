"""Mahjongg Pyramids views as plain text (the `text_renderer` companion)."""

from __future__ import annotations

from typing import Any


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
            f"  seat {seat + 1}: score {view['scores'][seat]}, tokens {seat_tokens}, "
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
